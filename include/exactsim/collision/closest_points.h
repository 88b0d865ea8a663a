// Closest points and distances between features: the proximity values of the narrow phase
// (docs/collision.md "Narrow phase: detection rules": point–segment in 2D, point–face and
// segment–segment in 3D).
#pragma once

#include <span>
#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

// Parameter in [0, 1] of the point of segment a → b closest to p (0 for a degenerate segment).
Real closest_segment_parameter(const Vec2& p, const Vec2& a, const Vec2& b);
Real closest_segment_parameter(const Vec3& p, const Vec3& a, const Vec3& b);

// Euclidean distance from p to the segment a → b.
Real point_segment_distance(const Vec2& p, const Vec2& a, const Vec2& b);
Real point_segment_distance(const Vec3& p, const Vec3& a, const Vec3& b);

struct SegmentClosestPoints {
  Real s = 0;               // parameter on segment a (p_a = a0 + s (a1 − a0)), in [0, 1]
  Real t = 0;               // parameter on segment b, in [0, 1]
  Vec3 p_a = Vec3::Zero();  // closest point on a
  Vec3 p_b = Vec3::Zero();  // closest point on b
  Real distance = 0;        // |p_b − p_a|
};

// Closest points of the segments a0 → a1 and b0 → b1 (Ericson, Real-Time Collision Detection
// §5.1.9). Parallel and degenerate segments give a valid pair (never NaN); the pair is then
// one of many.
SegmentClosestPoints closest_points_segments(const Vec3& a0, const Vec3& a1, const Vec3& b0,
                                             const Vec3& b1);

// Distance from p to the convex planar polygon with vertices vertices[face[0..k-1]],
// counter-clockwise seen from the side `normal` points to (the polyhedron face of
// docs/geometry3d.md "Conventions"): |η̂·(p − v)| if p projects inside the polygon, else the
// distance to the nearest boundary edge.
Real point_face_distance(const Vec3& p, const std::vector<Vec3>& vertices,
                         std::span<const int> face, const Vec3& normal);

}  // namespace exactsim
