// Internal: the LCP solvers' buffers and the overloads that take them (solvers/lcp.h is the
// public part: problem, certificate, options). Not installed.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <vector>

#include "exactsim/solvers/lcp.h"

namespace exactsim {

// Lemke in the revised form (docs/solvers.md "Revised Lemke"): G = C⁻¹ of the basis's k×k
// block in the top-left corner of a buffer that grows by doubling, the slot maps, work vectors.
struct RevisedLemkeScratch {
  MatX g, c;                             // G; C, its LU and inverse in place (refactorisation),
  Eigen::Index c_size = 0;               // in c's top-left c_size × c_size corner
  std::vector<int> swaps;                // the LU's row exchanges
  VecX full, rhs, col, y, rb, v, h, dc;  // length n; y, rb, v, h, dc used through head(k)
  std::vector<int> row, pos;             // slot → uncovered row / basis position of a z or z0
  std::vector<int> slot_of_row, slot_of_pos, w_pos;  // −1: none; w_pos[j]: position of w_j
  // M's nonzeros by column (compressed sparse column), when
  // SolverOptions::diagnostics.revised_sparse_density allows: the basis solve then adds each basic
  // column's nonzeros.
  bool sparse = false;
  std::vector<Eigen::Index> column_start;  // (n + 1)
  std::vector<int> column_rows;
  std::vector<Real> column_values;
  // Set by solve_lcp around its warm runs on one LCP (docs/solvers.md "Fallback policy"): they
  // share one compression of M's columns (`columns_current` once made), and solve_lemke_from does
  // not validate the LCP again.
  bool same_lcp = false;
  bool columns_current = false;
  // ... around its capped runs: such a run ends on a secondary ray without confirming it from a
  // fresh factorisation (its caller has further starts), and a ray restart (`restart`) takes its
  // start's inverse from the last run's, downdated without the dropped unknown, instead of
  // factorising C again.
  bool capped_run = false;
  bool restart = false;
  // ... before its first run from the checked basis (the brief run, or the basis run when there
  // is no estimate): that check's LU of M_αα (LcpScratch's block_matrix and basis_swaps), which
  // the run's start takes for C = −M_αα instead of factorising again; the next start consumes it.
  const MatX* start_lu = nullptr;
  const std::vector<int>* start_lu_swaps = nullptr;
  // c holds C⁻¹ of the last run's start, `inverse_start`, in start slot order (until the next
  // factorisation).
  bool start_inverse = false;
  std::vector<bool> inverse_start;
  // Counted over all solves on this scratch: starts downdated for a ray restart, and runs
  // polished by refinement with G instead of an LU (docs/solvers.md "Revised Lemke").
  long downdated_starts = 0;
  long refined_polishes = 0;
};

// Reusable buffers: pass the same scratch to repeated solves of the same size and no heap
// allocation happens after the first (all buffers are fixed n×n or n×(n+1); Eigen's resize to an
// unchanged size keeps the storage), except in the revised form (docs/solvers.md "Allocation").
struct LcpScratch {
  // Lemke: tableau [x_B | B⁻¹] (n × (n+1)), entering column, basis variable ids.
  MatX tableau;
  Eigen::RowVectorXd pivot_row;
  VecX column;
  std::vector<int> basis;       // basis[row] = variable id: w_i = i, z_i = n + i, z0 = 2n
  std::vector<int> candidates;  // ratio-test rows
  VecX cover;                   // covering vector e (ones cold; B·1 from a warm-start basis)
  VecX lemke_original, lemke_residual;  // refinement of a small pivot's column
  MatX refactor_matrix;                 // basis matrix for periodic refactorisation of B⁻¹
  Eigen::PartialPivLU<MatX> refactor_lu;
  RevisedLemkeScratch revised;
  // z_i basic. After a solve that ends kSolved through Lemke or the warm start: the complementary
  // basis of the returned point (Lemke's final basis, degenerate basics included, so it is
  // nonsingular), the best warm-start guess for the next, similar LCP.
  std::vector<bool> active;
  VecX z_polish, w_polish;
  // Active-block solve (warm start): the block's LU in place in the top-left corner of an n×n
  // buffer, the active unknowns, the LU's row interchanges, the refinement's residual.
  MatX block_matrix;
  VecX block_solution;
  std::vector<int> basis_index;
  std::vector<bool> guess;       // the warm start's guess, dependent unknowns dropped
  std::vector<int> basis_swaps;  // its LU's row interchanges
  VecX basis_residual;           // iterative refinement
  // After a Lemke run that ended on a secondary ray: its entering variable (else −1).
  int ray_entering = -1;
  // Warm Lemke runs restarted without an unknown after a secondary ray (solve_lcp with a guess;
  // docs/solvers.md "Fallback policy"), counted over all solves on this scratch.
  long ray_restarts = 0;
  // Fischer–Burmeister.
  VecX z, w, phi, a, b, grad, dir, z_trial, w_trial, phi_trial, xi, m_xi;
  MatX jacobian, normal_matrix;
  Eigen::PartialPivLU<MatX> jacobian_lu;
  Eigen::LDLT<MatX> normal_ldlt;
  // solve_lcp keeps the fallback result here while comparing.
  VecX z_best, w_best;
  VecX fb_z, fb_w, fb_ray;
};

// The default stack on caller-owned buffers (no allocation once warmed up).
void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& scratch, LcpSolution& out);
// What a warm start knows (docs/solvers.md "Warm start"); each vector has size n (else ignored).
struct WarmGuess {
  // A complementary basis expected to solve the problem (e.g. the previous step's, mapped by
  // contact identity): solved and verified directly first, one LU of its active block.
  const std::vector<bool>* basis = nullptr;
  // An estimate of the active set (e.g. an iteration's, docs/stepping.md "Iterate, then
  // certify") for Lemke to start from; default: basis. Unknowns whose columns depend on the
  // others' are dropped first (keep_nonsingular_block), those of lower `priority` first.
  const std::vector<bool>* active = nullptr;
  const VecX* priority = nullptr;
};

// Warm start: the guessed basis is solved and verified first (0 pivots, method kWarmStart); if it
// fails, Lemke runs from the (nonsingular part of the) active estimate and, if that does not end
// kSolved / kInfeasible, the cold stack runs. Nothing usable in `guess` means a cold start.
void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& scratch, LcpSolution& out,
               const WarmGuess& guess);
// The same with `active_guess` as the basis (nullptr: cold).
void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& scratch, LcpSolution& out,
               const std::vector<bool>* active_guess);

// Lemke on caller-owned buffers.
void solve_lemke(const Lcp& lcp, const SolverOptions& options, LcpScratch& scratch,
                 LcpSolution& out);
// Lemke started from the complementary basis `start` (z_i basic when start[i]) with covering
// vector e = B·1. Returns false (out unspecified) when that basis is numerically singular.
bool solve_lemke_from(const Lcp& lcp, const std::vector<bool>& start, const SolverOptions& options,
                      LcpScratch& scratch, LcpSolution& out);
// The same pivoting in long double (64-bit mantissa; dense tableau, ~4× a double pivot, own
// buffers: allocates), from `start` (nullptr: cold), within the pivot budget of solve_lemke (its
// work cap counted as pivots · n²); certified in double as solve_lemke is. It is solve_lemke's last
// retry; the extended regularisation path calls it directly. False when `start` is singular.
bool solve_lemke_long_double(const Lcp& lcp, const std::vector<bool>* start,
                             const SolverOptions& options, LcpScratch& scratch, LcpSolution& out);

// Fischer–Burmeister on caller-owned buffers.
void solve_fischer_burmeister(const Lcp& lcp, const VecX& z0, const SolverOptions& options,
                              LcpScratch& scratch, LcpSolution& out);

// Solves the complementary basis "z_i basic for active[i], w_i basic otherwise" exactly through
// its active block: M_αα z_α = −q_α (k×k LU with partial pivoting, in place, by panels from
// k = 128 on; no allocation after warm-up below that; one step of iterative refinement), z = 0
// elsewhere; false when the block's pivot ratio min/max |u_ii| is at most min_pivot_ratio (then
// z is untouched). Costs k³/3 instead of the n×n basis matrix's 2n³/3: the warm start's guess
// in a resting pile has k ≈ n/8.
bool solve_active_block(const Lcp& lcp, const std::vector<bool>& active, LcpScratch& scratch,
                        VecX& z, Real min_pivot_ratio);

// Drops from `active` the unknowns whose columns depend on the others' within the active block
// M_αα: elimination with diagonal (symmetric) pivoting, each step on the remaining unknown whose
// Schur-complement diagonal is largest relative to its own scale (|M_jj|, or for a zero diagonal —
// σ of a friction cone — Σ_i |M_ij M_ji| / M_ii over the active i with M_ii > 0), until none
// exceeds min_pivot_ratio. What is kept has a nonsingular principal block, so it is a basis Lemke
// can start from. Returns the number dropped. Costs k³/3 for k active unknowns.
int keep_nonsingular_block(const Lcp& lcp, std::vector<bool>& active, LcpScratch& scratch,
                           Real min_pivot_ratio, const VecX* priority = nullptr);

// Polish: solves the complementary basis `active` exactly (default: the guess
// α = {i : z_i > w_i}) and replaces (z, w, certificate) when the polished point violates the
// certificate no more. certificate must be verify_lcp(lcp, z, tol); method/pivots/iterations kept.
void polish_complementary_basis(const Lcp& lcp, Real tol, LcpScratch& scratch, VecX& z, VecX& w,
                                SolveCertificate& certificate,
                                const std::vector<bool>* active = nullptr);

// min |U_ii| / max |U_ii| of an LU factor: a cheap, allocation-free singularity indicator (Eigen's
// rcond() estimate allocates). 0 for a singular or empty factor.
Real lu_pivot_ratio(const Eigen::PartialPivLU<MatX>& lu);

}  // namespace exactsim
