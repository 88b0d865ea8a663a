// Smooth motion between impacts: free rigid bodies under gravity with the gyroscopic term,
//   ẋ = v,  q̇ = ½ [0, ω] ⊗ q,  v̇ = g,  ω̇ = I_W⁻¹ (−ω × I_W ω),  I_W = R I Rᵀ,
// integrated with the classical 4th-order Runge–Kutta method (quaternion renormalised after the
// step). Translation under constant gravity is integrated exactly; rotation to O(h⁴) per unit time.
// (The persistent-contact step is the time stepper's semi-implicit step instead:
// dynamics/integrate.h.)
#pragma once

#include "exactsim/events/world.h"

namespace exactsim {

// One RK4 step of size h ≥ 0 of every body (contacts ignored).
void rk4_free_step(EventWorld& world, Real h);

}  // namespace exactsim
