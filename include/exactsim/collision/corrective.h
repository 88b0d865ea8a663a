// The archived "Corrective" baseline's 2D detection (docs/collision.md "Narrow phase: detection
// rules"): contacts only after penetration, one per overlapping pair, from the separating-axis
// test.
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// If the polygons overlap (positive intersection area), appends one contact: ψ = −(minimum
// overlap depth over the edge normals of both polygons), n̂ = that axis oriented from A to B,
// point = mean of the vertices of the clipped overlap polygon (on A). Nothing otherwise.
void corrective_contact_2d(const WorldPolygon& a, int body_a, const WorldPolygon& b, int body_b,
                           std::vector<Contact>& out);

// Volume centroid of a closed convex polytope given as planar face loops (CCW from outside);
// the vertex mean when its volume is not positive (a degenerate sliver).
Vec3 polytope_centroid(const IntersectionPolyhedron& polytope);

// The archived 3D "Corrective" baseline (docs/peg3d.md "3D Corrective baseline", the
// authors' penalty_cd): if the
// polyhedra overlap (positive exact intersection volume), appends one contact at the volume
// centroid P of the overlap: for each body the face plane with the largest η̂_f·(P − v_f)
// (≤ 0: P is inside both), the body whose value is larger (the shallower face; B on a tie)
// gives the normal (its face normal oriented A → B) and ψ = 2 · that value (P is about half way
// through the overlap); p_a = P − (ψ/2) n̂, so that P is the midpoint of p_a and p_b.
// Nothing otherwise. `polytope` / `scratch` are caller-owned working memory.
void corrective_contact_3d(const ConvexPolyhedron& shape_a, const Pose3& pose_a,
                           const WorldPolyhedron& world_a, int body_a,
                           const ConvexPolyhedron& shape_b, const Pose3& pose_b,
                           const WorldPolyhedron& world_b, int body_b,
                           IntersectionPolyhedron& polytope, IntersectionScratch& scratch,
                           std::vector<Contact>& out);

}  // namespace exactsim
