// Baseline: Newton's kinematic restitution with one simultaneous solve (docs/plus.md;
// Simbody's RestitutionModel::Newton with a single interval). Kept for comparison only: it
// ignores the impact's internal structure and can gain energy in multi-contact impacts.
#pragma once

#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/impact_result.h"
#include "exactsim/impact/plus_interval.h"

namespace exactsim {

// Every proximal contact participates in a single interval (α = 1): the normal row of an
// impacting contact (v_N < −v_observe) is driven to v_N⁺ = −e v_N⁻ (e from its pre-impact speed),
// other normal rows to 0, all subject to π_N ≥ 0; friction rolls if the cone allows and otherwise
// slides against the pre-impact slip (impending slip against the end slip).
ImpactResult solve_newton_restitution(const ImpactProblem& problem);
void solve_newton_restitution(const ImpactProblem& problem, PlusWorkspace& ws,
                              ImpactResult& result);

}  // namespace exactsim
