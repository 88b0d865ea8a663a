// The PLUS impact model (Uchida, Sherman & Delp 2015): Poisson compression and expansion phases,
// sliding / rolling / impending intervals, least-squares load spreading and impact rounds for
// induced impacts (the paper's Algorithm 2, corrected: docs/plus.md "The solver as implemented").
#pragma once

#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/impact_result.h"
#include "exactsim/impact/plus_interval.h"

namespace exactsim {

// Checks the problem (check_impact_problem) and solves it with problem.options.
ImpactResult solve_plus(const ImpactProblem& problem);

// Hot-path form: no input check (the caller guarantees a valid problem), scratch reused.
// options.induced_impacts chooses between
//   kRounds: every round, contacts with pending Poisson impulse expand, other contacts with
//            v_N < −v_observe compress and the rest observe; a compressing contact with e > 0
//            that received normal impulse expands by e·(its compression impulse) next round;
//            rounds repeat until nobody compresses or expands;
//   kSimultaneous: every proximal contact participates in one compression, impacters expand in
//            one second round, and a COR-0 third round catches remaining approach
//            (Simbody's default, paper Fig. 14 row C);
//   kMixed: options.mixed_rounds rounds as kRounds, then a last round in which the pending
//            expansion is applied and every other proximal contact compresses with COR 0
//            (Simbody's Mixed).
void solve_plus(const ImpactProblem& problem, PlusWorkspace& ws, ImpactResult& result);

}  // namespace exactsim
