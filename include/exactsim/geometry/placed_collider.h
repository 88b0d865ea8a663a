// A placed 3D collider as detection and the metrics see it: a convex polyhedron with its world
// placement, or a sphere (docs/scene-format.md "Spheres").
#pragma once

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/geometry/sphere.h"
#include "exactsim/math/types.h"

namespace exactsim {

// A sphere placed at `pose` (its body's) as a WorldPolyhedron: its world centre the one vertex,
// and its box; no faces.
void place(const Sphere& sphere, const Pose3& pose, WorldPolyhedron& out);

struct PlacedCollider3 {
  const ConvexPolyhedron* shape = nullptr;  // null: a sphere
  const WorldPolyhedron* placed = nullptr;  // the polyhedron in the world (a sphere's: place())
  Vec3 centre = Vec3::Zero();               // m: a sphere's centre
  Real radius = 0;                          // m: a sphere's radius
  bool is_sphere() const { return shape == nullptr; }
};

// The closest points of sphere `s` and the other collider `o` (geometry/sphere.h), sphere first.
inline SphereProximity sphere_proximity(const PlacedCollider3& s, const PlacedCollider3& o) {
  return o.is_sphere() ? sphere_sphere_proximity(s.centre, s.radius, o.centre, o.radius)
                       : sphere_polyhedron_proximity(s.centre, s.radius, *o.shape, *o.placed);
}

// The collider `placed` holds: place()d from `shape`, or from a sphere of `radius` (shape null).
inline PlacedCollider3 placed_collider(const ConvexPolyhedron* shape, const WorldPolyhedron& placed,
                                       Real radius) {
  return {shape, &placed, shape != nullptr ? Vec3::Zero() : placed.vertices[0], radius};
}

// A polyhedron or a sphere placed at `pose` into `out`, as a collider.
inline PlacedCollider3 place_collider(const ConvexPolyhedron& shape, const Pose3& pose,
                                      WorldPolyhedron& out) {
  place(shape, pose, out);
  return placed_collider(&shape, out, 0);
}
inline PlacedCollider3 place_collider(const Sphere& sphere, const Pose3& pose,
                                      WorldPolyhedron& out) {
  place(sphere, pose, out);
  return placed_collider(nullptr, out, sphere.radius);
}

}  // namespace exactsim
