// The regularisation path of an LCP: the solutions of (M + δ·max_i|M_ii|·I, q) as δ falls, a
// diagnosis of whether a failing LCP has solutions within its impulse scale (docs/solvers.md
// "Regularisation path").
#pragma once

#include <span>
#include <vector>

#include "exactsim/solvers/lcp.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {

struct RegularisationPoint {
  Real delta = 0;             // relative to max_i |M_ii|
  bool solved = false;        // the regularised problem's solution was certified
  Real max_z_over_scale = 0;  // ‖z‖∞ / Z of its solution, Z the unregularised problem's scale
  // That solution on the unregularised problem: certificate_violation / its tolerance (≤ 1: it
  // is a solution there too). Bounded z gives δ·max|M_ii|·‖z‖ / tol at most.
  Real violation_over_tolerance = 0;
  bool long_double = false;  // certified by the continuation in long double (extended path)
};

inline constexpr Real kDefaultPathDeltas[] = {1e-2, 1e-3, 1e-4, 1e-5, 1e-6,
                                              1e-7, 1e-8, 1e-9, 1e-10};

// Solves (M + δ·max_i|M_ii|·I, q) with solve_lcp (options, exact retry off) for each δ in order,
// and reports ‖z‖∞ / Z with Z = certificate_impulse_scale(lcp, options). Where the LCP has a
// solution of moderate size the values settle as δ → 0 (M = [2], q = [−1]: z = 1 / (2 + 2δ));
// where every solution is beyond the scale, or there is none, they grow without bound
// (M = diag(1, 0), q = (0, −1), infeasible: z₂ = 1/δ). A value is meaningful only when `solved`.
std::vector<RegularisationPoint> regularisation_path(
    const Lcp& lcp, SolverOptions options, std::span<const Real> deltas = kDefaultPathDeltas);

// To 1e-14: below it δ·max|M_ii| is within a few ulps of the larger diagonal entries, and the
// regularised problem (stored in double) is no longer the one intended.
inline constexpr Real kExtendedPathDeltas[] = {1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14};
// The path continued below where double precision can follow it (docs/solvers.md "Regularisation
// path"): each δ (falling) is solved by Lemke in long double (solve_lemke_long_double) started
// from the complementary basis of the last certified point, or where there is none yet or that
// does not certify, by solve_lcp in double. With cond(M + δI) ~ 1/δ on a rank-deficient M,
// the double solves lose the path near δ ~ 1e-10; the continuation shows where the solutions go
// as δ → 0: settling, with violation_over_tolerance falling as δ, or growing tenfold per decade
// while the violation stays above the tolerance (no solution within the scale at that tolerance,
// as far as the path shows).
std::vector<RegularisationPoint> extended_regularisation_path(
    const Lcp& lcp, SolverOptions options, std::span<const Real> deltas = kExtendedPathDeltas);

// A rescue of the default stack (solve_lcp, SolverOptions::regularisation_path_retry), two
// points of the extended path: δ₁ = 1e-8 by the stack in double, and, when that solution is
// certified on M + δ₁I, δ₂ = δ₁ · 0.1 / (its violation on `lcp` over the tolerance), not below
// 1e-14 — where a path settled at δ₁ would violate the original by a tenth of its tolerance —
// by Lemke in long double from δ₁'s basis (its ending basis solved again in long double), or by
// the stack in double where that does not certify. A point is taken only when the certificate
// accepts it on `lcp` itself: its own tolerance and impulse scale, nothing regularised
// (docs/solvers.md "Regularisation path"). True with `out` holding it (method
// kRegularisationPath, s.active its basis); false with `out` untouched otherwise, or at once when
// the long-double run's ~4n³ exceeds options.max_pivot_work.
bool solve_by_regularisation_path(const Lcp& lcp, const SolverOptions& options, LcpScratch& s,
                                  LcpSolution& out);

}  // namespace exactsim
