// Smooth motion between impacts: free rigid bodies under gravity with the gyroscopic term,
//   ẋ = v,  q̇ = ½ [0, ω] ⊗ q,  v̇ = g,  ω̇ = I_W⁻¹ (−ω × I_W ω),  I_W = R I Rᵀ,
// integrated with the classical 4th-order Runge–Kutta method (quaternion renormalised after the
// step). Translation under constant gravity is integrated exactly; rotation to O(h⁴) per unit time.
#pragma once

#include "exactsim/events/world.h"

namespace exactsim {

// One RK4 step of size h ≥ 0 of every body (contacts ignored).
void rk4_free_step(EventWorld& world, Real h);

// One semi-implicit (symplectic) Euler step: v ← v + h g, ω ← ω + h I_W⁻¹(−ω × I_W ω); the
// caller may correct the velocities (constraint impulses) before advance_positions().
void euler_velocity_step(EventWorld& world, Real h);
void advance_positions(EventWorld& world, Real h);

}  // namespace exactsim
