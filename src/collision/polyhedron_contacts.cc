#include "exactsim/collision/polyhedron_contacts.h"

#include <cmath>
#include <string>

#include "exactsim/collision/edge_edge.h"
#include "exactsim/collision/face_patch.h"
#include "exactsim/collision/vertex_face.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

// Crossings of a nearly flat edge shallower than this fraction of ε_ee are left to the face
// contacts, as for any face interior: at rest, faces touching across a flat edge overlap by the
// projection's slop, and a U on such an edge pair would duplicate their vertex–face U's.
constexpr Real kFlatCrossingFraction = 0.1;

void check_option(const char* name, Real value) {
  if (!std::isfinite(value) || value < 0) {
    throw InputError(std::string("polyhedron_contacts: ") + name +
                     " must be finite and >= 0, got " + std::to_string(value));
  }
}

void check_placement(const ConvexPolyhedron& shape, const WorldPolyhedron& world, int body) {
  if (world.vertices.size() != shape.vertices.size() ||
      world.face_normals.size() != shape.faces.size() ||
      world.edge_t1.size() != shape.edges.size() || world.edge_t2.size() != shape.edges.size()) {
    throw InputError("polyhedron_contacts: the world polyhedron of body " + std::to_string(body) +
                     " was not placed from its shape (sizes differ)");
  }
}

}  // namespace

void polyhedron_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a,
                         int body_a, const ConvexPolyhedron& shape_b,
                         const WorldPolyhedron& world_b, int body_b,
                         const PolyhedronContactOptions& options, std::vector<Contact>& out,
                         PatchScratch* scratch) {
  check_option("epsilon_vf", options.epsilon_vf);
  check_option("epsilon_ee", options.epsilon_ee);
  check_option("parallel_sine", options.parallel_sine);
  check_option("reach", options.reach);
  if (!(options.min_applicability >= -1 && options.min_applicability <= 1))
    throw InputError("polyhedron_contacts: min_applicability must be in [-1, 1], got " +
                     std::to_string(options.min_applicability));
  check_placement(shape_a, world_a, body_a);
  check_placement(shape_b, world_b, body_b);
  // Face to face: the patch's vertices are the pair's contacts (collision/face_patch.h).
  PatchScratch local;
  if (face_patch_contacts(shape_a, world_a, body_a, shape_b, world_b, body_b, options.epsilon_vf,
                          options.reach, out, scratch != nullptr ? *scratch : local))
    return;
  vertex_face_contacts(shape_a, world_a, body_a, shape_b, world_b, body_b, options.epsilon_vf, out,
                       options.reach, options.min_applicability);
  vertex_face_contacts(shape_b, world_b, body_b, shape_a, world_a, body_a, options.epsilon_vf, out,
                       options.reach, options.min_applicability);
  edge_edge_contacts(shape_a, world_a, body_a, shape_b, world_b, body_b, options.epsilon_ee,
                     options.parallel_sine, out, kFlatCrossingFraction * options.epsilon_ee,
                     /*flat_ridges=*/true, options.reach, options.min_applicability);
}

}  // namespace exactsim
