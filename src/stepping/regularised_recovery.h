// Internal: the last resort after a failed solve when the user asked to continue (docs/stepping.md
// "When a solve fails").
#pragma once

#include "exactsim/stepping/step.h"

namespace exactsim {

// Solves the island's MLCP with N + δI for growing δ (δ relative to N's largest diagonal entry; a
// P-matrix when N is PSD, so the frictionless standard model always recovers) and, at the first δ
// whose answer certifies on that regularised problem, leaves ν, z and w (w of the unregularised
// rows, the energy's zᵀw) in ws.solution and the δ used in report.regularisation. On the dense
// path the reduced LCP by Lemke; on the sparse path the sparse MLCP with δ on D's diagonal by the
// sparse solve (block pivoting from last step's basis, the interior point, the crossover). It
// changes the model: the step stays reported as failed. False where no δ certifies or the island
// has joints (N + δI would make their rows unilateral).
bool recover_by_regularisation(const World& world, IslandWorkspace& ws, StepReport& report);

}  // namespace exactsim
