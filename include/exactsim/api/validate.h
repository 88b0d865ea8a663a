// Validation of a World and a State before stepping (docs/api.md, docs/input-validation.md):
// everything step() relies on but does not check itself, by the scene rules that the scene reader
// applies too (io/scene_rules.h), with errors naming the body and the field.
#pragma once

#include <string>

#include "exactsim/stepping/world.h"

namespace exactsim {

// Throws InputError for: dimension not 2 or 3; gravity, contact options (friction, friction
// directions, ε) or threads out of the scene format's ranges; no bodies or too many; per body
// (`bodies[i] (name).field: ...`): a bad name, a shape index that names no shape of the world's
// dimension, a degenerate, too small, too large or too thin shape, a dynamic body whose mass or
// inertia is out of range (3D: not symmetric positive definite, or breaking the triangle
// inequality), friction or spawn time out of range.
void validate_world(const World& world);

// The per-body part of validate_world for body i alone.
void validate_body(const World& world, int i);

// Throws InputError unless `state` fits `world`: the same dimension, q, v and present sized for
// every body (force: empty or as v), finite entries, unit quaternions (3D, within 1e-9), static
// bodies at rest, present flags 0 or 1. (Not present is normal: step() spawns bodies by their
// spawn time.)
void validate_state(const World& world, const State& state);

// Body i's configuration q (as State::q_of(i)) or velocity v (State::v_of(i)) within the scene
// format's ranges (coordinates, angle; finite, speed, angular speed, a static body at rest): what
// a scene may start with, and what the setters of a Simulation take.
void validate_configuration(const World& world, int i, const Eigen::Ref<const VecX>& q);
void validate_velocity(const World& world, int i, const Eigen::Ref<const VecX>& v);

// All of the above for the scene's initial state, plus the step h and duration within their
// ranges, unique names, and no two bodies present at t = 0 deeply inside each other
// (docs/input-validation.md "Overlap at load").
void validate_scene(const Scene& scene);

// "bodies[3] (name)": how messages name a body.
std::string body_label(const World& world, int body);

}  // namespace exactsim
