// 3D narrow phase, vertex–face potential contacts (docs/collision.md "Conventions"; the proximity
// part of the vertex–face feasibility test, docs/peg3d.md "Tests and their definitions").
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// Appends one kVertexFace contact for every (vertex v of A, face f of B) whose point–face
// distance D (to the face POLYGON) is ≤ epsilon: ψ = η̂_f·(v − v_{f,1}) (signed distance to the
// face's PLANE), n̂ = −η̂_f, p_a = v, distance = D. One direction only (A's vertices); the
// caller swaps the arguments for B's vertices (polyhedron_contacts does both). A vertex strictly
// inside B deeper than epsilon (every face's ψ < −epsilon) gets the one contact against the face
// with the largest ψ, the face it leaves through soonest (its D = |ψ|), so that an overlap deeper
// than ε is still seen and pushed out (docs/collision.md "Narrow phase: detection rules").
// shape_x / world_x: the body-frame polyhedron (topology) and its placement at the current pose.
// `reach` (>= 0) widens the distance for a vertex in front of the face (ψ > 0): D <= epsilon +
// reach, the faces a fast pair may close on within the step; a vertex behind a face plane is
// within epsilon or not at all, so that the far side of a thin body is never a contact.
// Above −1, `min_applicability` keeps a record within epsilon only where
// vertex_applicability(v, η̂_f) is at least that (docs/collision.md "Applicable pairs"); the deep
// vertex's exit face is kept whatever it is.
// Order: A's vertices ascending, each against B's faces ascending. No input validation here:
// polyhedron_contacts checks epsilon and the placements.
void vertex_face_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a,
                          int body_a, const ConvexPolyhedron& shape_b,
                          const WorldPolyhedron& world_b, int body_b, Real epsilon,
                          std::vector<Contact>& out, Real reach = 0, Real min_applicability = -1);

// APPL_vf (docs/peg3d.md "Tests and their definitions"): the least η̂·(u − v)/|u − v| over the
// neighbours u of vertex `vertex` (at v) of the placed polyhedron, for a face normal η̂ of the
// other body. At least 0 where every edge at v leaves the face's plane toward its outside (v is
// the body's nearest point to the face); −1 where an edge at v points straight into the face.
Real vertex_applicability(const ConvexPolyhedron& shape, const WorldPolyhedron& world, int vertex,
                          const Vec3& face_normal);

// The kVertexFace record of vertex `vertex` of body_a (world point v) against face `face` of
// body_b, whatever their distance (docs/collision.md): ψ to the plane, n̂ = −η̂_f, p_a = v, distance
// to the face polygon. Used by constraint generators that need a specific feature pair.
Contact vertex_face_contact(const Vec3& v, int body_a, int vertex, const ConvexPolyhedron& shape_b,
                            const WorldPolyhedron& world_b, int body_b, int face);

}  // namespace exactsim
