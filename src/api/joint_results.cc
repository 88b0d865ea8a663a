#include "exactsim/api/joint_results.h"

#include "exactsim/stepping/joint.h"
#include "exactsim/stepping/step.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

std::vector<JointResult> joint_results(const World& world, const State& state,
                                       const Workspace& ws) {
  const int nj = static_cast<int>(world.joints.size());
  std::vector<JointResult> out(nj);
  State start = state;  // the configuration the rows were taken at
  if (ws.start_q.size() == state.q.size()) start.q = ws.start_q;
  std::vector<JointRow> rows;
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = world.joints[j];
    JointResult& r = out[j];
    r.joint = j;
    r.body_a = joint.body_a;
    r.body_b = joint.body_b;
    const Vec3 x = body_position(start, joint.body_a);
    r.anchor = x + body_orientation(start, joint.body_a) * joint.anchor_a;
    if (j >= static_cast<int>(ws.joint_impulses.size())) continue;  // before the first step
    rows.clear();
    joint_rows(joint, start, rows);
    // The generalised impulse Σ g_a λ on body A: its linear part, and its angular part about
    // A's centre of mass, moved to the anchor.
    Vec3 angular_com = Vec3::Zero();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Real lambda = ws.joint_impulses[j][static_cast<Eigen::Index>(k)];
      const Vec6& g = rows[k].g_a;
      if (world.dimension == 2) {
        r.impulse += lambda * Vec3(g[0], g[1], 0);
        angular_com.z() += lambda * g[2];
      } else {
        r.impulse += lambda * g.head<3>();
        angular_com += lambda * g.tail<3>();
      }
    }
    r.angular_impulse = angular_com - (r.anchor - x).cross(r.impulse);
  }
  return out;
}

}  // namespace exactsim
