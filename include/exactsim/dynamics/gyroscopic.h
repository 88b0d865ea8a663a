// The gyroscopic term of a free spatial body, integrated so that it conserves what it should
// (docs/dynamics.md "The external impulse of a step").
//
// Torque-free rotation obeys Euler's equation in body axes, J ω̇ = −ω × (J ω). Its quadratic
// invariants are the kinetic energy ½ ωᵀJω and |L|² = |Jω|². The implicit midpoint rule
//   J (ω₁ − ω₀) = −h ω_m × (J ω_m),   ω_m = (ω₀ + ω₁)/2,
// preserves every quadratic invariant of a linear-in-each-factor vector field exactly, so both
// stay constant to the accuracy of the Newton solve, for any h and any spin. (The explicit term
// −h ω × Jω adds energy every step: h²|ω × Jω|²-order growth, NaN within seconds at high spin.)
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

// ω₁ in body axes after a torque-free step h from ω₀ (body axes), by the implicit midpoint rule.
// Newton on the midpoint equation; when it does not converge (h|ω| far beyond 1) the step is
// split in halves recursively, each half being the same energy- and |L|-preserving map.
Vec3 torque_free_rotation_step(const Mat3& inertia_body, const Vec3& omega_body, Real h);

}  // namespace exactsim
