// Internal: the depth witness rows of step() (docs/penetration.md "The depth witness").
#pragma once

#include "exactsim/stepping/step.h"

namespace exactsim {

// After PEG's generators, before map_contacts_to_bodies (ws.constraints' contacts still name
// colliders; the shapes placed at the step's start): every pair of polytopes with a candidate
// contact more than 0.01 ε deep gets its exact penetration depth d; where d exceeds twice the
// deepest overlap its constraints see and that overlap + 0.01 ε, the feature pair of d (the
// vertex deepest behind the face d is measured against, or the two edges of an edge–edge d)
// becomes one more U of ψ = −d. Returns how many were added.
int add_depth_witnesses(const World& world, Real eps, Workspace& ws);

}  // namespace exactsim
