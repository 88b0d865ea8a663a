// Joints: bilateral constraints between two bodies, or a body and the world frame (docs/joints.md).
// Each joint contributes rows to the step's MLCP with free multipliers λ (no sign, no
// complementarity):
//
//   Jᵀν + φ/τ = 0,
//
// φ the joint's position error at the start of the step, J its rows' velocity Jacobian and τ the
// step h (the user's step for a part of one, ConstraintSet::joint_time), so that the linearised
// error after a whole step is zero (the same first-order prediction as a contact's ψ/h). The
// multipliers are certified with the contact unknowns: the rows must hold to the LCP tolerance.
#pragma once

#include <string>
#include <vector>

#include "exactsim/dynamics/body.h"
#include "exactsim/math/types.h"

namespace exactsim {

enum class JointType {
  kRevolute,  // 2D: a pin (2 rows); 3D: a hinge about an axis (5 rows)
  kBall,      // 3D: a spherical joint, the anchor points held together (3 rows)
  kFixed,     // welded: anchor points and relative orientation held (2D 3 rows, 3D 6)
};

const char* to_string(JointType t);
// The type to_string names ("revolute", "ball", "fixed"); InputError naming the choices otherwise.
JointType joint_type(const std::string& name);

// The world frame as a joint's second body.
inline constexpr int kWorldBody = -1;

struct Joint {
  std::string name;
  JointType type = JointType::kRevolute;
  int body_a = -1;
  int body_b = kWorldBody;  // kWorldBody: the anchor is fixed in the world frame
  // The anchor point in body a's frame and in body b's frame (the world frame for kWorldBody);
  // both are where the joint was placed, so the joint starts without error.
  Vec3 anchor_a = Vec3::Zero(), anchor_b = Vec3::Zero();
  // 3D revolute: the hinge axis (unit) in each body's frame.
  Vec3 axis_a = Vec3::UnitZ(), axis_b = Vec3::UnitZ();
  // kFixed: the orientation of body b in body a's frame at placement (2D: about z).
  Quat relative = Quat::Identity();
  // Where it was placed (place_joint): the anchor and axis in the world frame, what a scene file
  // holds, so that writing and reading a scene gives the same joint bit for bit.
  Vec3 placed_anchor = Vec3::Zero(), placed_axis = Vec3::UnitZ();
};

// The rows of a joint: 2D revolute 2, fixed 3; 3D ball 3, revolute 5, fixed 6.
int joint_row_count(const Joint& j, int dimension);

// Whether both of the joint's bodies are present in s (the world always is): a joint acts once
// both have spawned.
bool joint_present(const Joint& j, const State& s);

// Places a joint at a world point (and, 3D revolute, a world axis) in state s: fills anchor_a,
// anchor_b, axis_a, axis_b and relative from the bodies' poses. b may be kWorldBody.
Joint place_joint(const State& s, JointType type, int a, int b, const Vec3& world_anchor,
                  const Vec3& world_axis = Vec3::UnitZ());

// One row of a joint in state s: its velocity Jacobian blocks for body a and body b (the rate of
// the error is g_aᵀν_a + g_bᵀν_b) and the error φ (m or rad).
struct JointRow {
  Vec6 g_a = Vec6::Zero(), g_b = Vec6::Zero();
  Real error = 0;
};

// The joint's rows in s (joint_row_count of them), appended to `rows`.
void joint_rows(const Joint& j, const State& s, std::vector<JointRow>& rows);

// What a joint's rows put on its body A: the impulse (N·s) and the angular impulse about the
// world origin (N·m·s; 2D: z only), so that the parts of a step add up (api/joint_results.h).
struct JointImpulse {
  Vec3 linear = Vec3::Zero();
  Vec3 angular = Vec3::Zero();
};

// Adds Σ_k λ_k g_a,k of the joint's rows (taken in s) to `out`; lambda holds one multiplier per
// row.
void add_joint_impulse(const Joint& j, const State& s, const std::vector<JointRow>& rows,
                       const Eigen::Ref<const VecX>& lambda, JointImpulse& out);

// The largest position error of the joint in s: |p_b − p_a| (m) and the orientation error (rad)
// of revolute/fixed joints; what the manual's residual tables report.
struct JointError {
  Real position = 0;  // m
  Real angle = 0;     // rad
};
JointError joint_error(const Joint& j, const State& s);

}  // namespace exactsim
