// Exact convex–convex intersection (the 2D overlap metric, docs/peg2d-experiment.md "Metric"):
// closed forms, containment, symmetry, frame invariance, exact zeros for disjoint and touching
// shapes, Monte-Carlo agreement, and the exact orientation predicate underneath.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using ::testing::HasSubstr;

std::vector<Vec2> world(const ConvexPolygon& p, const Pose2& pose) {
  WorldPolygon w;
  place(p, pose, w);
  return w.vertices;
}

bool inside(std::span<const Vec2> poly, const Vec2& x, Real tol = 0) {
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec2 e = poly[(i + 1) % poly.size()] - poly[i];
    if (cross2(e, x - poly[i]) < -tol * e.norm()) return false;
  }
  return true;
}

// The returned polygon is CCW, convex, inside both inputs, and has the returned area.
void expect_valid_intersection(std::span<const Vec2> a, std::span<const Vec2> b, Real area,
                               const std::vector<Vec2>& out, Real tol) {
  if (area == 0) {
    EXPECT_TRUE(out.empty());
    return;
  }
  ASSERT_GE(out.size(), 3u);
  EXPECT_NEAR(polygon_area(out), area, 1e-14);
  const std::size_t n = out.size();
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_GE(orientation_sign(out[(i + n - 1) % n], out[i], out[(i + 1) % n]), 0);
    EXPECT_TRUE(inside(a, out[i], tol)) << "vertex " << i;
    EXPECT_TRUE(inside(b, out[i], tol)) << "vertex " << i;
  }
}

// x·u + y·v = gcd(x, y) (extended Euclid).
std::int64_t extended_gcd(std::int64_t x, std::int64_t y, std::int64_t& u, std::int64_t& v) {
  if (y == 0) {
    u = x < 0 ? -1 : 1;
    v = 0;
    return x < 0 ? -x : x;
  }
  std::int64_t u1, v1;
  const std::int64_t g = extended_gcd(y, x % y, u1, v1);
  u = v1;
  v = u1 - (x / y) * v1;
  return g;
}

TEST(OrientationSign, MatchesExactIntegerArithmeticOnNearlyCollinearPoints) {
  // Integer points with |coordinates| < 2^31 are exact doubles and their determinant fits in
  // int64. Lattice points c with det(b − a, c − a) = k·gcd ∈ {0, ±1, ±2, ...} are built from
  // Bezout's identity: the products are ~2^60 and the determinant tiny, which plain double
  // arithmetic often gets wrong.
  std::mt19937_64 rng(23);
  std::uniform_int_distribution<std::int64_t> coord(-(1LL << 28), 1LL << 28);
  std::uniform_int_distribution<std::int64_t> small(-3, 3);
  int naive_wrong = 0, collinear = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::int64_t ax = coord(rng), ay = coord(rng), bx = coord(rng), by = coord(rng);
    const std::int64_t dx = bx - ax, dy = by - ay;
    if (dx == 0 && dy == 0) continue;
    std::int64_t u, v;
    extended_gcd(dx, dy, u, v);  // dx·u + dy·v = g, so det(d, (−v, u)) = g
    const std::int64_t k = small(rng), t = small(rng);
    const std::int64_t cx = ax + k * -v + t * dx, cy = ay + k * u + t * dy;
    const std::int64_t det = dx * (cy - ay) - dy * (cx - ax);
    const int exact = det > 0 ? 1 : (det < 0 ? -1 : 0);
    collinear += exact == 0;
    const Vec2 a(ax, ay), b(bx, by), c(cx, cy);
    ASSERT_EQ(orientation_sign(a, b, c), exact) << trial;
    EXPECT_EQ(orientation_sign(b, c, a), exact);  // cyclic symmetry
    EXPECT_EQ(orientation_sign(b, a, c), -exact);
    const Real naive = (a.x() - c.x()) * (b.y() - c.y()) - (a.y() - c.y()) * (b.x() - c.x());
    naive_wrong += (naive > 0 ? 1 : (naive < 0 ? -1 : 0)) != exact;
  }
  EXPECT_GT(collinear, 1000);
  EXPECT_GT(naive_wrong, 1000) << "the test should include many cases plain doubles get wrong";
}

TEST(PolygonIntersection, OffsetUnitSquares) {
  const std::vector<Vec2> a = world(make_box({1, 1}), Pose2{Vec2(0.5, 0.5), 0});
  const std::vector<Vec2> b = world(make_box({1, 1}), Pose2{Vec2(1.0, 0.75), 0});
  std::vector<Vec2> out;
  EXPECT_EQ(polygon_intersection_area(a, b, &out), 0.5 * 0.75);
  ASSERT_EQ(out.size(), 4u);
  for (const Vec2& v : {Vec2(0.5, 0.25), Vec2(1, 0.25), Vec2(1, 1), Vec2(0.5, 1)}) {
    EXPECT_NE(std::find(out.begin(), out.end(), v), out.end()) << v.transpose();
  }
  expect_valid_intersection(a, b, 0.375, out, 0);
  // The output may reuse an input's storage.
  std::vector<Vec2> a_then_out = a;
  EXPECT_EQ(polygon_intersection_area(a_then_out, b, &a_then_out), 0.375);
  EXPECT_EQ(a_then_out, out);
}

TEST(PolygonIntersection, SquareRotated45DegreesOverItselfIsARegularOctagon) {
  // Octagon of inradius s/2: area 8 (s/2)² tan(π/8) = 2 s² (√2 − 1).
  const Real s = 1.3;
  const Vec2 c(0.2, -0.7);
  const std::vector<Vec2> a = world(make_box({s, s}), Pose2{c, 0});
  const std::vector<Vec2> b = world(make_box({s, s}), Pose2{c, std::numbers::pi / 4});
  std::vector<Vec2> out;
  const Real area = polygon_intersection_area(a, b, &out);
  EXPECT_NEAR(area, 2 * s * s * (std::numbers::sqrt2 - 1), 1e-15);
  EXPECT_EQ(out.size(), 8u);
  expect_valid_intersection(a, b, area, out, 1e-15);
}

TEST(PolygonIntersection, ContainedPolygonGivesItsOwnArea) {
  std::mt19937_64 rng(31);
  const ConvexPolygon outer = make_regular_polygon(7, 1.0);
  for (int k = 0; k < 20; ++k) {
    const ConvexPolygon p = random_convex_polygon(rng);  // diameter < 0.36: fits in r = 0.62
    const Pose2 pose{Vec2(0.2 * std::cos(k), 0.2 * std::sin(k)), 0.7 * k};
    const std::vector<Vec2> inner = world(p, pose), big = world(outer, Pose2{});
    std::vector<Vec2> out;
    const Real area = polygon_intersection_area(big, inner, &out);
    EXPECT_NEAR(area, polygon_area(inner), 1e-16);
    EXPECT_EQ(out.size(), inner.size());
  }
  // Inner box sharing three edges with the outer one: the coincident edges must not cut it.
  const std::vector<Vec2> box = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const std::vector<Vec2> half = {{0, 0}, {0.5, 0}, {0.5, 1}, {0, 1}};
  std::vector<Vec2> out;
  EXPECT_EQ(polygon_intersection_area(box, half, &out), 0.5);
  EXPECT_EQ(out.size(), 4u);
  // A diamond inscribed in a square, its vertices on the square's edges: exactly the diamond.
  const std::vector<Vec2> square = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  const std::vector<Vec2> diamond = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  EXPECT_EQ(polygon_intersection_area(square, diamond, &out), 2.0);
  EXPECT_EQ(out.size(), 4u);
}

TEST(PolygonIntersection, PolygonWithItselfIsItself) {
  std::mt19937_64 rng(37);
  for (int k = 0; k < 50; ++k) {
    const std::vector<Vec2> a = world(random_convex_polygon(rng), Pose2{Vec2(k, -k), 0.3 * k});
    std::vector<Vec2> out;
    EXPECT_EQ(polygon_intersection_area(a, a, &out), polygon_area(a));
    EXPECT_EQ(out, a);
  }
}

TEST(PolygonIntersection, SymmetricAndInvariantUnderACommonRigidMotion) {
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<Real> u(-0.2, 0.2);
  int overlapping = 0;
  for (int k = 0; k < 200; ++k) {
    const ConvexPolygon pa = random_convex_polygon(rng), pb = random_convex_polygon(rng);
    const Pose2 a_pose{Vec2(u(rng), u(rng)), 10 * u(rng)},
        b_pose{Vec2(u(rng), u(rng)), 10 * u(rng)};
    const std::vector<Vec2> a = world(pa, a_pose), b = world(pb, b_pose);
    std::vector<Vec2> out;
    const Real ab = polygon_intersection_area(a, b, &out);
    EXPECT_EQ(polygon_intersection_area(b, a), ab);  // bitwise, by construction
    expect_valid_intersection(a, b, ab, out, 1e-15);
    overlapping += ab > 0;
    // The clipping itself, in both orders, agrees to round-off.
    if (ab > 0) {
      EXPECT_NEAR(clip_convex_polygon(a, b, nullptr), ab, 1e-16);
      EXPECT_NEAR(clip_convex_polygon(b, a, nullptr), ab, 1e-16);
    }
    // Move both bodies by the same rigid motion g: compose g ∘ pose.
    const Pose2 g{Vec2(3.5, -12.25), 1.234};
    auto moved = [&g](const Pose2& p) { return Pose2{g.apply(p.position), g.angle + p.angle}; };
    const Real moved_area =
        polygon_intersection_area(world(pa, moved(a_pose)), world(pb, moved(b_pose)));
    // World coordinates ~12 carry ~3e-15 of round-off.
    EXPECT_NEAR(moved_area, ab, 1e-14);
  }
  EXPECT_GT(overlapping, 50);  // both outcomes well represented
}

TEST(PolygonIntersection, AgreesWithMonteCarloOnRandomPairs) {
  std::mt19937_64 rng(43);
  std::uniform_real_distribution<Real> u(-0.15, 0.15), unit(0, 1);
  const int samples = 40000;
  for (int k = 0; k < 10; ++k) {
    const std::vector<Vec2> a =
        world(random_convex_polygon(rng), Pose2{Vec2(u(rng), u(rng)), 6 * unit(rng)});
    const std::vector<Vec2> b =
        world(random_convex_polygon(rng), Pose2{Vec2(u(rng), u(rng)), 6 * unit(rng)});
    const Real area = polygon_intersection_area(a, b);
    const Aabb2 box = bounding_box(a);
    const Vec2 ext = box.hi - box.lo;
    int hits = 0;
    for (int s = 0; s < samples; ++s) {
      const Vec2 x = box.lo + Vec2(unit(rng) * ext.x(), unit(rng) * ext.y());
      hits += inside(a, x) && inside(b, x);
    }
    const Real frac = static_cast<Real>(hits) / samples, box_area = ext.x() * ext.y();
    const Real se = box_area * std::sqrt(std::max(frac * (1 - frac), 1.0 / samples) / samples);
    EXPECT_NEAR(area, box_area * frac, 5 * se) << "pair " << k;
  }
}

TEST(PolygonIntersection, DisjointShapesGiveExactlyZero) {
  const std::vector<Vec2> a = world(make_regular_polygon(6, 1.0), Pose2{});
  std::vector<Vec2> out = {Vec2(9, 9)};
  // Overlapping bounding boxes, separated along a diagonal edge.
  const std::vector<Vec2> b = world(make_regular_polygon(6, 1.0), Pose2{Vec2(1.5, 1.5), 0.3});
  EXPECT_EQ(polygon_intersection_area(a, b, &out), 0.0);
  EXPECT_TRUE(out.empty());
  const std::vector<Vec2> far = world(make_box({1, 1}), Pose2{Vec2(10, 0), 0});
  EXPECT_EQ(polygon_intersection_area(a, far), 0.0);
}

TEST(PolygonIntersection, TouchingAlongAnEdgeGivesExactlyZero) {
  const std::vector<Vec2> a = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  std::vector<Vec2> out;
  // Full shared edge, partial shared edge.
  EXPECT_EQ(polygon_intersection_area(a, std::vector<Vec2>{{1, 0}, {2, 0}, {2, 1}, {1, 1}}, &out),
            0.0);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(polygon_intersection_area(a, std::vector<Vec2>{{1, 0.5}, {2, 0.5}, {2, 1.5}, {1, 1.5}}),
            0.0);
  // Two triangles sharing a diagonal.
  EXPECT_EQ(polygon_intersection_area(std::vector<Vec2>{{0, 0}, {1, 0}, {1, 1}},
                                      std::vector<Vec2>{{0, 0}, {1, 1}, {0, 1}}),
            0.0);
  // A shared edge at a generic slope with non-dyadic coordinates.
  const Vec2 p(0.123456789, 0.31), q(0.7, 0.9876);
  const std::vector<Vec2> left = {p, q, Vec2(-0.3, 0.8)}, right = {q, p, Vec2(0.9, 0.1)};
  ASSERT_GT(polygon_area(left), 0);
  ASSERT_GT(polygon_area(right), 0);
  EXPECT_EQ(polygon_intersection_area(left, right, &out), 0.0);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(clip_convex_polygon(left, right, nullptr), 0.0);
  EXPECT_EQ(clip_convex_polygon(right, left, nullptr), 0.0);
}

TEST(PolygonIntersection, VertexTouchingGivesExactlyZero) {
  const std::vector<Vec2> a = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  // Vertex of b on the interior of a's right edge; vertex on vertex.
  EXPECT_EQ(polygon_intersection_area(a, std::vector<Vec2>{{1, 0.5}, {2, 0}, {3, 0.5}, {2, 1}}),
            0.0);
  EXPECT_EQ(polygon_intersection_area(a, std::vector<Vec2>{{1, 1}, {2, 1.5}, {1.5, 2}}), 0.0);
  // Generic slope: m = (p + q)/2 is exactly on edge p → q (every sum/difference here is exact).
  const Vec2 m(0.3, 0.7), d(0.125, -0.0625);
  const Vec2 p = m - d, q = m + d;
  ASSERT_EQ(orientation_sign(p, q, m), 0);
  const std::vector<Vec2> tri = {p, q, Vec2(0.5, 1.0)};
  const std::vector<Vec2> kite = {m, Vec2(0.05, 0.6), Vec2(0.1, 0.3), Vec2(0.35, 0.5)};
  ASSERT_GT(polygon_area(tri), 0);
  ASSERT_GT(polygon_area(kite), 0);
  for (int i = 1; i < 4; ++i) ASSERT_EQ(orientation_sign(p, q, kite[i]), -1);  // outside tri
  std::vector<Vec2> out;
  EXPECT_EQ(polygon_intersection_area(tri, kite, &out), 0.0);
  EXPECT_TRUE(out.empty());
  // The raw clipping, both ways, is exact as well (snapping crossings to clipper vertices).
  EXPECT_EQ(clip_convex_polygon(tri, kite, nullptr), 0.0);
  EXPECT_EQ(clip_convex_polygon(kite, tri, nullptr), 0.0);
}

TEST(PolygonIntersection, TinyRealOverlapsAreNotSuppressed) {
  const std::vector<Vec2> a = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (Real depth : {1e-6, 1e-9, 1e-12}) {
    const std::vector<Vec2> b = {{1 - depth, 0.25}, {2, 0.25}, {2, 0.75}, {1 - depth, 0.75}};
    // Exact overlap of the representable shapes (1 − x is exact here); crossing points carry
    // an absolute round-off of ~ε·|x|, so the area is good to ~ε times the overlap's height.
    const Real exact = 0.5 * (1 - b[0].x());
    EXPECT_NEAR(polygon_intersection_area(a, b), exact, 4e-16);
    EXPECT_GT(polygon_intersection_area(a, b), 0.5 * exact);
    const std::vector<Vec2> gap = {{1 + depth, 0.25}, {2, 0.25}, {2, 0.75}, {1 + depth, 0.75}};
    EXPECT_EQ(polygon_intersection_area(a, gap), 0.0);
  }
  // A unit square and its copy turned by a tiny angle θ about the centre: each of the four
  // edges leaves a triangle of legs 1/2 and θ/2 outside, so the area is 1 − θ/2 + O(θ²).
  const ConvexPolygon box = make_box({1, 1});
  const Real angle = 1e-10;
  const Real area = polygon_intersection_area(world(box, Pose2{Vec2(0.5, 0.5), 0}),
                                              world(box, Pose2{Vec2(0.5, 0.5), angle}));
  EXPECT_NEAR(1 - area, 0.5 * angle, 1e-14);
}

TEST(PolygonIntersection, FarFromTheOriginKeepsRelativeAccuracy) {
  const Vec2 o(1e4, -3e4);
  const std::vector<Vec2> a = world(make_box({1, 1}), Pose2{o, 0.3});
  const std::vector<Vec2> b = world(make_box({1, 1}), Pose2{o + Vec2(0.5, 0), 0.3});
  // Two unit squares offset by half a side along their own (rotated) axis: area 1/2.
  const Vec2 along = Pose2{Vec2::Zero(), 0.3}.rotate(Vec2(0.5, 0));
  const std::vector<Vec2> c = world(make_box({1, 1}), Pose2{o + along, 0.3});
  EXPECT_NEAR(polygon_intersection_area(a, c), 0.5, 1e-10);
  EXPECT_GT(polygon_intersection_area(a, b), 0.0);
}

TEST(PolygonIntersection, DegenerateAndBadInput) {
  const std::vector<Vec2> a = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  EXPECT_EQ(polygon_intersection_area(a, std::vector<Vec2>{{0.5, 0.5}, {0.7, 0.7}}), 0.0);
  EXPECT_EQ(polygon_intersection_area(std::vector<Vec2>{}, a), 0.0);
  // A zero-area (collinear) "polygon" inside the square: no area, no NaN.
  EXPECT_EQ(polygon_intersection_area(a, std::vector<Vec2>{{0.2, 0.2}, {0.5, 0.5}, {0.8, 0.8}}),
            0.0);
  try {
    polygon_intersection_area(a, std::vector<Vec2>{{0, 0}, {1, std::nan("")}, {0, 1}});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("vertex 1 of polygon b has a non-finite coordinate"));
  }
}

TEST(PolygonIntersection, LargePolygonsUseTheHeapPathCorrectly) {
  // 40 + 40 vertices exceed the stack buffers.
  // A regular 40-gon and its copy turned by half the vertex spacing: the intersection is a
  // regular 80-gon with the 40-gons' inradius r cos(π/40), area 80 ρ² tan(π/80).
  const ConvexPolygon p = make_regular_polygon(40, 1.0);
  const std::vector<Vec2> a = world(p, Pose2{}),
                          b = world(p, Pose2{Vec2(0, 0), std::numbers::pi / 40});
  std::vector<Vec2> out;
  const Real area = polygon_intersection_area(a, b, &out);
  EXPECT_EQ(out.size(), 80u);
  expect_valid_intersection(a, b, area, out, 1e-15);
  const Real inr = std::cos(std::numbers::pi / 40);
  const Real expected = 80 * inr * inr * std::tan(std::numbers::pi / 80);
  EXPECT_NEAR(area, expected, 1e-14);
}

}  // namespace
}  // namespace exactsim
