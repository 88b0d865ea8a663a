// 2D narrow phase: vertex–edge potential contacts between two placed convex polygons
// (docs/collision.md "Conventions", contact record table; docs/collision.md "Narrow phase:
// detection rules").
#pragma once

#include <algorithm>
#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/collision/proximity_rule.h"
#include "exactsim/geometry/polygon.h"

namespace exactsim {

// The authors' 2D contact distance ε = max(h/2, 0.8 mm) (docs/collision.md "ε parameters and
// defaults"), metres.
// The record of vertex i (at v) of body A against edge j of body B (tail point, outward unit
// normal η̂), docs/collision.md "Conventions": ψ = η̂·(v − tail) to the LINE, n̂ = −η̂, p_a = v.
Contact vertex_edge_contact(int body_a, int vertex, const Vec2& v, int body_b, int edge,
                            const Vec2& tail, const Vec2& eta, Real distance);

inline Real default_vertex_edge_epsilon(Real h) { return std::max(h / 2, Real{0.0008}); }

// Appends one kVertexEdge contact for every (vertex v of A, edge e of B) whose point–segment
// distance is ≤ epsilon, and for a vertex strictly inside B deeper than epsilon (no edge within
// it) the one contact against its exit edge (deepest_edge, geometry/polygon.h); then every
// (vertex of B, edge of A) the same way. Contacts from B's vertices have B as first body
// (body_a = body_b argument), docs/peg.md "Tricky cases" item 12.
// Per contact (docs/collision.md "Conventions"): ψ = η̂_e·(v − e_tail) (signed distance to the
// edge's LINE), n̂ = −η̂_e, p_a = v, distance = point–segment distance. Order: A's vertices
// ascending, each against B's edges ascending; then B's vertices likewise. InputError if epsilon is
// negative or not finite.
void vertex_edge_contacts(const WorldPolygon& a, int body_a, const WorldPolygon& b, int body_b,
                          Real epsilon, std::vector<Contact>& out);

// The prediction rule (docs/collision.md "Narrow phase: detection rules"): a pair is a potential
// contact if its point–segment distance is ≤ epsilon in the current configuration OR in the
// predicted one (both bodies advanced rigidly by h ν: x + h v, θ + h ω). ψ, n̂, p_a and `distance`
// always come from the current configuration (so `distance` may exceed epsilon). a_predicted /
// b_predicted must be the same polygons as a / b (vertex counts checked: InputError otherwise).
//
// ProximityRule::kSwept (exactsim's default) widens the test to the vertex's path relative to the
// edge over the step (current vertex → predicted vertex minus the edge's displacement at the
// vertex's projection): a fast vertex that would jump across the ±ε band between the two
// configurations is still caught (docs/peg.md "Tricky cases" item 11). kCurrentOrPredicted is the
// authors' rule. `behind` = false: the motion rules reach no edge whose line the vertex is more
// than epsilon behind (the far side of a thin body), which only PEG's vertex–vertex
// configurations use (as members of I and X constraints); the standard model would make them
// unilateral constraints to push out through the body.
void vertex_edge_contacts(const WorldPolygon& a, const WorldPolygon& a_predicted, int body_a,
                          const WorldPolygon& b, const WorldPolygon& b_predicted, int body_b,
                          Real epsilon, ProximityRule rule, std::vector<Contact>& out,
                          bool behind = true);

}  // namespace exactsim
