// The directions of a contact's friction cone (docs/stepping.md "Friction directions"): in 3D the
// k directions of the polyhedral cone are turned so that the first one points where the friction
// force will act, so that stick and slip do not depend on how the scene is turned.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// A contact's friction force direction at the end of a step, as the angle from its
// contact_tangent() about n̂ (towards n̂ × t̂); kept by contact name for the next step.
struct FrictionDirection {
  std::uint64_t contact = 0;  // contact_name()
  Real angle = 0;             // rad
  bool operator<(const FrictionDirection& o) const { return contact < o.contact; }
};

// A unit tangent of contact c fixed to one of its features (3D): the first edge of the face of a
// vertex–face contact, the edge of A of an edge–edge contact, made orthogonal to n̂. It turns with
// the bodies, so that an angle measured from it means the same direction in the next step.
Vec3 contact_tangent(const World& world, const State& state, const Contact& c);

// The first direction d_1 of contact c's cone (3D; `tangent` = contact_tangent()): opposite to
// the tangential relative velocity of the bodies at the contact after a free step (ν + h M⁻¹F:
// the current sliding and the load of gravity) when it is above 1e-9 m/s, else the direction of
// the contact's friction force in the last step (`previous`, sorted by contact), else `tangent`.
Vec3 first_friction_direction(const World& world, const State& state, Real h, const Contact& c,
                              const Vec3& tangent, std::span<const FrictionDirection> previous);

// Unit directions d_1..d_k that positively span the tangent plane of n̂: ±t̂ (t̂ = n̂ turned by
// 90°) in 2D; in 3D d_r = cos(2πr/k) `first` + sin(2πr/k) n̂ × `first` for r = 0..k−1.
void friction_directions(const Vec3& normal, const Vec3& first, int dimension, int k,
                         std::vector<Vec3>& out);

// The angle of friction impulse f (on B) of contact c from `tangent`, appended to `out` when the
// impulse is not negligible (|f| > 1e-12 N s).
void remember_friction_direction(const Contact& c, const Vec3& tangent, const Vec3& f,
                                 std::vector<FrictionDirection>& out);

}  // namespace exactsim
