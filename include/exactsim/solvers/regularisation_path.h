// The regularisation path of an LCP: the solutions of (M + δ·max_i|M_ii|·I, q) as δ falls, a
// diagnosis of whether a failing LCP has solutions within its impulse scale (docs/solvers.md
// "Regularisation path").
#pragma once

#include <span>
#include <vector>

#include "exactsim/solvers/lcp.h"

namespace exactsim {

struct RegularisationPoint {
  Real delta = 0;             // relative to max_i |M_ii|
  bool solved = false;        // the default stack certified the regularised problem
  Real max_z_over_scale = 0;  // ‖z‖∞ / Z of its solution, Z the unregularised problem's scale
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

}  // namespace exactsim
