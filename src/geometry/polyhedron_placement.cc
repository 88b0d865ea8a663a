// Rigid placement of polyhedra: body-frame translation and recentring (rebuilt from the moved
// vertices, as a scene file's hull is read: a written scene reads back bitwise the same), and the
// world-frame copy (vertices, face planes, edge vectors of docs/geometry3d.md "Conventions") used
// by the contact layers.
#include "exactsim/geometry/polyhedron.h"

#include <limits>

namespace exactsim {

ConvexPolyhedron translated(const ConvexPolyhedron& polyhedron, const Vec3& offset) {
  std::vector<Vec3> moved = polyhedron.vertices;
  for (Vec3& v : moved) v += offset;
  return polyhedron_from_points(moved);
}

ConvexPolyhedron recentred(const ConvexPolyhedron& polyhedron) {
  return translated(polyhedron, -polyhedron_mass_properties(polyhedron, 1.0).centroid);
}

Real deepest_face(const WorldPolyhedron& w, const Vec3& p, int& face) {
  Real best = -std::numeric_limits<Real>::infinity();
  face = -1;
  for (int f = 0; f < static_cast<int>(w.face_normals.size()); ++f)
    if (const Real d = w.face_normals[f].dot(p) - w.face_offsets[f]; d > best) best = d, face = f;
  return best;
}

void place(const ConvexPolyhedron& shape, const Pose3& pose, WorldPolyhedron& out) {
  const Mat3 R = pose.orientation.toRotationMatrix();
  const size_t nv = shape.vertices.size(), nf = shape.faces.size(), ne = shape.edges.size();
  out.vertices.resize(nv);
  out.face_normals.resize(nf);
  out.face_offsets.resize(nf);
  out.edge_t1.resize(ne);
  out.edge_t2.resize(ne);
  out.edge_orientation.resize(ne);
  for (size_t i = 0; i < nv; ++i) out.vertices[i] = R * shape.vertices[i] + pose.position;
  for (size_t f = 0; f < nf; ++f) {
    out.face_normals[f] = R * shape.faces[f].normal;
    out.face_offsets[f] = shape.faces[f].offset + out.face_normals[f].dot(pose.position);
  }
  for (size_t e = 0; e < ne; ++e) {
    out.edge_t1[e] = R * shape.edges[e].t1;
    out.edge_t2[e] = R * shape.edges[e].t2;
    out.edge_orientation[e] = R * shape.edges[e].orientation;
  }
  out.aabb = nv > 0 ? bounding_box(out.vertices) : Aabb3{};
}

}  // namespace exactsim
