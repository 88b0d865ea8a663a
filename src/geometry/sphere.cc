// Spheres: uniform-ball mass properties, closest points against a sphere or a placed convex
// polyhedron, and exact overlap volumes (the lens of two balls; ball ∩ convex polyhedron by the
// divergence theorem).
//
// Ball B (centre c, radius r) ∩ convex polyhedron P. With F(x) = (x − c)(1 − r³/|x − c|³)/3:
// div F = 1 away from c, F·n = 0 on the sphere |x − c| = r, and the point source at c contributes
// 4π r³/3 when c is inside P. On face f (outward unit normal η_f, plane η_f·x = d_f),
// F·η_f = h_f (1 − r³/|x − c|³)/3 with h_f = d_f − η_f·c (> 0 when c is on the inner side), so
//
//   V(B ∩ P) = (4π/3) r³ [c ∈ P] − Σ_f sgn(h_f) U_f,   U_f = (r³ Ω(R_f) − |h_f| A(R_f))/3,   (1)
//
// where R_f = (face polygon F_f) ∩ (disk of the sphere's section by the face plane: centre the
// foot p_f = c + h_f η_f, radius ρ_f = √(r² − h_f²); empty when |h_f| ≥ r), A = area and Ω =
// solid angle seen from c (≥ 0). Since Σ_f sgn(h_f) Ω(F_f) = 4π [c ∈ P] (Gauss), (1) is also
//
//   V(B ∩ P) = Σ_f sgn(h_f) W_f,   W_f = (|h_f| A(R_f) + r³ (Ω(F_f) − Ω(R_f)))/3,          (2)
//
// the signed cone decomposition of P from c: W_f = vol(B ∩ pyramid(c, F_f)) (rays through R_f stay
// in B up to the face, the others stop at r). Both are exact. (1) keeps the relative accuracy of
// small overlaps (first contact: only the faces whose plane cuts the ball contribute), but its
// Ω(R_f) is ill-conditioned when c is near an edge of P (h_f and the foot's distance to the face's
// boundary both small; exactly on an edge, [c ∈ P] and the Ω(R_f) at h_f = 0 depend on the
// direction of approach). (2) has W_f → 0 as h_f → 0 whatever the foot's position, so it is
// continuous, and well-conditioned, across faces, edges and corners; its terms are of size r³,
// which only costs relative accuracy when V ≪ r³, i.e. when c is far from P, unless P is inside B
// (then every W_f is the pyramid |h_f| A(F_f)/3). So (2) is used when c is within r/4 of ∂P or P
// is inside B, (1) otherwise.
//
// A, Ω(R_f) and Ω(F_f) − Ω(R_f) come from one fan about p_f (the classic circle ∩ polygon area
// algorithm): every edge (a, b) of the face polygon, in 2D coordinates about p_f, is split where it
// crosses the circle; a piece (q1, q2) inside the disk bounds the signed triangle (p_f, q1, q2):
// area q1 ×₂ q2 / 2, solid angle Ω_tri; a piece outside bounds the disk sector between the
// directions of q1 and q2 (plane angle φ): area ρ² φ/2, solid angle φ (1 − |h|/r), and the part of
// the triangle beyond the circle has solid angle Ω_tri − φ (1 − |h|/r). Ω_tri is the Van Oosterom–
// Strackee formula for the triangle (p_f, q1, q2) seen from c, at height H = |h| over p_f:
//   tan(Ω_tri/2) = q1 ×₂ q2 / (b1 b2 + q1·q2 + H (b1 + b2) + H²),   b_i = √(|q_i|² + H²)
// (the common factor H of numerator and denominator removed: H = 0 gives the plane angle φ at
// p_f). The signs of the triangles carry the orientation; a piece through p_f contributes 0.
#include "exactsim/geometry/sphere.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

constexpr Real kPi = std::numbers::pi;
constexpr Real kInf = std::numeric_limits<Real>::infinity();

Real ball_volume(Real r) { return 4 * kPi / 3 * r * r * r; }

// The point of face f's polygon closest to c, and its squared distance from c.
Real closest_on_face(const ConvexPolyhedron& shape, const WorldPolyhedron& placed, int f,
                     const Vec3& c, Vec3& y) {
  const std::vector<int>& loop = shape.faces[f].vertices;
  const Vec3& n = placed.face_normals[f];
  const Vec3 q = c - (n.dot(c) - placed.face_offsets[f]) * n;  // projection onto the plane
  const size_t m = loop.size();
  bool inside = true;
  for (size_t i = 0; i < m && inside; ++i) {
    const Vec3& a = placed.vertices[loop[i]];
    const Vec3& b = placed.vertices[loop[(i + 1) % m]];
    inside = (b - a).cross(q - a).dot(n) >= 0;  // left of the CCW edge, seen from outside
  }
  if (inside) {
    y = q;
    return (q - c).squaredNorm();
  }
  Real best = kInf;
  for (size_t i = 0; i < m; ++i) {
    const Vec3& a = placed.vertices[loop[i]];
    const Vec3 e = placed.vertices[loop[(i + 1) % m]] - a;
    const Real ee = e.squaredNorm();
    const Real t = ee > 0 ? std::clamp((c - a).dot(e) / ee, Real(0), Real(1)) : Real(0);
    const Vec3 z = a + t * e;
    if (const Real d2 = (z - c).squaredNorm(); d2 < best) best = d2, y = z;
  }
  return best;
}

// For c outside P: the closest point y of P (over the faces whose plane c is in front of), the
// first face carrying it, and |y − c|².
Real closest_on_polyhedron(const ConvexPolyhedron& shape, const WorldPolyhedron& placed,
                           const Vec3& c, Vec3& y, int& face) {
  Real best = kInf;
  face = -1;
  for (int f = 0; f < shape.num_faces(); ++f) {
    if (!(placed.face_normals[f].dot(c) - placed.face_offsets[f] > 0)) continue;
    Vec3 z;
    if (const Real d2 = closest_on_face(shape, placed, f, c, z); d2 < best)
      best = d2, y = z, face = f;
  }
  return best;
}

// Signed solid angle of the triangle (p, q1, q2) in a plane at height H ≥ 0 below the eye, p the
// eye's foot and q1, q2 relative to p (Van Oosterom–Strackee without the common factor H; the
// plane angle of q1, q2 at p when H = 0). The denominator is a sum of non-negative parts, with
// b1 b2 − |q1||q2| = H² (|q1|² + |q2|² + H²) / (b1 b2 + |q1||q2|) and, for q1·q2 < 0,
// |q1||q2| + q1·q2 = (q1 ×₂ q2)² / (|q1||q2| − q1·q2): no cancellation, even for q1, q2 nearly
// opposite.
Real triangle_solid_angle(const Vec2& q1, const Vec2& q2, Real H) {
  const Real cross = cross2(q1, q2);
  if (cross == 0) return 0;
  const Real H2 = H * H, n1 = q1.squaredNorm(), n2 = q2.squaredNorm();
  const Real b1 = std::sqrt(n1 + H2), b2 = std::sqrt(n2 + H2), dot = q1.dot(q2);
  Real den;
  if (dot >= 0) {
    den = b1 * b2 + dot;
  } else {
    const Real l12 = std::sqrt(n1) * std::sqrt(n2);
    den = cross * cross / (l12 - dot) + H2 * (n1 + n2 + H2) / (b1 * b2 + l12);
  }
  den += H * (b1 + b2) + H2;
  return 2 * std::atan2(cross, den);
}

struct FaceIntegrals {
  Real area = 0;   // A(R_f)
  Real inner = 0;  // Ω(R_f)
  Real outer = 0;  // Ω(F_f) − Ω(R_f)
};

// The fan about the foot for one face; `corner(i)` gives the polygon's i-th vertex in 2D
// coordinates about the foot (counter-clockwise), H = |h| and r the radius.
template <class Corner>
FaceIntegrals face_integrals(size_t m, const Corner& corner, Real H, Real r) {
  FaceIntegrals out;
  if (H >= r) {  // no disk: the whole polygon is beyond the sphere
    for (size_t i = 0; i < m; ++i)
      out.outer += triangle_solid_angle(corner(i), corner((i + 1) % m), H);
    return out;
  }
  const Real rho2 = (r - H) * (r + H);  // ρ²
  const Real rim = (r - H) / r;         // 1 − H/r: solid angle per radian of a disk sector
  const auto outside = [&](const Vec2& q1, const Vec2& q2) {
    const Real phi = triangle_solid_angle(q1, q2, 0);
    out.area += rho2 * phi / 2;
    out.inner += rim * phi;
    out.outer += triangle_solid_angle(q1, q2, H) - rim * phi;
  };
  const auto inside = [&](const Vec2& q1, const Vec2& q2) {
    out.area += cross2(q1, q2) / 2;
    out.inner += triangle_solid_angle(q1, q2, H);
  };
  for (size_t i = 0; i < m; ++i) {
    const Vec2 a = corner(i), b = corner((i + 1) % m);
    const Vec2 e = b - a;
    const Real ee = e.squaredNorm();
    if (!(ee > 0)) continue;
    const Real length = std::sqrt(ee);
    const Real delta = cross2(a, e) / length;  // signed distance of the foot from the edge line
    const Real chord2 = rho2 - delta * delta;  // (half chord)² of the line in the disk
    if (!(chord2 > 0)) {
      outside(a, b);
      continue;
    }
    // The line a + t e is in the disk for t ∈ [t1, t2].
    const Real tm = -a.dot(e) / ee, half = std::sqrt(chord2) / length;
    const Real t1 = tm - half, t2 = tm + half;
    const auto at = [&](Real t) { return t <= 0 ? a : t >= 1 ? b : Vec2(a + t * e); };
    if (t1 > 0) outside(a, at(t1));
    if (const Real s1 = std::max(t1, Real(0)), s2 = std::min(t2, Real(1)); s1 < s2)
      inside(at(s1), at(s2));
    if (t2 < 1) outside(at(t2), b);
  }
  return out;
}

}  // namespace

SphereMassProperties sphere_mass_properties(Real radius, Real density) {
  if (!(std::isfinite(radius) && radius > 0))
    throw InputError("sphere_mass_properties: radius must be positive and finite");
  if (!(std::isfinite(density) && density > 0))
    throw InputError("sphere_mass_properties: density must be positive and finite");
  SphereMassProperties m;
  m.volume = ball_volume(radius);
  m.mass = density * m.volume;
  m.inertia = (Real(2) / 5 * m.mass * radius * radius) * Mat3::Identity();
  return m;
}

SphereProximity sphere_polyhedron_proximity(const Vec3& centre, Real radius,
                                            const ConvexPolyhedron& shape,
                                            const WorldPolyhedron& placed) {
  SphereProximity out;
  int f = -1;
  const Real s = deepest_face(placed, centre, f);
  if (f < 0) {
    out.gap = kInf;
    return out;
  }
  if (s > 0) {  // centre outside: the closest point y on P
    Vec3 y;
    int face = -1;
    const Real d = std::sqrt(closest_on_polyhedron(shape, placed, centre, y, face));
    if (d > 0 && face >= 0) {
      out.normal = (y - centre) / d;
      out.gap = d - radius;
      out.point_sphere = centre + radius * out.normal;
      out.point_other = y;
      out.face = face;
      return out;
    }
  }
  // Centre inside or on P: out through the deepest face.
  const Vec3& n = placed.face_normals[f];
  out.normal = -n;
  out.gap = s - radius;
  out.point_sphere = centre - radius * n;
  out.point_other = centre - s * n;
  out.face = f;
  return out;
}

SphereProximity sphere_sphere_proximity(const Vec3& centre_a, Real radius_a, const Vec3& centre_b,
                                        Real radius_b) {
  SphereProximity out;
  const Vec3 delta = centre_b - centre_a;
  const Real distance = delta.norm();
  if (distance > 0) out.normal = delta / distance;
  out.gap = distance - radius_a - radius_b;
  out.point_sphere = centre_a + radius_a * out.normal;
  out.point_other = out.point_sphere + out.gap * out.normal;
  return out;
}

Real sphere_sphere_overlap_volume(const Vec3& centre_a, Real radius_a, const Vec3& centre_b,
                                  Real radius_b) {
  if (!(radius_a > 0 && radius_b > 0)) return 0;
  const Real d = (centre_b - centre_a).norm();
  const Real sum = radius_a + radius_b, diff = std::abs(radius_a - radius_b);
  if (!(d < sum)) return 0;  // apart or touching
  if (d <= diff) return ball_volume(std::min(radius_a, radius_b));
  // Lens: π (Σ − d)² (d² + 2dΣ − 3Δ²) / (12 d), with d > Δ ≥ 0 so 3Δ²/d < 3Δ stays bounded.
  return kPi * (sum - d) * (sum - d) * (d + 2 * sum - 3 * diff * diff / d) / 12;
}

Real sphere_polyhedron_overlap_volume(const Vec3& centre, Real radius,
                                      const ConvexPolyhedron& shape,
                                      const WorldPolyhedron& placed) {
  const int nf = shape.num_faces();
  if (!(radius > 0) || nf == 0) return 0;
  for (int k = 0; k < 3; ++k)
    if (centre[k] + radius < placed.aabb.lo[k] || centre[k] - radius > placed.aabb.hi[k]) return 0;
  int deepest = -1;
  const Real s = deepest_face(placed, centre, deepest);  // −min_f h_f
  if (!(s < radius)) return 0;                           // a face plane separates them
  const Real ball = ball_volume(radius);
  if (s <= -radius) return ball;  // every face plane at least r behind the centre

  // (2) within r/4 of the boundary (inside: −s is the distance; outside: the closest point,
  // which also gives exactly 0 when the ball only reaches P's edges or corners or touches it).
  const Real near = radius / 4;
  bool pyramids = s <= 0 && -s < near;
  if (s > 0) {
    Vec3 y;
    int face = -1;
    const Real d2 = closest_on_polyhedron(shape, placed, centre, y, face);
    if (!(d2 < radius * radius)) return 0;
    pyramids = d2 < near * near;
  }
  if (!pyramids) {  // P inside B: (2) reduces to Σ_f h_f A(F_f)/3 = vol(P), no terms of size r³
    pyramids = true;
    for (const Vec3& x : placed.vertices)
      if (!((x - centre).squaredNorm() <= radius * radius)) pyramids = false;
  }

  const Real r3 = radius * radius * radius;
  Real sum = 0;
  for (int f = 0; f < nf; ++f) {
    const Vec3& n = placed.face_normals[f];
    const Real h = placed.face_offsets[f] - n.dot(centre);
    const Real H = std::abs(h);
    if (!pyramids && H >= radius) continue;  // U_f = 0
    const std::vector<int>& loop = shape.faces[f].vertices;
    // In-plane frame (u, v, η) right-handed; coordinates about the foot of the centre.
    const Vec3 first = placed.vertices[loop[1]] - placed.vertices[loop[0]];
    const Vec3 u = (first - first.dot(n) * n).normalized();
    const Vec3 v = n.cross(u);
    const auto corner = [&](size_t i) {
      const Vec3 x = placed.vertices[loop[i]] - centre;
      return Vec2(x.dot(u), x.dot(v));
    };
    const FaceIntegrals I = face_integrals(loop.size(), corner, H, radius);
    const Real sign = h >= 0 ? 1 : -1;
    if (pyramids)
      sum += sign * (H * I.area + r3 * I.outer) / 3;
    else
      sum -= sign * (r3 * I.inner - H * I.area) / 3;
  }
  if (!pyramids && s <= 0) sum += ball;
  return std::clamp(sum, Real(0), ball);
}

}  // namespace exactsim
