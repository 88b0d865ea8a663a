#include "exactsim/compliant/step_controller.h"

#include <algorithm>
#include <cmath>

namespace exactsim {

// docs/compliant.md "Integrators", step-size control steps 4–7.
StepDecision control_step(Real h, Real err, Real a, int p, bool limited, Real h_min, Real h_max) {
  Real next;
  if (!std::isfinite(err))
    next = 0.1 * h;
  else if (err == 0.0)
    next = 5.0 * h;
  else
    next = 0.9 * h * std::pow(a / err, 1.0 / p);
  if (next > h && (limited || next < 1.2 * h)) next = h;
  if (next < h) next = err <= a ? h : std::min(next, 0.9 * h);
  next = std::clamp(next, 0.1 * h, 5.0 * h);
  next = std::clamp(next, h_min, h_max);
  return {next >= h, next};
}

}  // namespace exactsim
