// Step splitting on penetration (docs/penetration.md "Any step size"): when a step ends with a
// pair deeper than the contact distance that was not that deep before it, the step is taken
// again from its start as two half steps, recursively, so that fast, spinning or thin bodies
// and large h do not carry a feature through another. With the watchdog on, a step whose solve
// failed is taken again as halves too, down to eighth steps (docs/stepping.md "When a solve
// fails"). Steps without such an event are exactly step(): bit-identical results.
#pragma once

#include "exactsim/stepping/step.h"

namespace exactsim {

// step() of size h as step index k, split into 2, 4, … up to 2^max_step_splits sub-steps while
// a new deep penetration appears, and into 2 or 4 while a solve fails (StepOptions::
// max_step_splits; 0: never). The report is the last sub-step's, with report.substeps the number
// of sub-steps taken (1 when not split), report.retaken_failed_solves the failed solves taken
// again as halves, and the counts and timings of all sub-steps added up.
StepReport advance(const World& world, State& state, Workspace& ws, Real h, long k);

}  // namespace exactsim
