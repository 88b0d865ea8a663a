// Vertex–face feasibility FEAS_vf (docs/peg3d.md "Tests and their definitions", PEG paper ≈ eq. 34)
// with a point–polygon Voronoi classification instead of the authors' nearest-edge test
// (docs/peg.md "Defects not replicated" item 7).
#pragma once

#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

struct VertexFaceFeasibility {
  bool feasible = false;
  Real gap = 0;         // ψ = η̂_f · (p − v_{f,1}), signed distance to the face plane
  Real distance = 0;    // D, distance from p to the face polygon
  Real outside = 0;     // in-plane distance from p's projection to the polygon (0 inside)
  bool inside = false;  // p projects into the polygon (boundary included)
};

// FEAS_vf(p, f): within the proximity (|ψ| <= proximity and D <= proximity), if p projects into
// the face polygon, feasible iff ψ ≥ −depth (δ); otherwise (nearest polygon feature an edge or a
// corner, found by the point–polygon Voronoi test) feasible iff asin(ψ/D) ≥ −angle (φ): the point
// is not more than φ below the face plane as seen from the face boundary. Beyond the proximity,
// feasible only within `reach` more (how far the pair may close over the step) for a point in
// front of the face and inside its prism (0 < ψ <= proximity + reach, p projecting into the
// polygon): the face that a fast vertex is heading for, never a face it passes beside
// (docs/peg3d.md "Tests and their definitions").
// shape / placed: the face's polyhedron and its world placement.
VertexFaceFeasibility vertex_face_feasibility(const Vec3& p, const ConvexPolyhedron& shape,
                                              const WorldPolyhedron& placed, int face,
                                              Real proximity, Real angle, Real depth,
                                              Real reach = 0);

}  // namespace exactsim
