// 3D contact patches (docs/collision.md "Face patches"): two polyhedra resting face to face touch
// on a planar polygon, the overlap of the two faces. The linearised gap of a rigid pair is affine
// over that plane, so it is non-negative on the whole patch iff it is at the polygon's vertices:
// those few contacts are the pair's constraint, exactly to first order, instead of every feature
// pair within ε (a box on a box had 8 vertex–face contacts, plus the side faces its corners touch
// and the crossing side edges, which also trap the standard model at aligned corners).
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// Faces are a patch when their outward normals are antiparallel within this cosine (≈ 1.1°).
inline constexpr Real kPatchCosine = 0.9998;

// A vertex of a patch's overlap polygon in B's face plane, where it comes from, and the line of the
// polygon's edge leaving it: an edge of A's face (line >= 0) or of B's (line < 0: −1 − position).
struct PatchVertex {
  enum Kind { kVertexA, kVertexB, kCrossing } kind = kVertexA;
  Vec2 p = Vec2::Zero();
  int a = -1;  // vertex (kVertexA) or edge (kCrossing) of A
  int b = -1;  // vertex (kVertexB) or edge (kCrossing) of B
  int line = 0;
};

// Buffers face_patch_contacts reuses: no allocation once they have served a pair this large.
struct PatchScratch {
  std::vector<PatchVertex> poly, next, best;
};

// If a face of A and a face of B face each other (normals antiparallel within kPatchCosine, no
// nearly flat edge on either), a vertex of A's face lies within `epsilon` of B's face plane (or
// within epsilon + reach in front of it), and their projections on B's plane overlap with
// positive area, appends the contacts at the vertices of that overlap polygon and returns true:
// a vertex of A's face inside B's face (vertex–face, A first), a vertex of B's face inside A's
// (vertex–face, B first), a crossing of an edge of each (edge–edge, n̂ = ±ê_a × ê_b toward B).
// Every record has `patch` set. Of several such face pairs, the one whose overlap is largest.
// Returns false (nothing appended) otherwise.
bool face_patch_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a,
                         int body_a, const ConvexPolyhedron& shape_b,
                         const WorldPolyhedron& world_b, int body_b, Real epsilon, Real reach,
                         std::vector<Contact>& out, PatchScratch& scratch);

}  // namespace exactsim
