// The default LCP stack (docs/solvers.md "Fallback policy"): [warm-start basis → verify] →
// lexicographic Lemke → verify → Fischer–Burmeister semismooth Newton warm-started from Lemke's
// last iterate → verify → Lemke in long double → verify → the regularisation path → Lemke in
// exact arithmetic (small problems; its verdict is the problem's own).
#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/regularisation_path.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {
namespace {

// solve_lcp's warm Lemke runs on one LCP (RevisedLemkeScratch::same_lcp, capped_run, restart):
// the flags hold from construction to release() or destruction.
struct WarmRuns {
  RevisedLemkeScratch& revised;
  explicit WarmRuns(RevisedLemkeScratch& r) : revised(r) {
    release();
    revised.same_lcp = true;
  }
  ~WarmRuns() { release(); }
  void release() {
    revised.same_lcp = revised.columns_current = revised.capped_run = revised.restart = false;
    revised.start_lu = nullptr;
  }
  WarmRuns(const WarmRuns&) = delete;
  WarmRuns& operator=(const WarmRuns&) = delete;
};

void fallback(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out) {
  if (fischer_burmeister_iterations(lcp.q.size(), options) == 0) return;  // beyond its work cap
  const SolveStatus lemke_status = out.certificate.status;
  const int pivots = out.certificate.pivots;
  const bool extended = out.certificate.extended_precision;
  // Warm start: Lemke's iterate (NaN-free; zero otherwise).
  if (!out.z.allFinite()) out.z.setZero();
  s.z_best = out.z;  // solve_fischer_burmeister copies its start, aliasing is safe anyway
  LcpSolution fb;
  fb.z.swap(s.fb_z);
  fb.w.swap(s.fb_w);
  fb.ray.swap(s.fb_ray);
  solve_fischer_burmeister(lcp, s.z_best, options, s, fb);
  // The FB answer is reported whenever it solved, or when it is no worse than Lemke's iterate
  // (Lemke's ray/limit status stays visible in primary_status).
  if (fb.certificate.ok() || certificate_violation(fb.certificate, fb.z) <=
                                 certificate_violation(out.certificate, out.z)) {
    out.z.swap(fb.z);
    out.w.swap(fb.w);
    out.certificate = fb.certificate;
    out.certificate.pivots = pivots;
    out.certificate.extended_precision = extended;
  } else {
    out.certificate.iterations = fb.certificate.iterations;
  }
  out.certificate.primary_status = lemke_status;
  s.fb_z.swap(fb.z);
  s.fb_w.swap(fb.w);
  s.fb_ray.swap(fb.ray);
}

constexpr Real kWarmBasisPivotRatio = 1e-8;
constexpr Real kWarmBasisSignSlack = 1e-14;
constexpr Eigen::Index kBriefPivots = 20;  // at least, for Lemke from last step's basis

bool final_status(SolveStatus st) {
  return st == SolveStatus::kSolved || st == SolveStatus::kInfeasible;
}

// A retry on the fallback buffers: `attempt` fills a solution, which replaces out's when
// `take(it)` holds (out keeps its primary_status). Pivots add up; out's iterations stay.
template <class Attempt, class Take>
void retry(LcpScratch& s, LcpSolution& out, Attempt&& attempt, Take&& take) {
  const int pivots = out.certificate.pivots, iterations = out.certificate.iterations;
  const SolveStatus primary = out.certificate.primary_status;
  LcpSolution r;
  r.z.swap(s.fb_z);
  r.w.swap(s.fb_w);
  r.ray.swap(s.fb_ray);
  attempt(r);
  if (take(r)) {
    out.z.swap(r.z);
    out.w.swap(r.w);
    out.ray.swap(r.ray);
    out.certificate = r.certificate;
    out.certificate.primary_status = primary;
  }
  out.certificate.pivots = pivots + r.certificate.pivots;
  out.certificate.iterations = iterations;
  s.fb_z.swap(r.z);
  s.fb_w.swap(r.w);
  s.fb_ray.swap(r.ray);
}

}  // namespace

void active_set(const VecX& z, const VecX& w, std::vector<bool>& active) {
  active.assign(static_cast<std::size_t>(z.size()), false);
  // z_i > 0 and z_i > w_i: degenerate pairs (both ~0) stay with w_i basic.
  for (Eigen::Index i = 0; i < z.size(); ++i)
    active[i] = z(i) > 0 && (w.size() != z.size() || z(i) > w(i));
}

void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out) {
  if (!options.fallback) {
    solve_lemke(lcp, options, s, out);
    return;
  }
  // 1. One Lemke path; 2. Fischer–Burmeister from its iterate (the pre-issue-12 stack, so that
  // every problem it solved keeps its answer); 3. only then Lemke's retries (docs/solvers.md).
  SolverOptions single = options;
  single.diagnostics.extended_precision_retry = false;
  solve_lemke(lcp, single, s, out);
  if (final_status(out.certificate.status)) return;
  fallback(lcp, options, s, out);
  // 3. Lemke again in long double with refactorisation: taken when it ends solved / infeasible
  // or violates the certificate less.
  if (!out.certificate.ok() && options.diagnostics.extended_precision_retry)
    retry(
        s, out, [&](LcpSolution& r) { solve_lemke(lcp, options, s, r); },
        [&](const LcpSolution& r) {
          return final_status(r.certificate.status) ||
                 certificate_violation(r.certificate, r.z) <
                     certificate_violation(out.certificate, out.z);
        });
  // 4. The regularisation path (docs/solvers.md "Regularisation path"), taken only with a
  // solution the certificate accepts on this LCP.
  if (!final_status(out.certificate.status) && options.regularisation_path_retry)
    solve_by_regularisation_path(lcp, options, s, out);
  // 5. The exact oracle (docs/solvers.md "Exact Lemke"): its verdict is taken unless it too ran
  // out of pivots or work.
  if (!final_status(out.certificate.status) && options.exact_retry &&
      lcp.q.size() <= options.exact_max_size)
    retry(
        s, out, [&](LcpSolution& r) { solve_lemke_exact(lcp, options, r); },
        [](const LcpSolution& r) { return r.certificate.status != SolveStatus::kMaxIterations; });
}

void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out,
               const std::vector<bool>* active_guess) {
  WarmGuess guess;
  guess.basis = active_guess;
  solve_lcp(lcp, options, s, out, guess);
}

void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out,
               const WarmGuess& guess) {
  const Eigen::Index n = lcp.q.size();
  auto usable = [n](const std::vector<bool>* v) {
    return v != nullptr && static_cast<Eigen::Index>(v->size()) == n;
  };
  const std::vector<bool>* basis = usable(guess.basis) ? guess.basis : nullptr;
  const std::vector<bool>* start = usable(guess.active) ? guess.active : basis;
  const VecX* priority =
      guess.priority != nullptr && guess.priority->size() == n ? guess.priority : nullptr;
  if (start == nullptr || n == 0) {
    solve_lcp(lcp, options, s, out);
    return;
  }
  validate_lcp(lcp, "solve_lcp");
  const Real tol = verification_tolerance(lcp, options);
  const Real z_scale = certificate_impulse_scale(lcp, options);
  // 1. The guessed basis itself: one LU of its active block, no pivots. It is taken only when it is
  // the exact solution up to round-off (signs right to kWarmBasisSignSlack of the data's scale),
  // not merely within the certificate's tolerance: last step's basis kept within tolerance step
  // after step would let errors of that size accumulate (a resting box would start to spin). A near
  // singular basis (a degenerate set) is left to Lemke too.
  Eigen::Index wrong_signs = n;  // of the basis's solution: how far it is from the answer
  const bool checked =
      basis != nullptr && solve_active_block(lcp, *basis, s, out.z, kWarmBasisPivotRatio);
  if (checked) {
    out.certificate = verify_lcp(lcp, out.z, tol, z_scale, out.w);
    wrong_signs = (out.z.array() < -tol).count() + (out.w.array() < -tol).count();
    const Real slack = kWarmBasisSignSlack * std::max<Real>(1, lcp.q.lpNorm<Eigen::Infinity>());
    if (out.certificate.ok() && out.certificate.min_w >= -slack &&
        out.certificate.min_z >= -slack * z_scale) {
      s.active = *basis;
      out.ray.resize(0);
      out.certificate.method = SolveMethod::kWarmStart;
      out.certificate.primary_status = SolveStatus::kSolved;
      out.certificate.warm_started = true;
      return;
    }
  }
  // 2. Lemke runs from warm bases (covering vector B·1), each ending the solve when it ends solved
  // or infeasible; `cap` > 0 bounds a run's pivots (and skips its retries). A guess that is not a
  // nonsingular basis starts from its nonsingular part (keep_nonsingular_block).
  int pivots = 0;
  WarmRuns warm_runs(s.revised);
  // Lemke from s.guess (`as_is`: tried whole first), else from its nonsingular part.
  auto start_lemke = [&](const SolverOptions& o, const VecX* order, bool as_is) {
    if (as_is && solve_lemke_from(lcp, s.guess, o, s, out)) return true;
    const int dropped = keep_nonsingular_block(lcp, s.guess, s, kWarmBasisPivotRatio, order);
    return (!as_is || dropped > 0) && solve_lemke_from(lcp, s.guess, o, s, out);
  };
  auto lemke_from = [&](const std::vector<bool>& from, const VecX* order, Eigen::Index cap) {
    SolverOptions o = options;
    if (cap > 0) {
      o.max_pivots = static_cast<int>(cap);
      o.diagnostics.extended_precision_retry = false;
    }
    s.guess = from;
    s.revised.capped_run = cap > 0;
    if (!start_lemke(o, order, &from != guess.active)) return false;
    pivots += out.certificate.pivots;
    // A capped run (no retries of its own) that ended on a secondary ray with w_j entering, z_j
    // in its start: the start without z_j (docs/solvers.md "Fallback policy": a wrongly guessed
    // impulse that the path drops first, after which its complement has no blocking row).
    for (int retry = 0; cap > 0 && retry < options.diagnostics.max_ray_restarts; ++retry) {
      const int j = s.ray_entering;
      if (out.certificate.status != SolveStatus::kRay || j < 0 || j >= n || !s.guess[j]) break;
      s.guess[j] = false;
      s.revised.restart = true;
      const bool started = start_lemke(o, order, true);
      s.revised.restart = false;
      if (!started) break;
      ++s.ray_restarts;
      pivots += out.certificate.pivots;
    }
    s.revised.capped_run = false;
    return final_status(out.certificate.status);
  };
  auto done = [&] {
    out.certificate.pivots = pivots;
    out.certificate.warm_started = true;
  };
  // With an estimate (docs/stepping.md "Iterate, then certify"): a pile at rest is a few pivots
  // from last step's basis (its solution has few wrong signs), a moving one ~0.2 n pivots, and
  // the estimate's mostly 0.02–0.1 n but now and then ~n; so the basis goes first, briefly, when
  // it is nearly right, then the estimate, capped at n/4 when the basis is there to fall back on.
  // The first run from the basis starts from step 1's LU of its block, when nothing has
  // overwritten it (RevisedLemkeScratch::start_lu).
  const auto from_checked_basis = [&] {
    s.revised.start_lu = &s.block_matrix;
    s.revised.start_lu_swaps = &s.basis_swaps;
  };
  if (guess.active == start) {
    if (basis != nullptr && wrong_signs <= std::max<Eigen::Index>(2, n / 32)) {
      from_checked_basis();
      if (lemke_from(*basis, nullptr, std::max<Eigen::Index>(kBriefPivots, n / 16))) return done();
    }
    if (lemke_from(*start, priority,
                   basis != nullptr ? std::max<Eigen::Index>(kBriefPivots, n / 4) : 0))
      return done();
  } else if (checked) {
    from_checked_basis();
  }
  if (basis != nullptr && lemke_from(*basis, nullptr, 0)) return done();
  // 3. Cold (its fallbacks solve other LCPs on the same scratch).
  warm_runs.release();
  solve_lcp(lcp, options, s, out);
  out.certificate.pivots += pivots;
  out.certificate.warm_started = true;
}

LcpSolution solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch* scratch) {
  LcpScratch local;
  LcpSolution out;
  solve_lcp(lcp, options, scratch ? *scratch : local, out);
  return out;
}

}  // namespace exactsim
