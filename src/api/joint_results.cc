#include "exactsim/api/joint_results.h"

#include "exactsim/stepping/joint.h"
#include "exactsim/stepping/step.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

std::vector<JointResult> joint_results(const World& world, const State& state,
                                       const Workspace& ws) {
  const int nj = static_cast<int>(world.joints.size());
  std::vector<JointResult> out(nj);
  State start = state;  // the configuration the step started from
  if (ws.joint_impulses_q.size() == state.q.size()) start.q = ws.joint_impulses_q;
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = world.joints[j];
    JointResult& r = out[j];
    r.joint = j;
    r.body_a = joint.body_a;
    r.body_b = joint.body_b;
    r.anchor =
        body_position(start, joint.body_a) + body_orientation(start, joint.body_a) * joint.anchor_a;
    if (j >= static_cast<int>(ws.joint_impulses.size())) continue;  // before the first step
    const JointImpulse& p = ws.joint_impulses[j];
    r.impulse = p.linear;
    r.angular_impulse = p.angular - r.anchor.cross(p.linear);  // about the origin → the anchor
  }
  return out;
}

}  // namespace exactsim
