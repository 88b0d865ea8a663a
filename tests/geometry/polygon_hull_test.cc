// polygon_from_points: the hull is CCW, strictly convex, encloses every input point, drops
// collinear points with a size-relative tolerance, and bad input fails with a named reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using ::testing::HasSubstr;

// Checks the ConvexPolygon invariants; `scale` sets the tolerance for the "encloses" check.
void expect_valid_hull(const ConvexPolygon& p, std::span<const Vec2> input, Real scale) {
  const int n = p.size();
  ASSERT_GE(n, 3);
  ASSERT_EQ(p.edge_normals.size(), p.vertices.size());
  for (int i = 0; i < n; ++i) {
    // Strictly convex, counter-clockwise: every turn is a strict left turn.
    EXPECT_GT(cross2(p.edge(p.prev(i)), p.edge(i)), 0) << "vertex " << i;
    // Outward unit normal, perpendicular to its edge, pointing away from the other vertices.
    EXPECT_NEAR(p.edge_normals[i].norm(), 1.0, 1e-15);
    EXPECT_NEAR(p.edge_normals[i].dot(p.edge(i)), 0.0, 1e-15 * p.edge(i).norm());
    for (int k = 0; k < n; ++k) {
      EXPECT_LE(p.edge_normals[i].dot(p.vertices[k] - p.vertices[i]), 1e-15 * scale);
    }
    // Every hull vertex is one of the input points.
    EXPECT_TRUE(std::find(input.begin(), input.end(), p.vertices[i]) != input.end());
  }
  // Every input point is inside or on the hull (within the documented collinear tolerance).
  for (const Vec2& q : input) {
    for (int i = 0; i < n; ++i) {
      EXPECT_LE(p.edge_normals[i].dot(q - p.vertices[i]), kHullRelativeTolerance * scale);
    }
  }
}

TEST(PolygonHull, SquareWithInteriorEdgeAndDuplicatePoints) {
  const std::vector<Vec2> pts = {{0.5, 0.5}, {1, 1}, {0, 0},    {0.5, 0}, {1, 0},   {0, 1},
                                 {0.2, 0.7}, {1, 1}, {0, 0.25}, {1, 0.5}, {0.5, 1}, {0, 0}};
  const ConvexPolygon p = polygon_from_points(pts);
  ASSERT_EQ(p.size(), 4);
  expect_valid_hull(p, pts, 1.0);
  // Monotone chain starts at the lexicographically smallest point.
  EXPECT_EQ(p.vertices[0], Vec2(0, 0));
  EXPECT_EQ(p.vertices[1], Vec2(1, 0));
  EXPECT_EQ(p.vertices[2], Vec2(1, 1));
  EXPECT_EQ(p.vertices[3], Vec2(0, 1));
  EXPECT_EQ(p.edge_normals[0], Vec2(0, -1));
  EXPECT_EQ(p.edge_normals[1], Vec2(1, 0));
}

TEST(PolygonHull, ClockwiseInputComesOutCounterClockwise) {
  const std::vector<Vec2> cw = {{0, 0}, {0, 2}, {3, 2}, {3, 0}};
  const ConvexPolygon p = polygon_from_points(cw, HullInput::kRequireConvex);
  ASSERT_EQ(p.size(), 4);
  expect_valid_hull(p, cw, 3.0);
}

TEST(PolygonHull, DenseCollinearBoundaryPointsAreDropped) {
  // 41 points along each side of a triangle: only the 3 corners survive.
  std::vector<Vec2> pts;
  const Vec2 c[3] = {{-1, -0.3}, {2.5, 0.1}, {0.2, 1.7}};
  for (int s = 0; s < 3; ++s) {
    for (int k = 0; k <= 40; ++k) pts.push_back(c[s] + (c[(s + 1) % 3] - c[s]) * (k / 40.0));
  }
  const ConvexPolygon p = polygon_from_points(pts, HullInput::kRequireConvex);
  EXPECT_EQ(p.size(), 3);
  expect_valid_hull(p, pts, 3.0);
}

TEST(PolygonHull, CollinearToleranceIsRelativeToShapeSize) {
  for (Real size : {1e-6, 1.0, 1e6}) {
    // A square with a point pushed out of the middle of its right edge by `bump` · size.
    auto hull_with_bump = [size](Real bump) {
      const std::vector<Vec2> pts = {
          {0, 0}, {size, 0}, {size * (1 + bump), 0.5 * size}, {size, size}, {0, size}};
      return polygon_from_points(pts).size();
    };
    EXPECT_EQ(hull_with_bump(1e-14), 4) << "size " << size << ": within tolerance, dropped";
    EXPECT_EQ(hull_with_bump(1e-9), 5) << "size " << size << ": a real vertex, kept";
  }
}

TEST(PolygonHull, FarFromOriginKeepsSmallShapes) {
  // A 1 mm triangle 1 km from the origin: the coordinates carry ~1e-13 m of round-off, far
  // below the triangle's size.
  const Vec2 o(1000.0, -1000.0);
  const std::vector<Vec2> pts = {o, o + Vec2(1e-3, 0), o + Vec2(0, 1e-3), o + Vec2(2e-4, 2e-4)};
  const ConvexPolygon p = polygon_from_points(pts);
  EXPECT_EQ(p.size(), 3);
}

TEST(PolygonHull, RandomCloudsAreEnclosedByACcwStrictlyConvexHull) {
  std::mt19937_64 rng(7);
  std::normal_distribution<Real> gauss(0, 1);
  std::uniform_real_distribution<Real> unit(0, 1);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 3 + trial % 40;
    std::vector<Vec2> pts(n);
    for (Vec2& q : pts) q = trial % 2 ? Vec2(gauss(rng), gauss(rng)) : Vec2(unit(rng), unit(rng));
    // Some clouds also get points on a grid line and exact duplicates.
    if (trial % 3 == 0) {
      for (int k = 0; k < 5; ++k) pts.push_back(Vec2(0.25 * k, 0.5));
      pts.push_back(pts[0]);
    }
    const ConvexPolygon p = polygon_from_points(pts);
    expect_valid_hull(p, pts, 10.0);
    // Under kRequireConvex, the hull's own vertices (shuffled) are accepted unchanged.
    std::vector<Vec2> own = p.vertices;
    std::shuffle(own.begin(), own.end(), rng);
    EXPECT_EQ(polygon_from_points(own, HullInput::kRequireConvex).size(), p.size());
  }
}

TEST(PolygonHull, RequireConvexAcceptsBoundaryPointsAndRejectsInteriorOnes) {
  std::vector<Vec2> pts = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {0, 1}};  // (1, 1) on an edge: fine
  EXPECT_EQ(polygon_from_points(pts, HullInput::kRequireConvex).size(), 4);
  pts[3] = Vec2(1, 0.75);  // now a reflex vertex of the given loop: inside the hull
  try {
    polygon_from_points(pts, HullInput::kRequireConvex);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("point 3 (1, 0.75) lies inside the hull"));
    EXPECT_THAT(e.what(), HasSubstr("the polygon is not convex"));
  }
  // The default mode ignores the interior point.
  EXPECT_EQ(polygon_from_points(pts).size(), 4);
}

void expect_input_error(std::span<const Vec2> pts, const std::string& what) {
  try {
    polygon_from_points(pts);
    ADD_FAILURE() << "expected InputError containing: " << what;
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(what));
  }
}

TEST(PolygonHull, BadInputNamesTheProblem) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const Real inf = std::numeric_limits<Real>::infinity();
  expect_input_error(std::vector<Vec2>{}, "at least 3 points, got 0");
  expect_input_error(std::vector<Vec2>{{0, 0}, {1, 0}}, "at least 3 points, got 2");
  expect_input_error(std::vector<Vec2>{{0, 0}, {1, nan}, {0, 1}}, "point 1 (1, nan)");
  expect_input_error(std::vector<Vec2>{{0, 0}, {1, 0}, {0, 1}, {inf, 0}},
                     "point 3 (inf, 0) has a non-finite coordinate");
  expect_input_error(std::vector<Vec2>{{2, 3}, {2, 3}, {2, 3}}, "all 3 points coincide");
  expect_input_error(std::vector<Vec2>{{0, 0}, {1, 1}, {2, 2}, {0.5, 0.5}},
                     "all 4 points lie on one line");
  // Three points but only two distinct ones: fewer than 3 affinely independent points.
  expect_input_error(std::vector<Vec2>{{0, 0}, {1, 2}, {0, 0}}, "lie on one line");
  // Collinear up to round-off (a line at an irrational slope).
  std::vector<Vec2> line;
  for (int k = 0; k < 6; ++k) line.push_back(Vec2(k * 0.1, k * 0.1 * std::numbers::sqrt2));
  expect_input_error(line, "lie on one line");
}

}  // namespace
}  // namespace exactsim
