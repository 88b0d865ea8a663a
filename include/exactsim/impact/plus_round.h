// One impact round: the interval loop (PLUS paper Algorithm 2's inner repeat).
#pragma once

#include <vector>

#include "exactsim/impact/impact_result.h"
#include "exactsim/impact/plus_interval.h"

namespace exactsim {

struct RoundControl {
  const VecX* target = nullptr;  // (rows) desired end normal velocities; nullptr = zero (PLUS)
  bool single_interval = false;  // α = 1 always (the Newton baseline's single solve)
};

// Runs intervals until α = 1 with the phases of setup.phase fixed. `expansion` holds the Poisson
// impulse π_E of each expanding contact; it is applied pro rata (interval j applies α_j of what is
// left) and is fully applied when the round ends. Updates v, adds the round's impulse (expansion
// included) to `impulse`, counts intervals and marks sliding-to-rolling transitions in `summary`.
// Returns false if the interval budget ran out (the round is then incomplete).
bool run_plus_round(const IntervalSetup& setup, const std::vector<Real>& expansion,
                    const RoundControl& control, PlusWorkspace& ws, VecX& v, VecX& impulse,
                    int& interval_budget, RoundLog* log, std::vector<ContactSummary>& summary);

}  // namespace exactsim
