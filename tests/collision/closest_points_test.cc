// Feature distances against brute-force sampling and closed forms.
#include "exactsim/collision/closest_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace exactsim {
namespace {

TEST(ClosestPoints, PointSegmentClosedForms) {
  EXPECT_DOUBLE_EQ(point_segment_distance(Vec2(0.5, 2), Vec2(0, 0), Vec2(1, 0)), 2.0);
  EXPECT_DOUBLE_EQ(point_segment_distance(Vec2(4, 4), Vec2(0, 0), Vec2(1, 0)), 5.0);
  EXPECT_DOUBLE_EQ(point_segment_distance(Vec2(-3, 4), Vec2(0, 0), Vec2(1, 0)), 5.0);
  EXPECT_DOUBLE_EQ(point_segment_distance(Vec3(1, 1, 1), Vec3(0, 0, 0), Vec3(0, 0, 0)),
                   std::sqrt(3.0));
  EXPECT_DOUBLE_EQ(closest_segment_parameter(Vec2(0.25, 9), Vec2(0, 0), Vec2(1, 0)), 0.25);
}

TEST(ClosestPoints, SegmentSegmentAgainstSampling) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 a0(u(rng), u(rng), u(rng)), a1(u(rng), u(rng), u(rng));
    const Vec3 b0(u(rng), u(rng), u(rng)), b1(u(rng), u(rng), u(rng));
    const SegmentClosestPoints r = closest_points_segments(a0, a1, b0, b1);
    ASSERT_GE(r.s, 0);
    ASSERT_LE(r.s, 1);
    ASSERT_GE(r.t, 0);
    ASSERT_LE(r.t, 1);
    EXPECT_LT((r.p_a - (a0 + r.s * (a1 - a0))).norm(), 1e-15);
    EXPECT_NEAR(r.distance, (r.p_b - r.p_a).norm(), 1e-15);
    // Optimality: no sampled pair is closer; the optimum of each point against the other
    // segment is attained (first-order conditions of the convex problem).
    Real best = 1e9;
    const int n = 60;
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; j <= n; ++j) {
        best = std::min(
            best, ((a0 + (i / Real(n)) * (a1 - a0)) - (b0 + (j / Real(n)) * (b1 - b0))).norm());
      }
    }
    EXPECT_LE(r.distance, best + 1e-12);
    EXPECT_NEAR(r.distance, point_segment_distance(r.p_a, b0, b1), 1e-12);
    EXPECT_NEAR(r.distance, point_segment_distance(r.p_b, a0, a1), 1e-12);
  }
}

TEST(ClosestPoints, ParallelAndDegenerateSegmentsGiveFiniteAnswers) {
  const auto r =
      closest_points_segments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, 1, 0), Vec3(2, 1, 0));
  EXPECT_TRUE(r.p_a.allFinite() && r.p_b.allFinite());
  EXPECT_DOUBLE_EQ(r.distance, 1.0);
  const auto anti =
      closest_points_segments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(3, 0, 2), Vec3(2, 0, 2));
  EXPECT_DOUBLE_EQ(anti.distance, std::sqrt(5.0));
  const auto point =
      closest_points_segments(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(1, -1, 1), Vec3(1, 1, 1));
  EXPECT_DOUBLE_EQ(point.distance, std::sqrt(2.0));
  const auto both =
      closest_points_segments(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 3, 4), Vec3(0, 3, 4));
  EXPECT_DOUBLE_EQ(both.distance, 5.0);
}

TEST(ClosestPoints, PointFaceInsideOutsideAndCorner) {
  // Unit square face in z = 0, CCW seen from +z.
  const std::vector<Vec3> v{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)};
  const std::vector<int> face{0, 1, 2, 3};
  const Vec3 n(0, 0, 1);
  EXPECT_DOUBLE_EQ(point_face_distance(Vec3(0.3, 0.6, 0.2), v, face, n), 0.2);
  EXPECT_DOUBLE_EQ(point_face_distance(Vec3(0.3, 0.6, -0.2), v, face, n), 0.2);
  EXPECT_DOUBLE_EQ(point_face_distance(Vec3(1.3, 0.5, 0.4), v, face, n), 0.5);
  EXPECT_DOUBLE_EQ(point_face_distance(Vec3(-2, -2, 0), v, face, n), std::sqrt(8.0));
  // Brute force over a fine sampling of the square.
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<Real> u(-1, 2);
  for (int k = 0; k < 50; ++k) {
    const Vec3 p(u(rng), u(rng), u(rng) - 0.5);
    Real best = 1e9;
    for (int i = 0; i <= 100; ++i) {
      for (int j = 0; j <= 100; ++j)
        best = std::min(best, (p - Vec3(i / 100.0, j / 100.0, 0)).norm());
    }
    const Real d = point_face_distance(p, v, face, n);
    EXPECT_LE(d, best + 1e-12);
    EXPECT_GT(d, best - 0.01);
  }
}

}  // namespace
}  // namespace exactsim
