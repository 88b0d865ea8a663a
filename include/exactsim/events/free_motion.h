// Smooth motion between impacts: free rigid bodies under gravity with the gyroscopic term,
//   ẋ = v,  v̇ = g,  q̇ = ½ q ⊗ [0, ω_b],  I ω̇_b = −ω_b × I ω_b  (ω_b = Rᵀ ω, body axes),
// one classical 4th-order Runge–Kutta step (dynamics/free_rotation.h's rk4_rotation_step for the
// rotation, the quaternion renormalised after the step). Translation under constant gravity is
// integrated exactly; rotation to O(h⁴) per unit time. (The persistent-contact step is the time
// stepper's semi-implicit step instead: dynamics/integrate.h.)
#pragma once

#include "exactsim/events/world.h"

namespace exactsim {

// One RK4 step of size h ≥ 0 of every dynamic body (contacts ignored).
void rk4_free_step(const World& world, State& state, Real h);

}  // namespace exactsim
