// Torque-free rotation of a free body between impacts (docs/dynamics.md "Flight between
// impacts"): q̇ = ½ q ⊗ [0, ω_b] and I ω̇_b = −ω_b × I ω_b in body axes, integrated by the
// classical 4th-order Runge–Kutta method; ω is given and returned in world axes.
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

// One RK4 step of size h (quaternion renormalised after the step).
void rk4_rotation_step(const Mat3& inertia_body, Quat& q, Vec3& omega_world, Real h);

// The rotation over t: RK4 sub-steps of |ω| Δt ≤ 10⁻³ rad (a symmetric top is 1.9 × 10⁻¹² rad off
// its closed form after 59 rad of spin), then ω scaled back to the rotational kinetic energy
// ½ ω_bᵀ I ω_b it started with (a torque-free invariant). False, leaving q and ω unchanged, when
// that takes more than 10,000 sub-steps (|ω| t > 10 rad).
bool torque_free_rotation(const Mat3& inertia_body, Quat& q, Vec3& omega_world, Real t);

}  // namespace exactsim
