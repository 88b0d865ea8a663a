#include "exactsim/impact/plus_round.h"

#include <cmath>

#include "exactsim/impact/plus_step_length.h"

namespace exactsim {
namespace {
constexpr Real kSqrtEps = 1.4901161193847656e-08;

// y += A x, skipping the zero entries of x (most rows carry no impulse in an interval); plain
// loops, as Eigen's general product costs more than the arithmetic at these sizes.
void add_sparse_product(const MatX& A, const VecX& x, VecX& y) {
  const Eigen::Index n = A.rows();
  Real* out = y.data();
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    const Real xj = x(j);
    if (xj == 0.0) continue;
    const Real* col = A.data() + j * n;
    for (Eigen::Index i = 0; i < n; ++i) out[i] += col[i] * xj;
  }
}
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
  const DirectionChangeLimit direction_limit(options.theta_max);
  const bool expanding = ws.expansion_rows.lpNorm<Eigen::Infinity>() > 0.0;

  while (true) {
    if (interval_budget <= 0) return false;
    --interval_budget;
    classify_interval(setup, v, ws);
    if (expanding) {
      ws.r.noalias() = A * ws.expansion_rows;  // w_E: velocity change of the remaining π_E
      ws.r += v;
    } else {
      ws.r = v;
    }
    const IntervalSolveStats stats = solve_interval_active_set(setup, ws);

    // Step length (PLUS paper eqs. 2.12–2.14): only sliding contacts whose normal acts limit it.
    StepLength step;
    int limiting = -1;
    if (!control.single_interval) {
      for (int k = 0; k < nc; ++k) {
        if (ws.friction[k] != FrictionState::kSliding || ws.normal[k] == NormalState::kOff)
          continue;
        const Vec2 t0 = v.segment<2>(3 * k);
        Vec2 t1 = ws.r.segment<2>(3 * k);  // + A_T π over the active columns (π is 0 elsewhere)
        for (size_t i = 0; i < ws.rows.size(); ++i)
          t1 += A.block<2, 1>(3 * k, ws.rows[i]) * ws.x(i);
        const StepLength sk = sliding_step_length(t0, t1, options, direction_limit);
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
    {  // applied = s (π + π_E), accumulated; the remaining π_E shrinks to (1 − s) π_E
      const Real* pi = ws.impulse.data();
      Real* pe = ws.expansion_rows.data();
      Real* pa = ws.applied.data();
      Real* total = impulse.data();
      for (int i = 0; i < n; ++i) {
        pa[i] = s * (pi[i] + pe[i]);
        total[i] += pa[i];
        pe[i] *= 1.0 - s;
      }
    }
    add_sparse_product(A, ws.applied, v);

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
