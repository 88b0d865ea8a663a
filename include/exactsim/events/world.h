// The event-driven PLUS simulation's world: free rigid bodies carrying spheres, and fixed
// half-spaces (ground). Spheres welded to one body at several points make the paper's
// "childproof brick" (spheres at the vertices of a box, Example 1).
#pragma once

#include <vector>

#include "exactsim/impact/impact_problem.h"
#include "exactsim/math/types.h"

namespace exactsim {

// A free rigid body; the body origin is its centre of mass.
struct RigidBody {
  Real mass = 1.0;                       // kg, > 0
  Mat3 inertia = Mat3::Identity();       // kg m², about the centre of mass, body axes, SPD
  Vec3 position = Vec3::Zero();          // m, world
  Quat orientation = Quat::Identity();   // body → world
  Vec3 velocity = Vec3::Zero();          // m/s, world
  Vec3 angular_velocity = Vec3::Zero();  // rad/s, world
};

// A sphere welded to body `body` with its centre at `center` (body coordinates).
struct Sphere {
  int body = 0;
  Vec3 center = Vec3::Zero();  // m, body frame
  Real radius = 0.1;           // m, > 0
  ContactLaw material;         // μ and restitution of this sphere's contacts
};

// The fixed half-space {x : normal·x ≤ offset}; its boundary plane is the ground.
struct HalfSpace {
  Vec3 normal = Vec3::UnitZ();  // unit, pointing out of the solid
  Real offset = 0.0;            // m
};

struct EventWorld {
  std::vector<RigidBody> bodies;
  std::vector<Sphere> spheres;
  std::vector<HalfSpace> half_spaces;
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  // m/s²
};

// Generalized velocity layout: 6 per body, (v, ω) in world axes, body order.
int velocity_dofs(const EventWorld& world);
VecX generalized_velocity(const EventWorld& world);
void set_generalized_velocity(EventWorld& world, const VecX& u);

// World-frame inertia about the centre of mass, R I Rᵀ.
Mat3 world_inertia(const RigidBody& body);

// (6b × 6b) block-diagonal M⁻¹ = diag(I/m, I_W⁻¹) per body.
MatX inverse_mass_matrix(const EventWorld& world);

// Kinetic energy ½ Σ (m v² + ωᵀ I_W ω) and gravitational potential −Σ m g·x (J).
Real kinetic_energy(const EventWorld& world);
Real potential_energy(const EventWorld& world);
inline Real mechanical_energy(const EventWorld& world) {
  return kinetic_energy(world) + potential_energy(world);
}

// Material of a sphere–sphere contact (docs/plus.md "Scene files"): μ and e_min as the time
// stepper combines them, √(a b) (docs/impacts.md "Restitution per body"); the larger v_capture
// and v_plastic. A sphere–half-space contact uses the sphere's.
ContactLaw combine_materials(const ContactLaw& a, const ContactLaw& b);

// Throws InputError naming the field (`bodies[2].mass: …`) for invalid worlds.
void check_world(const EventWorld& world);

}  // namespace exactsim
