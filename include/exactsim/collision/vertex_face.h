// 3D narrow phase, vertex–face potential contacts (spec peg.md §1.4 table, §3.5 proximity part
// of the vertex–face feasibility test).
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// Appends one kVertexFace contact for every (vertex v of A, face f of B) whose point–face
// distance D (to the face POLYGON) is ≤ epsilon: ψ = η̂_f·(v − v_{f,1}) (signed distance to the
// face's PLANE), n̂ = −η̂_f, p_a = v, distance = D. One direction only (A's vertices); the
// caller swaps the arguments for B's vertices (polyhedron_contacts does both).
// shape_x / world_x: the body-frame polyhedron (topology) and its placement at the current pose.
// Order: A's vertices ascending, each against B's faces ascending. No input validation here:
// polyhedron_contacts checks epsilon and the placements.
void vertex_face_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a,
                          int body_a, const ConvexPolyhedron& shape_b,
                          const WorldPolyhedron& world_b, int body_b, Real epsilon,
                          std::vector<Contact>& out);

}  // namespace exactsim
