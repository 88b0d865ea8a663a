// Contacts of spheres (docs/collision.md "Spheres"): a sphere against a convex polyhedron or
// another sphere touches at one point, the closest points of the two shapes. The gap between
// them is the distance of the surfaces, and its linearisation along the normal is exact to first
// order, as a vertex–face contact's is: one unilateral contact per pair, in either contact model.
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/placed_collider.h"

namespace exactsim {

// The contact of colliders a and b (index_a, index_b), at least one a sphere, appended to `out`
// when their surfaces are within `reach` m of each other (ψ ≤ reach; any overlap). The sphere is
// A (the first sphere when both are); ψ = the signed surface distance, n̂ from A to B.
void sphere_contact(const PlacedCollider3& a, int index_a, const PlacedCollider3& b, int index_b,
                    Real reach, std::vector<Contact>& out);

}  // namespace exactsim
