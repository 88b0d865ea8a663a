// A placed 3D collider as detection and the metrics see it: a convex polyhedron with its world
// placement, or a sphere (docs/scene-format.md "Spheres").
#pragma once

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/types.h"

namespace exactsim {

struct PlacedCollider3 {
  const ConvexPolyhedron* shape = nullptr;  // null: a sphere
  const WorldPolyhedron* placed = nullptr;  // the polyhedron in the world (a sphere's: its box)
  Vec3 centre = Vec3::Zero();               // m: a sphere's centre
  Real radius = 0;                          // m: a sphere's radius
  bool is_sphere() const { return shape == nullptr; }
};

}  // namespace exactsim
