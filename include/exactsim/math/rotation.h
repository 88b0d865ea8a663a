// Rotations: planar angles and unit quaternions with world-frame angular velocity.
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

// R(θ) of a planar body.
Mat2 rotation2(Real theta);

// Exact quaternion update for constant world-frame ω over h (docs/dynamics.md "Kinematic update"):
// q⁺ = normalize([cos(|ω|h/2), ω̂ sin(|ω|h/2)] ⊗ q).
Quat integrate_exponential(const Quat& q, const Vec3& omega_world, Real h);

// The paper's linear Eq. 10: q⁺ = normalize(q + (h/2) [0, ω] ⊗ q).
Quat integrate_linear(const Quat& q, const Vec3& omega_world, Real h);

// Skew-symmetric matrix [a]× with [a]× b = a × b.
Mat3 skew(const Vec3& a);

}  // namespace exactsim
