// Vertex–edge applicability APPL_ve (docs/peg.md "Algorithm" step 1, PEG paper ≈ eqs.
// 28–31): the cosine that says
// whether the edges at a vertex of A point away from B's edge, used to keep or rank contacts.
#pragma once

#include <span>
#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polygon.h"

namespace exactsim {

// APPL_ve(v_a, e_b) = min_{v ∈ ω(v_a)} η̂_b · (v − v_a)/|v − v_a|, ω(v_a) = the two
// neighbours of vertex `vertex` of `owner`; `edge_normal` = η̂_b, the outward unit normal of B's
// edge. In [−1, 1]; ≥ 0 is Latombe's classical applicability, PEG accepts ≥ ε_θ.
// InputError if `vertex` is not a vertex of `owner`.
Real vertex_edge_applicability(const WorldPolygon& owner, int vertex, const Vec2& edge_normal);

// APPL_ve of every contact (all must be kVertexEdge, with body_a the vertex owner and body_b the
// edge owner; polygons indexed by body), written to out[i] for contacts[i].
// InputError for another contact type or a body / feature index outside the polygons.
void vertex_edge_applicability(std::span<const WorldPolygon> polygons,
                               std::span<const Contact> contacts, std::vector<Real>& out);

}  // namespace exactsim
