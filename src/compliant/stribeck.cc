#include "exactsim/compliant/stribeck.h"

namespace exactsim {

Real smooth_step(Real u) { return u * u * u * (10.0 + u * (-15.0 + 6.0 * u)); }

// docs/compliant.md "Friction (Stribeck curve)": three segments joined with C² continuity.
Real stribeck_coefficient(Real s, const StribeckCurve& c) {
  const Real w = s / c.transition_speed;
  Real dry;
  if (w < 1.0)
    dry = c.static_friction * smooth_step(w);
  else if (w < 3.0)
    dry = c.static_friction - (c.static_friction - c.dynamic_friction) * smooth_step(0.5 * (w - 1));
  else
    dry = c.dynamic_friction;
  return dry + c.viscous_friction * s;
}

}  // namespace exactsim
