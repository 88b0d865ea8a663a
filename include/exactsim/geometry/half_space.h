// Half-spaces: the fixed solid {x : n·x ≤ offset} whose boundary plane is a ground or a wall, and
// the time stepper's stand-in for one (docs/scene-format.md "Half-spaces").
#pragma once

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/types.h"

namespace exactsim {

// The solid {x : normal·x ≤ offset}, in its body's frame (the event-driven simulator's are in the
// world frame).
struct HalfSpace {
  Vec3 normal = Vec3::UnitZ();  // unit, pointing out of the solid
  Real offset = 0.0;            // m
};

// How far from the plane's point nearest the body origin (offset · normal) the stand-in reaches
// along the plane, and how deep it is (m).
inline constexpr Real kHalfSpaceReach = 1000;

// The time stepper's stand-in for a half-space: the box of the solid within kHalfSpaceReach of
// offset · normal, its top face on the plane (a square of side 2 kHalfSpaceReach) and as deep as
// it is wide. Its contacts, depths and overlap volumes with a body within that reach are the
// half-space's: the box's other faces, edges and vertices are farther from the body than the
// plane. With an axis-aligned normal, the top face lies on the plane exactly.
// (The viewer draws a half-space as the same box with a smaller reach.)
ConvexPolyhedron half_space_box(const HalfSpace& h, Real reach = kHalfSpaceReach);

// The half-space's normal as given, or scaled to unit length when it is more than a few ulps off
// (a written scene re-reads to the same normal bit for bit). InputError unless the normal is
// finite and not zero and the offset is finite.
HalfSpace unit_half_space(const Vec3& normal, Real offset);

}  // namespace exactsim
