#include "exactsim/stepping/adaptive_step.h"

#include <algorithm>

namespace exactsim {
namespace {

// A deep pair that the step made: deeper than ε where nothing was before the step, or deeper
// than the deepest pair before it by more than kSplitMargin ε. A pair that stays as deep as it
// was beyond ε (a persisting penetration the projection has not removed yet) is no event:
// halving the step cannot undo it, and retrying it at every step cost 2^max_step_splits
// sub-steps per step (docs/penetration.md "Any step size"). A pair that creeps across ε is one.
constexpr Real kSplitMargin = 0.01;

bool made_deep_penetration(const StepReport& r, Real before, Real eps) {
  if (r.status != StepStatus::kDeepPenetration) return false;
  if (!r.crossings.empty()) return true;  // deeper than at the start already (swept_crossing.h)
  return r.max_penetration > eps &&
         (before <= eps || r.max_penetration > before + kSplitMargin * eps);
}

void add_up(StepReport& total, const StepReport& part) {
  total.substeps += part.substeps;
  total.spawned += part.spawned;
  total.seconds.detect += part.seconds.detect;
  total.seconds.constraints += part.seconds.constraints;
  total.seconds.assemble += part.seconds.assemble;
  total.seconds.solve += part.seconds.solve;
  total.seconds.integrate += part.seconds.integrate;
  total.seconds.metrics += part.seconds.metrics;
}

// Step index k at depth d covers [k h, (k + 1) h] with h = h0 / 2^d. Every sub-step detects and
// is judged with the contact distance of the user's step, eps0: a sub-step's own ε (max(h/2, 0.8
// mm) in 2D) would be narrower, and an overlap that the step left within eps0 would then be
// deeper than the sub-step's band, undetected, and free to pass through (docs/penetration.md "Any
// step size").
StepReport advance_at(const World& world, State& state, Workspace& ws, Real h, long k, int depth,
                      Real before, Real eps0) {
  const int max_depth = world.stepping.max_step_splits;
  if (depth < max_depth) {
    if (ws.saved_states.size() <= static_cast<std::size_t>(depth))
      ws.saved_states.resize(depth + 1);
    ws.saved_states[depth] = state;  // same sizes every step: no allocation after the first
  }
  StepReport r = step(world, state, ws, h, k, eps0);
  if (depth >= max_depth || !made_deep_penetration(r, before, eps0)) return r;
  state = ws.saved_states[depth];
  StepReport first = advance_at(world, state, ws, 0.5 * h, 2 * k, depth + 1, before, eps0);
  if (first.status == StepStatus::kDiverged || is_failed_solve(first.status)) return first;
  StepReport second =
      advance_at(world, state, ws, 0.5 * h, 2 * k + 1, depth + 1, first.max_penetration, eps0);
  add_up(second, first);
  // A penetration the first half could not resolve is the step's, whatever the second half did.
  if (first.status == StepStatus::kDeepPenetration && !is_failed_solve(second.status) &&
      second.status != StepStatus::kDiverged) {
    second.status = StepStatus::kDeepPenetration;
    second.deep_penetrations.insert(second.deep_penetrations.begin(),
                                    first.deep_penetrations.begin(), first.deep_penetrations.end());
    second.crossings.insert(second.crossings.begin(), first.crossings.begin(),
                            first.crossings.end());
    second.centres_inside_static.insert(second.centres_inside_static.begin(),
                                        first.centres_inside_static.begin(),
                                        first.centres_inside_static.end());
    second.max_penetration = std::max(second.max_penetration, first.max_penetration);
  }
  return second;
}

}  // namespace

StepReport advance(const World& world, State& state, Workspace& ws, Real h, long k) {
  const Real before = ws.penetration_scan.max_depth;  // the previous step's watchdog
  StepReport r = advance_at(world, state, ws, h, k, 0, before, contact_epsilon(world, h));
  r.step = k;
  return r;
}

}  // namespace exactsim
