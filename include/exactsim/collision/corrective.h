// The archived "Corrective" baseline's 2D detection (spec peg.md §5.1 (ii)): contacts only after
// penetration, one per overlapping pair, from the separating-axis test.
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polygon.h"

namespace exactsim {

// If the polygons overlap (positive intersection area), appends one contact: ψ = −(minimum
// overlap depth over the edge normals of both polygons), n̂ = that axis oriented from A to B,
// point = mean of the vertices of the clipped overlap polygon (on A). Nothing otherwise.
void corrective_contact_2d(const WorldPolygon& a, int body_a, const WorldPolygon& b, int body_b,
                           std::vector<Contact>& out);

}  // namespace exactsim
