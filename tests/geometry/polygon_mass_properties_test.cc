// Mass properties against closed forms (box, regular polygon, triangle) and a Monte-Carlo
// estimate; invariance under rigid motion; re-centring; bad density.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using ::testing::HasSubstr;

TEST(PolygonMassProperties, BoxMatchesClosedForm) {
  const Real w = 0.7, h = 0.3, rho = 2.5;
  const Vec2 offset(3.0, -1.25);
  const PolygonMassProperties m =
      polygon_mass_properties(translated(make_box({w, h}), offset), rho);
  EXPECT_NEAR(m.area, w * h, 1e-15);
  EXPECT_NEAR(m.mass, rho * w * h, 1e-15);
  EXPECT_NEAR((m.centroid - offset).norm(), 0, 1e-15);
  EXPECT_NEAR(m.inertia, rho * w * h * (w * w + h * h) / 12, 1e-15);
}

TEST(PolygonMassProperties, RegularPolygonMatchesClosedForm) {
  // Area (n/2) R² sin(2π/n); polar moment about the centre A (6R² − s²)/12, side s = 2R sin(π/n).
  const Real r = 1.3, rho = 0.8;
  for (int n = 3; n <= 12; ++n) {
    const PolygonMassProperties m = polygon_mass_properties(make_regular_polygon(n, r, 0.3), rho);
    const Real area = 0.5 * n * r * r * std::sin(2 * std::numbers::pi / n);
    const Real s = 2 * r * std::sin(std::numbers::pi / n);
    EXPECT_NEAR(m.area, area, 1e-14) << n;
    EXPECT_NEAR(m.centroid.norm(), 0, 1e-15) << n;
    EXPECT_NEAR(m.inertia, rho * area * (6 * r * r - s * s) / 12, 1e-14) << n;
  }
}

TEST(PolygonMassProperties, TriangleMatchesClosedForm) {
  // Centroid = vertex mean; polar moment about it = A (a² + b² + c²)/36.
  const std::vector<Vec2> t = {{0.2, -0.1}, {1.9, 0.4}, {0.7, 1.3}};
  const PolygonMassProperties m = polygon_mass_properties(polygon_from_points(t), 3.0);
  const Real area = 0.5 * cross2(t[1] - t[0], t[2] - t[0]);
  const Real sides2 =
      (t[1] - t[0]).squaredNorm() + (t[2] - t[1]).squaredNorm() + (t[0] - t[2]).squaredNorm();
  EXPECT_NEAR(m.area, area, 1e-15);
  EXPECT_NEAR((m.centroid - (t[0] + t[1] + t[2]) / 3).norm(), 0, 1e-15);
  EXPECT_NEAR(m.inertia, 3.0 * area * sides2 / 36, 1e-14);
}

TEST(PolygonMassProperties, RandomPolygonsAgreeWithMonteCarlo) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<Real> unit(0, 1);
  const int samples = 200000;
  for (int trial = 0; trial < 3; ++trial) {
    const ConvexPolygon p = random_convex_polygon(rng);
    const PolygonMassProperties m = polygon_mass_properties(p, 1.0);
    const Aabb2 box = bounding_box(p.vertices);
    const Vec2 ext = box.hi - box.lo;
    // Sample the bounding box; accumulate indicator, x and |x − c|² over inside points.
    Real hits = 0, j = 0, j2 = 0;
    Vec2 first = Vec2::Zero();
    for (int s = 0; s < samples; ++s) {
      const Vec2 x = box.lo + Vec2(unit(rng) * ext.x(), unit(rng) * ext.y());
      bool inside = true;
      for (int i = 0; i < p.size() && inside; ++i)
        inside = cross2(p.edge(i), x - p.vertices[i]) >= 0;
      if (!inside) continue;
      hits += 1;
      first += x;
      const Real r2 = (x - m.centroid).squaredNorm();
      j += r2;
      j2 += r2 * r2;
    }
    const Real box_area = ext.x() * ext.y();
    const Real frac = hits / samples;
    // Five standard errors of each estimator (binomial for the area).
    const Real se_area = box_area * std::sqrt(frac * (1 - frac) / samples);
    EXPECT_NEAR(box_area * frac, m.area, 5 * se_area);
    const Real spread = std::sqrt(m.inertia / m.area);  // radius of gyration
    EXPECT_NEAR((first / hits - m.centroid).norm(), 0, 5 * spread / std::sqrt(hits));
    const Real mean_y = j / samples, var_y = j2 / samples - mean_y * mean_y;
    EXPECT_NEAR(box_area * mean_y, m.inertia, 5 * box_area * std::sqrt(var_y / samples));
  }
}

TEST(PolygonMassProperties, InvariantUnderRigidMotion) {
  std::mt19937_64 rng(3);
  const ConvexPolygon p = random_convex_polygon(rng);
  const PolygonMassProperties m0 = polygon_mass_properties(p, 1.7);
  const Pose2 pose{Vec2(-4.0, 2.5), 2.1};
  WorldPolygon w;
  place(p, pose, w);
  const PolygonMassProperties m1 =
      polygon_mass_properties(polygon_from_points(w.vertices, HullInput::kRequireConvex), 1.7);
  EXPECT_NEAR(m1.area, m0.area, 1e-14);
  EXPECT_NEAR(m1.inertia, m0.inertia, 1e-15);
  EXPECT_NEAR((m1.centroid - pose.apply(m0.centroid)).norm(), 0, 1e-14);
}

TEST(PolygonMassProperties, RecentredPutsTheCentroidAtTheOrigin) {
  std::mt19937_64 rng(5);
  const ConvexPolygon p = random_convex_polygon(rng);
  const PolygonMassProperties m0 = polygon_mass_properties(p, 1.0);
  // The recipe's origin is the mean of the random points, not the centroid.
  EXPECT_GT(m0.centroid.norm(), 1e-6);
  const ConvexPolygon q = recentred(p);
  const PolygonMassProperties m1 = polygon_mass_properties(q, 1.0);
  EXPECT_NEAR(m1.centroid.norm(), 0, 1e-16);
  EXPECT_NEAR(m1.area, m0.area, 1e-16);
  EXPECT_NEAR(m1.inertia, m0.inertia, 1e-16);
  ASSERT_EQ(q.size(), p.size());
  for (int i = 0; i < p.size(); ++i) {
    EXPECT_NEAR((q.vertices[i] - p.vertices[i] + m0.centroid).norm(), 0, 1e-16);
    EXPECT_EQ(q.edge_normals[i], p.edge_normals[i]);
  }
}

TEST(PolygonMassProperties, SignedAreaOfALoop) {
  const std::vector<Vec2> ccw = {{0, 0}, {2, 0}, {2, 1}, {0, 1}};
  const std::vector<Vec2> cw(ccw.rbegin(), ccw.rend());
  EXPECT_EQ(polygon_area(ccw), 2.0);
  EXPECT_EQ(polygon_area(cw), -2.0);
  EXPECT_EQ(polygon_area(std::span<const Vec2>(ccw).first(2)), 0.0);
}

TEST(PolygonMassProperties, NonPositiveOrNonFiniteDensityIsRejected) {
  const ConvexPolygon box = make_box({1, 1});
  for (Real rho :
       {0.0, -1.0, std::numeric_limits<Real>::quiet_NaN(), std::numeric_limits<Real>::infinity()}) {
    try {
      polygon_mass_properties(box, rho);
      ADD_FAILURE() << "density " << rho << " accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("density must be positive and finite"));
    }
  }
}

}  // namespace
}  // namespace exactsim
