// 3D narrow phase, edge–edge potential contacts (docs/collision.md "Conventions"; the edge–edge
// applicability [for the normal's sign] of docs/collision.md "Narrow phase: detection rules").
#pragma once

#include <limits>
#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

struct EdgeEdgeNormal {
  Vec3 normal = Vec3::Zero();  // n̂, unit, A → B; zero when the edges are parallel
  Real applicability = -1;     // APPL_ee, −1 for parallel edges
  bool parallel = true;
};

// Edge–edge normal sign (docs/collision.md "Narrow phase: detection rules"): n = normalize(e_a ×
// e_b), a_i = n·t_{a,i}, b_i = −n·t_{b,i}; APPL_ee = max(min(a_1, a_2, b_1, b_2), min(−a_1, −a_2,
// −b_1, −b_2)). The first term is the classical test for the normal −n, the second for +n;
// [proposed] n̂ takes the sign whose term attains the max (−n on a tie). Edges with |e_a × e_b| ≤
// parallel_sine·|e_a||e_b| are parallel: no normal, APPL = −1.
EdgeEdgeNormal edge_edge_normal(const Vec3& e_a, const Vec3& t_a1, const Vec3& t_a2,
                                const Vec3& e_b, const Vec3& t_b1, const Vec3& t_b2,
                                Real parallel_sine);

// The kEdgeEdge record of edge edge_a of A against edge edge_b of B whatever their distance:
// false (out untouched) if either edge is nearly_flat or they are parallel; *applicability, if
// given, receives APPL_ee.
bool edge_edge_contact(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a, int body_a,
                       int edge_a, const ConvexPolyhedron& shape_b, const WorldPolyhedron& world_b,
                       int body_b, int edge_b, Real parallel_sine, Contact& out,
                       Real* applicability = nullptr);

// Appends one kEdgeEdge contact for every (edge of A, edge of B), neither nearly_flat nor
// parallel, whose segments' closest points p_a, p_b are within epsilon: n̂ from
// edge_edge_normal, point_a = p_a, ψ = n̂·(p_b − p_a), distance = |p_b − p_a|.
//
// And the crossings that rule cannot see: a nearly_flat edge is face interior to it, so an edge of
// the other body lying across one, like a bar across a shallow ridge, can pass it with every
// vertex outside and no contact at all (docs/collision.md "Narrow phase"). A pair with at least
// one nearly_flat edge, not parallel, whose closest points are interior to both segments, each
// strictly inside the other body (the edges have crossed), more than flat_crossing_depth apart,
// gets the record with n̂ = ±normalize(e_a × e_b) oriented so that ψ < 0 (B leaves along n̂).
// The default (∞) never builds one.
//
// With flat_ridges, a sharp edge over a nearly_flat one (a ridge: a convex bend of up to ~5.7°)
// is an ordinary pair where the bodies' boxes overlap: within epsilon, closest points interior to
// both segments and APPL_ee > 0 (the sharp edge points into the ridge) give the record with
// edge_edge_normal's n̂, crossed or not, so that such a bar meets a constraint before it crosses
// (docs/collision.md "Flat ridges"). A face lying flush across the ridge has APPL_ee <= 0 and
// stays with its vertex–face contacts; other pairs with a nearly_flat edge, with the crossing
// rule above.
// `reach` (>= 0) widens epsilon for a pair apart along its n̂ (ψ > 0) whose closest points are
// interior to both segments (ψ is then their distance), the edges a fast pair may close on within
// the step; any other pair is within epsilon or not at all (as vertex_face_contacts: the far side
// of a thin body is never a contact).
// Above −1, `min_applicability` keeps a pair of sharp edges only where its APPL_ee
// (edge_edge_normal) is at least that (docs/collision.md "Applicable pairs").
// Order: A's edges ascending, each against B's edges ascending.
void edge_edge_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a, int body_a,
                        const ConvexPolyhedron& shape_b, const WorldPolyhedron& world_b, int body_b,
                        Real epsilon, Real parallel_sine, std::vector<Contact>& out,
                        Real flat_crossing_depth = std::numeric_limits<Real>::infinity(),
                        bool flat_ridges = false, Real reach = 0, Real min_applicability = -1);

}  // namespace exactsim
