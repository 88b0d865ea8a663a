// The kinematic update of the semi-implicit Euler step
// (docs/dynamics.md "Kinematic update").
#pragma once

#include "exactsim/dynamics/body.h"

namespace exactsim {

enum class RotationUpdate {
  kExponential,  // exact exponential map for constant ω, then renormalise (default)
  kLinear,       // the paper's Eq. 10, q + (h/2)[0, ω] ⊗ q, then renormalise
};

// q_i ← q_i + h Γ(q_i) ν_i with the body's (already updated) velocity.
void integrate_position(State& s, int i, Real h, RotationUpdate rotation);

// ν_i ← ν_i + h M_i⁻¹ F_i: the velocity of a body without contacts.
void integrate_free_velocity(const Body& body, State& s, int i, Real h, const Vec3& gravity);

// A body without contacts over h: integrate_free_velocity, then integrate_position (a kinematic
// body keeps its velocity and only moves). `exact` is the flight between impacts
// (docs/impacts.md "Exact flight"): the centre of mass moves by h (ν₀ + ν₁)/2 instead of h ν₁,
// exactly the parabola under constant gravity and applied force, and in 3D a body without applied
// torque turns by torque_free_rotation (dynamics/free_rotation.h) instead of the semi-implicit
// update.
void integrate_flight(const Body& body, State& s, int i, Real h, const Vec3& gravity,
                      RotationUpdate rotation, bool exact);

}  // namespace exactsim
