// The joints' reactions in the last step (docs/joints.md "Reactions"): the impulse each joint
// applied over the user's step (Workspace::joint_impulses): its rows' multipliers λ times their
// Jacobians, summed over the step's parts (split sub-steps, the parts between located impacts,
// each with its rows at its own start) and the impacts' bilateral impulses.
#pragma once

#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

struct State;
struct Workspace;
struct World;

struct JointResult {
  int joint = -1;                // World::joints index
  int body_a = -1, body_b = -1;  // body_b: kWorldBody (−1) for the world frame
  Vec3 anchor = Vec3::Zero();    // m, world frame: the anchor as body A carries it, at the start
  // Over the step (divide by h for the mean force and torque), on body A; body B receives the
  // opposite. The angular impulse is about the anchor (2D: z only): zero for a pin, whose rows
  // hold points only; the weld's moment otherwise.
  Vec3 impulse = Vec3::Zero();          // N·s
  Vec3 angular_impulse = Vec3::Zero();  // N·m·s
};

// One entry per joint of the world (World::joints order); zero impulses for a joint that did not
// act (a body not yet present) or whose island's solve failed and flew free. `state` is the
// state after the step (its presence flags and dimension; the anchors are those of the
// configuration the step started from, Workspace::joint_impulses_q).
std::vector<JointResult> joint_results(const World& world, const State& state, const Workspace& ws);

}  // namespace exactsim
