// Validation of a World and a State before stepping (docs/api.md): everything step() relies on
// but does not check itself, with errors naming the body and the field.
#pragma once

#include <string>

#include "exactsim/stepping/world.h"

namespace exactsim {

// Throws InputError for: dimension not 2 or 3; non-finite gravity; contact options out of range
// (friction < 0, friction_directions < 3 in 3D, ε <= 0); per body (`bodies[i] (name).field: ...`):
// a shape index that names no shape of the world's dimension, a degenerate shape, a dynamic body
// with mass or inertia not > 0 and finite (3D: not symmetric positive definite), friction < 0,
// spawn time not finite or < 0.
void validate_world(const World& world);

// The per-body part of validate_world for body i alone.
void validate_body(const World& world, int i);

// Throws InputError unless `state` fits `world`: the same dimension, q, v and present sized for
// every body, finite entries, unit quaternions (3D, within 1e-9), static bodies at rest, and
// present flags 0 or 1. (Not present is normal: step() spawns bodies by their spawn time.)
void validate_state(const World& world, const State& state);

// Both of the above plus the step h > 0 and a finite duration >= 0.
void validate_scene(const Scene& scene);

// "bodies[3] (name)": how messages name a body.
std::string body_label(const World& world, int body);

}  // namespace exactsim
