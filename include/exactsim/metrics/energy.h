// Energy and momentum of the present bodies (invariant checks and step reports).
#pragma once

#include "exactsim/dynamics/body.h"

#include <vector>

namespace exactsim {

// ½ Σ νᵢᵀ Mᵢ νᵢ over present dynamic bodies (J.
Real kinetic_energy(const std::vector<Body>& bodies, const State& s);
// −Σ mᵢ g·xᵢ over present dynamic bodies (J), zero at the origin.
Real potential_energy(const std::vector<Body>& bodies, const State& s, const Vec3& gravity);
// Σ mᵢ vᵢ (2D: z = 0).
Vec3 linear_momentum(const std::vector<Body>& bodies, const State& s);
// Σ (xᵢ − o) × mᵢ vᵢ + Jᵢ ωᵢ about point o (2D: only z is meaningful).
Vec3 angular_momentum(const std::vector<Body>& bodies, const State& s, const Vec3& o);

}  // namespace exactsim
