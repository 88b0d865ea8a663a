#include "exactsim/impact/plus_round.h"

#include <cmath>

#include "exactsim/impact/plus_step_length.h"

namespace exactsim {
namespace {
constexpr Real kSqrtEps = 1.4901161193847656e-08;
}  // namespace

bool run_plus_round(const IntervalSetup& setup, const std::vector<Real>& expansion,
                    const RoundControl& control, PlusWorkspace& ws, VecX& v, VecX& impulse,
                    int& interval_budget, RoundLog* log, std::vector<ContactSummary>& summary) {
  const MatX& A = *setup.delassus;
  const ImpactOptions& options = *setup.options;
  const int nc = static_cast<int>(setup.laws->size());
  const int n = static_cast<int>(v.size());
  ws.expansion_rows.setZero(n);
  for (int k = 0; k < nc; ++k)
    if ((*setup.phase)[k] == ContactPhase::kExpanding) ws.expansion_rows(3 * k + 2) = expansion[k];
  if (control.target)
    ws.target = *control.target;
  else
    ws.target.setZero(n);
  ws.r.resize(n);
  ws.applied.resize(n);
  ws.scratch.resize(n);

  while (true) {
    if (interval_budget <= 0) return false;
    --interval_budget;
    classify_interval(setup, v, ws);
    ws.r.noalias() = A * ws.expansion_rows;  // w_E: velocity change of the remaining π_E
    ws.r += v;
    const IntervalSolveStats stats = solve_interval_active_set(setup, ws);

    // Step length (spec §3.6): only sliding contacts whose normal acts limit it.
    StepLength step;
    int limiting = -1;
    if (!control.single_interval) {
      for (int k = 0; k < nc; ++k) {
        if (ws.friction[k] != FrictionState::kSliding || ws.normal[k] == NormalState::kOff)
          continue;
        const Vec2 t0 = v.segment<2>(3 * k);
        const Vec2 t1 = ws.r.segment<2>(3 * k) + A.middleRows<2>(3 * k) * ws.impulse;
        const StepLength sk = sliding_step_length(t0, t1, options);
        if (sk.alpha < step.alpha) {
          step = sk;
          limiting = k;
        }
      }
      if (step.alpha > 1.0 - kSqrtEps) {
        step = StepLength{};
        limiting = -1;
      }
    }
    const Real s = step.alpha;
    ws.applied = s * (ws.impulse + ws.expansion_rows);
    v.noalias() += A * ws.applied;
    impulse += ws.applied;
    ws.expansion_rows *= (1.0 - s);

    for (int k = 0; k < nc; ++k) {
      if (ws.friction[k] != FrictionState::kSliding) continue;
      if (summary[k].transition != Transition::kNone) continue;
      if (v.segment<2>(3 * k).norm() <= options.v_transition)
        summary[k].transition = (*setup.phase)[k] == ContactPhase::kExpanding
                                    ? Transition::kExpansion
                                    : Transition::kCompression;
    }
    for (int k = 0; k < nc; ++k) {
      Vec3& acc = (*setup.phase)[k] == ContactPhase::kExpanding ? summary[k].expansion_impulse
                                                                : summary[k].compression_impulse;
      acc += ws.applied.segment<3>(3 * k);
    }
    if (log) {
      IntervalLog entry;
      entry.alpha = s;
      entry.limit = step.limit;
      entry.limiting_contact = limiting;
      entry.active_set_passes = stats.passes;
      entry.newton_iterations = stats.newton_iterations;
      entry.newton_failures = stats.newton_failures;
      entry.normal = ws.normal;
      entry.friction = ws.friction;
      entry.impulse = ws.applied;
      log->intervals.push_back(std::move(entry));
    }
    if (s == 1.0) break;
  }
  return true;
}

}  // namespace exactsim
