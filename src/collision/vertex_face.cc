#include "exactsim/collision/vertex_face.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "exactsim/collision/closest_points.h"

namespace exactsim {

Contact vertex_face_contact(const Vec3& v, int body_a, int vertex, const ConvexPolyhedron& shape_b,
                            const WorldPolyhedron& world_b, int body_b, int face) {
  const Vec3& eta = world_b.face_normals[face];
  const std::vector<int>& loop = shape_b.faces[face].vertices;
  Contact c;
  c.body_a = body_a;
  c.body_b = body_b;
  c.type = ContactType::kVertexFace;
  c.feature_a = vertex;
  c.feature_b = face;
  c.point_a = v;
  c.normal = -eta;                                 // n̂ = −η̂_f (docs/collision.md)
  c.gap = eta.dot(v - world_b.vertices[loop[0]]);  // ψ to the plane
  c.distance = point_face_distance(v, world_b.vertices, loop, eta);
  return c;
}

Real vertex_applicability(const ConvexPolyhedron& shape, const WorldPolyhedron& world, int vertex,
                          const Vec3& face_normal) {
  const Vec3& v = world.vertices[vertex];
  Real appl = std::numeric_limits<Real>::infinity();
  for (const int u : shape.vertex_neighbours[vertex])
    appl = std::min(appl, face_normal.dot((world.vertices[u] - v).normalized()));
  return appl;
}

void vertex_face_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a,
                          int body_a, const ConvexPolyhedron& shape_b,
                          const WorldPolyhedron& world_b, int body_b, Real epsilon,
                          std::vector<Contact>& out, Real reach, Real min_applicability) {
  const Aabb3 box = world_b.aabb.inflated(epsilon + reach);
  const int nv = shape_a.num_vertices(), nf = shape_b.num_faces();
  for (int i = 0; i < nv; ++i) {
    const Vec3& v = world_a.vertices[i];
    if (!box.overlaps(Aabb3{v, v})) continue;
    Real exit_gap = -std::numeric_limits<Real>::infinity();  // max ψ over B's faces
    int exit_face = -1;
    for (int f = 0; f < nf; ++f) {
      const Vec3& eta = world_b.face_normals[f];
      const std::vector<int>& loop = shape_b.faces[f].vertices;
      const Real gap = eta.dot(v - world_b.vertices[loop[0]]);  // ψ to the plane
      if (gap > exit_gap) exit_gap = gap, exit_face = f;
      const Real within = gap > 0 ? epsilon + reach : epsilon;
      if (std::abs(gap) > within) continue;  // D ≥ |ψ|: cheap rejection
      const Contact c = vertex_face_contact(v, body_a, i, shape_b, world_b, body_b, f);
      if (c.distance > within) continue;
      if (min_applicability > -1 &&
          vertex_applicability(shape_a, world_a, i, eta) < min_applicability)
        continue;
      out.push_back(c);
    }
    // Deeper than ε inside B: no face is within ε, but the vertex must still be pushed out
    // through the face it is nearest to (its projection lies in that face: D = |ψ|).
    if (exit_gap < -epsilon)
      out.push_back(vertex_face_contact(v, body_a, i, shape_b, world_b, body_b, exit_face));
  }
}

}  // namespace exactsim
