// Boxes, regular polygons and the paper's random convex polygons (docs/geometry2d.md "Random convex
// polygons"): shape, determinism for a seed, sliver rejection and statistics of the recipe.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using ::testing::HasSubstr;

Real max_interior_angle_deg(const ConvexPolygon& p) {
  Real worst = 0;
  for (int i = 0; i < p.size(); ++i) {
    const Vec2 in = p.edge(p.prev(i)), out = p.edge(i);
    const Real turn = std::atan2(cross2(in, out), in.dot(out));
    worst = std::max(worst, 180 - turn * 180 / std::numbers::pi);
  }
  return worst;
}

Real min_edge_length(const ConvexPolygon& p) {
  Real shortest = INFINITY;
  for (int i = 0; i < p.size(); ++i) shortest = std::min(shortest, p.edge(i).norm());
  return shortest;
}

TEST(PolygonShapes, BoxIsCentredCcwWithAxisNormals) {
  const ConvexPolygon b = make_box({2.0, 0.5});
  ASSERT_EQ(b.size(), 4);
  EXPECT_EQ(b.vertices[0], Vec2(-1, -0.25));
  EXPECT_EQ(b.vertices[2], Vec2(1, 0.25));
  const Vec2 normals[4] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.edge_normals[i], normals[i]);
  // The hull of its vertices is itself.
  EXPECT_EQ(polygon_from_points(b.vertices, HullInput::kRequireConvex).size(), 4);
}

TEST(PolygonShapes, RegularPolygonHasEqualSidesOnItsCircumcircle) {
  for (int n : {3, 5, 8, 17}) {
    const Real r = 0.4;
    const ConvexPolygon p = make_regular_polygon(n, r, 0.1);
    ASSERT_EQ(p.size(), n);
    EXPECT_NEAR(std::atan2(p.vertices[0].y(), p.vertices[0].x()), 0.1, 1e-15);
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(p.vertices[i].norm(), r, 1e-15);
      EXPECT_NEAR(p.edge(i).norm(), 2 * r * std::sin(std::numbers::pi / n), 1e-15);
      EXPECT_GT(cross2(p.edge(p.prev(i)), p.edge(i)), 0);
      // Outward normal of edge i points at the edge midpoint's direction.
      const Vec2 mid = 0.5 * (p.vertices[i] + p.vertices[p.next(i)]);
      EXPECT_NEAR((p.edge_normals[i] - mid.normalized()).norm(), 0, 1e-15);
    }
  }
}

TEST(PolygonShapes, BadShapeParametersAreRejected) {
  EXPECT_THROW(make_box({0, 1}), InputError);
  EXPECT_THROW(make_box({1, std::nan("")}), InputError);
  try {
    make_box({-1, 2});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("side lengths must be positive and finite, got (-1, 2)"));
  }
  try {
    make_regular_polygon(2, 1.0);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("at least 3 sides, got 2"));
  }
  try {
    make_regular_polygon(6, -0.5);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("circumradius must be positive and finite (got -0.5)"));
  }
}

TEST(PolygonShapes, RandomPolygonFollowsTheRecipeAndIsDeterministic) {
  std::mt19937_64 a(42), b(42), c(43);
  const ConvexPolygon pa = random_convex_polygon(a);
  const ConvexPolygon pb = random_convex_polygon(b);
  const ConvexPolygon pc = random_convex_polygon(c);
  EXPECT_EQ(pa.vertices, pb.vertices);
  EXPECT_EQ(pa.edge_normals, pb.edge_normals);
  EXPECT_NE(pa.vertices, pc.vertices);
  // The recipe spelled out: 10 points uniform in [0,1]² (53-bit variates), minus their mean,
  // hull, times 0.25.
  std::mt19937_64 r(42);
  std::vector<Vec2> pts(10);
  Vec2 mean = Vec2::Zero();
  for (Vec2& p : pts) {
    p.x() = static_cast<Real>(r() >> 11) * 0x1.0p-53;
    p.y() = static_cast<Real>(r() >> 11) * 0x1.0p-53;
    mean += p;
  }
  for (Vec2& p : pts) p -= mean / 10;
  ConvexPolygon expected = polygon_from_points(pts);
  ASSERT_EQ(expected.size(), pa.size()) << "first draw should not be a sliver for seed 42";
  for (int i = 0; i < pa.size(); ++i) EXPECT_EQ(pa.vertices[i], 0.25 * expected.vertices[i]);
}

TEST(PolygonShapes, RandomPolygonStatisticsMatchTheArchivedSets) {
  // The archived 250 bodies have 4–8 vertices (mean 5.95) and mean area 0.0273.
  std::mt19937_64 rng(1);
  const int draws = 2000;
  Real vertices = 0, area = 0;
  int below4 = 0, above8 = 0;
  for (int k = 0; k < draws; ++k) {
    const ConvexPolygon p = random_convex_polygon(rng);
    EXPECT_GE(p.size(), 3);
    EXPECT_LE(p.size(), 10);
    below4 += p.size() < 4;
    above8 += p.size() > 8;
    vertices += p.size();
    area += polygon_mass_properties(p, 1.0).area;
    // The origin (mean of the points, a convex combination of them) lies inside.
    for (int i = 0; i < p.size(); ++i) EXPECT_LT(p.edge_normals[i].dot(-p.vertices[i]), 0);
    EXPECT_LE(max_interior_angle_deg(p), 179);
  }
  EXPECT_LT(below4 + above8, draws / 20);
  EXPECT_NEAR(vertices / draws, 5.95, 0.15);
  EXPECT_NEAR(area / draws, 0.0273, 0.0015);
}

TEST(PolygonShapes, SliversAreRejectedByRedrawing) {
  // Without limits, short edges and flat corners do occur ...
  std::mt19937_64 rng(9);
  RandomPolygonOptions loose;
  loose.max_interior_angle_deg = 180;
  int short_edges = 0, flat_corners = 0;
  for (int k = 0; k < 300; ++k) {
    const ConvexPolygon p = random_convex_polygon(rng, loose);
    short_edges += min_edge_length(p) < 0.03;
    flat_corners += max_interior_angle_deg(p) > 165;
  }
  EXPECT_GT(short_edges, 0);
  EXPECT_GT(flat_corners, 0);
  // ... and the limits remove them.
  RandomPolygonOptions strict;
  strict.min_edge_length = 0.03;
  strict.max_interior_angle_deg = 165;
  for (int k = 0; k < 300; ++k) {
    const ConvexPolygon p = random_convex_polygon(rng, strict);
    EXPECT_GE(min_edge_length(p), 0.03);
    EXPECT_LE(max_interior_angle_deg(p), 165);
  }
}

TEST(PolygonShapes, ImpossibleOrInvalidRandomOptionsFail) {
  std::mt19937_64 rng(2);
  RandomPolygonOptions impossible;
  impossible.max_interior_angle_deg = 55;  // every polygon has an angle of at least 60°
  impossible.max_attempts = 20;
  try {
    random_convex_polygon(rng, impossible);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no polygon met the sliver limits"));
    EXPECT_THAT(e.what(), HasSubstr("in 20 attempts"));
  }
  RandomPolygonOptions bad;
  bad.points = 2;
  EXPECT_THROW(random_convex_polygon(rng, bad), InputError);
  bad = {};
  bad.scale = -1;
  try {
    random_convex_polygon(rng, bad);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("invalid options"));
    EXPECT_THAT(e.what(), HasSubstr("scale=-1"));
  }
}

}  // namespace
}  // namespace exactsim
