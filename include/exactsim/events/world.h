// The event-driven PLUS simulation's world is the time stepper's (stepping/world.h): every dynamic
// body a sphere or a compound of spheres, every static body a half-space (ground). Spheres welded
// to one body at several points make the paper's "childproof brick" (spheres at the vertices of a
// box, Example 1). This file reads that world as the event-driven simulator needs it.
#pragma once

#include <vector>

#include "exactsim/impact/impact_problem.h"
#include "exactsim/math/types.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// A sphere of body `body`: a body that is one sphere, or a sphere part of a compound body.
struct WeldedSphere {
  int body = 0;
  Vec3 center = Vec3::Zero();  // m, body frame
  Real radius = 0.1;           // m
};

// An empty 3D world for the event-driven simulator (gravity −9.81 z), and its empty State.
World event_world();
State event_state();

// Adds a free body of the given mass (kg) and inertia (kg m², body axes, about the centre of
// mass), made of `spheres` (body frame: Sphere::centre from the centre of mass), at pose (x, q)
// moving with (v, ω) (world frame); returns its index.
int add_sphere_body(World& world, State& state, Real mass, const Mat3& inertia,
                    const std::vector<Sphere>& spheres, const Vec3& position,
                    const Quat& orientation = Quat::Identity(), const Vec3& velocity = Vec3::Zero(),
                    const Vec3& angular_velocity = Vec3::Zero());

// Adds a static half-space body (world frame); returns its index.
int add_half_space(World& world, State& state, const HalfSpace& half_space);

// The spheres of the world's dynamic bodies, body by body, each body's parts in order.
std::vector<WeldedSphere> welded_spheres(const World& world);

// Centre of sphere s in world coordinates.
Vec3 sphere_center(const State& state, const WeldedSphere& s);

// (6b × 6b) block-diagonal M⁻¹ of the bodies (dynamics/mass_matrix.h's blocks; zero for a
// static body).
MatX inverse_mass_matrix(const World& world, const State& state);

// Kinetic plus gravitational potential energy of the bodies (metrics/energy.h), J.
Real mechanical_energy(const World& world, const State& state);

// Body b's PLUS material: its μ (Body::friction, else contact.friction) and restitution law
// (stepping/located_impact.h's body_restitution_law).
ContactLaw body_contact_law(const World& world, int b);

// Sets body b's μ and restitution law (the inverse of body_contact_law).
void set_body_contact_law(World& world, int b, const ContactLaw& law);

// Material of a contact of bodies a and b's spheres (docs/plus.md "Scene files"): the time
// stepper's pair rules, pair_friction and pair_restitution_law (μ and e_min √(a b), the larger
// v_capture and v_plastic; docs/impacts.md "Restitution per body"). A sphere–half-space contact
// uses the sphere's body's own (body_contact_law).
ContactLaw pair_contact_law(const World& world, int a, int b);

// Throws InputError naming the field (`bodies[2].mass: …`) for a world the event-driven simulator
// cannot run: not 3D, a dynamic body that is not made of spheres, a static body that is not a
// half-space, joints, or invalid masses, poses and materials.
void check_world(const World& world, const State& state);

}  // namespace exactsim
