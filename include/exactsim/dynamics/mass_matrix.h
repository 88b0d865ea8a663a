// Block-diagonal mass matrix, its inverse, and the external generalized force (spec peg.md §1.1).
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

// F_i = (m g, 0) in 2D; (m g, −ω × (J_w ω)) in 3D: gravity plus the gyroscopic term.
BodyVector external_force(const Body& body, const State& s, int i, const Vec3& gravity);

}  // namespace exactsim
