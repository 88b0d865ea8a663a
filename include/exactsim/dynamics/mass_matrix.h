// Block-diagonal mass matrix, its inverse, and the external generalized force
// (docs/dynamics.md).
#pragma once

#include "exactsim/dynamics/body.h"

namespace exactsim {

// Per-body square block, 3×3 (planar) or 6×6 (spatial), stack-allocated.
using BodyMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using BodyVector = Eigen::Matrix<Real, Eigen::Dynamic, 1, 0, 6, 1>;

// M_i = diag(m, m, J) or [[m I₃, 0], [0, R J_body Rᵀ]].
BodyMatrix mass_block(const Body& body, const State& s, int i);
// M_i⁻¹, formed in closed form (R J⁻¹ Rᵀ for the rotational part).
BodyMatrix inverse_mass_block(const Body& body, const State& s, int i);

// h F_i over a step of size h: (h m g, 0) in 2D; in 3D gravity's impulse h m g and the
// gyroscopic impulse J_w (ω₁ − ω), where ω₁ is the torque-free rotation step of
// dynamics/gyroscopic.h (implicit midpoint: energy and |L| conserved; docs/dynamics.md). Then
// ν + M⁻¹ (h F) is the exact free-flight velocity of the semi-implicit step. Plus h times the
// body's applied force and torque (State::force), when there are any.
BodyVector external_impulse(const Body& body, const State& s, int i, Real h, const Vec3& gravity);

// The work h f·ν of body i's applied force and torque (State::force) over a step of h, at the
// velocity ν it has in s after the step: the energy the whole step's balance lets it supply, as
// gravity's work is the potential energy it releases (docs/robustness.md "Energy balance").
// 0 without applied forces.
Real applied_work(const State& s, int i, Real h);

}  // namespace exactsim
