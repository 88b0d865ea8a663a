// World placement (pose → world vertices, normals, AABB), poses, and AABB overlap rules.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "exactsim/geometry/polygon.h"

namespace exactsim {
namespace {

TEST(PolygonPlacement, WorldVerticesNormalsAndBoxFollowThePose) {
  std::mt19937_64 rng(17);
  const ConvexPolygon p = random_convex_polygon(rng);
  const Pose2 pose{Vec2(0.4, -1.1), 2.3};
  WorldPolygon w;
  place(p, pose, w);
  ASSERT_EQ(w.vertices.size(), p.vertices.size());
  Vec2 lo = w.vertices[0], hi = w.vertices[0];
  for (int i = 0; i < p.size(); ++i) {
    EXPECT_NEAR((w.vertices[i] - pose.apply(p.vertices[i])).norm(), 0, 1e-15);
    EXPECT_NEAR((pose.inverse_apply(w.vertices[i]) - p.vertices[i]).norm(), 0, 1e-15);
    // The rotated normal is the outward normal of the world edge.
    const Vec2 e = w.vertices[(i + 1) % p.size()] - w.vertices[i];
    EXPECT_NEAR((w.edge_normals[i] - outward_normal(e)).norm(), 0, 1e-14);
    lo = lo.cwiseMin(w.vertices[i]);
    hi = hi.cwiseMax(w.vertices[i]);
  }
  EXPECT_EQ(w.aabb.lo, lo);
  EXPECT_EQ(w.aabb.hi, hi);
}

TEST(PolygonPlacement, ReusesStorageOnceSized) {
  const ConvexPolygon big = make_regular_polygon(8, 1.0), small = make_box({1, 1});
  WorldPolygon w;
  place(big, Pose2{}, w);
  const Vec2* vertices = w.vertices.data();
  const Vec2* normals = w.edge_normals.data();
  for (int k = 0; k < 10; ++k) {
    place(k % 2 ? small : big, Pose2{Vec2(k, 0), 0.1 * k}, w);
    EXPECT_EQ(w.vertices.data(), vertices);
    EXPECT_EQ(w.edge_normals.data(), normals);
  }
  EXPECT_EQ(w.vertices.size(), 4u);
}

TEST(Pose2, RotatesCounterClockwiseAboutItsOrigin) {
  const Pose2 pose{Vec2(1, 2), std::numbers::pi / 2};
  EXPECT_NEAR((pose.rotate(Vec2(1, 0)) - Vec2(0, 1)).norm(), 0, 1e-16);
  EXPECT_NEAR((pose.apply(Vec2(1, 0)) - Vec2(1, 3)).norm(), 0, 1e-15);
  EXPECT_NEAR((pose.inverse_apply(Vec2(1, 3)) - Vec2(1, 0)).norm(), 0, 1e-15);
}

TEST(Aabb, TouchingBoxesOverlapAndInflationGrowsEverySide) {
  const Aabb2 a{Vec2(0, 0), Vec2(1, 1)};
  EXPECT_TRUE(a.overlaps(Aabb2{Vec2(1, 0.5), Vec2(2, 2)}));  // shared edge
  EXPECT_TRUE(a.overlaps(Aabb2{Vec2(1, 1), Vec2(2, 2)}));    // shared corner
  EXPECT_FALSE(a.overlaps(Aabb2{Vec2(1.01, 0), Vec2(2, 1)}));
  EXPECT_FALSE(a.overlaps(Aabb2{Vec2(0, -2), Vec2(1, -0.5)}));
  EXPECT_TRUE(a.inflated(0.02).overlaps(Aabb2{Vec2(1.01, 0), Vec2(2, 1)}));
  const Aabb2 g = a.inflated(0.5);
  EXPECT_EQ(g.lo, Vec2(-0.5, -0.5));
  EXPECT_EQ(g.hi, Vec2(1.5, 1.5));

  const Aabb3 b{Vec3(0, 0, 0), Vec3(1, 1, 1)};
  EXPECT_TRUE(b.overlaps(Aabb3{Vec3(1, 1, 1), Vec3(2, 2, 2)}));
  EXPECT_FALSE(b.overlaps(Aabb3{Vec3(0, 0, 1.5), Vec3(1, 1, 2)}));
  EXPECT_TRUE(b.inflated(0.5).overlaps(Aabb3{Vec3(0, 0, 1.5), Vec3(1, 1, 2)}));
  const std::vector<Vec3> pts = {{1, -2, 3}, {-1, 0, 5}};
  const Aabb3 box = bounding_box(pts);
  EXPECT_EQ(box.lo, Vec3(-1, -2, 3));
  EXPECT_EQ(box.hi, Vec3(1, 0, 5));
}

}  // namespace
}  // namespace exactsim
