#include "exactsim/collision/face_patch.h"

#include <cmath>

#include "exactsim/collision/closest_points.h"
#include "exactsim/collision/vertex_face.h"

namespace exactsim {
namespace {


// B's face plane: origin, in-plane axes and outward normal.
struct Plane {
  Vec3 o, u, w, n;
  Vec2 to2(const Vec3& x) const { return Vec2(u.dot(x - o), w.dot(x - o)); }
};

// The overlap of A's face fa (projected onto B's face plane) and B's face fb, clipped by
// Sutherland–Hodgman with every vertex labelled by its origin. Empty when they do not overlap.
void overlap_polygon(const ConvexPolyhedron& sa, const WorldPolyhedron& wa, int fa,
                     const ConvexPolyhedron& sb, const WorldPolyhedron& wb, int fb, const Plane& pl,
                     Real tol, std::vector<PatchVertex>& poly, std::vector<PatchVertex>& next) {
  const PolyhedronFace& face_a = sa.faces[fa];
  const PolyhedronFace& face_b = sb.faces[fb];
  // A's loop is counter-clockwise about η_a ≈ −η_b: reversed, it is counter-clockwise in B's
  // plane. The edge from reversed vertex i to i + 1 is A's edge between them.
  const int na = static_cast<int>(face_a.vertices.size());
  poly.clear();
  for (int i = na - 1; i >= 0; --i) {
    PatchVertex v;
    v.kind = PatchVertex::kVertexA;
    v.a = face_a.vertices[i];
    v.p = pl.to2(wa.vertices[v.a]);
    v.line = face_a.edges[(i + na - 1) % na];  // from vertices[i] back to vertices[i − 1]
    poly.push_back(v);
  }
  const int nb = static_cast<int>(face_b.vertices.size());
  for (int j = 0; j < nb && poly.size() >= 3; ++j) {
    const int bj = face_b.vertices[j], bk = face_b.vertices[(j + 1) % nb];
    const Vec2 b0 = pl.to2(wb.vertices[bj]), b1 = pl.to2(wb.vertices[bk]);
    const Vec2 dir = b1 - b0;
    const Real len = dir.norm();
    auto side = [&](const Vec2& p) { return cross2(dir, p - b0) / len; };  // > 0: inside
    next.clear();
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const PatchVertex& s = poly[(i + poly.size() - 1) % poly.size()];
      const PatchVertex& e = poly[i];
      const Real ds = side(s.p), de = side(e.p);
      const bool s_in = ds >= -tol, e_in = de >= -tol;
      auto crossing = [&](int line_out) {
        PatchVertex x;
        x.p = s.p + (ds / (ds - de)) * (e.p - s.p);
        x.line = line_out;
        if (s.line >= 0) {
          x.kind = PatchVertex::kCrossing;
          x.a = s.line;
          x.b = face_b.edges[j];
        } else {  // two of B's edge lines meet at B's vertex between them
          const int k = -1 - s.line;
          x.kind = PatchVertex::kVertexB;
          x.b = k == (j + nb - 1) % nb ? bj : (k == (j + 1) % nb ? bk : -1);
          if (x.b >= 0) x.p = pl.to2(wb.vertices[x.b]);
        }
        if (x.kind != PatchVertex::kVertexB || x.b >= 0) next.push_back(x);
      };
      if (e_in) {
        if (!s_in) crossing(s.line);
        next.push_back(e);
      } else if (s_in) {
        crossing(-1 - j);
      }
    }
    poly.swap(next);
  }
  // Vertices within tol of the one before are one (the first kept).
  next.clear();
  for (const PatchVertex& v : poly)
    if (next.empty() || (v.p - next.back().p).norm() > tol) next.push_back(v);
  while (next.size() > 1 && (next.back().p - next.front().p).norm() <= tol) next.pop_back();
  poly.swap(next);
}

Real area(const std::vector<PatchVertex>& poly) {
  Real a = 0;
  for (std::size_t i = 0; i < poly.size(); ++i)
    a += cross2(poly[i].p, poly[(i + 1) % poly.size()].p);
  return 0.5 * a;
}

// The signed distances of a face's vertices from a plane: their minimum and maximum.
std::pair<Real, Real> face_range(const ConvexPolyhedron& s, const WorldPolyhedron& w, int f,
                                 const Vec3& o, const Vec3& n) {
  Real lo = std::numeric_limits<Real>::infinity(), hi = -lo;
  for (const int v : s.faces[f].vertices) {
    const Real d = n.dot(w.vertices[v] - o);
    lo = std::min(lo, d), hi = std::max(hi, d);
  }
  return {lo, hi};
}

bool has_flat_edge(const ConvexPolyhedron& s, int f) {
  for (const int e : s.faces[f].edges)
    if (s.edges[e].nearly_flat) return true;
  return false;
}

}  // namespace

bool face_patch_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a,
                         int body_a, const ConvexPolyhedron& shape_b,
                         const WorldPolyhedron& world_b, int body_b, Real epsilon, Real reach,
                         std::vector<Contact>& out, PatchScratch& scratch) {
  // Faces that face each other within the band: each face's vertices at most ε behind the other's
  // plane and the nearest within ε (ε + reach in front).
  auto in_band = [&](std::pair<Real, Real> r) { return r.first >= -epsilon && r.first <= epsilon + reach; };
  int best_a = -1, best_b = -1;
  Real best_area = 0;
  Plane best_plane{};
  std::vector<PatchVertex>&poly = scratch.poly, &next = scratch.next, &best = scratch.best;
  best.clear();
  const Real scale = (world_a.aabb.hi - world_a.aabb.lo).norm() + (world_b.aabb.hi - world_b.aabb.lo).norm();
  const Real tol = 1e-12 * scale;
  for (int fb = 0; fb < shape_b.num_faces(); ++fb) {
    const Vec3& nb = world_b.face_normals[fb];
    const Vec3& ob = world_b.vertices[shape_b.faces[fb].vertices[0]];
    if (has_flat_edge(shape_b, fb)) continue;
    for (int fa = 0; fa < shape_a.num_faces(); ++fa) {
      const Vec3& na = world_a.face_normals[fa];
      if (!(na.dot(nb) < -kPatchCosine) || has_flat_edge(shape_a, fa)) continue;
      const Vec3& oa = world_a.vertices[shape_a.faces[fa].vertices[0]];
      if (!in_band(face_range(shape_a, world_a, fa, ob, nb)) ||
          !in_band(face_range(shape_b, world_b, fb, oa, na)))
        continue;
      Plane pl;
      pl.o = ob;
      pl.n = nb;
      pl.u = (world_b.vertices[shape_b.faces[fb].vertices[1]] - ob).normalized();
      pl.w = nb.cross(pl.u);
      overlap_polygon(shape_a, world_a, fa, shape_b, world_b, fb, pl, tol, poly, next);
      if (poly.size() < 3) continue;
      const Real a = area(poly);
      if (a > best_area) best_area = a, best_a = fa, best_b = fb, best_plane = pl, best.swap(poly);
    }
  }
  if (best_a < 0 || !(best_area > tol * scale)) return false;
  for (const PatchVertex& v : best) {
    Contact c;
    if (v.kind == PatchVertex::kVertexA) {
      c = vertex_face_contact(world_a.vertices[v.a], body_a, v.a, shape_b, world_b, body_b, best_b);
    } else if (v.kind == PatchVertex::kVertexB) {
      c = vertex_face_contact(world_b.vertices[v.b], body_b, v.b, shape_a, world_a, body_a, best_a);
    } else {
      const PolyhedronEdge& ea = shape_a.edges[v.a];
      const PolyhedronEdge& eb = shape_b.edges[v.b];
      const Vec3 &a0 = world_a.vertices[ea.tail], &a1 = world_a.vertices[ea.head];
      const Vec3 &b0 = world_b.vertices[eb.tail], &b1 = world_b.vertices[eb.head];
      const Vec3 cross = (a1 - a0).cross(b1 - b0);
      if (!(cross.norm() > 1e-9 * (a1 - a0).norm() * (b1 - b0).norm())) continue;
      Vec3 n = cross.normalized();
      if (n.dot(best_plane.n) > 0) n = -n;  // from A toward B: against B's outward normal
      const SegmentClosestPoints cp = closest_points_segments(a0, a1, b0, b1);
      c.body_a = body_a;
      c.body_b = body_b;
      c.type = ContactType::kEdgeEdge;
      c.feature_a = v.a;
      c.feature_b = v.b;
      c.point_a = cp.p_a;
      c.normal = n;
      c.gap = n.dot(cp.p_b - cp.p_a);
      c.distance = cp.distance;
    }
    c.patch = true;
    out.push_back(c);
  }
  return true;
}

}  // namespace exactsim
