// Exact intersection volume of placed convex polyhedra: closed forms (diagonally offset cubes
// (1−a)³, a cube rotated about z over itself, containment, shared faces and edges), exact zeros
// for disjoint and touching shapes, symmetry, rigid-motion invariance, A∩A = A, and agreement
// with two independent oracles on random pairs (Monte-Carlo, and the hull of the candidate
// points — the authors' metric, docs/peg3d-experiment.md "Metric and statistics").
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

constexpr Real kPi = std::numbers::pi;

Pose3 At(const Vec3& p, const Quat& q = Quat::Identity()) { return Pose3{p, q}; }

Quat RandomRotation(std::mt19937_64& rng) {
  std::normal_distribution<Real> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

Real Volume(const ConvexPolyhedron& p) { return polyhedron_mass_properties(p, 1.0).volume; }

// Oracle: the hull of (vertices of each body inside the other) ∪ (edge–face crossings), the
// overlap construction of the authors' code (docs/peg3d-experiment.md), through an unrelated code
// path.
Real HullOracleVolume(const ConvexPolyhedron& a, const Pose3& pa, const ConvexPolyhedron& b,
                      const Pose3& pb) {
  std::vector<Vec3> pts;
  const auto collect = [&](const ConvexPolyhedron& p, const Pose3& pp, const ConvexPolyhedron& q,
                           const Pose3& pq) {
    const auto in_q = [&](const Vec3& w) {
      return max_face_distance(q, pq.inverse_apply(w)) <= 1e-12;
    };
    for (const Vec3& v : p.vertices)
      if (in_q(pp.apply(v))) pts.push_back(pp.apply(v));
    for (const PolyhedronEdge& e : p.edges) {
      const Vec3 s = pp.apply(p.vertices[e.tail]), t = pp.apply(p.vertices[e.head]);
      for (const PolyhedronFace& f : q.faces) {
        const Vec3 n = pq.rotate(f.normal);
        const Real d = f.offset + n.dot(pq.position);
        const Real ds = n.dot(s) - d, dt = n.dot(t) - d;
        if ((ds < 0) == (dt < 0)) continue;
        const Vec3 x = s + ds / (ds - dt) * (t - s);
        if (in_q(x)) pts.push_back(x);
      }
    }
  };
  collect(a, pa, b, pb);
  collect(b, pb, a, pa);
  try {
    return Volume(polyhedron_from_points(pts));
  } catch (const InputError&) {
    return 0;  // fewer than 4 points or flat: no volume
  }
}

TEST(PolyhedronIntersection, DiagonallyOffsetUnitCubes) {
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  for (Real a : {0.0, 0.1, 0.25, 0.5, 0.9, 0.999}) {
    const Real v = polyhedron_intersection_volume(cube, At(Vec3::Zero()), cube, At(Vec3(a, a, a)));
    EXPECT_NEAR(v, std::pow(1 - a, 3), 1e-15) << a;
  }
}

TEST(PolyhedronIntersection, CubeRotatedAboutZOverItself) {
  // Unit squares with a common centre, one turned by θ: each corner loses a right triangle with
  // legs a = 1/2 − (1 − sin θ)/(2 cos θ), b = 1/2 − (1 − cos θ)/(2 sin θ); area 1 − 2ab.
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  for (Real theta : {0.05, kPi / 6, kPi / 4, 1.2}) {
    const Real a = 0.5 - (1 - std::sin(theta)) / (2 * std::cos(theta));
    const Real b = 0.5 - (1 - std::cos(theta)) / (2 * std::sin(theta));
    const Quat q(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
    const Real v =
        polyhedron_intersection_volume(cube, At(Vec3::Zero()), cube, At(Vec3::Zero(), q));
    EXPECT_NEAR(v, 1 - 2 * a * b, 1e-14) << theta;
  }
  EXPECT_NEAR(polyhedron_intersection_volume(
                  cube, At(Vec3::Zero()), cube,
                  At(Vec3::Zero(), Quat(Eigen::AngleAxisd(kPi / 4, Vec3::UnitZ())))),
              2 * (std::sqrt(2.0) - 1), 1e-14);  // the regular octagon
}

TEST(PolyhedronIntersection, ContainmentGivesTheInnerVolume) {
  const ConvexPolyhedron big = make_box(Vec3(4, 4, 4));
  std::mt19937_64 rng(5);
  const ConvexPolyhedron small = random_convex_polyhedron(rng);
  const Pose3 ps = At(Vec3(0.3, -0.5, 0.2), RandomRotation(rng));
  const Pose3 pb = At(Vec3(0.1, 0, 0), RandomRotation(rng));
  EXPECT_NEAR(polyhedron_intersection_volume(small, ps, big, pb), Volume(small), 1e-15);
  EXPECT_NEAR(polyhedron_intersection_volume(big, pb, small, ps), Volume(small), 1e-15);
  // Inner box flush against the inside of a face (coincident faces).
  const ConvexPolyhedron inner = make_box(Vec3(1, 1, 1));
  const Pose3 flush = At(Vec3(1.5, 0, 0));
  EXPECT_NEAR(polyhedron_intersection_volume(inner, flush, big, At(Vec3::Zero())), 1, 1e-15);
  EXPECT_NEAR(polyhedron_intersection_volume(big, At(Vec3::Zero()), inner, flush), 1, 1e-15);
}

TEST(PolyhedronIntersection, SharedFacesAndEdges) {
  // Unit cubes offset along one, two and three axes by 1/2: coplanar faces and collinear edges.
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  EXPECT_NEAR(polyhedron_intersection_volume(cube, At(Vec3::Zero()), cube, At(Vec3(0.5, 0, 0))),
              0.5, 1e-15);
  EXPECT_NEAR(polyhedron_intersection_volume(cube, At(Vec3::Zero()), cube, At(Vec3(0.5, 0.5, 0))),
              0.25, 1e-15);
  EXPECT_NEAR(polyhedron_intersection_volume(cube, At(Vec3::Zero()), cube, At(Vec3(0, -0.5, 0.5))),
              0.25, 1e-15);
  // The same with a common rotation (round-off in every coordinate).
  const Quat q(Eigen::AngleAxisd(0.77, Vec3(3, -1, 2).normalized()));
  EXPECT_NEAR(polyhedron_intersection_volume(cube, At(Vec3(1, 2, 3), q), cube,
                                             At(Vec3(1, 2, 3) + q * Vec3(0.5, 0.5, 0), q)),
              0.25, 1e-14);
}

TEST(PolyhedronIntersection, SelfIntersectionIsTheWholeBody) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 10; ++i) {
    const ConvexPolyhedron p = random_convex_polyhedron(rng);
    const Pose3 pose = At(Vec3(i, -2.0 * i, 0.5), RandomRotation(rng));
    IntersectionPolyhedron out;
    const Real v = polyhedron_intersection_volume(p, pose, p, pose, &out);
    EXPECT_NEAR(v, Volume(p), 1e-15);
    EXPECT_EQ(out.vertices.size(), p.vertices.size());
    EXPECT_EQ(out.faces.size(), p.faces.size());
  }
}

TEST(PolyhedronIntersection, DisjointAndTouchingAreExactlyZero) {
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  const Pose3 origin = At(Vec3::Zero());
  // Disjoint, separated by a face plane or only by an edge–edge direction.
  EXPECT_EQ(polyhedron_intersection_volume(cube, origin, cube, At(Vec3(3, 0, 0))), 0.0);
  // A's top edge (along x) under B's bottom edge (along y), 1e-9 apart: no face plane of either
  // body separates them, the clipping must come out empty.
  const Quat tilt(Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()));
  const Quat roll(Eigen::AngleAxisd(kPi / 4, Vec3::UnitY()));
  EXPECT_EQ(polyhedron_intersection_volume(cube, At(Vec3::Zero(), tilt), cube,
                                           At(Vec3(0, 0, std::sqrt(2.0) + 1e-9), roll)),
            0.0);
  // Face to face, full and partial contact.
  for (const Vec3& offset : {Vec3(1, 0, 0), Vec3(0, 1, 0.3), Vec3(-0.2, 0.7, 1)})
    EXPECT_EQ(polyhedron_intersection_volume(cube, origin, cube, At(offset)), 0.0)
        << offset.transpose();
  // Face to face under a common rigid motion (coordinates carry round-off).
  std::mt19937_64 rng(17);
  for (int i = 0; i < 20; ++i) {
    const Quat q = RandomRotation(rng);
    const Vec3 p(0.3 * i, -1, 2);
    EXPECT_EQ(
        polyhedron_intersection_volume(cube, At(p, q), cube, At(p + q * Vec3(0.4, 1, -0.3), q)),
        0.0);
  }
  // Edge on face: B turned 45° about x rests on its lowest edge on A's top face.
  EXPECT_EQ(polyhedron_intersection_volume(cube, origin, cube,
                                           At(Vec3(0.1, 0.2, 0.5 + std::sqrt(0.5)), tilt)),
            0.0);
  // Vertex on face: B's body diagonal vertical, lowest vertex on A's top face.
  const Quat corner = Quat::FromTwoVectors(Vec3(1, 1, 1), Vec3(0, 0, 1));
  EXPECT_EQ(polyhedron_intersection_volume(cube, origin, cube,
                                           At(Vec3(0.2, -0.1, 0.5 + std::sqrt(3.0) / 2), corner)),
            0.0);
  // Edge on edge, crossing.
  EXPECT_EQ(polyhedron_intersection_volume(cube, At(Vec3::Zero(), tilt), cube,
                                           At(Vec3(0, 0, std::sqrt(2.0)), roll)),
            0.0);
}

TEST(PolyhedronIntersection, RandomPairsAgreeWithTheHullOracleSymmetryAndRigidMotion) {
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<Real> u(-0.3, 0.3);
  IntersectionScratch scratch;
  int overlapping = 0;
  for (int i = 0; i < 60; ++i) {
    RandomPolyhedronOptions o;
    o.points = 8 + i % 10;
    const ConvexPolyhedron a = random_convex_polyhedron(rng, o);
    const ConvexPolyhedron b = random_convex_polyhedron(rng, o);
    const Pose3 pa = At(Vec3(u(rng), u(rng), u(rng)), RandomRotation(rng));
    const Pose3 pb = At(Vec3(u(rng), u(rng), u(rng)), RandomRotation(rng));
    SCOPED_TRACE(i);
    const Real ab = polyhedron_intersection_volume(a, pa, b, pb, nullptr, &scratch);
    const Real ba = polyhedron_intersection_volume(b, pb, a, pa);
    ASSERT_TRUE(std::isfinite(ab));
    EXPECT_NEAR(ab, ba, 1e-14);
    EXPECT_NEAR(ab, HullOracleVolume(a, pa, b, pb), 1e-12);
    EXPECT_LE(ab, std::min(Volume(a), Volume(b)) + 1e-15);
    // Common rigid motion.
    const Quat g = RandomRotation(rng);
    const Vec3 shift(u(rng) * 10, u(rng) * 10, u(rng) * 10);
    const Real moved = polyhedron_intersection_volume(
        a, At(g * pa.position + shift, g * pa.orientation), b,
        At(g * pb.position + shift, g * pb.orientation), nullptr, &scratch);
    EXPECT_NEAR(moved, ab, 1e-14);
    overlapping += ab > 0;
  }
  EXPECT_GT(overlapping, 30);  // the sample exercises clipping, not only the early exits
}

TEST(PolyhedronIntersection, BoxesOnAGridWithQuarterTurns) {
  // Degenerate on purpose: sizes and offsets on a 1/4 grid, orientations quarter turns (whose
  // quaternions carry round-off), so faces coincide and edges overlap all the time. The closed
  // form is the product of the world-axis interval overlaps.
  std::mt19937_64 rng(123);
  std::uniform_int_distribution<int> grid(1, 6), shift(-6, 6), turn(0, 3), axis(0, 2);
  IntersectionScratch scratch;
  for (int i = 0; i < 300; ++i) {
    const Vec3 sa(grid(rng) / 4.0, grid(rng) / 4.0, grid(rng) / 4.0);
    const Vec3 sb(grid(rng) / 4.0, grid(rng) / 4.0, grid(rng) / 4.0);
    const Vec3 pa(shift(rng) / 8.0, shift(rng) / 8.0, shift(rng) / 8.0);
    const Vec3 pb(shift(rng) / 8.0, shift(rng) / 8.0, shift(rng) / 8.0);
    const Quat qa(Eigen::AngleAxisd(turn(rng) * kPi / 2, Vec3::Unit(axis(rng))));
    const Quat qb(Eigen::AngleAxisd(turn(rng) * kPi / 2, Vec3::Unit(axis(rng))));
    const ConvexPolyhedron a = make_box(sa), b = make_box(sb);
    WorldPolyhedron wa, wb;
    place(a, At(pa, qa), wa);
    place(b, At(pb, qb), wb);
    // World half-extents are the rotated sizes, exact up to the quaternion's round-off.
    const Vec3 lo = wa.aabb.lo.cwiseMax(wb.aabb.lo), hi = wa.aabb.hi.cwiseMin(wb.aabb.hi);
    const Real expected = (hi - lo).cwiseMax(0.0).prod();
    const Real v = polyhedron_intersection_volume(a, At(pa, qa), b, At(pb, qb), nullptr, &scratch);
    const Real w = polyhedron_intersection_volume(b, At(pb, qb), a, At(pa, qa), nullptr, &scratch);
    EXPECT_NEAR(v, expected, 1e-14) << i;
    EXPECT_NEAR(w, expected, 1e-14) << i;
    if (expected < 1e-12) {
      EXPECT_EQ(v, 0.0) << "touching or apart: exactly 0 (" << i << ")";
    }
  }
}

TEST(PolyhedronIntersection, NearlyCoincidentCopiesStayAccurate) {
  // A copy shifted by δ: V(A ∩ (A + δ u)) = V(A) − δ · (projected area of A along u) + O(δ²).
  // The tiny shifts probe the on-plane tolerance: a vertex within eps = 1e-12 · (r_A + r_B + |t|)
  // of a plane counts as on it, which moves that plane by at most eps, so the documented
  // accuracy (and symmetry) is eps · (surface area) plus round-off.
  std::mt19937_64 rng(4);
  for (int i = 0; i < 5; ++i) {
    const ConvexPolyhedron a = random_convex_polyhedron(rng);
    const Pose3 pa = At(Vec3(0.5, 0.25, -1), RandomRotation(rng));
    const Vec3 u = RandomRotation(rng) * Vec3::UnitX();
    Real projected = 0, surface = 0, radius = 0;  // projected = ½ Σ_f |η̂_f · u| A_f
    for (const Vec3& v : a.vertices) radius = std::max(radius, v.norm());
    for (const PolyhedronFace& f : a.faces) {
      Vec3 area = Vec3::Zero();
      for (size_t k = 1; k + 1 < f.vertices.size(); ++k)
        area += (a.vertices[f.vertices[k]] - a.vertices[f.vertices[0]])
                    .cross(a.vertices[f.vertices[k + 1]] - a.vertices[f.vertices[0]]) /
                2;
      projected += 0.5 * std::abs(pa.rotate(area).dot(u));
      surface += area.norm();
    }
    for (Real delta : {0.0, 1e-15, 1e-13, 1e-10, 1e-6}) {
      const Pose3 pb = At(pa.position + delta * u, pa.orientation);
      const Real v = polyhedron_intersection_volume(a, pa, a, pb);
      const Real w = polyhedron_intersection_volume(a, pb, a, pa);
      const Real tolerance = 1e-12 * (2 * radius + delta) * surface + 1e-15;
      EXPECT_NEAR(v, Volume(a) - delta * projected, tolerance + 10 * delta * delta) << delta;
      EXPECT_NEAR(v, w, tolerance) << delta;
    }
  }
}

TEST(PolyhedronIntersection, RandomFaceToFaceContactIsExactlyZero) {
  // B is turned so that one of its faces faces one of A's (opposite normals) and moved so the
  // two planes coincide: resting contact, exactly 0 despite round-off in B's world vertices.
  // Pushed in by δ, the overlap is positive and matches the hull oracle.
  std::mt19937_64 rng(21);
  for (int i = 0; i < 40; ++i) {
    const ConvexPolyhedron a = random_convex_polyhedron(rng);
    const ConvexPolyhedron b = random_convex_polyhedron(rng);
    const PolyhedronFace& fa = a.faces[i % a.num_faces()];
    const PolyhedronFace& fb = b.faces[(3 * i) % b.num_faces()];
    const Pose3 pa = At(Vec3(0.1 * i, 1, -2), RandomRotation(rng));
    const Vec3 na = pa.rotate(fa.normal);
    // Spin about the contact normal too, so B's face is not aligned with A's edges.
    const Quat spin(Eigen::AngleAxisd(0.37 * i, na));
    const Quat qb = spin * Quat::FromTwoVectors(fb.normal, -na);
    Vec3 ca = Vec3::Zero(), cb = Vec3::Zero();
    for (int v : fa.vertices) ca += a.vertices[v] / static_cast<Real>(fa.vertices.size());
    for (int v : fb.vertices) cb += b.vertices[v] / static_cast<Real>(fb.vertices.size());
    const Vec3 contact = pa.apply(ca);
    const Pose3 pb = At(contact - qb * cb, qb);
    SCOPED_TRACE(i);
    EXPECT_EQ(polyhedron_intersection_volume(a, pa, b, pb), 0.0);
    EXPECT_EQ(polyhedron_intersection_volume(b, pb, a, pa), 0.0);
    const Pose3 pushed = At(pb.position - 1e-3 * na, qb);
    const Real v = polyhedron_intersection_volume(a, pa, b, pushed);
    EXPECT_GT(v, 0);
    EXPECT_NEAR(v, HullOracleVolume(a, pa, b, pushed), 1e-12);
  }
}

TEST(PolyhedronIntersection, RandomPairsAgreeWithMonteCarlo) {
  std::mt19937_64 rng(77);
  for (int i = 0; i < 3; ++i) {
    const ConvexPolyhedron a = random_convex_polyhedron(rng);
    const ConvexPolyhedron b = random_convex_polyhedron(rng);
    const Pose3 pa = At(Vec3::Zero(), RandomRotation(rng));
    const Pose3 pb = At(Vec3(0.2, -0.1, 0.15), RandomRotation(rng));
    const Real exact = polyhedron_intersection_volume(a, pa, b, pb);
    WorldPolyhedron wa;
    place(a, pa, wa);
    const Vec3 lo = wa.aabb.lo, span = wa.aabb.hi - wa.aabb.lo;
    std::uniform_real_distribution<Real> u(0, 1);
    const int n = 100000;
    int hits = 0;
    for (int k = 0; k < n; ++k) {
      const Vec3 x = lo + span.cwiseProduct(Vec3(u(rng), u(rng), u(rng)));
      hits += max_face_distance(a, pa.inverse_apply(x)) <= 0 &&
              max_face_distance(b, pb.inverse_apply(x)) <= 0;
    }
    const Real f = static_cast<Real>(hits) / n;
    EXPECT_GT(f, 0.05);
    EXPECT_NEAR(span.prod() * f, exact, 5 * span.prod() * std::sqrt(f * (1 - f) / n));
  }
}

TEST(PolyhedronIntersection, OutputPolytopeIsInsideBothAndHasTheVolume) {
  std::mt19937_64 rng(41);
  const ConvexPolyhedron a = random_convex_polyhedron(rng);
  const ConvexPolyhedron b = make_box(Vec3(0.6, 0.5, 0.7));
  const Pose3 pa = At(Vec3(0.1, 0.2, -0.1), RandomRotation(rng));
  const Pose3 pb = At(Vec3(0.3, 0, 0.1), RandomRotation(rng));
  IntersectionPolyhedron out;
  const Real v = polyhedron_intersection_volume(a, pa, b, pb, &out);
  ASSERT_GT(v, 0);
  ASSERT_GE(out.faces.size(), 4u);
  for (const Vec3& x : out.vertices) {
    EXPECT_LE(max_face_distance(a, pa.inverse_apply(x)), 1e-14);
    EXPECT_LE(max_face_distance(b, pb.inverse_apply(x)), 1e-14);
  }
  // Closed, consistently oriented surface: divergence-theorem volume of the faces equals v,
  // and every directed edge has its reverse in another face.
  Real six_volume = 0;
  std::vector<std::pair<int, int>> half_edges;
  for (const auto& f : out.faces) {
    ASSERT_GE(f.size(), 3u);
    for (size_t i = 1; i + 1 < f.size(); ++i)
      six_volume += out.vertices[f[0]].dot(out.vertices[f[i]].cross(out.vertices[f[i + 1]]));
    for (size_t i = 0; i < f.size(); ++i) half_edges.emplace_back(f[i], f[(i + 1) % f.size()]);
  }
  EXPECT_NEAR(six_volume / 6, v, 1e-14);
  for (const auto& [p, q] : half_edges)
    EXPECT_NE(std::find(half_edges.begin(), half_edges.end(), std::pair{q, p}), half_edges.end());
  // The hull of the output vertices is the same polytope.
  EXPECT_NEAR(Volume(polyhedron_from_points(out.vertices)), v, 1e-14);
  // Disjoint: the output is emptied.
  EXPECT_EQ(polyhedron_intersection_volume(a, pa, b, At(Vec3(5, 5, 5)), &out), 0.0);
  EXPECT_TRUE(out.vertices.empty());
  EXPECT_TRUE(out.faces.empty());
}

TEST(PolyhedronIntersection, ScratchStopsAllocatingAfterWarmUp) {
  std::mt19937_64 rng(8);
  RandomPolyhedronOptions o;
  o.points = 12;
  const ConvexPolyhedron a = random_convex_polyhedron(rng, o);
  const ConvexPolyhedron b = random_convex_polyhedron(rng, o);
  const Pose3 pa = At(Vec3::Zero(), RandomRotation(rng));
  const Pose3 pb = At(Vec3(0.1, 0.1, 0), RandomRotation(rng));
  IntersectionScratch s;
  const auto capacity = [&] {
    return s.vertices.capacity() + s.next_vertices.capacity() + s.distance.capacity() +
           s.side.capacity() + s.face_index.capacity() + s.next_face_index.capacity() +
           s.face_start.capacity() + s.next_face_start.capacity() + s.cut_edges.capacity() +
           s.open_edges.capacity() + s.remap.capacity() + s.other_vertices.capacity();
  };
  const Real v0 = polyhedron_intersection_volume(a, pa, b, pb, nullptr, &s);
  polyhedron_intersection_volume(a, pa, b, pb, nullptr, &s);
  const auto warm = capacity();
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(polyhedron_intersection_volume(a, pa, b, pb, nullptr, &s), v0);
  EXPECT_EQ(capacity(), warm);
  EXPECT_EQ(polyhedron_intersection_volume(a, pa, b, pb), v0);
  EXPECT_GT(v0, 0);
}

TEST(PolyhedronIntersection, BadPosesAreRejected) {
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  Pose3 nan_position = At(Vec3(std::nan(""), 0, 0));
  try {
    polyhedron_intersection_volume(cube, nan_position, cube, At(Vec3::Zero()));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pose A is not finite"), std::string::npos);
  }
  Pose3 scaled = At(Vec3::Zero());
  scaled.orientation.coeffs() *= 2;
  try {
    polyhedron_intersection_volume(cube, At(Vec3::Zero()), cube, scaled);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pose B has a non-unit quaternion"), std::string::npos);
  }
}

}  // namespace
}  // namespace exactsim
