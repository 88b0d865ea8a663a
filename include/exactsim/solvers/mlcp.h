// The mixed LCP of one time step with free velocities (docs/solvers.md "Problem forms"):
//
//   M ν = G z + c                              (n_v equations; M block-diagonal SPD)
//   w   = Hᵀ ν + D z + r,   0 <= z ⊥ w >= 0     (m complementarity pairs)
//
// G (n_v × m): impulse-carrying columns (zero columns for unknowns carrying no impulse, e.g. σ,
//   PEG slacks c_I, X-paper multipliers);
// H (n_v × m): velocity Jacobians of the rows (= G in the standard model; PEG's I rows differ);
// D (m × m, sparse: a few entries per row): the coupling block (0 frictionless; E, U, −Eᵀ for
//   friction; PEG's E_I1, E_I2).
// For the standard model c = M ν^ℓ + h λ_ext and r = ψ/h on normal rows (PEG paper
// eqs. 8–9).
// The last `bilateral` unknowns are free multipliers of equality rows (joints, docs/joints.md):
// w_i = 0 with z_i of either sign. The solve eliminates them from the reduced LCP by a Schur
// complement on their block of N; the certificate checks |w_i| <= tol on those rows.
//
// solve_mlcp eliminates ν by the Schur complement with W = M⁻¹:
//   N = Hᵀ W G + D,  b = Hᵀ W c + r,  solve LCP(N, b),  ν = W (G z + c),
// then certifies z, w and ν on the unreduced equations.
#pragma once

#include <Eigen/SparseCore>

#include "exactsim/solvers/block_diagonal.h"
#include "exactsim/solvers/dual_active_set.h"
#include "exactsim/solvers/lcp.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {

using SparseRowMatX = Eigen::SparseMatrix<Real, Eigen::RowMajor>;

struct Mlcp {
  BlockDiagonal M;  // n_v × n_v, SPD blocks
  MatX G, H;        // n_v × m
  SparseRowMatX D;  // m × m
  VecX c, r;        // n_v, m
  int bilateral = 0;  // the last `bilateral` of the m unknowns are free (equality rows)
};

struct MlcpSolution {
  VecX nu, z, w;  // ν (n_v), z (m), w = Hᵀν + D z + r (m, unreduced)
  // Certificate of the unreduced problem: min_z, min_w, complementarity from the w above;
  // newton_euler_residual = ‖M ν − G z − c‖∞; tolerance from the reduced b.
  SolveCertificate certificate;
};

// Buffers reused across steps (no heap allocation after warm-up for an unchanged layout).
struct MlcpScratch {
  BlockDiagonal W;  // M⁻¹
  MatX WG;          // W G (n_v × m)
  VecX Wc;          // W c
  Lcp reduced;      // N, b
  MatX spare_n;     // the other buffer of N (reduce_mlcp)
  LcpScratch lcp;   // solver buffers
  LcpSolution reduced_solution;
  VecX momentum;      // M ν − G z − c (the residual)
  VecX impulse;       // G z
  BlockColumns g, h;  // the nonzero body blocks of G's and H's columns
  // The frictionless fallback (solve_dual_active_set) and its answer.
  DualActiveSetScratch dual;
  VecX qp_nu, qp_z, qp_w;
  // With bilateral rows: the LCP left after eliminating them (N_cc − N_cf N_ff⁻¹ N_fc), N_ff's
  // factorisation, the elimination's X = N_ff⁻¹ N_fc and y = N_ff⁻¹ b_f, and a guessed basis of
  // the LCP's rows.
  Lcp condensed;
  Eigen::CompleteOrthogonalDecomposition<MatX> free_block;
  MatX eliminate;
  VecX eliminate_rate;
  std::vector<bool> condensed_basis;
};

// Forms N = Hᵀ W G + D and b = Hᵀ W c + r in scratch.reduced (and W, WG, Wc). Validates.
void reduce_mlcp(const Mlcp& mlcp, MlcpScratch& scratch);

// Reduce, solve the reduced LCP with solve_lcp (the full stack), recover ν, certify. When that
// fails on a frictionless problem (H = G, D = 0) and options.fallback is on, the dual active-set
// method solves it as a QP (method kDualActiveSet), kept when it certifies.
MlcpSolution solve_mlcp(const Mlcp& mlcp, const SolverOptions& options = {},
                        MlcpScratch* scratch = nullptr);
void solve_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& scratch,
                MlcpSolution& out);
// Warm start: active_guess[i] = "z_i > 0 expected" (size m; e.g. the previous step's active set
// mapped by contact identity; nullptr or a wrong size: cold). See solve_lcp's warm overload.
void solve_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& scratch,
                MlcpSolution& out, const std::vector<bool>* active_guess);
void solve_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& scratch,
                MlcpSolution& out, const WarmGuess& guess);

// solve_mlcp after reduce_mlcp(mlcp, s) (s holds the reduction; e.g. a caller that iterated on it
// first, docs/stepping.md "Iterate, then certify").
void solve_reduced_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& s,
                        MlcpSolution& out, const WarmGuess& guess);

// The active set of a solution, active[i] = z_i > 0 and z_i > w_i (the complementary basis it
// lies on; degenerate pairs z_i = w_i = 0 count as inactive); what
// a caller passes as next step's active_guess after mapping contacts.
void active_set(const VecX& z, const VecX& w, std::vector<bool>& active);

// The impulse scale Z of the certificate of a time-step MLCP (units of z, N·s), from problem data
// only: max(1, ‖c‖₁, Σ_k max diag M_k · ‖b‖∞, lcp_impulse_scale(N, b)) — the momentum of the free
// motion (m g h at rest), the impulse that gives every body the largest free or stabilisation
// velocity, and the reduced LCP's own scale. `reduced` is (N, b) from reduce_mlcp.
Real mlcp_impulse_scale(const Mlcp& mlcp, const Lcp& reduced);

// Certificate of (ν, z) on the unreduced equations, with LCP tolerance tol (units of w),
// complementarity bound tol · Z and Newton–Euler tolerance options.tolerance · max(1, ‖c‖∞, Z),
// Z = options.impulse_scale or mlcp_impulse_scale. Writes w.
SolveCertificate verify_mlcp(const Mlcp& mlcp, const VecX& nu, const VecX& z, Real tol,
                             const SolverOptions& options, VecX& w);

// The same with the impulse scale given (options.impulse_scale, > 0) and the residuals' buffers
// from `scratch` (no reduction, no allocation once warmed up).
SolveCertificate verify_mlcp(const Mlcp& mlcp, const VecX& nu, const VecX& z, Real tol,
                             const SolverOptions& options, VecX& w, MlcpScratch& scratch);

// The certificate's judgement of a point whose rows w = Hᵀν + D z + r and Newton–Euler residual
// momentum = M ν − G z − c were computed (dense or sparse): the bounds above, from c's size.
// The last `bilateral` rows are equality rows: |w_i| <= tol, z_i free.
SolveCertificate judge_mlcp_point(const VecX& nu, const VecX& z, const VecX& w,
                                  const VecX& momentum, const VecX& c, Real tol, Real impulse_scale,
                                  const SolverOptions& options, int bilateral = 0);

// Throws InputError unless all dimensions agree and entries are finite (definiteness of M is
// checked when it is inverted).
void validate_mlcp(const Mlcp& mlcp, const char* who);

}  // namespace exactsim
