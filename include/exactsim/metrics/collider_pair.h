// The metrics of a pair of 3D colliders of which either may be a sphere (geometry/sphere.h): the
// exact penetration depth and intersection volume, dispatched to the polyhedron functions
// (penetration_depth.h, polyhedron.h) or the sphere closed forms.
#pragma once

#include "exactsim/geometry/placed_collider.h"
#include "exactsim/metrics/penetration_depth.h"

namespace exactsim {

// As penetration_depth of two polyhedra: the depth, and the direction from A to B along which B
// leaves (a pair with a sphere: feature kSphere, the closest points' normal).
PenetrationResult penetration_depth(const PlacedCollider3& a, const PlacedCollider3& b,
                                    PenetrationScratch& scratch,
                                    const PenetrationOptions& options = {});

// Exact volume of A ∩ B (m³). Polyhedra need their poses (polyhedron_intersection_volume).
Real intersection_volume(const PlacedCollider3& a, const Pose3& pose_a, const PlacedCollider3& b,
                         const Pose3& pose_b, IntersectionScratch* scratch);

// Distance from p to the boundary when p is strictly inside the collider (> 0), else ≤ 0.
Real interior_depth(const PlacedCollider3& c, const Vec3& p);

}  // namespace exactsim
