// Internal: an island's solve policy (docs/solvers.md "The solve policy"): the attempts an island
// makes, in order, until one certifies on the whole MLCP.
#pragma once

#include <vector>

#include "exactsim/stepping/step.h"

namespace exactsim {

// Solves the island assembled in ws (ws.layout, ws.problem; ws.dense: whether it is on the dense
// path), with last step's basis as the guess where `warm`. Leaves in ws.solution the answer of
// the attempt that certified, or else the last failed answer (a working set's failure gives back
// the answer before it), and in ws.dense whether that answer is the dense path's. Effort adds up
// over the attempts, the first attempt's status becomes the certificate's primary_status, and
// report.attempts gets every attempt of an island whose first did not certify. Returns the basis
// the warm start remembers (null: the answer's active set). `retaken`: a failed solve will be
// taken again as halves (Workspace::retakes_failed_solve), which replaces the sparse Lemke on
// the whole island. `h`: the step's length.
const std::vector<bool>* solve_island_policy(const World& world, Real h, IslandWorkspace& ws,
                                             bool warm, bool retaken, StepReport& report);

}  // namespace exactsim
