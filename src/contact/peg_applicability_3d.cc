#include "exactsim/contact/peg_applicability_3d.h"

#include <string>

#include "exactsim/collision/vertex_face.h"
#include "exactsim/math/error.h"

namespace exactsim {

// APPL_vf (docs/peg3d.md "Tests and their definitions").
Real vertex_face_applicability(const ConvexPolyhedron& owner, const WorldPolyhedron& placed,
                               int vertex, const Vec3& face_normal) {
  if (vertex < 0 || vertex >= owner.num_vertices() ||
      placed.vertices.size() != owner.vertices.size()) {
    throw InputError("vertex_face_applicability: vertex " + std::to_string(vertex) +
                     " out of range for a polyhedron of " + std::to_string(owner.num_vertices()) +
                     " vertices (or a placement of another shape)");
  }
  return vertex_applicability(owner, placed, vertex, face_normal);
}

}  // namespace exactsim
