// Vertex–face applicability APPL_vf (docs/peg3d.md "Tests and their definitions", PEG paper ≈
// eqs. 28–31) in 3D. Edge–edge
// applicability APPL_ee is computed with the ee normal (collision/edge_edge.h).
#pragma once

#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// APPL_vf(v_a, f_b) = min_{u ∈ ω(v_a)} η̂_f · (u − v_a)/|u − v_a|: the cosine that says
// whether every edge of A at v_a points away from B's face (≥ 0 classical, PEG accepts ≥ ε_θ).
// owner / placed: the polyhedron of v_a and its world placement; face_normal: η̂_f (world).
// InputError if `vertex` is not a vertex of `owner`.
Real vertex_face_applicability(const ConvexPolyhedron& owner, const WorldPolyhedron& placed,
                               int vertex, const Vec3& face_normal);

}  // namespace exactsim
