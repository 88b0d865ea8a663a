// 3D narrow phase for one body pair: vertex–face contacts both ways and edge–edge contacts
// (docs/collision.md "Narrow phase: detection rules"; docs/peg3d.md "Algorithm" turns them into
// constraints).
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/collision/face_patch.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

struct PolyhedronContactOptions {
  Real epsilon_vf = 0.1;      // vertex–face proximity ε_vf (m); the authors' 3D value
  Real epsilon_ee = 0.1;      // edge–edge segment distance ε_ee (m); the authors' 3D value
  Real parallel_sine = 1e-6;  // edges with |ê_a × ê_b| ≤ this are parallel: no ee contact
  // How far the pair may close over the step (m): ε_vf and ε_ee grow by it for features apart
  // (ψ > 0), never for those behind a face or across an edge (vertex_face_contacts,
  // edge_edge_contacts).
  Real reach = 0;
  // A vertex–face record within ε_vf and a sharp edge–edge record are kept only where their
  // applicability (vertex_applicability, edge_edge_normal) is at least this; −1: every one (the
  // standard model's ContactOptions::min_applicability; PEG takes every record).
  Real min_applicability = -1;
};

// A pair that touches face to face gets the contacts of its patch alone (face_patch_contacts).
// Otherwise appends, in this order: vertices of A against faces of B (body_a first), vertices of B
// against faces of A (body_b first), edges of A against edges of B (body_a first; with the
// crossings of nearly flat edges deeper than 0.1 ε_ee); see vertex_face_contacts and
// edge_edge_contacts for the records. `scratch` (may be null) holds the patch's buffers. InputError for negative or non-finite options, or a world
// polyhedron that does not match its shape.
void polyhedron_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a,
                         int body_a, const ConvexPolyhedron& shape_b,
                         const WorldPolyhedron& world_b, int body_b,
                         const PolyhedronContactOptions& options, std::vector<Contact>& out,
                         PatchScratch* scratch = nullptr);

}  // namespace exactsim
