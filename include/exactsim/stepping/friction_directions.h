// The directions of a contact's friction cone (docs/stepping.md "Friction directions"): in 3D the
// k directions of the polyhedral cone are turned so that the first one points where the friction
// force will act, so that stick and slip do not depend on how the scene is turned. The contacts
// of one patch (a face of B against vertices of A) share their directions, so that their friction
// columns stay parallel as the patch is.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// A patch's friction force direction at the end of a step, as the angle from its
// contact_tangent() about n̂ (towards n̂ × t̂); kept by patch for the next step.
struct FrictionDirection {
  std::uint64_t patch = 0;  // friction_patch()
  Real angle = 0;           // rad
  bool operator<(const FrictionDirection& o) const { return patch < o.patch; }
};

// A unit vector orthogonal to unit n̂, from the world axis least aligned with it.
Vec3 any_tangent(const Vec3& n);

// The name of the patch contact c belongs to: its bodies and B's face for a vertex–face contact,
// the contact itself otherwise.
std::uint64_t friction_patch(const Contact& c);

// A unit tangent of contact c fixed to one of its features (3D): the first edge of the face of a
// vertex–face contact, the edge of A of an edge–edge contact, made orthogonal to n̂. It turns with
// the bodies, so that an angle measured from it means the same direction in the next step.
Vec3 contact_tangent(const World& world, const State& state, const Contact& c);

// The friction directions of one island's cones (3D): for each patch, d_1 is opposite to the
// tangential relative velocity of the bodies after a free step (ν + h M⁻¹F: the current sliding
// and the load of gravity) at the mean point of its contacts when that is above 1e-9 m/s, else
// the patch's friction force direction of the last step (`previous`, sorted by patch), else its
// contact_tangent(). `cones`: the contact of each cone; `tangent` and `first` are filled, one
// entry per cone; `scratch` is reused.
void first_friction_directions(const World& world, const State& state, Real h,
                               std::span<const Contact> contacts, std::span<const int> cones,
                               std::span<const FrictionDirection> previous,
                               std::vector<Vec3>& tangent, std::vector<Vec3>& first,
                               std::vector<std::pair<std::uint64_t, int>>& scratch);

// Unit directions d_1..d_k that positively span the tangent plane of n̂: ±t̂ (t̂ = n̂ turned by
// 90°) in 2D; in 3D d_r = cos(2πr/k) `first` + sin(2πr/k) n̂ × `first` for r = 0..k−1.
void friction_directions(const Vec3& normal, const Vec3& first, int dimension, int k,
                         std::vector<Vec3>& out);

// The friction directions of one island's solve, appended to `out` (3D): per patch, the angle of
// the sum of its cones' friction impulses (`impulse`, on B, one per cone) from its tangent, when
// that sum is not negligible (> 1e-12 N s).
void remember_friction_directions(std::span<const Contact> contacts, std::span<const int> cones,
                                  std::span<const Vec3> tangent, std::span<const Vec3> impulse,
                                  std::vector<FrictionDirection>& out,
                                  std::vector<std::pair<std::uint64_t, int>>& scratch);

}  // namespace exactsim
