// Mass blocks, their closed-form inverses, and the external generalized impulse.
#include "exactsim/dynamics/mass_matrix.h"

#include <gtest/gtest.h>

#include "exactsim/dynamics/integrate.h"

namespace exactsim {
namespace {

State one_body_state(int dim) {
  State s;
  s.dimension = dim;
  s.q = VecX::Zero(config_size(dim));
  s.v = VecX::Zero(velocity_size(dim));
  s.present = {1};
  if (dim == 3) {
    const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
    s.q.tail<4>() << q.w(), q.x(), q.y(), q.z();
    s.v.tail<3>() << 0.3, -1.1, 2.0;
  } else {
    s.q[2] = 0.4;
  }
  return s;
}

Body asymmetric_body() {
  Body b;
  b.mass = 2.5;
  b.planar_inertia = 0.3;
  b.inertia << 0.4, 0.05, 0.0, 0.05, 0.7, 0.02, 0.0, 0.02, 1.1;
  return b;
}

TEST(MassMatrix, InverseIsTheInverse) {
  for (int dim : {2, 3}) {
    const State s = one_body_state(dim);
    const Body b = asymmetric_body();
    const BodyMatrix m = mass_block(b, s, 0), w = inverse_mass_block(b, s, 0);
    EXPECT_LT((m * w - BodyMatrix::Identity(m.rows(), m.cols())).norm(), 1e-13) << dim;
    EXPECT_LT((m - m.transpose()).norm(), 1e-14);
  }
}

TEST(MassMatrix, WorldInertiaRotatesWithTheBody) {
  const State s = one_body_state(3);
  const Body b = asymmetric_body();
  const Mat3 r = body_orientation(s, 0).toRotationMatrix();
  // Angular momentum of a world ω equals R J_body (Rᵀ ω).
  const Vec3 omega(0.2, 0.9, -0.4);
  const Vec3 expected = r * (b.inertia * (r.transpose() * omega));
  EXPECT_LT((mass_block(b, s, 0).bottomRightCorner(3, 3) * omega - expected).norm(), 1e-14);
}

TEST(MassMatrix, GyroscopicImpulseDoesNoWork) {
  // The implicit-midpoint gyroscopic impulse changes the direction of ω, never the kinetic
  // energy or |L| (dynamics/gyroscopic.h): ν⁺ = ν + M⁻¹(hF) keeps ½ωᵀJω and |J_w ω| to 1e-13.
  State s = one_body_state(3);
  const Body b = asymmetric_body();
  const Real h = 0.05;
  const BodyVector impulse = external_impulse(b, s, 0, h, Vec3(0, 0, -9.81));
  EXPECT_DOUBLE_EQ(impulse[2], -9.81 * 2.5 * h);
  EXPECT_GT(impulse.tail<3>().norm(), 1e-4);  // non-zero for an asymmetric body
  const Mat3 jw = mass_block(b, s, 0).bottomRightCorner(3, 3);
  const Vec3 w0 = s.v.tail<3>();
  const Vec3 w1 = w0 + jw.inverse() * impulse.tail<3>();
  EXPECT_NEAR(w1.dot(jw * w1), w0.dot(jw * w0), 1e-13 * w0.dot(jw * w0));
  EXPECT_NEAR((jw * w1).norm(), (jw * w0).norm(), 1e-13 * (jw * w0).norm());
}

TEST(Integrate, FreeFallMatchesSemiImplicitEulerClosedForm) {
  // Semi-implicit Euler: v_n = v0 + n h g, x_n = x0 + v0 t + ½ g t² + ½ g h t (t = n h).
  for (int dim : {2, 3}) {
    State s = one_body_state(dim);
    s.v.setZero();
    s.v[0] = 1.5;
    s.v[1] = 2.0;
    const Vec3 g = dim == 2 ? Vec3(0, -9.81, 0) : Vec3(0, 0, -9.81);
    const Body b = asymmetric_body();
    const Real h = 0.01;
    const int n = 137;
    for (int k = 0; k < n; ++k) {
      integrate_free_velocity(b, s, 0, h, g);
      integrate_position(s, 0, h, RotationUpdate::kExponential);
    }
    const Real t = n * h;
    const Vec3 v0 = Vec3(1.5, 2.0, 0.0);
    const Vec3 x = v0 * t + 0.5 * g * t * t + 0.5 * g * h * t;
    EXPECT_LT((body_position(s, 0) - x).norm(), 1e-12) << dim;
  }
}

}  // namespace
}  // namespace exactsim
