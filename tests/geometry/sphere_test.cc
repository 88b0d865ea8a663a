// Spheres: uniform-ball mass properties; sphere–sphere closest points and the lens volume against
// the two-cap closed form; sphere–polyhedron closest points on a placed cube (face, edge, corner,
// inside, frame invariance) and their optimality on random hulls; the ball ∩ polyhedron volume
// against closed forms (half, quarter and eighth ball, caps, containment), against an independent
// quadrature on random hulls, continuity through faces, edges and corners, and rigid-motion
// invariance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <sstream>
#include <vector>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/geometry/sphere.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace sphere_test {
namespace {

constexpr Real kPi = std::numbers::pi;

Real BallVolume(Real r) { return 4 * kPi / 3 * r * r * r; }
// Cap of height H of a ball of radius r.
Real CapVolume(Real r, Real H) { return kPi * H * H * (3 * r - H) / 3; }

Quat RandomRotation(std::mt19937_64& rng) {
  std::normal_distribution<Real> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

Vec3 RandomVec(std::mt19937_64& rng, Real half_width) {
  std::uniform_real_distribution<Real> u(-half_width, half_width);
  return Vec3(u(rng), u(rng), u(rng));
}

struct Placed {
  ConvexPolyhedron shape;
  Pose3 pose;
  WorldPolyhedron world;
};

Placed PlaceShape(const ConvexPolyhedron& shape, const Pose3& pose) {
  Placed p{shape, pose, {}};
  place(p.shape, p.pose, p.world);
  return p;
}

Real Overlap(const Placed& p, const Vec3& c, Real r) {
  return sphere_polyhedron_overlap_volume(c, r, p.shape, p.world);
}

SphereProximity Proximity(const Placed& p, const Vec3& c, Real r) {
  return sphere_polyhedron_proximity(c, r, p.shape, p.world);
}

// The face of a placed shape whose world normal is n.
int FaceWithNormal(const Placed& p, const Vec3& n) {
  for (int f = 0; f < p.shape.num_faces(); ++f)
    if ((p.world.face_normals[f] - n).norm() < 1e-12) return f;
  return -1;
}

// ---- Independent oracle for V(ball ∩ P) ---------------------------------------------------------
// V = ∫ a(z) dz with a(z) = area(disk ∩ slice polygon) at height z. a(z) is computed exactly by
// Green's theorem on the boundary of the intersection (the polygon's edge pieces inside the disk,
// and the circle's arcs inside the polygon, found from the edge lines' crossings of the circle): a
// different construction from the kernel's fan about the foot. a(z) is analytic between the heights
// where its combinatorics change: P's vertices, P's edges crossing the sphere, the z-extremes of
// each face plane's circle (tangency of the slice circle with a slice edge) and c_z ± r. Those
// are panel ends; at a panel end a(z) behaves like (z − z₀)^{k/2}, which the substitution
// z = a + (b − a) sin²(πu/2) turns into a smooth function of u, then Gauss–Legendre in u.

void GaussLegendre(int m, std::vector<Real>& x, std::vector<Real>& w) {
  x.resize(m);
  w.resize(m);
  for (int i = 0; i < m; ++i) {
    Real z = std::cos(kPi * (i + 0.75) / (m + 0.5));
    Real dp = 1;
    for (int it = 0; it < 100; ++it) {
      Real p0 = 1, p1 = z;  // P_{k−1}, P_k
      for (int k = 2; k <= m; ++k) {
        const Real p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = m * (z * p1 - p0) / (z * z - 1);
      const Real dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}

bool InConvexPolygon(const std::vector<Vec2>& poly, const Vec2& x) {
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2& a = poly[i];
    const Vec2& b = poly[(i + 1) % poly.size()];
    if (cross2(b - a, x - a) < 0) return false;
  }
  return true;
}

// area(disk(o, ρ) ∩ convex CCW polygon) by Green's theorem, coordinates about o.
Real DiskPolygonArea(const std::vector<Vec2>& poly, const Vec2& o, Real rho) {
  const size_t n = poly.size();
  if (n < 3 || !(rho > 0)) return 0;
  Real area = 0;
  std::vector<Real> angles;
  for (size_t i = 0; i < n; ++i) {
    const Vec2 A = poly[i] - o, e = poly[(i + 1) % n] - poly[i];
    const Real a = e.squaredNorm(), b = A.dot(e), c = A.squaredNorm() - rho * rho;
    const Real disc = b * b - a * c;
    if (!(a > 0) || disc <= 0) continue;
    const Real t1 = (-b - std::sqrt(disc)) / a, t2 = (-b + std::sqrt(disc)) / a;
    const Real s1 = std::max(t1, 0.0), s2 = std::min(t2, 1.0);
    if (s1 < s2) area += cross2(A + s1 * e, A + s2 * e) / 2;  // edge piece inside the disk
    for (Real t : {t1, t2})
      if (t >= 0 && t <= 1) angles.push_back(std::atan2(A.y() + t * e.y(), A.x() + t * e.x()));
  }
  if (angles.empty()) return area + (InConvexPolygon(poly, o + Vec2(rho, 0)) ? kPi * rho * rho : 0);
  std::sort(angles.begin(), angles.end());
  for (size_t k = 0; k < angles.size(); ++k) {
    const Real lo = angles[k];
    const Real hi = k + 1 < angles.size() ? angles[k + 1] : angles[0] + 2 * kPi;
    const Real mid = (lo + hi) / 2;
    if (hi > lo && InConvexPolygon(poly, o + rho * Vec2(std::cos(mid), std::sin(mid))))
      area += rho * rho * (hi - lo) / 2;  // arc inside the polygon
  }
  return area;
}

// The slice of P at height z, counter-clockwise (xy).
std::vector<Vec2> Slice(const Placed& p, Real z) {
  std::vector<Vec2> pts;
  for (const PolyhedronEdge& e : p.shape.edges) {
    const Vec3& A = p.world.vertices[e.tail];
    const Vec3& B = p.world.vertices[e.head];
    if ((A.z() - z) * (B.z() - z) < 0) {
      const Vec3 X = A + (z - A.z()) / (B.z() - A.z()) * (B - A);
      pts.emplace_back(X.x(), X.y());
    }
  }
  if (pts.size() < 3) return {};
  Vec2 mean = Vec2::Zero();
  for (const Vec2& q : pts) mean += q;
  mean /= static_cast<Real>(pts.size());
  std::sort(pts.begin(), pts.end(), [&](const Vec2& a, const Vec2& b) {
    return std::atan2(a.y() - mean.y(), a.x() - mean.x()) <
           std::atan2(b.y() - mean.y(), b.x() - mean.x());
  });
  return pts;
}

Real QuadratureVolume(const Placed& p, const Vec3& c, Real r, int m) {
  const Real zlo = std::max(p.world.aabb.lo.z(), c.z() - r);
  const Real zhi = std::min(p.world.aabb.hi.z(), c.z() + r);
  if (!(zlo < zhi)) return 0;
  std::vector<Real> cuts = {zlo, zhi};
  const auto cut = [&](Real z) {
    if (z > zlo && z < zhi) cuts.push_back(z);
  };
  for (const Vec3& v : p.world.vertices) cut(v.z());
  for (const PolyhedronEdge& e : p.shape.edges) {  // edges crossing the sphere
    const Vec3 A = p.world.vertices[e.tail] - c,
               d = p.world.vertices[e.head] - p.world.vertices[e.tail];
    const Real a = d.squaredNorm(), b = A.dot(d), q = A.squaredNorm() - r * r;
    if (const Real disc = b * b - a * q; disc > 0)
      for (Real t : {(-b - std::sqrt(disc)) / a, (-b + std::sqrt(disc)) / a})
        if (t > 0 && t < 1) cut(c.z() + A.z() + t * d.z());
  }
  for (int f = 0; f < p.shape.num_faces(); ++f) {  // z-extremes of each face plane's circle
    const Vec3& n = p.world.face_normals[f];
    const Real h = p.world.face_offsets[f] - n.dot(c);
    const Real k = (1 - n.z() * n.z()) * (r * r - h * h);
    if (k > 0)
      for (Real s : {-1.0, 1.0}) cut(c.z() + h * n.z() + s * std::sqrt(k));
  }
  std::sort(cuts.begin(), cuts.end());
  std::vector<Real> x, w;
  GaussLegendre(m, x, w);
  Real volume = 0;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const Real a = cuts[i], b = cuts[i + 1];
    if (!(b > a)) continue;
    for (int j = 0; j < m; ++j) {
      const Real u = (x[j] + 1) / 2, s = std::sin(kPi * u / 2);
      const Real z = a + (b - a) * s * s;
      const Real dz = (b - a) * kPi / 2 * std::sin(kPi * u);  // dz/du
      const Real t = z - c.z();
      const Real rho = std::sqrt(std::max(r * r - t * t, 0.0));
      volume += w[j] / 2 * dz * DiskPolygonArea(Slice(p, z), c.head<2>(), rho);
    }
  }
  return volume;
}

// ---- Mass properties ----------------------------------------------------------------------------

TEST(SphereMass, UniformBall) {
  const SphereMassProperties m = sphere_mass_properties(0.1, 1000);
  // V = 4/3 π 0.1³ = 4.18879020478639e-3 m³, m = 4.18879020478639 kg,
  // I = 2/5 m r² = 1.675516081914556e-2 kg m².
  EXPECT_NEAR(m.volume, 4.18879020478639e-3, 1e-17);
  EXPECT_NEAR(m.mass, 4.18879020478639, 1e-13);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(m.inertia(i, j), i == j ? 1.675516081914556e-2 : 0.0, 1e-16);
  EXPECT_THROW(sphere_mass_properties(0, 1000), InputError);
  EXPECT_THROW(sphere_mass_properties(0.1, -1), InputError);
  EXPECT_THROW(sphere_mass_properties(std::nan(""), 1), InputError);
}

// ---- Sphere–sphere ------------------------------------------------------------------------------

TEST(SphereSphere, Proximity) {
  const Vec3 ca(1, 2, 3), d(0.3, 0.4, 1.2);  // |d| = 1.3
  const SphereProximity apart = sphere_sphere_proximity(ca, 0.5, ca + d, 0.7);
  EXPECT_NEAR(apart.gap, 0.1, 1e-15);
  EXPECT_LT((apart.normal - d / 1.3).norm(), 1e-15);
  EXPECT_LT((apart.point_sphere - (ca + 0.5 / 1.3 * d)).norm(), 1e-15);
  EXPECT_LT((apart.point_other - (ca + 0.6 / 1.3 * d)).norm(), 1e-15);  // c_b − r_b n
  EXPECT_EQ(apart.face, -1);

  const SphereProximity overlapping = sphere_sphere_proximity(ca, 0.9, ca + d, 0.7);
  EXPECT_NEAR(overlapping.gap, -0.3, 1e-15);
  EXPECT_LT((overlapping.point_other - (ca + 0.6 / 1.3 * d)).norm(), 1e-15);

  const SphereProximity same = sphere_sphere_proximity(ca, 0.2, ca, 0.3);
  EXPECT_EQ(same.normal, Vec3::UnitX());
  EXPECT_NEAR(same.gap, -0.5, 1e-15);
  EXPECT_LT((same.point_sphere - (ca + Vec3(0.2, 0, 0))).norm(), 1e-15);
  EXPECT_LT((same.point_other - (ca + Vec3(-0.3, 0, 0))).norm(), 1e-15);
}

TEST(SphereSphere, LensVolume) {
  const Vec3 ca(0.3, -1, 2);
  const Vec3 u = Vec3(1, -2, 0.5).normalized();
  for (const auto& [ra, rb] : {std::pair{1.0, 1.0}, std::pair{1.0, 0.4}, std::pair{0.3, 0.8}}) {
    const Real lo = std::abs(ra - rb), hi = ra + rb;
    for (int k = 1; k < 20; ++k) {
      const Real d = lo + (hi - lo) * k / 20;
      // Two caps cut by the radical plane at x from c_a (x < 0: beyond c_a): heights
      // r_a − x and r_b − (d − x).
      const Real x = (d * d + ra * ra - rb * rb) / (2 * d);
      const Real expected = CapVolume(ra, ra - x) + CapVolume(rb, rb - (d - x));
      const Vec3 cb = ca + d * u;
      const Real v = sphere_sphere_overlap_volume(ca, ra, cb, rb);
      EXPECT_NEAR(v, expected, 1e-14 * BallVolume(std::min(ra, rb))) << ra << " " << rb << " " << d;
      EXPECT_EQ(v, sphere_sphere_overlap_volume(cb, rb, ca, ra));  // symmetric bit for bit
    }
    EXPECT_EQ(sphere_sphere_overlap_volume(Vec3::Zero(), ra, Vec3(0, hi, 0), rb), 0);  // touching
    EXPECT_EQ(sphere_sphere_overlap_volume(ca, ra, ca + 1.01 * hi * u, rb), 0);        // apart
    // One inside the other (also concentric): the smaller ball.
    for (Real d : {0.0, 0.5 * lo, lo})
      EXPECT_NEAR(sphere_sphere_overlap_volume(ca, ra, ca + d * u, rb),
                  BallVolume(std::min(ra, rb)), 1e-15);
  }
  EXPECT_EQ(sphere_sphere_overlap_volume(ca, 0, ca, 1), 0);
}

// ---- Sphere–polyhedron closest points -----------------------------------------------------------

TEST(SpherePolyhedronProximity, UnitCube) {
  const Vec3 p0(0.4, -1.2, 2);
  const Placed cube = PlaceShape(make_box(Vec3(1, 1, 1)), Pose3{p0, Quat::Identity()});
  const Real r = 0.1;
  {  // facing the +x face
    const SphereProximity q = Proximity(cube, p0 + Vec3(0.8, 0.1, -0.2), r);
    EXPECT_NEAR(q.gap, 0.3 - r, 1e-15);
    EXPECT_LT((q.normal + Vec3::UnitX()).norm(), 1e-15);
    EXPECT_LT((q.point_other - (p0 + Vec3(0.5, 0.1, -0.2))).norm(), 1e-15);
    EXPECT_LT((q.point_sphere - (p0 + Vec3(0.7, 0.1, -0.2))).norm(), 1e-15);
    EXPECT_EQ(q.face, FaceWithNormal(cube, Vec3::UnitX()));
  }
  {  // beside the edge x = y = 0.5: closest point on the edge
    const SphereProximity q = Proximity(cube, p0 + Vec3(0.8, 0.9, 0.1), r);
    EXPECT_NEAR(q.gap, 0.5 - r, 1e-15);
    EXPECT_LT((q.normal - Vec3(-0.6, -0.8, 0)).norm(), 1e-15);
    EXPECT_LT((q.point_other - (p0 + Vec3(0.5, 0.5, 0.1))).norm(), 1e-15);
    EXPECT_TRUE(q.face == FaceWithNormal(cube, Vec3::UnitX()) ||
                q.face == FaceWithNormal(cube, Vec3::UnitY()));
  }
  {  // beyond the corner (0.5, 0.5, 0.5)
    const SphereProximity q = Proximity(cube, p0 + Vec3(0.7, 0.8, 1.1), r);
    EXPECT_NEAR(q.gap, 0.7 - r, 1e-15);
    EXPECT_LT((q.normal + Vec3(0.2, 0.3, 0.6) / 0.7).norm(), 1e-15);
    EXPECT_LT((q.point_other - (p0 + Vec3(0.5, 0.5, 0.5))).norm(), 1e-15);
    EXPECT_LT((q.point_sphere - (q.point_other - (0.7 - r) * q.normal)).norm(), 1e-15);
  }
  {  // inside, nearest to the +x face: out through it
    const SphereProximity q = Proximity(cube, p0 + Vec3(0.3, 0.1, 0), r);
    EXPECT_NEAR(q.gap, -0.2 - r, 1e-15);
    EXPECT_LT((q.normal + Vec3::UnitX()).norm(), 1e-15);
    EXPECT_LT((q.point_other - (p0 + Vec3(0.5, 0.1, 0))).norm(), 1e-15);
    EXPECT_LT((q.point_sphere - (p0 + Vec3(0.2, 0.1, 0))).norm(), 1e-15);
    EXPECT_EQ(q.face, FaceWithNormal(cube, Vec3::UnitX()));
  }
  {  // inside, nearest to the −z face
    const SphereProximity q = Proximity(cube, p0 + Vec3(0.1, -0.2, -0.45), r);
    EXPECT_NEAR(q.gap, -0.05 - r, 1e-15);
    EXPECT_LT((q.normal - Vec3::UnitZ()).norm(), 1e-15);
    EXPECT_EQ(q.face, FaceWithNormal(cube, -Vec3::UnitZ()));
  }
  {  // centre on the +y face: the inside branch, gap −r
    const SphereProximity q = Proximity(cube, p0 + Vec3(0.1, 0.5, 0.2), r);
    EXPECT_NEAR(q.gap, -r, 1e-15);
    EXPECT_LT((q.normal + Vec3::UnitY()).norm(), 1e-15);
    EXPECT_LT((q.point_other - (p0 + Vec3(0.1, 0.5, 0.2))).norm(), 1e-15);
  }
}

// The whole configuration moved rigidly: the same gap, the normal and points moved with it.
TEST(SpherePolyhedronProximity, FrameInvariance) {
  std::mt19937_64 rng(11);
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  const Placed base = PlaceShape(cube, Pose3{Vec3(0.4, -1.2, 2), Quat::Identity()});
  const std::vector<Vec3> offsets = {Vec3(0.8, 0.1, -0.2), Vec3(0.8, 0.9, 0.1), Vec3(0.7, 0.8, 1.1),
                                     Vec3(0.3, 0.1, 0), Vec3(-0.2, 0.1, 0.05)};
  for (int trial = 0; trial < 10; ++trial) {
    const Quat q = RandomRotation(rng);
    const Vec3 t = RandomVec(rng, 3);
    const Placed moved = PlaceShape(cube, Pose3{q * base.pose.position + t, q});
    for (const Vec3& o : offsets) {
      const Vec3 c = base.pose.position + o;
      const SphereProximity a = Proximity(base, c, 0.15);
      const SphereProximity b = Proximity(moved, q * c + t, 0.15);
      EXPECT_NEAR(a.gap, b.gap, 1e-12);
      EXPECT_LT((q * a.normal - b.normal).norm(), 1e-12);
      EXPECT_LT((q * a.point_other + t - b.point_other).norm(), 1e-12);
      EXPECT_LT((q * a.point_sphere + t - b.point_sphere).norm(), 1e-12);
    }
  }
}

// On random hulls, outside: y is on P and closest (every vertex v has (v − y)·(c − y) ≤ 0, the
// optimality condition of the projection onto a convex set); inside: the deepest face. Always:
// the point relations of SphereProximity.
TEST(SpherePolyhedronProximity, RandomHullsClosestPoint) {
  std::mt19937_64 rng(5);
  int outside = 0, inside = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const ConvexPolyhedron shape = random_convex_polyhedron(rng);
    const Placed p = PlaceShape(shape, Pose3{RandomVec(rng, 1), RandomRotation(rng)});
    const Vec3 c = p.pose.position + RandomVec(rng, trial % 2 ? 1 : 0.15);
    const Real r = 0.2;
    const SphereProximity q = Proximity(p, c, r);
    ASSERT_GE(q.face, 0);
    EXPECT_NEAR(q.normal.norm(), 1, 1e-14);
    EXPECT_LT((q.point_sphere - (c + r * q.normal)).norm(), 1e-14);
    EXPECT_LT((q.point_other - (q.point_sphere + q.gap * q.normal)).norm(), 1e-14);
    int deepest = -1;
    const Real s = deepest_face(p.world, c, deepest);
    // point_other lies on the plane of `face` and inside or on P.
    EXPECT_NEAR(p.world.face_normals[q.face].dot(q.point_other), p.world.face_offsets[q.face],
                1e-14);
    int unused = -1;
    EXPECT_LE(deepest_face(p.world, q.point_other, unused), 1e-14);
    if (s > 0) {
      ++outside;
      const Vec3& y = q.point_other;
      for (const Vec3& v : p.world.vertices) EXPECT_LE((v - y).dot(c - y), 1e-14);
      EXPECT_GE(q.gap + r, s - 1e-14);  // the distance to P is at least that to any face plane
    } else {
      ++inside;
      EXPECT_EQ(q.face, deepest);
      EXPECT_NEAR(q.gap, s - r, 1e-15);
    }
  }
  EXPECT_GT(outside, 50);
  EXPECT_GT(inside, 5);
}

// ---- Ball ∩ polyhedron: closed forms ------------------------------------------------------------

// A 4 × 4 × 4 cube (corners at ±2 about its centre) and r = 0.5, at the identity and at a rotated
// pose: a ball centred on a face, an edge, a corner gives 1/2, 1/4, 1/8 of the ball.
TEST(SpherePolyhedronOverlap, FaceEdgeCornerFractions) {
  std::mt19937_64 rng(7);
  const ConvexPolyhedron cube = make_box(Vec3(4, 4, 4));
  const Real r = 0.5, ball = BallVolume(r);
  for (int trial = 0; trial < 6; ++trial) {
    const Pose3 pose = trial == 0 ? Pose3{} : Pose3{RandomVec(rng, 2), RandomRotation(rng)};
    const Placed p = PlaceShape(cube, pose);
    const auto at = [&](const Vec3& local) { return pose.apply(local); };
    const Real tol = 1e-13 * ball;
    EXPECT_NEAR(Overlap(p, at(Vec3(0.5, -0.3, 0.2)), r), ball, tol);  // inside
    EXPECT_NEAR(Overlap(p, at(Vec3(1.6, -0.3, 0.2)), r), ball - CapVolume(r, 0.1), tol);
    EXPECT_NEAR(Overlap(p, at(Vec3(2, 0.3, -0.2)), r), ball / 2, tol);   // on a face
    EXPECT_NEAR(Overlap(p, at(Vec3(-0.4, -2, 0.7)), r), ball / 2, tol);  // on another face
    EXPECT_NEAR(Overlap(p, at(Vec3(2, 2, 0.3)), r), ball / 4, tol);      // on an edge
    EXPECT_NEAR(Overlap(p, at(Vec3(0.3, -2, -2)), r), ball / 4, tol);    // on another edge
    EXPECT_NEAR(Overlap(p, at(Vec3(2, 2, 2)), r), ball / 8, tol);        // on a corner
    EXPECT_NEAR(Overlap(p, at(Vec3(-2, 2, -2)), r), ball / 8, tol);      // on another corner
    EXPECT_EQ(Overlap(p, at(Vec3(2.6, 0, 0)), r), 0);                    // apart
    EXPECT_EQ(Overlap(p, at(Vec3(2.3, 2.3, 2.3)), r), 0);                // apart, by a corner
    EXPECT_EQ(Overlap(p, at(Vec3(2.4, -2.4, 0.1)), r), 0);               // apart, by an edge
    // Touching: exactly 0 at the identity; rotated, the centre is r from the face only to
    // round-off, and the overlap is then that of a cap of height ~1e-16.
    if (trial == 0) {
      EXPECT_EQ(Overlap(p, at(Vec3(2.5, 0, 0)), r), 0);
    }
    EXPECT_LT(Overlap(p, at(Vec3(2.5, 0, 0)), r), 1e-25);
  }
}

// Caps through one face at every depth (both sides of the face, and both evaluation forms: the
// centre within r/4 of the face and farther), and two caps through opposite faces of a slab.
TEST(SpherePolyhedronOverlap, Caps) {
  std::mt19937_64 rng(8);
  const Real r = 0.5, ball = BallVolume(r);
  for (int trial = 0; trial < 4; ++trial) {
    const Pose3 pose = trial == 0 ? Pose3{} : Pose3{RandomVec(rng, 2), RandomRotation(rng)};
    const Placed cube = PlaceShape(make_box(Vec3(4, 4, 4)), pose);
    for (int k = -50; k <= 50; ++k) {
      const Real x = 0.012 * k;  // centre at x beyond the face x = 2 (x < 0: inside)
      const Real H = std::clamp(r - x, 0.0, 2 * r);
      const Real v = Overlap(cube, pose.apply(Vec3(2 + x, 0.3, -0.7)), r);
      EXPECT_NEAR(v, CapVolume(r, H), 1e-13 * ball) << x;
    }
    // A slab 0.4 thick: the ball minus two caps of height r − 0.2 (centre in the middle, and
    // shifted by 0.05).
    const Placed slab = PlaceShape(make_box(Vec3(4, 0.4, 4)), pose);
    for (Real y : {0.0, 0.05}) {
      const Real v = Overlap(slab, pose.apply(Vec3(0.1, y, -0.2)), r);
      EXPECT_NEAR(v, ball - CapVolume(r, r - 0.2 + y) - CapVolume(r, r - 0.2 - y), 1e-13 * ball);
    }
  }
}

// A small cap (first contact): relative accuracy is kept for H ≪ r.
TEST(SpherePolyhedronOverlap, SmallCapRelativeAccuracy) {
  const Placed cube = PlaceShape(make_box(Vec3(4, 4, 4)), Pose3{});
  const Real r = 0.5;
  for (Real H : {1e-2, 1e-4, 1e-6}) {
    const Real v = Overlap(cube, Vec3(2 + r - H, 0.3, -0.7), r);
    // The centre's x is rounded; the exact cap height is then r − (x − 2) (both exact).
    const Real Hx = r - ((2 + r - H) - 2);
    EXPECT_NEAR(v, CapVolume(r, Hx), 1e-9 * CapVolume(r, H)) << H;
  }
}

// A ball containing the whole cube: the cube's volume.
TEST(SpherePolyhedronOverlap, BallContainsCube) {
  std::mt19937_64 rng(9);
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  for (int trial = 0; trial < 5; ++trial) {
    const Pose3 pose = trial == 0 ? Pose3{} : Pose3{RandomVec(rng, 2), RandomRotation(rng)};
    const Placed p = PlaceShape(cube, pose);
    for (Real r : {0.87, 1.0, 2.0, 30.0})  // √3/2 ≈ 0.866: the corners are inside from r = 0.87
      EXPECT_NEAR(Overlap(p, pose.apply(Vec3(0, 0, 0)), r), 1.0, 1e-13 * std::max(1.0, r * r * r));
    EXPECT_NEAR(Overlap(p, pose.apply(Vec3(0.1, -0.2, 0.05)), 2.0), 1.0, 1e-13);
  }
}

// ---- Ball ∩ polyhedron: random shapes against the quadrature ------------------------------------

// Random hulls (diameter 1) at random poses, random radii in [0.05, 0.9] and centres (uniform in a
// box around the shape, or on one of its vertices, edges or faces). The quadrature converges
// spectrally: its orders m = 24 and 48 agree to ≈ 5e-15 · ball here (checked below: < 1e-13), so
// m = 48 is exact to round-off and the tolerance 1e-13 · ball (the kernel agrees to ≈ 1e-15 ·
// ball) tests the kernel, with room for round-off on other platforms.
TEST(SpherePolyhedronOverlap, RandomHullsAgainstQuadrature) {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<Real> unit(0, 1);
  int partial = 0;
  Real worst = 0, worst_oracle = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const ConvexPolyhedron shape = random_convex_polyhedron(rng);
    const Placed p = PlaceShape(shape, Pose3{RandomVec(rng, 1), RandomRotation(rng)});
    const Real r = 0.05 + 0.85 * unit(rng);
    Vec3 c = p.pose.position + RandomVec(rng, 0.8);
    const int kind = trial % 4;
    if (kind == 1) {  // on a vertex
      c = p.world.vertices[trial % p.world.vertices.size()];
    } else if (kind == 2) {  // on an edge
      const PolyhedronEdge& e = shape.edges[trial % shape.edges.size()];
      const Real t = unit(rng);
      c = (1 - t) * p.world.vertices[e.tail] + t * p.world.vertices[e.head];
    } else if (kind == 3) {  // on a face (a convex combination of its corners)
      const PolyhedronFace& f = shape.faces[trial % shape.faces.size()];
      Real total = 0;
      c.setZero();
      for (int v : f.vertices) {
        const Real wv = unit(rng);
        c += wv * p.world.vertices[v];
        total += wv;
      }
      c /= total;
    }
    const Real ball = BallVolume(r);
    const Real v = Overlap(p, c, r);
    const Real oracle = QuadratureVolume(p, c, r, 48);
    const Real oracle_low = QuadratureVolume(p, c, r, 24);
    EXPECT_NEAR(v, oracle, 1e-13 * ball) << "trial " << trial << " kind " << kind << " r " << r;
    worst = std::max(worst, std::abs(v - oracle) / ball);
    worst_oracle = std::max(worst_oracle, std::abs(oracle - oracle_low) / ball);
    if (v > 1e-3 * ball && v < 0.999 * ball) ++partial;
  }
  EXPECT_GT(partial, 40);
  std::ostringstream record;
  record << std::scientific << worst << " (oracle spread " << worst_oracle << ")";
  RecordProperty("worst_error_over_ball", record.str());
  EXPECT_LT(worst_oracle, 1e-13);  // the oracle itself is converged
}

// ---- Ball ∩ polyhedron: continuity and invariance -----------------------------------------------

// The centre moved by 1e-12 in many directions from a point on a face, an edge and a corner of a
// rotated cube: within 1e-12 relative of the exact 1/2, 1/4, 1/8 ball, plus the largest possible
// true change π r² · 1e-12 (|∇_c V| is the area of a section of B ∩ P, at most π r²).
TEST(SpherePolyhedronOverlap, ContinuityThroughFacesEdgesCorners) {
  std::mt19937_64 rng(13);
  const Real r = 0.5, ball = BallVolume(r), t = 1e-12;
  for (int trial = 0; trial < 4; ++trial) {
    const Pose3 pose = trial == 0 ? Pose3{} : Pose3{RandomVec(rng, 2), RandomRotation(rng)};
    const Placed p = PlaceShape(make_box(Vec3(4, 4, 4)), pose);
    const std::vector<std::pair<Vec3, Real>> points = {
        {Vec3(2, 0.3, -0.2), ball / 2}, {Vec3(2, 2, 0.3), ball / 4}, {Vec3(2, 2, 2), ball / 8}};
    for (const auto& [local, exact] : points) {
      std::vector<Vec3> dirs = {Vec3(1, 0, 0),
                                Vec3(-1, 0, 0),
                                Vec3(1, 1, 0).normalized(),
                                Vec3(-1, -1, 0).normalized(),
                                Vec3(1, -1, 0).normalized(),
                                Vec3(1, 1, 1).normalized(),
                                Vec3(-1, -1, -1).normalized()};
      for (int k = 0; k < 20; ++k) dirs.push_back(RandomVec(rng, 1).normalized());
      const Real tol = 1e-12 * exact + kPi * r * r * t;
      for (const Vec3& d : dirs) {
        const Real v = Overlap(p, pose.apply(local + t * d), r);
        EXPECT_NEAR(v, exact, tol) << local.transpose() << " / " << d.transpose();
      }
      EXPECT_NEAR(Overlap(p, pose.apply(local), r), exact, 1e-12 * exact);
    }
  }
}

// Random shapes: a centre moved across a face plane by ±1e-12 along the normal (through the face
// polygon, and across its boundary where the plane meets an edge) changes V by at most
// π r² · 2e-12 (+ 1e-12 relative).
TEST(SpherePolyhedronOverlap, ContinuityRandomHulls) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<Real> unit(0, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const ConvexPolyhedron shape = random_convex_polyhedron(rng);
    const Placed p = PlaceShape(shape, Pose3{RandomVec(rng, 1), RandomRotation(rng)});
    const int f = trial % shape.num_faces();
    const std::vector<int>& loop = shape.faces[f].vertices;
    // A point on the face: interior (barycentre of two corners and the centroid), or on an edge.
    Vec3 centroid = Vec3::Zero();
    for (int v : loop) centroid += p.world.vertices[v];
    centroid /= static_cast<Real>(loop.size());
    const Vec3 a = p.world.vertices[loop[0]], b = p.world.vertices[loop[1]];
    const Real s = unit(rng);
    const Vec3 c0 =
        trial % 2 ? Vec3((1 - s) * a + s * b) : Vec3((centroid + (1 - s) * a + s * b) / 2);
    const Vec3& n = p.world.face_normals[f];
    const Real r = 0.1 + 0.5 * unit(rng), t = 1e-12;
    const Real v0 = Overlap(p, c0, r);
    const Real tol = 1e-12 * v0 + kPi * r * r * 2 * t;
    EXPECT_GT(v0, 0);
    EXPECT_NEAR(Overlap(p, c0 + t * n, r), v0, tol) << trial;
    EXPECT_NEAR(Overlap(p, c0 - t * n, r), v0, tol) << trial;
  }
}

TEST(SpherePolyhedronOverlap, RigidMotionInvariance) {
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<Real> unit(0, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const ConvexPolyhedron shape = random_convex_polyhedron(rng);
    const Pose3 pose{RandomVec(rng, 1), RandomRotation(rng)};
    const Placed p = PlaceShape(shape, pose);
    const Vec3 c = pose.position + RandomVec(rng, 0.7);
    const Real r = 0.05 + 0.8 * unit(rng);
    const Quat q = RandomRotation(rng);
    const Vec3 t = RandomVec(rng, 5);
    const Placed moved = PlaceShape(shape, Pose3{q * pose.position + t, q * pose.orientation});
    EXPECT_NEAR(Overlap(p, c, r), Overlap(moved, q * c + t, r), 1e-12 * BallVolume(r)) << trial;
  }
}

// Degenerate input stays finite and in [0, ball]: centres on vertices and edges with tiny and huge
// radii, and a non-positive radius gives 0.
TEST(SpherePolyhedronOverlap, DegenerateInputStaysFinite) {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 20; ++trial) {
    const ConvexPolyhedron shape = random_convex_polyhedron(rng);
    const Placed p = PlaceShape(shape, Pose3{RandomVec(rng, 1), RandomRotation(rng)});
    for (const Vec3& v : p.world.vertices)
      for (Real r : {1e-300, 1e-12, 1e-6, 0.3, 1e6}) {
        const Real volume = Overlap(p, v, r);
        EXPECT_TRUE(std::isfinite(volume));
        EXPECT_GE(volume, 0);
        EXPECT_LE(volume, BallVolume(r));
      }
    const PolyhedronEdge& e = shape.edges[0];
    const Vec3 mid = (p.world.vertices[e.tail] + p.world.vertices[e.head]) / 2;
    EXPECT_TRUE(std::isfinite(Overlap(p, mid, 1e-9)));
    EXPECT_EQ(Overlap(p, mid, 0), 0);
    EXPECT_EQ(Overlap(p, mid, -1), 0);
  }
}

}  // namespace
}  // namespace sphere_test
}  // namespace exactsim
