// Three-segment Stribeck friction curve (docs/compliant.md "Friction (Stribeck
// curve)", Simbody's compliant contact).
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

struct StribeckCurve {
  Real static_friction = 0.0;    // μ_s [–]
  Real dynamic_friction = 0.0;   // μ_d [–]
  Real viscous_friction = 0.0;   // μ_v [s/m]
  Real transition_speed = 0.01;  // v_tr [m/s], > 0
};

// Slip speeds at or below this give no friction (ε^{7/8} ≈ 2e-14 m/s).
inline constexpr Real kNoSlipSpeed = 2e-14;

// The quintic smooth step S(u) = 10u³ − 15u⁴ + 6u⁵ (C² on [0, 1]).
Real smooth_step(Real u);

// μ(s) for slip speed s [m/s] ≥ 0, with w = s/v_tr:
//   μ_s S(w) on [0, 1), μ_s − (μ_s − μ_d) S((w−1)/2) on [1, 3), μ_d beyond; plus μ_v s.
Real stribeck_coefficient(Real slip_speed, const StribeckCurve& curve);

}  // namespace exactsim
