// What the stepper carries from one step to the next besides the State (docs/stepping.md
// "Resuming a run"): the rest of a Workspace is scratch that every step writes before it reads.
// With the State and the step counter, a StepperMemory captured after step k and restored into
// any Workspace (a fresh one included) makes step k + 1 onwards bit for bit what they would have
// been: what a checkpoint saves (docs/stepping.md "Resuming a run").
#pragma once

#include <string_view>
#include <vector>

#include "exactsim/stepping/step.h"
#include "exactsim/stepping/warm_start.h"

namespace exactsim {

// Plain data: serialisers visit it with for_each_memory_field.
struct StepperMemory {
  // The warm start's remembered bases of the last step (WarmStart::previous, sorted by name).
  std::vector<WarmStart::Row> warm_start;
  // The last step's deepest penetration (m): advance() splits a step only for a pair that it made
  // deeper than this (adaptive_step.h).
  Real previous_max_penetration = 0;
  // The last step's friction directions by patch (friction_directions.h), which turn the cones
  // of contacts at rest.
  std::vector<FrictionDirection> friction;
  // advance()'s halves after a failed solve (Workspace::halves_left, halves_span).
  int halves_left = 0;
  int halves_span = 0;
};

// The one list of the stepper's cross-step memory: f(name, member of StepperMemory, place in the
// Workspace) for each field. capture(), restore() and the checkpoint's reader and writer all go
// through it, so new memory is a field above and a line here.
template <class F>
void for_each_memory_field(F&& f) {
  f(
      "warm_start", &StepperMemory::warm_start, [](auto& ws) -> auto& { return ws.warm.previous; });
  f(
      "previous_max_penetration", &StepperMemory::previous_max_penetration,
      [](auto& ws) -> auto& { return ws.penetration_scan.max_depth; });
  f(
      "friction", &StepperMemory::friction, [](auto& ws) -> auto& { return ws.friction_previous; });
  f(
      "halves_left", &StepperMemory::halves_left, [](auto& ws) -> auto& { return ws.halves_left; });
  f(
      "halves_span", &StepperMemory::halves_span, [](auto& ws) -> auto& { return ws.halves_span; });
}

// Whether a memory field is in files of an earlier format (checkpoints before format 3, saved
// states before format 2), which read it as its initial value.
inline bool memory_field_since_halves(const char* name) {
  const std::string_view n(name);
  return n == "halves_left" || n == "halves_span";
}

// The memory of `ws` after a step (or of a fresh Workspace: the start of a run).
StepperMemory capture(const Workspace& ws);

// Puts `memory` into `ws`, whatever ws held: the next step continues from it.
void restore(const StepperMemory& memory, Workspace& ws);

}  // namespace exactsim
