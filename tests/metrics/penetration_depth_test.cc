// Exact penetration depth (metrics/penetration_depth.h) against independent oracles: closed
// forms (axis-aligned boxes, a rotated square on a floor, a tetrahedron's vertex in a face, two
// crossed bars whose minimum is an edge × edge direction), the Minkowski difference built by
// the hull code (depth = distance from the origin to its boundary), dense direction sampling
// (Fibonacci sphere / circle), separation by exact overlap area / volume after translating B by
// depth ± a little, swap and rigid-motion invariance, the exhaustive edge-pair superset, and
// brute-force scene scans.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/metrics/penetration_depth.h"

namespace exactsim {
namespace {

constexpr Real kPi = std::numbers::pi;

// ---- helpers -----------------------------------------------------------------------------------

WorldPolygon Place2(const ConvexPolygon& shape, const Vec2& position, Real angle = 0) {
  WorldPolygon w;
  place(shape, Pose2{position, angle}, w);
  return w;
}

WorldPolyhedron Place3(const ConvexPolyhedron& shape, const Pose3& pose) {
  WorldPolyhedron w;
  place(shape, pose, w);
  return w;
}

Quat RandomRotation(std::mt19937_64& rng) {
  std::normal_distribution<Real> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

Vec3 RandomInBall(std::mt19937_64& rng, Real radius) {
  std::uniform_real_distribution<Real> u(-1, 1);
  for (;;) {
    const Vec3 p(u(rng), u(rng), u(rng));
    if (p.squaredNorm() <= 1) return radius * p;
  }
}

// s(d) = max_A d·a − min_B d·b by brute force over the vertices.
template <class V>
Real Overlap(const std::vector<V>& a, const std::vector<V>& b, const V& d) {
  Real hi = -1e300, lo = 1e300;
  for (const V& p : a) hi = std::max(hi, d.dot(p));
  for (const V& p : b) lo = std::min(lo, d.dot(p));
  return hi - lo;
}

template <class V>
Real Diameter(const std::vector<V>& a, const std::vector<V>& b) {
  Real l = 0;
  for (const V& p : a)
    for (const V& q : b) l = std::max(l, (p - q).norm());
  return l;
}

// Oracle 1: the Minkowski difference A − B = hull{a − b} built by the hull code; when the
// origin is inside, the depth is the distance from it to the nearest face (edge) plane, and 0
// otherwise (the largest signed distance is then ≥ 0).
Real MinkowskiOracle2(const WorldPolygon& a, const WorldPolygon& b) {
  std::vector<Vec2> diff;
  for (const Vec2& p : a.vertices)
    for (const Vec2& q : b.vertices) diff.push_back(p - q);
  const ConvexPolygon m = polygon_from_points(diff);
  Real depth = 1e300;
  for (int i = 0; i < m.size(); ++i) depth = std::min(depth, m.edge_normals[i].dot(m.vertices[i]));
  return std::max<Real>(depth, 0);
}

Real MinkowskiOracle3(const WorldPolyhedron& a, const WorldPolyhedron& b) {
  std::vector<Vec3> diff;
  for (const Vec3& p : a.vertices)
    for (const Vec3& q : b.vertices) diff.push_back(p - q);
  const ConvexPolyhedron m = polyhedron_from_points(diff);
  Real depth = 1e300;
  for (const PolyhedronFace& f : m.faces) depth = std::min(depth, f.offset);
  return std::max<Real>(depth, 0);
}

// N points of the Fibonacci sphere (about uniform; covering chord ≈ 0.016 for N = 20000).
std::vector<Vec3> FibonacciSphere(int n) {
  std::vector<Vec3> d;
  const Real golden = kPi * (3 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const Real z = 1 - 2 * (i + 0.5) / n, r = std::sqrt(1 - z * z);
    d.emplace_back(r * std::cos(golden * i), r * std::sin(golden * i), z);
  }
  return d;
}

ConvexPolyhedron Tetrahedron(const Vec3& apex, Real top_z, Real radius) {
  std::vector<Vec3> p{apex};
  for (int k = 0; k < 3; ++k)
    p.emplace_back(radius * std::cos(2 * kPi * k / 3), radius * std::sin(2 * kPi * k / 3), top_z);
  return polyhedron_from_points(p);
}

// Hull of n points on the unit sphere scaled by r: all n are vertices.
ConvexPolyhedron SphereHull(std::mt19937_64& rng, int n, Real r) {
  std::normal_distribution<Real> g;
  for (;;) {
    std::vector<Vec3> p;
    for (int i = 0; i < n; ++i) p.push_back(r * Vec3(g(rng), g(rng), g(rng)).normalized());
    ConvexPolyhedron h = polyhedron_from_points(p);
    if (h.num_vertices() == n) return h;
  }
}

// ---- 2D closed forms ---------------------------------------------------------------------------

TEST(PenetrationDepth2d, AxisAlignedBoxesGiveTheSmallerAxisOverlap) {
  const WorldPolygon a = Place2(make_box(Vec2(2, 1)), Vec2(0, 0));
  const WorldPolygon b = Place2(make_box(Vec2(1, 1)), Vec2(1.4, 0.7));
  // x: A [−1, 1], B [0.9, 1.9] → 0.1; y: A [−0.5, 0.5], B [0.2, 1.2] → 0.3.
  const PenetrationResult r = penetration_depth(a, b);
  EXPECT_TRUE(r.overlapping);
  EXPECT_NEAR(r.depth, 0.1, 1e-14);
  EXPECT_NEAR((r.direction - Vec3(1, 0, 0)).norm(), 0, 1e-14);
  EXPECT_EQ(r.dimension, 2);
  // A's +x edge and B's −x edge tie; A's normals come first.
  EXPECT_EQ(r.feature, PenetrationFeature::kFaceA);
  EXPECT_EQ(describe_features(r), "edge " + std::to_string(r.feature_a) + " of A");

  const WorldPolygon c = Place2(make_box(Vec2(1, 1)), Vec2(0.2, 0.85));  // y overlap 0.15
  const PenetrationResult rc = penetration_depth(a, c);
  EXPECT_NEAR(rc.depth, 0.15, 1e-14);
  EXPECT_NEAR((rc.direction - Vec3(0, 1, 0)).norm(), 0, 1e-14);
}

TEST(PenetrationDepth2d, RotatedSquareOnAFloor) {
  const WorldPolygon floor = Place2(make_box(Vec2(10, 1)), Vec2(0, -0.5));  // top at y = 0
  for (Real yc : {0.6, 0.7, 0.5, 0.3}) {
    const WorldPolygon square = Place2(make_box(Vec2(1, 1)), Vec2(0.3, yc), kPi / 4);
    const PenetrationResult r = penetration_depth(floor, square);
    ASSERT_TRUE(r.overlapping) << yc;
    EXPECT_NEAR(r.depth, std::sqrt(0.5) - yc, 1e-14) << yc;  // the corner's depth
    EXPECT_NEAR((r.direction - Vec3(0, 1, 0)).norm(), 0, 1e-14);
    EXPECT_EQ(r.feature, PenetrationFeature::kFaceA);
    // Swapped: the floor is pushed down out of the square.
    const PenetrationResult s = penetration_depth(square, floor);
    EXPECT_NEAR(s.depth, r.depth, 1e-14);
    EXPECT_NEAR((s.direction + r.direction).norm(), 0, 1e-14);
    EXPECT_EQ(s.feature, PenetrationFeature::kFaceB);
  }
}

TEST(PenetrationDepth2d, SeparatedAndTouchingGiveZero) {
  const WorldPolygon a = Place2(make_box(Vec2(1, 1)), Vec2(0, 0));
  const WorldPolygon far = Place2(make_box(Vec2(1, 1)), Vec2(1.5, 0.2));
  PenetrationResult r = penetration_depth(a, far);
  EXPECT_FALSE(r.overlapping);
  EXPECT_EQ(r.depth, 0);
  EXPECT_LE(Overlap(a.vertices, far.vertices, Vec2(r.direction.x(), r.direction.y())), 0);
  const WorldPolygon touching = Place2(make_box(Vec2(1, 1)), Vec2(1, 0.3));
  r = penetration_depth(a, touching);
  EXPECT_FALSE(r.overlapping);
  EXPECT_EQ(r.depth, 0);
}

// Random polygon pairs: the Minkowski-difference oracle, dense sampling of the circle, exact
// separation after the translation, swap and rigid-motion invariance.
TEST(PenetrationDepth2d, RandomPairsMatchOracles) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<Real> u(-1, 1);
  RandomPolygonOptions opt;
  opt.points = 14;
  opt.scale = 1.0;
  int overlapping = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const ConvexPolygon sa = random_convex_polygon(rng, opt), sb = random_convex_polygon(rng, opt);
    const Vec2 pa(u(rng), u(rng)), pb = pa + 0.6 * Vec2(u(rng), u(rng));
    const Real ta = kPi * u(rng), tb = kPi * u(rng);
    const WorldPolygon a = Place2(sa, pa, ta), b = Place2(sb, pb, tb);
    const PenetrationResult r = penetration_depth(a, b);
    const Real scale = Diameter(a.vertices, b.vertices);
    ASSERT_NEAR(r.depth, MinkowskiOracle2(a, b), 1e-12 * scale) << trial;
    if (!r.overlapping) continue;
    ++overlapping;
    // Sampling: every direction's overlap bounds the depth from above.
    Real sampled = 1e300;
    const int n = 20000;
    for (int k = 0; k < n; ++k) {
      const Real phi = 2 * kPi * k / n;
      sampled =
          std::min(sampled, Overlap(a.vertices, b.vertices, Vec2(std::cos(phi), std::sin(phi))));
    }
    EXPECT_LE(r.depth, sampled + 1e-12 * scale);
    EXPECT_GE(r.depth, sampled - scale * (2 * kPi / n));
    // Translating B by depth (+1e-9) along the direction separates; by depth − 1e-6 it does not.
    const Vec2 d = r.direction.head<2>();
    EXPECT_NEAR(d.norm(), 1, 1e-14);
    EXPECT_EQ(
        polygon_intersection_area(a.vertices, Place2(sb, pb + (r.depth + 1e-9) * d, tb).vertices),
        0);
    if (r.depth > 1e-5) {
      EXPECT_GT(
          polygon_intersection_area(a.vertices, Place2(sb, pb + (r.depth - 1e-6) * d, tb).vertices),
          0);
    }
    // Swap flips the direction.
    const PenetrationResult s = penetration_depth(b, a);
    EXPECT_NEAR(s.depth, r.depth, 1e-13 * scale);
    EXPECT_NEAR((s.direction + r.direction).norm(), 0, 1e-9);
    // Rigid motion of both.
    const Real rot = kPi * u(rng);
    const Vec2 shift(5 * u(rng), 5 * u(rng));
    const Pose2 m{shift, rot};
    const PenetrationResult t =
        penetration_depth(Place2(sa, m.apply(pa), ta + rot), Place2(sb, m.apply(pb), tb + rot));
    EXPECT_NEAR(t.depth, r.depth, 1e-12 * (scale + 5));
    EXPECT_NEAR((t.direction.head<2>() - m.rotate(d)).norm(), 0, 1e-9);
  }
  EXPECT_GT(overlapping, 100);
}

// ---- 3D closed forms ---------------------------------------------------------------------------

TEST(PenetrationDepth3d, AxisAlignedBoxesGiveTheSmallestAxisOverlap) {
  const ConvexPolyhedron big = make_box(Vec3(2, 2, 2)), small = make_box(Vec3(1, 1, 1));
  PenetrationScratch scratch;
  const WorldPolyhedron a = Place3(big, Pose3{Vec3::Zero(), Quat::Identity()});
  // x: 1 − 0.8 = 0.2; y: 1 − 0.1 = 0.9; z: min(1 + 0.7, 0.3 + 1) = 1.3.
  const WorldPolyhedron b = Place3(small, Pose3{Vec3(1.3, 0.6, -0.2), Quat::Identity()});
  const PenetrationResult r = penetration_depth(big, a, small, b, scratch);
  EXPECT_TRUE(r.overlapping);
  EXPECT_NEAR(r.depth, 0.2, 1e-14);
  EXPECT_NEAR((r.direction - Vec3(1, 0, 0)).norm(), 0, 1e-14);
  EXPECT_EQ(r.feature, PenetrationFeature::kFaceA);
  EXPECT_NEAR(big.faces[r.feature_a].normal.x(), 1, 1e-14);
  EXPECT_EQ(describe_features(r, "floor", "box"),
            "face " + std::to_string(r.feature_a) + " of floor");
  // Deeper in x than in z: the minimum moves to z.
  const WorldPolyhedron c = Place3(small, Pose3{Vec3(0.5, 0.1, 1.45), Quat::Identity()});
  const PenetrationResult rc = penetration_depth(big, a, small, c, scratch);
  EXPECT_NEAR(rc.depth, 0.05, 1e-14);
  EXPECT_NEAR((rc.direction - Vec3(0, 0, 1)).norm(), 0, 1e-14);
  // Separated and touching.
  const WorldPolyhedron d = Place3(small, Pose3{Vec3(1.5, 0.1, 0.2), Quat::Identity()});
  EXPECT_EQ(penetration_depth(big, a, small, d, scratch).depth, 0);
  EXPECT_FALSE(penetration_depth(big, a, small, d, scratch).overlapping);
  const WorldPolyhedron e = Place3(small, Pose3{Vec3(1.6, 0.1, 0.2), Quat::Identity()});
  EXPECT_EQ(penetration_depth(big, a, small, e, scratch).depth, 0);
}

TEST(PenetrationDepth3d, TetrahedronVertexInAFace) {
  const ConvexPolyhedron floor = make_box(Vec3(4, 4, 1));
  const WorldPolyhedron a = Place3(floor, Pose3{Vec3(0, 0, -0.5), Quat::Identity()});  // top z = 0
  PenetrationScratch scratch;
  for (Real delta : {0.01, 0.05, 0.2}) {
    const ConvexPolyhedron tet = Tetrahedron(Vec3(0.1, 0.2, -delta), 0.8, 0.5);
    const WorldPolyhedron b = Place3(tet, Pose3{});
    const PenetrationResult r = penetration_depth(floor, a, tet, b, scratch);
    ASSERT_TRUE(r.overlapping);
    EXPECT_NEAR(r.depth, delta, 1e-14);
    EXPECT_NEAR((r.direction - Vec3(0, 0, 1)).norm(), 0, 1e-14);
    EXPECT_EQ(r.feature, PenetrationFeature::kFaceA);
    EXPECT_NEAR(floor.faces[r.feature_a].normal.z(), 1, 1e-14);
    EXPECT_NEAR(MinkowskiOracle3(a, b), delta, 1e-9);
  }
}

// Two long square bars, A along x turned 45° about x (an edge on top), B along y turned 45°
// about y (an edge below), crossing at right angles with B's lower edge δ below A's upper
// edge: the depth is δ along z = e_A × e_B, and no face normal gives it.
TEST(PenetrationDepth3d, CrossedBarsMinimumIsAnEdgeCrossDirection) {
  const Real a = 1, len = 10, h = a / std::sqrt(2.0);
  const ConvexPolyhedron bar_x = make_box(Vec3(len, a, a)), bar_y = make_box(Vec3(a, len, a));
  const Quat qa(Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()));
  const Quat qb(Eigen::AngleAxisd(kPi / 4, Vec3::UnitY()));
  PenetrationScratch scratch;
  std::mt19937_64 rng(5);
  for (Real delta : {0.02, 0.1, 0.3}) {
    const Pose3 pa{Vec3(0.3, -0.2, 0), qa}, pb{Vec3(0.1, 0.4, 2 * h - delta), qb};
    const WorldPolyhedron wa = Place3(bar_x, pa), wb = Place3(bar_y, pb);
    const PenetrationResult r = penetration_depth(bar_x, wa, bar_y, wb, scratch);
    ASSERT_TRUE(r.overlapping);
    EXPECT_NEAR(r.depth, delta, 1e-13);
    EXPECT_NEAR((r.direction - Vec3(0, 0, 1)).norm(), 0, 1e-12);
    EXPECT_EQ(r.feature, PenetrationFeature::kEdgeEdge);
    const Vec3 ea = bar_x.edge_vector(r.feature_a), eb = bar_y.edge_vector(r.feature_b);
    EXPECT_NEAR(std::abs(qa._transformVector(ea).normalized().x()), 1, 1e-12);
    EXPECT_NEAR(std::abs(qb._transformVector(eb).normalized().y()), 1, 1e-12);
    EXPECT_NE(describe_features(r).find(" × edge "), std::string::npos);
    EXPECT_NEAR(MinkowskiOracle3(wa, wb), delta, 1e-8);
    // Every face normal gives more than the depth (the edge direction is needed).
    for (const Vec3& n : wa.face_normals) EXPECT_GT(Overlap(wa.vertices, wb.vertices, n), 0.5);
    for (const Vec3& m : wb.face_normals)
      EXPECT_GT(Overlap(wa.vertices, wb.vertices, Vec3(-m)), 0.5);
    // The same after a rigid motion of both bars.
    const Quat q = RandomRotation(rng);
    const Vec3 t = RandomInBall(rng, 3);
    const auto move = [&](const Pose3& p) { return Pose3{q * p.position + t, q * p.orientation}; };
    const WorldPolyhedron ma = Place3(bar_x, move(pa)), mb = Place3(bar_y, move(pb));
    const PenetrationResult m = penetration_depth(bar_x, ma, bar_y, mb, scratch);
    EXPECT_NEAR(m.depth, delta, 1e-12);
    EXPECT_NEAR((m.direction - q * Vec3(0, 0, 1)).norm(), 0, 1e-12);
    EXPECT_EQ(m.feature, PenetrationFeature::kEdgeEdge);
  }
}

// ---- 3D random pairs ---------------------------------------------------------------------------

struct RandomPair3 {
  ConvexPolyhedron sa, sb;
  Pose3 pa, pb;
};

RandomPair3 MakeRandomPair(std::mt19937_64& rng, Real spread) {
  RandomPolyhedronOptions opt;
  opt.points = 14;
  RandomPair3 p{random_convex_polyhedron(rng, opt), random_convex_polyhedron(rng, opt), {}, {}};
  p.pa = Pose3{RandomInBall(rng, 1), RandomRotation(rng)};
  p.pb = Pose3{p.pa.position + RandomInBall(rng, spread), RandomRotation(rng)};
  return p;
}

TEST(PenetrationDepth3d, RandomPairsMatchTheMinkowskiDifferenceAndSeparate) {
  std::mt19937_64 rng(2026);
  PenetrationScratch scratch;
  PenetrationOptions all, faces_only;
  all.all_edge_pairs = true;
  faces_only.parallel_tolerance = 2;  // |e_A × e_B| ≤ |e_A||e_B| always: no edge candidates
  int overlapping = 0, edge_edge = 0, faces_only_wrong = 0, edge_separated = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const RandomPair3 p = MakeRandomPair(rng, 0.7);
    const WorldPolyhedron a = Place3(p.sa, p.pa), b = Place3(p.sb, p.pb);
    const PenetrationResult r = penetration_depth(p.sa, a, p.sb, b, scratch);
    const Real scale = Diameter(a.vertices, b.vertices);
    // Oracle: distance from the origin to the boundary of hull{a − b} (qhull, faces merged
    // within 1e-9 · size).
    ASSERT_NEAR(r.depth, MinkowskiOracle3(a, b), 1e-8 * scale) << trial;
    // The brute-force superset of edge pairs gives the same minimum.
    const PenetrationResult x = penetration_depth(p.sa, a, p.sb, b, scratch, all);
    ASSERT_EQ(x.overlapping, r.overlapping) << trial;
    ASSERT_NEAR(x.depth, r.depth, 1e-13 * scale) << trial;
    // The oracle is sensitive to the edge candidates: face normals alone overestimate.
    const PenetrationResult f = penetration_depth(p.sa, a, p.sb, b, scratch, faces_only);
    if (!r.overlapping) {
      edge_separated += f.overlapping;  // only an edge × edge axis separates them
      EXPECT_LE(Overlap(a.vertices, b.vertices, r.direction), 0);
      continue;
    }
    ++overlapping;
    edge_edge += r.feature == PenetrationFeature::kEdgeEdge;
    faces_only_wrong += f.depth > r.depth + 1e-6 * scale;
    EXPECT_NEAR(r.direction.norm(), 1, 1e-14);
    // The overlap along the direction is the depth.
    EXPECT_NEAR(Overlap(a.vertices, b.vertices, r.direction), r.depth, 1e-14 * scale);
    // Translating B by depth + 1e-9 separates (exactly zero volume); by depth − 1e-6 not.
    Pose3 moved = p.pb;
    moved.position = p.pb.position + (r.depth + 1e-9) * r.direction;
    EXPECT_EQ(polyhedron_intersection_volume(p.sa, p.pa, p.sb, moved), 0) << trial;
    if (r.depth > 1e-5) {
      moved.position = p.pb.position + (r.depth - 1e-6) * r.direction;
      EXPECT_GT(polyhedron_intersection_volume(p.sa, p.pa, p.sb, moved), 0) << trial;
    }
    // Swap.
    const PenetrationResult s = penetration_depth(p.sb, b, p.sa, a, scratch);
    EXPECT_NEAR(s.depth, r.depth, 1e-13 * scale);
    EXPECT_NEAR(Overlap(b.vertices, a.vertices, s.direction), s.depth, 1e-14 * scale);
    // Rigid motion of both.
    const Quat q = RandomRotation(rng);
    const Vec3 t = RandomInBall(rng, 5);
    const auto move = [&](const Pose3& pose) {
      return Pose3{q * pose.position + t, q * pose.orientation};
    };
    const PenetrationResult m =
        penetration_depth(p.sa, Place3(p.sa, move(p.pa)), p.sb, Place3(p.sb, move(p.pb)), scratch);
    EXPECT_NEAR(m.depth, r.depth, 1e-12 * (scale + 5));
  }
  EXPECT_GT(overlapping, 200);
  EXPECT_GT(edge_edge, 20);                // the edge-pair candidates matter…
  EXPECT_EQ(faces_only_wrong, edge_edge);  // …exactly where they give the minimum
  EXPECT_GT(edge_separated, 0);
  std::printf(
      "3D random pairs: %d of 400 overlapping, %d with an edge x edge minimum; %d separated only "
      "by an edge x edge axis\n",
      overlapping, edge_edge, edge_separated);
}

// The brief's sampling oracle: 20 000 Fibonacci directions; the depth is at most the smallest
// sampled overlap, and at least it minus the Lipschitz bound (diameter × covering chord).
TEST(PenetrationDepth3d, RandomPairsAgainstDenseDirectionSampling) {
  std::mt19937_64 rng(77);
  PenetrationScratch scratch;
  const std::vector<Vec3> dirs = FibonacciSphere(20000);
  int checked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const RandomPair3 p = MakeRandomPair(rng, 0.6);
    const WorldPolyhedron a = Place3(p.sa, p.pa), b = Place3(p.sb, p.pb);
    const PenetrationResult r = penetration_depth(p.sa, a, p.sb, b, scratch);
    if (!r.overlapping) continue;
    ++checked;
    Real sampled = 1e300;
    for (const Vec3& d : dirs) sampled = std::min(sampled, Overlap(a.vertices, b.vertices, d));
    const Real scale = Diameter(a.vertices, b.vertices);
    EXPECT_LE(r.depth, sampled + 1e-13 * scale) << trial;
    EXPECT_GE(r.depth, sampled - 0.025 * scale) << trial;
  }
  EXPECT_GT(checked, 20);
}

TEST(PenetrationDepth3d, FourteenVertexSphereHulls) {
  std::mt19937_64 rng(14);
  PenetrationScratch scratch;
  for (int trial = 0; trial < 100; ++trial) {
    const ConvexPolyhedron sa = SphereHull(rng, 14, 0.5), sb = SphereHull(rng, 14, 0.5);
    const Pose3 pa{Vec3::Zero(), RandomRotation(rng)},
        pb{RandomInBall(rng, 0.9), RandomRotation(rng)};
    const WorldPolyhedron a = Place3(sa, pa), b = Place3(sb, pb);
    const PenetrationResult r = penetration_depth(sa, a, sb, b, scratch);
    ASSERT_NEAR(r.depth, MinkowskiOracle3(a, b), 1e-8) << trial;
  }
}

// Degenerate geometry: parallel edges and coincident face normals (boxes and icosahedra in the
// same or quarter-turned orientations, and tilted by 1e-7 rad, where the edge-pair candidates
// are skipped as parallel or nearly so); the oracles as above.
TEST(PenetrationDepth3d, ParallelEdgesAndCoincidentFaceNormals) {
  std::mt19937_64 rng(99);
  PenetrationScratch scratch;
  PenetrationOptions all;
  all.all_edge_pairs = true;
  const std::vector<ConvexPolyhedron> shapes{make_box(Vec3(1, 0.6, 0.8)), make_box(Vec3(1, 1, 1)),
                                             make_icosahedron(0.5)};
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const ConvexPolyhedron& sa = shapes[trial % 3];
    const ConvexPolyhedron& sb = shapes[(trial / 3) % 3];
    const Quat base = RandomRotation(rng);
    Quat qb = base;
    switch (trial % 4) {
      case 1:
        qb = base * Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()));
        break;
      case 2:
        qb = base * Quat(Eigen::AngleAxisd(1e-7, Vec3(1, 2, 3).normalized()));
        break;
      case 3:
        qb = RandomRotation(rng);
        break;
      default:
        break;
    }
    const Pose3 pa{Vec3::Zero(), base}, pb{RandomInBall(rng, 0.8), qb};
    const WorldPolyhedron a = Place3(sa, pa), b = Place3(sb, pb);
    const PenetrationResult r = penetration_depth(sa, a, sb, b, scratch);
    ASSERT_NEAR(r.depth, MinkowskiOracle3(a, b), 1e-8) << trial;
    ASSERT_NEAR(penetration_depth(sa, a, sb, b, scratch, all).depth, r.depth, 1e-12) << trial;
    if (!r.overlapping) continue;
    ++checked;
    EXPECT_NEAR(Overlap(a.vertices, b.vertices, r.direction), r.depth, 1e-14);
    Pose3 moved = pb;
    moved.position = pb.position + (r.depth + 1e-9) * r.direction;
    EXPECT_EQ(polyhedron_intersection_volume(sa, pa, sb, moved), 0) << trial;
  }
  EXPECT_GT(checked, 150);
}

// ---- Scenes ------------------------------------------------------------------------------------

TEST(ScenePenetration2d, DeepPairsCentresInsideAndBruteForce) {
  // 0 floor (static), 1 wall (static, overlapping the floor: not a pair), 2 a box sunk 0.2
  // into the floor, 3 a box whose centre is inside the wall, 4 a free box, 5 absent (would
  // overlap everything).
  std::vector<WorldPolygon> w{
      Place2(make_box(Vec2(10, 1)), Vec2(0, -0.5)), Place2(make_box(Vec2(1, 6)), Vec2(5, 2.5)),
      Place2(make_box(Vec2(1, 1)), Vec2(0, 0.3)),   Place2(make_box(Vec2(0.4, 0.4)), Vec2(4.8, 2)),
      Place2(make_box(Vec2(1, 1)), Vec2(-2, 3)),    Place2(make_box(Vec2(20, 20)), Vec2(0, 0)),
  };
  std::vector<Vec2> centres{Vec2(0, -0.5), Vec2(5, 2.5), Vec2(0, 0.3),
                            Vec2(4.8, 2),  Vec2(-2, 3),  Vec2(0, 0)};
  std::vector<std::uint8_t> is_static{1, 1, 0, 0, 0, 0}, present{1, 1, 1, 1, 1, 0};
  PenetrationScratch scratch;
  ScenePenetration out;
  scene_penetration(w, centres, is_static, present, 0.1, scratch, out);
  EXPECT_EQ(out.pairs_checked, 2);         // (0, 2) and (1, 3)
  EXPECT_NEAR(out.max_depth, 0.5, 1e-14);  // box 3 (x ∈ [4.6, 5]) is 0.5 past the wall's face
  ASSERT_EQ(out.deep_pairs.size(), 2u);
  EXPECT_EQ(out.deep_pairs[0].body_a, 0);
  EXPECT_EQ(out.deep_pairs[0].body_b, 2);
  EXPECT_NEAR(out.deep_pairs[0].result.depth, 0.2, 1e-14);
  EXPECT_NEAR((out.deep_pairs[0].result.direction - Vec3(0, 1, 0)).norm(), 0, 1e-14);
  EXPECT_EQ(out.deep_pairs[1].body_a, 1);
  EXPECT_EQ(out.deep_pairs[1].body_b, 3);
  EXPECT_EQ(out.max_a, 1);
  EXPECT_EQ(out.max_b, 3);
  ASSERT_EQ(out.centres_inside.size(), 1u);
  EXPECT_EQ(out.centres_inside[0].body, 3);
  EXPECT_EQ(out.centres_inside[0].static_body, 1);
  EXPECT_NEAR(out.centres_inside[0].depth, 0.3, 1e-14);  // 4.8 − 4.5

  // Random scenes: the sweep finds the same pairs and depths as all pairs by brute force.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<Real> u(0, 1);
  RandomPolygonOptions opt;
  opt.scale = 0.5;
  for (int scene = 0; scene < 20; ++scene) {
    const int n = 40;
    std::vector<WorldPolygon> polys(n);
    std::vector<Vec2> c(n);
    std::vector<std::uint8_t> st(n), pr(n);
    for (int i = 0; i < n; ++i) {
      c[i] = Vec2(4 * u(rng), 4 * u(rng));
      place(random_convex_polygon(rng, opt), Pose2{c[i], 6 * u(rng)}, polys[i]);
      st[i] = u(rng) < 0.2;
      pr[i] = u(rng) < 0.9;
    }
    scene_penetration(polys, c, st, pr, 0.02, scratch, out);
    Real max_depth = 0;
    std::vector<std::pair<int, int>> deep;
    int inside = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        if (!pr[i] || !pr[j] || (st[i] && st[j])) continue;
        const Real d = penetration_depth(polys[i], polys[j]).depth;
        max_depth = std::max(max_depth, d);
        if (d > 0.02) deep.emplace_back(i, j);
        if (st[i] != st[j]) {
          const int body = st[i] ? j : i, wall = st[i] ? i : j;
          inside += interior_depth(polys[wall], c[body]) > 0;
        }
      }
    EXPECT_EQ(out.max_depth, max_depth);
    ASSERT_EQ(out.deep_pairs.size(), deep.size());
    for (std::size_t k = 0; k < deep.size(); ++k) {
      EXPECT_EQ(out.deep_pairs[k].body_a, deep[k].first);
      EXPECT_EQ(out.deep_pairs[k].body_b, deep[k].second);
    }
    EXPECT_EQ(static_cast<int>(out.centres_inside.size()), inside);
  }
}

TEST(ScenePenetration3d, DeepPairsCentresInsideBruteForceAndNoReallocation) {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<Real> u(0, 1);
  RandomPolyhedronOptions opt;
  opt.points = 14;
  opt.diameter = 0.8;
  const int n = 30;
  std::vector<ConvexPolyhedron> shapes;
  for (int i = 0; i < n - 1; ++i) shapes.push_back(random_convex_polyhedron(rng, opt));
  shapes.push_back(make_box(Vec3(6, 6, 1)));  // a floor
  std::vector<const ConvexPolyhedron*> ptrs;
  for (const auto& s : shapes) ptrs.push_back(&s);
  std::vector<Pose3> poses(n);
  std::vector<WorldPolyhedron> placed(n);
  std::vector<std::uint8_t> st(n, 0), pr(n, 1);
  st[n - 1] = 1;
  PenetrationScratch scratch;
  ScenePenetration out;
  for (int scene = 0; scene < 15; ++scene) {
    for (int i = 0; i < n - 1; ++i) {
      poses[i] = Pose3{Vec3(3 * u(rng), 3 * u(rng), 1.2 * u(rng)), RandomRotation(rng)};
      place(*ptrs[i], poses[i], placed[i]);
    }
    poses[n - 1] = Pose3{Vec3(1.5, 1.5, -0.5), Quat::Identity()};
    place(*ptrs[n - 1], poses[n - 1], placed[n - 1]);
    if (scene == 0) poses[3].position = Vec3(1.2, 1.4, -0.3);  // centre inside the floor
    if (scene == 0) place(*ptrs[3], poses[3], placed[3]);
    scene_penetration(ptrs, placed, poses, st, pr, 0.01, scratch, out);
    if (scene == 0) {
      ASSERT_FALSE(out.centres_inside.empty());
      EXPECT_EQ(out.centres_inside[0].body, 3);
      EXPECT_EQ(out.centres_inside[0].static_body, n - 1);
      EXPECT_NEAR(out.centres_inside[0].depth, 0.3, 1e-12);
    }
    Real max_depth = 0;
    std::vector<std::pair<int, int>> deep;
    int inside = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        if (st[i] && st[j]) continue;
        const Real d = penetration_depth(*ptrs[i], placed[i], *ptrs[j], placed[j], scratch).depth;
        max_depth = std::max(max_depth, d);
        if (d > 0.01) deep.emplace_back(i, j);
        if (st[i] != st[j]) inside += interior_depth(placed[n - 1], poses[i].position) > 0;
      }
    EXPECT_EQ(out.max_depth, max_depth);
    EXPECT_GT(max_depth, 0);
    ASSERT_EQ(out.deep_pairs.size(), deep.size());
    for (std::size_t k = 0; k < deep.size(); ++k) {
      EXPECT_EQ(out.deep_pairs[k].body_a, deep[k].first);
      EXPECT_EQ(out.deep_pairs[k].body_b, deep[k].second);
    }
    EXPECT_EQ(static_cast<int>(out.centres_inside.size()), inside);
  }
  // Steady state: a repeated call reuses every buffer (same storage, same capacity).
  scene_penetration(ptrs, placed, poses, st, pr, 0.0, scratch, out);
  const auto snapshot = [&] {
    return std::vector<const void*>{out.deep_pairs.data(),
                                    out.centres_inside.data(),
                                    scratch.pairs.data(),
                                    scratch.boxes3.data(),
                                    scratch.sweep.sweep.order.data(),
                                    scratch.edge_a.data(),
                                    scratch.edge_b.data(),
                                    scratch.cross_a.data(),
                                    scratch.cross_b.data(),
                                    scratch.side_a.data(),
                                    scratch.side_b.data(),
                                    scratch.face1_b.data(),
                                    scratch.face2_b.data()};
  };
  const auto before = snapshot();
  for (int k = 0; k < 5; ++k) scene_penetration(ptrs, placed, poses, st, pr, 0.0, scratch, out);
  EXPECT_EQ(snapshot(), before);
}

}  // namespace
}  // namespace exactsim
