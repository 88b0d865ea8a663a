// The event-driven PLUS simulation's world: dynamics' rigid bodies (3D) and their State, spheres
// welded to them, and fixed half-spaces (ground). Spheres welded to one body at several points
// make the paper's "childproof brick" (spheres at the vertices of a box, Example 1).
#pragma once

#include <vector>

#include "exactsim/dynamics/body.h"
#include "exactsim/geometry/half_space.h"
#include "exactsim/impact/impact_problem.h"
#include "exactsim/math/types.h"

namespace exactsim {

// A sphere welded to body `body` with its centre at `center` (body coordinates).
struct WeldedSphere {
  int body = 0;
  Vec3 center = Vec3::Zero();  // m, body frame
  Real radius = 0.1;           // m, > 0
  ContactLaw material;         // μ and restitution of this sphere's contacts
};

struct EventWorld {
  // Free bodies: mass and inertia (body axes, about the centre of mass, the body origin) as the
  // time stepper's (dynamics/body.h); `shape` is not used. Every body is dynamic.
  std::vector<Body> bodies;
  // Their poses and velocities in the time stepper's layout: q = (x, unit quaternion w x y z),
  // ν = (v, ω) in world axes, body order (State::dimension 3).
  State state = [] {
    State s;
    s.dimension = 3;
    return s;
  }();
  std::vector<WeldedSphere> spheres;
  std::vector<HalfSpace> half_spaces;
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  // m/s²

  int body_count() const { return static_cast<int>(bodies.size()); }
};

// Adds a free body of the given mass (kg) and inertia (kg m², body axes, about the centre of
// mass) at pose (x, q) moving with (v, ω) (world frame); returns its index.
int add_free_body(EventWorld& world, Real mass, const Mat3& inertia, const Vec3& position,
                  const Quat& orientation = Quat::Identity(), const Vec3& velocity = Vec3::Zero(),
                  const Vec3& angular_velocity = Vec3::Zero());

// Centre of sphere s in world coordinates.
Vec3 sphere_center(const EventWorld& world, const WeldedSphere& s);

// (6b × 6b) block-diagonal M⁻¹ of the bodies (dynamics/mass_matrix.h's blocks).
MatX inverse_mass_matrix(const EventWorld& world);

// Kinetic plus gravitational potential energy of the bodies (metrics/energy.h), J.
Real mechanical_energy(const EventWorld& world);

// Material of a sphere–sphere contact (docs/plus.md "Scene files"): μ and e_min as the time
// stepper combines them, √(a b) (docs/impacts.md "Restitution per body"); the larger v_capture
// and v_plastic. A sphere–half-space contact uses the sphere's.
ContactLaw combine_materials(const ContactLaw& a, const ContactLaw& b);

// Throws InputError naming the field (`bodies[2].mass: …`) for invalid worlds.
void check_world(const EventWorld& world);

}  // namespace exactsim
