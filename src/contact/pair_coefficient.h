// A pair of bodies' friction μ or coefficient of restitution e from the two bodies' own: the
// geometric mean √(a b) (docs/impacts.md "Restitution per body"). The rigid models share it (the
// time stepper's rows and located impacts, the event-driven PLUS scenes), so one body's μ and e
// mean the same in every rigid scene. The compliant model keeps the harmonic mean of its
// reference (docs/compliant.md).
#pragma once

#include <cmath>

#include "exactsim/math/types.h"

namespace exactsim {

inline Real pair_coefficient(Real a, Real b) { return std::sqrt(a * b); }

}  // namespace exactsim
