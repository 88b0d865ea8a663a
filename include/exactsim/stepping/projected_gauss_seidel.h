// Projected Gauss–Seidel in body space on the time-step MLCP (docs/stepping.md "Iterate, then
// certify"): a guess of the active set of a large island. Each sweep visits every impulse and
// slack row once, keeps ν = W (G z + c) current, and projects a row's unknown onto its bounds:
// z ≥ 0, and for the friction impulses β of a cone Σ_r β_r ≤ μ p (the polyhedral cone of the
// Stewart–Trinkle model; σ of a saturated cone is set to its sliding speed before the cone's
// directions are visited). A sweep costs O(nonzeros of G, H and D), not O(m²). The
// iterate is never accepted as a solution: its active set is the certified solve's guess
// (solve_reduced_mlcp), which verifies whatever it returns.
#pragma once

#include <vector>

#include "exactsim/solvers/mlcp.h"
#include "exactsim/stepping/stewart_trinkle.h"

namespace exactsim {

struct GaussSeidelScratch {
  std::vector<int> d_begin, d_col;  // D by rows (CSR)
  std::vector<Real> d_value;
  VecX z, nu;
  std::vector<bool> guess;  // z_i N_ii > w_i; σ of a sliding cone with its fastest β
  VecX priority;            // z_i N_ii (m/s; σ and its β: the sliding speed)
  VecX diagonal;            // N_ii, read from the reduction's N
};

struct GaussSeidelResult {
  int sweeps = 0;
  Real last_change = 0;  // max |Δz_i| N_ii of the last sweep (m/s)
};

// Runs at most `max_sweeps` sweeps from z = start (e.g. last step's impulses; nullptr: 0; σ is
// ignored) on the MLCP reduced in `reduced` (reduce_mlcp: W, W G, the sparse columns of G and H,
// and N's diagonal), stopping once a sweep changes no row's velocity by more than `tolerance`
// (m/s). Fills scratch.z, nu, guess and priority. D is read into rows at every call (O(m²), as
// the reduction's dense N already is).
GaussSeidelResult projected_gauss_seidel(const Mlcp& mlcp, const MlcpLayout& layout,
                                         const MlcpScratch& reduced, const VecX* start,
                                         int max_sweeps, Real tolerance,
                                         GaussSeidelScratch& scratch);

// The same with N's diagonal given (N_ii, m entries) instead of read from reduced.reduced.M, for a
// caller that did not form the dense N (bench_basis_cost on islands beyond the memory budget):
// `reduced` then needs W, WG, Wc and the block columns g and h only.
GaussSeidelResult projected_gauss_seidel(const Mlcp& mlcp, const MlcpLayout& layout,
                                         const MlcpScratch& reduced, const VecX& diagonal,
                                         const VecX* start, int max_sweeps, Real tolerance,
                                         GaussSeidelScratch& scratch);

}  // namespace exactsim
