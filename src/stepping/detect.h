// Internal: the detection stage of step() (docs/stepping.md stage 2).
#pragma once

#include "exactsim/stepping/step.h"

namespace exactsim {

// Fills ws.constraints.contacts for the present bodies (place_bodies must have run).
void detect_contacts(const World& world, const State& state, Real h, Workspace& ws);
void detect_contacts_3d(const World& world, const State& state, Real h, Real eps, Workspace& ws);

}  // namespace exactsim
