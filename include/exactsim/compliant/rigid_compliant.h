// Free rigid bodies carrying spheres (a World as events/world.h reads it: dynamic bodies of
// spheres, static half-spaces) with compliant contacts against the half-spaces and each other, as
// an OdeSystem (docs/compliant.md "The model").
//
// State y = (q, ν, z) of the dynamic bodies, in body order: q = (COM position; unit quaternion w,
// x, y, z) (7 per body) and ν = (v_COM; ω) in world axes (6 per body), the time stepper's layout
// (dynamics/body.h); z = (D_HC, D_friction, W): dissipated energy by Hunt–Crossley damping and by
// friction, and the work W' = Σ −F·v_rel the contacts draw from the bodies [J]; z is not
// error-controlled.
#pragma once

#include <vector>

#include "exactsim/compliant/hertz_hunt_crossley.h"
#include "exactsim/compliant/ode_system.h"
#include "exactsim/events/world.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

struct CompliantScene {
  World world = event_world();  // bodies, spheres, half-spaces, gravity (PLUS laws ignored)
  State state = event_state();
  std::vector<CompliantMaterial> sphere_materials;      // one per sphere (welded_spheres' order)
  std::vector<CompliantMaterial> half_space_materials;  // one per half-space
  Real transition_speed = 0.01;                         // Stribeck v_tr [m/s]
};

// One compliant contact at the scene's current state.
struct CompliantContact {
  int half_space = -1;  // surface 1 is this half-space, or sphere `sphere_a`
  int sphere_a = -1;
  int sphere_b = -1;  // surface 2
  HertzGeometry geometry;
  CompliantContactForce force;
  Vec3 relative_velocity = Vec3::Zero();  // m/s, at the point of application
};

// Throws InputError naming the field for a bad world or a material count mismatch.
void check_compliant_scene(const CompliantScene& scene);

// State packing (z from `quadratures`, or zeros).
VecX compliant_state(const World& world, const State& state,
                     const Vec3& quadratures = Vec3::Zero());
void set_compliant_state(const World& world, State& state, const VecX& y);

// Every sphere–half-space and sphere–sphere pair (different bodies) with depth > 0 at
// `state` (materials and v_tr from `scene`).
std::vector<CompliantContact> compliant_contacts(const CompliantScene& scene, const State& state);

// Largest penetration depth over all pairs [m] (negative: the smallest gap).
Real max_penetration(const World& world, const State& state);

// Σ PE of the active contacts [J].
Real contact_potential_energy(const CompliantScene& scene, const State& state);

// The ODE of the scene (checks it first). The derivative closure owns its scratch.
OdeSystem compliant_system(const CompliantScene& scene);

}  // namespace exactsim
