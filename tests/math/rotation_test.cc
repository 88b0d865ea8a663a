// Quaternion integration: the exponential map is exact for constant ω; the paper's
// linear Eq. 10 agrees with it to O(h²) per step.
#include "exactsim/math/rotation.h"

#include <gtest/gtest.h>

#include <cmath>

namespace exactsim {
namespace {

TEST(Rotation, ExponentialMapIsExactForConstantOmega) {
  const Vec3 omega(0.3, -1.2, 2.0);
  Quat q = Quat::Identity();
  const int n = 1000;
  const Real t = 1.7, h = t / n;
  for (int i = 0; i < n; ++i) q = integrate_exponential(q, omega, h);
  const Quat exact(Eigen::AngleAxisd(omega.norm() * t, omega.normalized()));
  EXPECT_LT(q.angularDistance(exact), 1e-12);
  EXPECT_NEAR(q.norm(), 1.0, 1e-15);
}

TEST(Rotation, LinearUpdateAgreesToSecondOrder) {
  const Vec3 omega(1.0, 2.0, -0.5);
  const Quat q0(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  const Real e1 =
      integrate_linear(q0, omega, 1e-2).angularDistance(integrate_exponential(q0, omega, 1e-2));
  const Real e2 =
      integrate_linear(q0, omega, 5e-3).angularDistance(integrate_exponential(q0, omega, 5e-3));
  // A local error of order h³ (one step) or better: halving h divides it by at least ~4.
  EXPECT_GT(e1 / e2, 3.9);
}

TEST(Rotation, WorldFrameOmegaRotatesWorldVectors) {
  // ω along world z turns the body's x axis towards world y, whatever the current attitude.
  const Quat q0(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()));
  const Quat q1 = integrate_exponential(q0, Vec3(0, 0, M_PI / 2), 1.0);
  const Vec3 before = q0 * Vec3::UnitZ();  // body z is world -x... rotated about world z by 90°
  const Vec3 after = q1 * Vec3::UnitZ();
  const Vec3 expected = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()) * before;
  EXPECT_LT((after - expected).norm(), 1e-14);
}

TEST(Rotation, SkewMatchesCross) {
  const Vec3 a(0.3, -2, 5), b(1, 4, -1);
  EXPECT_LT((skew(a) * b - a.cross(b)).norm(), 1e-15);
  EXPECT_LT((rotation2(0.7) * Vec2(1, 0) - Vec2(std::cos(0.7), std::sin(0.7))).norm(), 1e-16);
}

}  // namespace
}  // namespace exactsim
