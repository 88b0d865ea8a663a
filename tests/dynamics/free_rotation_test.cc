// Flight between impacts (dynamics/free_rotation.h, integrate_flight's exact flight;
// docs/dynamics.md "Flight between impacts"): the torque-free spin of a symmetric top against its
// closed form, and a brick's invariants through the intermediate-axis flip.
#include "exactsim/dynamics/free_rotation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/dynamics/integrate.h"

namespace exactsim {
namespace {

State at_rest_one_body() {
  State s;
  s.dimension = 3;
  s.q = VecX::Zero(7);
  s.q[3] = 1;
  s.v = VecX::Zero(6);
  s.present = {1};
  return s;
}

Quat rotation_about(const Vec3& omega, Real t) {
  const Real a = omega.norm() * t;
  return a == 0 ? Quat::Identity() : Quat(Eigen::AngleAxisd(a, omega.normalized()));
}

// A symmetric top (I₁ = I₂ ≠ I₃) turns as R(t) = exp(t [L/I₁]×) R₀ exp(t ψ̇ [e₃]×) with
// ψ̇ = ω₃ (I₁ − I₃)/I₁ (body ω₃ constant), so ω(t) = L/I₁ + ψ̇ R(t) e₃.
TEST(FreeRotation, ASymmetricTopFollowsItsClosedForm) {
  Body top;
  top.mass = 2.0;
  top.inertia = Vec3(0.01, 0.01, 0.025).asDiagonal();
  const Quat r0 = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  const Vec3 omega_body(3.0, -1.0, 5.0);
  const Vec3 momentum = r0 * (top.inertia * omega_body);
  const Real i1 = top.inertia(0, 0), spin = omega_body.z() * (i1 - top.inertia(2, 2)) / i1;
  const Real h = 0.01;
  const int steps = 1000;
  for (const bool exact : {true, false}) {
    SCOPED_TRACE(exact ? "exact flight" : "semi-implicit");
    State s = at_rest_one_body();
    set_body_pose(s, 0, Vec3::Zero(), r0);
    set_body_velocity(s, 0, Vec3(1, 0, 2), r0 * omega_body);
    for (int k = 0; k < steps; ++k)
      integrate_flight(top, s, 0, h, Vec3(0, 0, -9.81), RotationUpdate::kExponential, exact);
    const Real t = steps * h;
    const Quat r = rotation_about(momentum / i1, t) * r0 * rotation_about(spin * Vec3::UnitZ(), t);
    const Vec3 omega = momentum / i1 + spin * (r * Vec3::UnitZ());
    const Real turn = body_orientation(s, 0).angularDistance(r);
    const Real off = (body_angular_velocity(s, 0) - omega).norm();
    if (exact) {
      EXPECT_LT((body_position(s, 0) - Vec3(t, 0, 2 * t - 0.5 * 9.81 * t * t)).norm(), 1e-11);
      EXPECT_LT(turn, 1e-10);  // measured 1.9e-12 rad and 1.0e-11 rad/s after 10 s (59 rad)
      EXPECT_LT(off, 1e-10);
    } else {  // first order in the direction of L: 1.0e-2 rad and 0.17 rad/s off after 10 s
      EXPECT_GT(turn, 1e-3);
      EXPECT_GT(off, 1e-3);
    }
  }
}

// A brick spun near its intermediate axis flips; its kinetic energy is kept to round-off (each
// step's ω is scaled back to it; measured 4.7e-13 relative after 4,000 steps) and L to the RK4
// sub-steps' accuracy.
TEST(FreeRotation, ABrickKeepsItsInvariantsThroughTheIntermediateAxisFlip) {
  Body brick;
  brick.mass = 6.0;
  brick.inertia = Vec3(0.065, 0.05, 0.025).asDiagonal();
  State s = at_rest_one_body();
  set_body_velocity(s, 0, Vec3::Zero(), Vec3(0.01, 8.0, 0.02));
  auto energy = [&] {
    const Vec3 w = body_angular_velocity(s, 0);
    const Mat3 r = body_orientation(s, 0).toRotationMatrix();
    return 0.5 * w.dot(r * brick.inertia * r.transpose() * w);
  };
  auto momentum = [&] {
    const Mat3 r = body_orientation(s, 0).toRotationMatrix();
    return Vec3(r * brick.inertia * r.transpose() * body_angular_velocity(s, 0));
  };
  const Real e0 = energy();
  const Vec3 l0 = momentum();
  Real lowest = 1.0;  // the body-frame y component of ω / |ω|: −1 after a flip
  for (int k = 0; k < 4000; ++k) {
    integrate_flight(brick, s, 0, 1e-3, Vec3::Zero(), RotationUpdate::kExponential, true);
    const Vec3 body = body_orientation(s, 0).conjugate() * body_angular_velocity(s, 0);
    lowest = std::min(lowest, body.y() / body.norm());
  }
  EXPECT_LT(lowest, -0.9);  // it flipped
  EXPECT_NEAR(energy(), e0, 1e-12 * e0);
  EXPECT_LT((momentum() - l0).norm(), 1e-10 * l0.norm());
}

// Past its sub-steps (|ω| t > 10 rad) the rotation is left to the caller's update.
TEST(FreeRotation, ASpinBeyondItsSubstepsIsRefused) {
  const Mat3 inertia = Vec3(1, 2, 3).asDiagonal();
  Quat q = Quat::Identity();
  Vec3 omega(1001.0, 0, 0);
  EXPECT_FALSE(torque_free_rotation(inertia, q, omega, 0.01));
  EXPECT_EQ(omega, Vec3(1001.0, 0, 0));
  EXPECT_TRUE(torque_free_rotation(inertia, q, omega, 0.0099));
}

}  // namespace
}  // namespace exactsim
