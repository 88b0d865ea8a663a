// Step-size control shared by every integrator (docs/compliant.md "Integrators",
// Simbody 3.7's rules).
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

struct StepDecision {
  bool accept = false;
  Real next_step = 0.0;  // s
};

// From the nominal step h [s], the attempt's error norm err (∞/NaN for a failed attempt), the
// accuracy a, the controller order p, whether the step was limited by a report/final time, and
// the bounds [h_min, h_max]: h' = 0.1h (err not finite), 5h (err = 0) or 0.9h(a/err)^{1/p};
// no growth when limited or below 1.2h; no shrink when err ≤ a; else at most 0.9h; clamp to
// [0.1h, 5h] then [h_min, h_max]; accept iff h' ≥ h.
StepDecision control_step(Real h, Real err, Real accuracy, int order, bool limited, Real h_min,
                          Real h_max);

}  // namespace exactsim
