// Velocity-dependent Poisson coefficient of restitution (PLUS paper Fig. 2).
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

// e(w) for impact speed w = −v_N ≥ 0:
//   0                            if w ≤ v_capture   (the contact is captured, no rebound)
//   e_min                        if w ≥ v_plastic
//   1 − (1 − e_min)·w/v_plastic  otherwise         (line through (0, 1) and (v_plastic, e_min))
// A constant COR e is the law {e, 0, 0}: e for every w > 0.
struct RestitutionLaw {
  Real e_min = 1.0;      // minimum (high-speed) COR, in [0, 1]
  Real v_capture = 0.0;  // m/s, impact speeds at or below it do not rebound (Table A1: 0.01)
  Real v_plastic = 0.0;  // m/s, speed from which e = e_min (Table A1: 0.1); ≥ v_capture

  static RestitutionLaw constant(Real e) { return {e, 0.0, 0.0}; }
  bool is_constant() const { return v_capture == 0.0 && v_plastic == 0.0; }
};

// The COR for impact speed w. Negative w (separating) gives 0.
Real effective_cor(const RestitutionLaw& law, Real impact_speed);

}  // namespace exactsim
