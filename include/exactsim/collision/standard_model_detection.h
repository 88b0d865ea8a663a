// The archived 2D standard-model baseline's contact detection (docs/collision.md "Narrow phase:
// detection rules"): a vertex–edge pair is a contact when the vertex is close to the edge's LINE
// and projects onto the segment extended by a margin — no vertex–vertex reasoning, so corners yield
// SM traps.
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polygon.h"

namespace exactsim {

struct StandardModelDetectionOptions {
  Real gap_limit = 0.07;          // |ψ| < gap_limit (m)
  Real projection_margin = 0.07;  // projection within this far beyond the segment's ends (m)
};

// Appends a kVertexEdge contact (same record as vertex_edge_contacts: ψ to the line, n̂ = −η̂,
// p_a = vertex, distance = point–segment distance) for every (vertex of A, edge of B) with
// |ψ| < gap_limit and −margin ≤ s ≤ |e| + margin, s the projection's arc position along the
// edge from its tail; then vertices of B against edges of A (B first body).
// InputError for negative or non-finite options.
void standard_model_vertex_edge_contacts(const WorldPolygon& a, int body_a, const WorldPolygon& b,
                                         int body_b, const StandardModelDetectionOptions& options,
                                         std::vector<Contact>& out);

}  // namespace exactsim
