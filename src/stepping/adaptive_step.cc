#include "exactsim/stepping/adaptive_step.h"

#include <algorithm>

#include "detect.h"
#include "exactsim/stepping/located_impact.h"

namespace exactsim {
namespace {

// A deep pair that the step made: deeper than ε where nothing was before the step, or deeper
// than the deepest pair before it by more than kSplitMargin ε. A pair that stays as deep as it
// was beyond ε (a persisting penetration the projection has not removed yet) is no event:
// halving the step cannot undo it, and retrying it at every step cost 2^max_step_splits
// sub-steps per step (docs/penetration.md "Any step size"). A pair that creeps across ε is one.
constexpr Real kSplitMargin = 0.01;

// With the watchdog on, a step whose solve failed (the certificate or the energy balance,
// is_failed_solve) is taken again as halves too, down to 2^kFailedSolveSplits sub-steps: a
// shorter step is another LCP, nearer the last step's contacts and impulses. On the 3D pour of
// 100 hulls (seed 4) no attempt certifies the whole step 93 and its two halves certify in 0.12 s;
// on that pour at h = 0.05 (seed 1) the quarter steps of step 26 fail and eighths certify
// (docs/stepping.md "When a solve fails"). The bound keeps a solve that fails at every size to
// 1 + 1 + 1 + 1 failed solves before the step reports its failure (1 + 2 + 4 + 8 when the run
// goes on past failures). Without the watchdog the step is the fixed h, as the papers'
// experiments ran.
constexpr int kFailedSolveSplits = 3;

// The most steps taken as halves from their start after a failed whole step
// (StepOptions::halves_after_failed_solve doubles up to this).
constexpr int kMaxHalvesAfterFailedSolve = 64;

// Why the step of report r is taken again as halves; kind kNone when it is not. `failed`: its
// solve failed where a failed solve is retaken.
SplitCause split_cause(const StepReport& r, bool failed, Real before, Real eps) {
  SplitCause cause;
  if (failed) {
    cause.kind = SplitCause::Kind::kFailedSolve;
    return cause;
  }
  if (r.status != StepStatus::kDeepPenetration) return cause;
  const bool deep =
      r.max_penetration > eps && (before <= eps || r.max_penetration > before + kSplitMargin * eps);
  if (deep) {  // the deepest pair is the one max_penetration measured
    cause.kind = SplitCause::Kind::kDeepPair;
    cause.depth = r.max_penetration;
    if (!r.deep_penetrations.empty()) {
      const PenetratingPair& p = *std::ranges::max_element(
          r.deep_penetrations, {}, [](const PenetratingPair& q) { return q.result.depth; });
      cause.body_a = p.body_a;
      cause.body_b = p.body_b;
      cause.depth = p.result.depth;
      cause.pair = p.result;
    }
  } else if (!r.crossings.empty()) {  // deeper than at the start already (swept_crossing.h)
    const SweptCrossing& c = r.crossings.front();
    cause.kind = SplitCause::Kind::kCrossing;
    cause.body_a = c.body_a;
    cause.body_b = c.body_b;
    cause.depth = c.depth;
  }
  return cause;
}

void add_up(StepReport& total, const StepReport& part) {
  total.substeps += part.substeps;
  total.retaken_failed_solves += part.retaken_failed_solves;
  total.islands_flown_free += part.islands_flown_free;
  total.spawned += part.spawned;
  total.seconds.detect += part.seconds.detect;
  total.seconds.constraints += part.seconds.constraints;
  total.seconds.assemble += part.seconds.assemble;
  total.seconds.solve += part.seconds.solve;
  total.seconds.integrate += part.seconds.integrate;
  total.seconds.metrics += part.seconds.metrics;
}

// `second`, the energy balance of the part of a step that followed `first`, becomes the balance
// of both (docs/robustness.md "Energy balance", a step in parts): the energies at the first
// part's start and the second's end, the budgets and tolerances summed, and the free flight and
// the whole step's start placed so that each excess is the sum of the parts' excesses.
void follow(EnergyBalance& second, const EnergyBalance& first) {
  if (!first.checked) return;
  if (!second.checked) {
    second = first;
    return;
  }
  second.free_flight -= first.after - first.free_flight;
  second.before = first.before;
  second.stabilisation += first.stabilisation;
  second.tolerance += first.tolerance;
  second.kinematic_work += first.kinematic_work;
  second.total_before -= first.total_after - first.total_before;
  second.projection += first.projection;
  second.total_tolerance += first.total_tolerance;
}

// `second`, the report of the part of a step that followed `first`, becomes the report of both.
void follow(StepReport& second, const StepReport& first) {
  add_up(second, first);
  if (first.split.kind != SplitCause::Kind::kNone) second.split = first.split;
  // A failed solve in the first part (a run going on past failures) is the step's, with its
  // certificate and energy balance, unless the second part failed or diverged too.
  if (is_failed_solve(first.status) && !is_failed_solve(second.status) &&
      second.status != StepStatus::kDiverged) {
    second.status = first.status;
    second.solver = first.solver;
    second.energy = first.energy;
    second.regularisation = std::max(second.regularisation, first.regularisation);
  } else {
    follow(second.energy, first.energy);
  }
  // A penetration the first part could not resolve is the step's, whatever the second part did.
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
}

StepReport advance_as_halves(const World& world, State& state, Workspace& ws, Real h, long k,
                             int depth, Real before, Real eps0, const SplitCause& cause,
                             bool failed);

// Step index k at depth d covers [k h, (k + 1) h] with h = h0 / 2^d. Every sub-step detects and
// is judged with the contact distance of the user's step, eps0: a sub-step's own ε (max(h/2, 0.8
// mm) in 2D) would be narrower, and an overlap that the step left within eps0 would then be
// deeper than the sub-step's band, undetected, and free to pass through (docs/penetration.md "Any
// step size").
StepReport advance_at(const World& world, State& state, Workspace& ws, Real h, long k, int depth,
                      Real before, Real eps0) {
  const int max_depth = world.stepping.max_step_splits;
  if (depth < max_depth) {
    if (ws.saved_states.size() <= static_cast<std::size_t>(depth)) {
      ws.saved_states.resize(depth + 1);
      ws.saved_joint_impulses.resize(depth + 1);
    }
    ws.saved_states[depth] = state;  // same sizes every step: no allocation after the first
    ws.saved_joint_impulses[depth] = ws.joint_impulses;
  }
  ws.retakes_failed_solve =
      world.stepping.watch_penetration && depth < std::min(max_depth, kFailedSolveSplits);
  StepReport r = step(world, state, ws, h, k, eps0);
  const bool failed = ws.retakes_failed_solve && is_failed_solve(r.status);
  ws.retakes_failed_solve = false;
  SplitCause cause = split_cause(r, failed, before, eps0);
  if (depth >= max_depth || cause.kind == SplitCause::Kind::kNone) return r;
  cause.pivots = r.solver_called ? r.solver.pivots : 0;
  cause.seconds = r.seconds.total();
  state = ws.saved_states[depth];
  ws.joint_impulses = ws.saved_joint_impulses[depth];
  return advance_as_halves(world, state, ws, h, k, depth, before, eps0, cause, failed);
}

// The step of size h as two halves at depth + 1, from `state`. `cause` (and `failed`, a failed
// solve of the whole step retaken) is what made the step be taken so.
StepReport advance_as_halves(const World& world, State& state, Workspace& ws, Real h, long k,
                             int depth, Real before, Real eps0, const SplitCause& cause,
                             bool failed) {
  StepReport first = advance_at(world, state, ws, 0.5 * h, 2 * k, depth + 1, before, eps0);
  first.retaken_failed_solves += failed;
  if (cause.kind != SplitCause::Kind::kNone) first.split = cause;
  // A failed first half ends the step, unless the run goes on past failures: then the step is
  // finished, and reports the failure (follow()).
  if (first.status == StepStatus::kDiverged ||
      (is_failed_solve(first.status) && !world.stepping.continue_on_solver_failure))
    return first;
  StepReport second =
      advance_at(world, state, ws, 0.5 * h, 2 * k + 1, depth + 1, first.max_penetration, eps0);
  follow(second, first);
  return second;
}

// advance_at for the user's step (depth 0), taken as halves from its start while
// Workspace::halves_left counts down after a whole step whose solve failed, and as a whole step
// otherwise (docs/stepping.md "Halves after a failed solve"). A whole step that fails its solve
// sets the count to the span and doubles the span; one that does not lowers the span by one, down
// to StepOptions::halves_after_failed_solve, so that the span follows how often whole steps fail.
StepReport advance_step(const World& world, State& state, Workspace& ws, Real h, long k,
                        Real before, Real eps0) {
  const int first_span = world.stepping.halves_after_failed_solve;
  const bool halves =
      world.stepping.watch_penetration && world.stepping.max_step_splits >= 1 && first_span > 0;
  if (!halves) return advance_at(world, state, ws, h, k, 0, before, eps0);
  if (ws.halves_left > 0) {
    --ws.halves_left;
    StepReport r = advance_as_halves(world, state, ws, h, k, 0, before, eps0, SplitCause{}, false);
    r.halves_from_start = true;
    return r;
  }
  StepReport r = advance_at(world, state, ws, h, k, 0, before, eps0);
  const int span = std::max(ws.halves_span, first_span);
  if (r.split.kind == SplitCause::Kind::kFailedSolve) {  // the whole step's own cause
    ws.halves_left = span;
    ws.halves_span = std::min(2 * span, std::max(kMaxHalvesAfterFailedSolve, first_span));
  } else {
    ws.halves_span = std::max(span - 1, first_span);
  }
  return r;
}

// A step with located impacts (docs/impacts.md "The step"): locate the first impact in what is
// left of the step, step to it, resolve it with PLUS, repeat; the rest of the step after the
// last impact (or past the cap) is an ordinary step. Every part is advance_at's, judged with
// the user's step's ε.
StepReport advance_with_impacts(const World& world, State& state, Workspace& ws, Real h, long k,
                                Real before, Real eps0) {
  // Impacts this close to either end of what is left are taken at that end: no sliver steps.
  constexpr Real kEndShare = 1e-9;
  const ImpactStepOptions& o = world.contact.impact;
  const Real start = static_cast<Real>(k) * h;
  Real done = 0;
  StepReport total;
  ImpactReport impacts;  // the parts' reports carry none: advance_at resolves no impact
  const int spawned = spawn_bodies(world, state, h);  // before the first location
  bool first_part = true;
  bool inelastic = false;  // after a fallback or a failed impact the rest of the step locates none
  auto part = [&](Real length) {
    StepReport r = advance_at(world, state, ws, length, k, 0, before, eps0);
    const bool last = length == h - done;
    done = last ? h : done + length;
    state.time = last ? static_cast<Real>(k + 1) * h : start + done;
    r.time = state.time;
    before = r.max_penetration;
    if (first_part) {
      first_part = false;
      total = std::move(r);
    } else {
      follow(r, total);
      total = std::move(r);
    }
    // A failed part ends the step, unless the run goes on past failures: then the step is
    // finished, and reports the failure (follow()).
    return total.status != StepStatus::kDiverged &&
           (!is_failed_solve(total.status) || world.stepping.continue_on_solver_failure);
  };
  bool impact_failed = false;
  for (;;) {
    const Real left = h - done;
    LocatedImpact hit;
    if (!inelastic) {
      place_bodies(world, state, left, ws);
      detect_contacts(world, state, left, eps0, ws);
      hit =
          locate_first_impact(world, state, ws.constraints.contacts, left, ws.user_step, ws.impact);
    }
    if (hit.found && impacts.count >= o.max_impacts_per_step) impacts.capped = true;
    if (!hit.found || impacts.capped) {
      if (left > 0) part(left);
      break;
    }
    const Real t = hit.time <= kEndShare * left         ? 0
                   : hit.time >= (1 - kEndShare) * left ? left
                                                        : hit.time;
    ws.impact.to_impact = {true, hit.exact, world.collider_body(hit.contact.collider_a()),
                           world.collider_body(hit.contact.collider_b())};
    const bool stepped = t == 0 || part(t);
    ws.impact.to_impact = PartToImpact{};
    if (!stepped) break;
    const ImpactOutcome outcome = resolve_impact(world, state, ws, hit, ws.impact, impacts);
    if (outcome == ImpactOutcome::kResolved && impacts.count == 1) impacts.first_time = state.time;
    impact_failed = impact_failed || outcome == ImpactOutcome::kFailed;
    if (impact_failed && !world.stepping.continue_on_solver_failure) break;
    inelastic = outcome == ImpactOutcome::kFallback || outcome == ImpactOutcome::kFailed;
    if (done >= h) break;
  }
  if (impact_failed && !is_failed_solve(total.status) && total.status != StepStatus::kDiverged)
    total.status = StepStatus::kImpactFailed;
  total.spawned += spawned;
  total.impacts = impacts;
  return total;
}

}  // namespace

StepReport advance(const World& world, State& state, Workspace& ws, Real h, long k) {
  const Real before = ws.penetration_scan.max_depth;  // the previous step's watchdog
  const Real eps0 = contact_epsilon(world, h);
  struct UserStep {  // Workspace::user_step while the step is taken, 0 after (or on a throw)
    Workspace& ws;
    ~UserStep() {
      ws.user_step = 0;
      ws.retakes_failed_solve = false;
    }
  } user_step{ws};
  ws.user_step = h;
  start_joint_impulses(world, state, ws);
  StepReport r = world.contact.impact.model == ImpactModel::kPlus
                     ? advance_with_impacts(world, state, ws, h, k, before, eps0)
                     : advance_step(world, state, ws, h, k, before, eps0);
  r.step = k;
  return r;
}

}  // namespace exactsim
