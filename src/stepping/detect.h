// Internal: the detection stage of step() (docs/stepping.md stage 2).
#pragma once

#include "exactsim/stepping/step.h"

namespace exactsim {

// Fills ws.constraints.contacts for the present bodies with contact distance eps (place_bodies
// must have run).
void detect_contacts(const World& world, const State& state, Real h, Real eps, Workspace& ws);
void detect_contacts_3d(const World& world, const State& state, Real h, Real eps, Workspace& ws);

// place_bodies without the 2D predicted configuration: what the end-of-step metrics need.
void place_current_bodies(const World& world, const State& state, Workspace& ws);

// ws.end_pairs: every pair (i < j) of present bodies, not both static, whose placed shapes' boxes
// overlap, sorted; the one broad phase of the overlap metric and the penetration watchdog
// (docs/stepping.md stage 7). from_detection: this step's detect_contacts ran on the same
// present flags, and its broad phase (ws.boxes2 / ws.boxes3, ws.pairs) serves as the cover of
// overlapping_box_pairs (exact whatever the bodies did since; a body that left its detection
// box is swept on its own). Otherwise a full sweep.
void find_overlapping_pairs(const World& world, const State& state, Workspace& ws,
                            bool from_detection);

}  // namespace exactsim
