#include "exactsim/impact/plus.h"

#include <algorithm>
#include <vector>

#include "exactsim/impact/newton_restitution.h"
#include "exactsim/impact/plus_round.h"

namespace exactsim {
namespace {

constexpr Real kTinyImpulseRel = 1e-14;  // normal impulses below this × round scale are round-off

void start_result(const ImpactProblem& problem, const char* model, ImpactResult& result) {
  const int n = problem.rows();
  result.impulse.setZero(n);
  result.velocity = problem.velocity;
  result.rounds = 0;
  result.intervals = 0;
  result.expansions_scaled = 0;
  result.contacts.assign(problem.contacts.size(), ContactSummary{});
  result.kinetic_energy_change = 0.0;
  result.converged = true;
  result.stop_reason.clear();
  result.model = model;
  result.log.clear();
}

// Runs one round and books it into the result and its log.
class RoundRunner {
 public:
  RoundRunner(const ImpactProblem& problem, PlusWorkspace& ws, ImpactResult& result,
              std::vector<ContactPhase>& phase)
      : problem_(problem),
        ws_(ws),
        result_(result),
        phase_(phase),
        setup_{&problem.delassus, &problem.contacts, problem.bilateral_rows, &phase,
               &problem.options},
        budget_(problem.options.max_intervals) {
    round_impulse_.resize(problem.rows());
  }

  bool run(const std::vector<Real>& expansion, const std::vector<Real>& cor,
           const RoundControl& control = {}) {
    RoundLog* log = nullptr;
    if (problem_.options.record_log) {
      result_.log.emplace_back();
      log = &result_.log.back();
      log->phase = phase_;
      log->cor = cor;
      log->expansion.assign(phase_.size(), 0.0);
      for (size_t k = 0; k < phase_.size(); ++k)
        if (phase_[k] == ContactPhase::kExpanding) log->expansion[k] = expansion[k];
      log->kinetic_energy_before =
          kinetic_energy_change(problem_.delassus, problem_.velocity, result_.impulse);
    }
    round_impulse_.setZero();
    const int before = budget_;
    const bool ok = run_plus_round(setup_, expansion, control, ws_, result_.velocity,
                                   round_impulse_, budget_, log, result_.contacts);
    result_.intervals += before - budget_;
    result_.impulse += round_impulse_;
    ++result_.rounds;
    if (log) {
      log->impulse = round_impulse_;
      log->kinetic_energy_after =
          kinetic_energy_change(problem_.delassus, problem_.velocity, result_.impulse);
    }
    if (!ok) {
      result_.converged = false;
      result_.stop_reason = "max_intervals reached";
    }
    return ok;
  }

  // Poisson (eq. 2.4): a compressing contact with e > 0 that received normal impulse this round
  // expands next round by e × that impulse.
  bool poisson_expansion(const std::vector<Real>& cor, std::vector<Real>& pending) const {
    const Real tiny = kTinyImpulseRel * round_impulse_.lpNorm<Eigen::Infinity>();
    bool any = false;
    for (size_t k = 0; k < phase_.size(); ++k) {
      pending[k] = 0.0;
      const Real pn = round_impulse_(3 * k + 2);
      if (phase_[k] == ContactPhase::kCompressing && cor[k] > 0.0 && pn > tiny) {
        pending[k] = cor[k] * pn;
        any = true;
      }
    }
    return any;
  }

  bool round_was_empty() const { return round_impulse_.lpNorm<Eigen::Infinity>() == 0.0; }

  // A round whose pending expansion is bounded by energy (docs/plus.md "Energy through the
  // rounds"): Poisson's e × P_c restituted at some contacts while others observe can return more
  // than the rounds so far dissipated (a contact captured with e = 0 beside an elastic one). When
  // the round would leave the kinetic energy above the impact's start, its expansion is scaled by
  // the largest s in (0, 1] (bisection to 2⁻³⁰) that does not; s → 0 is the round without
  // expansion, which dissipates. Returns run()'s answer.
  bool run_energy_bounded(std::vector<Real>& expansion, const std::vector<Real>& cor) {
    ImpactResult& start = saved_result_;  // (members: their buffers serve every round)
    std::vector<ContactPhase>& start_phase = saved_phase_;
    start = result_;
    start_phase = phase_;
    const int start_budget = budget_;
    // The largest dissipation so far sets the round-off scale of a conserving (e = 1) round.
    const Real scale = std::max(largest_loss_, -energy_change());
    const auto rerun = [&](Real s) {
      result_ = start;
      phase_ = start_phase;
      budget_ = start_budget;
      std::vector<Real> scaled(expansion);
      for (Real& x : scaled) x *= s;
      return run(scaled, cor);
    };
    bool ok = run(expansion, cor);
    const Real tolerance = kEnergyRoundOff * scale;
    if (!ok || energy_change() <= tolerance) {
      largest_loss_ = std::max(largest_loss_, -energy_change());
      return ok;
    }
    Real lo = 0.0, hi = 1.0;
    for (int it = 0; it < 30; ++it) {
      const Real mid = 0.5 * (lo + hi);
      if (!rerun(mid)) return false;
      (energy_change() <= tolerance ? lo : hi) = mid;
    }
    if (lo == 0.0)  // no expansion at all: the contacts that were to expand only observe
      for (size_t k = 0; k < phase_.size(); ++k)
        if (start_phase[k] == ContactPhase::kExpanding) phase_[k] = ContactPhase::kObserving;
    ok = rerun(lo);
    for (Real& x : expansion) x *= lo;
    ++result_.expansions_scaled;
    largest_loss_ = std::max(largest_loss_, -energy_change());
    return ok;
  }

 private:
  const ImpactProblem& problem_;
  PlusWorkspace& ws_;
  ImpactResult& result_;
  std::vector<ContactPhase>& phase_;
  // ΔT of the impulse so far (J; ≤ 0 for an impact that has not gained energy).
  Real energy_change() const {
    return kinetic_energy_change(problem_.delassus, problem_.velocity, result_.impulse);
  }

  static constexpr Real kEnergyRoundOff = 1e-12;  // of the largest dissipation so far

  IntervalSetup setup_;
  int budget_;
  VecX round_impulse_;
  Real largest_loss_ = 0.0;  // J, the largest −ΔT reached
  ImpactResult saved_result_;  // run_energy_bounded's start of the round
  std::vector<ContactPhase> saved_phase_;
};

void update_cor(const ImpactProblem& problem, const VecX& v, std::vector<Real>& cor) {
  for (size_t k = 0; k < problem.contacts.size(); ++k)
    cor[k] = effective_cor(problem.contacts[k].restitution, -v(3 * k + 2));
}

bool any_impacter(const ImpactProblem& problem, const VecX& v) {
  for (size_t k = 0; k < problem.contacts.size(); ++k)
    if (v(3 * k + 2) < -problem.options.v_observe) return true;
  return false;
}

// A last compression with COR 0 of every proximal contact when any still approaches (the end of
// the simultaneous and mixed models): nothing is left approaching, nothing restitutes.
void compress_what_approaches(const ImpactProblem& problem, const ImpactResult& result,
                              RoundRunner& runner, std::vector<ContactPhase>& phase,
                              std::vector<Real>& cor, std::vector<Real>& none) {
  if (!any_impacter(problem, result.velocity)) return;
  std::fill(phase.begin(), phase.end(), ContactPhase::kCompressing);
  std::fill(cor.begin(), cor.end(), 0.0);
  std::fill(none.begin(), none.end(), 0.0);
  runner.run(none, cor);
}

void solve_rounds(const ImpactProblem& problem, PlusWorkspace& ws, ImpactResult& result) {
  const size_t nc = problem.contacts.size();
  std::vector<ContactPhase> phase(nc);
  std::vector<Real> cor(nc), pending(nc, 0.0), expansion(nc);
  RoundRunner runner(problem, ws, result, phase);
  while (true) {
    const VecX& v = result.velocity;
    update_cor(problem, v, cor);  // e from the velocities at the round's start
    bool participating = false;
    for (size_t k = 0; k < nc; ++k) {
      phase[k] = pending[k] > 0.0                             ? ContactPhase::kExpanding
                 : v(3 * k + 2) >= -problem.options.v_observe ? ContactPhase::kObserving
                                                              : ContactPhase::kCompressing;
      participating = participating || phase[k] != ContactPhase::kObserving;
    }
    if (!participating) break;
    if (problem.options.induced_impacts == InducedImpacts::kMixed &&
        result.rounds >= problem.options.mixed_rounds) {
      // The last round (Simbody's Mixed model): the pending expansion is applied while every other
      // proximal contact compresses with COR 0, so that nothing is left approaching and no
      // contact restitutes again.
      for (size_t k = 0; k < nc; ++k)
        phase[k] = pending[k] > 0.0 ? ContactPhase::kExpanding : ContactPhase::kCompressing;
      std::fill(cor.begin(), cor.end(), 0.0);
      if (runner.run_energy_bounded(pending, cor))
        compress_what_approaches(problem, result, runner, phase, cor, pending);
      break;
    }
    if (result.rounds >= problem.options.max_rounds) {
      result.converged = false;
      result.stop_reason = "max_rounds reached";
      break;
    }
    expansion = pending;
    if (!runner.run_energy_bounded(expansion, cor)) break;
    runner.poisson_expansion(cor, pending);
    if (runner.round_was_empty()) {
      // Approaching contacts that admit no pushing impulse: with sliding friction the effective
      // normal compliance A_NN − μ A_NT ŝ is negative (Painlevé-type coupling), so the active set
      // releases them and another round would repeat this one. Stop and say so.
      result.converged = false;
      result.stop_reason = "approaching contacts admit no pushing impulse (Painleve-type friction)";
      break;
    }
  }
}

void solve_simultaneous(const ImpactProblem& problem, PlusWorkspace& ws, ImpactResult& result) {
  const size_t nc = problem.contacts.size();
  if (!any_impacter(problem, result.velocity)) return;
  std::vector<ContactPhase> phase(nc, ContactPhase::kCompressing);
  std::vector<Real> cor(nc), pending(nc, 0.0), none(nc, 0.0);
  update_cor(problem, result.velocity, cor);  // once, from the pre-impact velocities
  for (size_t k = 0; k < nc; ++k)  // only impacters restitute; observers joined the compression
    if (result.velocity(3 * k + 2) >= -problem.options.v_observe) cor[k] = 0.0;
  RoundRunner runner(problem, ws, result, phase);
  if (!runner.run(none, cor)) return;
  if (runner.poisson_expansion(cor, pending)) {
    for (size_t k = 0; k < nc; ++k)
      phase[k] = pending[k] > 0.0 ? ContactPhase::kExpanding : ContactPhase::kCompressing;
    if (!runner.run_energy_bounded(pending, cor)) return;
  }
  compress_what_approaches(problem, result, runner, phase, cor, none);
}

}  // namespace

ImpactResult solve_plus(const ImpactProblem& problem) {
  check_impact_problem(problem);
  PlusWorkspace ws;
  ImpactResult result;
  solve_plus(problem, ws, result);
  return result;
}

void solve_plus(const ImpactProblem& problem, PlusWorkspace& ws, ImpactResult& result) {
  switch (problem.options.induced_impacts) {
    case InducedImpacts::kRounds:
      start_result(problem, "plus-rounds", result);
      solve_rounds(problem, ws, result);
      break;
    case InducedImpacts::kMixed:
      start_result(problem, "plus-mixed", result);
      solve_rounds(problem, ws, result);
      break;
    case InducedImpacts::kSimultaneous:
      start_result(problem, "plus-simultaneous", result);
      solve_simultaneous(problem, ws, result);
      break;
  }
  result.kinetic_energy_change =
      kinetic_energy_change(problem.delassus, problem.velocity, result.impulse);
}

ImpactResult solve_newton_restitution(const ImpactProblem& problem) {
  check_impact_problem(problem);
  PlusWorkspace ws;
  ImpactResult result;
  solve_newton_restitution(problem, ws, result);
  return result;
}

void solve_newton_restitution(const ImpactProblem& problem, PlusWorkspace& ws,
                              ImpactResult& result) {
  start_result(problem, "newton", result);
  const size_t nc = problem.contacts.size();
  if (!any_impacter(problem, result.velocity)) return;
  std::vector<ContactPhase> phase(nc, ContactPhase::kCompressing);
  std::vector<Real> cor(nc), none(nc, 0.0);
  update_cor(problem, problem.velocity, cor);
  VecX target = VecX::Zero(problem.rows());
  for (size_t k = 0; k < nc; ++k) {
    const Real vn = problem.velocity(3 * k + 2);
    if (vn < -problem.options.v_observe) target(3 * k + 2) = -cor[k] * vn;  // v⁺ = −e v⁻
  }
  RoundRunner runner(problem, ws, result, phase);
  RoundControl control;
  control.target = &target;
  control.single_interval = true;
  runner.run(none, cor, control);
  result.kinetic_energy_change =
      kinetic_energy_change(problem.delassus, problem.velocity, result.impulse);
}

}  // namespace exactsim
