// Least-squares load spreading (docs/plus.md, PLUS paper §3a): a square plate landing flat on
// n × n symmetric contacts is statically indeterminate; PLUS must give equal impulses to the
// symmetric contacts to round-off, with and without friction.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "exactsim/impact/plus.h"
#include "exactsim/math/rotation.h"

namespace exactsim {
namespace {

// Rows (t1 = x, t2 = y, n = z) of points p_k (relative to the centre of mass) on one free body:
// d·v + (p × d)·ω.
ImpactProblem plate_problem(int per_side, Real mu, RestitutionLaw law, const Vec3& v,
                            const Vec3& omega) {
  ImpactProblem p;
  std::vector<Vec3> points;
  for (int i = 0; i < per_side; ++i)
    for (int j = 0; j < per_side; ++j)
      points.emplace_back(-0.5 + i / (per_side - 1.0), -0.5 + j / (per_side - 1.0), -0.05);
  const int n = 3 * static_cast<int>(points.size());
  MatX G = MatX::Zero(n, 6);
  for (size_t k = 0; k < points.size(); ++k) {
    for (int d = 0; d < 3; ++d) {
      const Vec3 dir = Vec3::Unit(d);
      G.block<1, 3>(3 * k + d, 0) = dir.transpose();
      G.block<1, 3>(3 * k + d, 3) = points[k].cross(dir).transpose();
    }
    p.contacts.push_back({mu, law});
  }
  const Real m = 2.0;
  const Vec3 inertia(m * (1.0 + 0.01) / 12, m * (1.0 + 0.01) / 12, m * 2.0 / 12);
  VecX minv(6);
  minv << 1 / m, 1 / m, 1 / m, 1 / inertia(0), 1 / inertia(1), 1 / inertia(2);
  p.delassus = G * minv.asDiagonal() * G.transpose();
  Vec6 u;
  u << v, omega;
  p.velocity = G * u;
  return p;
}

void expect_equal_normals(const ImpactResult& r, int contacts) {
  const Real ref = r.impulse(2);
  ASSERT_GT(ref, 0.0);
  for (int k = 1; k < contacts; ++k) EXPECT_NEAR(r.impulse(3 * k + 2), ref, 1e-12 * ref) << k;
}

TEST(LoadSpreading, FrictionlessPlateOnFourCornersSharesEqually) {
  const ImpactResult r = solve_plus(
      plate_problem(2, 0.0, RestitutionLaw::constant(0.5), Vec3(0, 0, -3), Vec3::Zero()));
  expect_equal_normals(r, 4);
  EXPECT_NEAR(r.impulse.sum(), 2.0 * 1.5 * 3.0, 1e-12);  // m (1 + e) |v|
}

TEST(LoadSpreading, SlidingPlateOnFourCornersSharesEquallyPerSide) {
  // Sliding along x: the friction moment loads the leading and trailing edges differently, but
  // the y-mirror symmetry must hold exactly (corners (i, 0) and (i, 1) equal; y impulses zero).
  const ImpactResult r = solve_plus(
      plate_problem(2, 0.3, RestitutionLaw{0.4, 0.01, 0.1}, Vec3(-2, 0, -5), Vec3::Zero()));
  for (int i = 0; i < 2; ++i) {
    const int a = 2 * i, b = 2 * i + 1;  // same x, opposite y
    for (int d : {0, 2})
      EXPECT_NEAR(r.impulse(3 * a + d), r.impulse(3 * b + d), 1e-12 * r.impulse.norm());
    EXPECT_NEAR(r.impulse(3 * a + 1), -r.impulse(3 * b + 1), 1e-12 * r.impulse.norm());
  }
}

TEST(LoadSpreading, StraightDropWithFrictionOnGridsSharesEqually) {
  for (int per_side : {2, 4, 8}) {
    const int n = per_side * per_side;
    const ImpactResult r = solve_plus(
        plate_problem(per_side, 0.5, RestitutionLaw::constant(0.3), Vec3(0, 0, -4), Vec3::Zero()));
    expect_equal_normals(r, n);
    for (int k = 0; k < n; ++k) EXPECT_NEAR(r.velocity(3 * k + 2), 0.3 * 4.0, 1e-12);  // e |v|
    for (int k = 0; k < n; ++k) EXPECT_NEAR(r.impulse.segment<2>(3 * k).norm(), 0.0, 1e-12);
  }
}

TEST(LoadSpreading, SixteenContactsWithSlipAndSpinKeepTheFourFoldSymmetry) {
  // Spin about the vertical axis: the problem is invariant under a 90° turn of the plate, so
  // each ring of the 4 × 4 grid gets equal normal impulse.
  const ImpactResult r = solve_plus(
      plate_problem(4, 0.4, RestitutionLaw::constant(0.5), Vec3(0, 0, -3), Vec3(0, 0, 4.0)));
  auto normal = [&](int i, int j) { return r.impulse(3 * (4 * i + j) + 2); };
  const Real corner = normal(0, 0), inner = normal(1, 1);
  const Real tol = 1e-10 * r.impulse.norm();
  EXPECT_NEAR(normal(0, 3), corner, tol);
  EXPECT_NEAR(normal(3, 0), corner, tol);
  EXPECT_NEAR(normal(3, 3), corner, tol);
  EXPECT_NEAR(normal(2, 2), inner, tol);
  EXPECT_NEAR(normal(1, 2), inner, tol);
  EXPECT_NEAR(normal(0, 1), normal(1, 0), tol);
  EXPECT_NEAR(normal(0, 1), normal(3, 2), tol);
}

}  // namespace
}  // namespace exactsim
