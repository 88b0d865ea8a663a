// The frictionless time-step problem as the quadratic program it is (docs/solvers.md "Dual
// active set"), solved by Goldfarb and Idnani's dual active-set method:
//
//   min ½ νᵀ M ν − cᵀ ν   subject to   Gᵀ ν + r >= 0          (M block-diagonal SPD)
//
// Its KKT conditions are the MLCP of include/exactsim/solvers/mlcp.h with H = G and D = 0:
// M ν = G z + c, w = Gᵀ ν + r, 0 <= z ⊥ w >= 0. Where that LCP's Schur complement N = Gᵀ M⁻¹ G
// has rank far below its size (hundreds of contact rows on a few bodies), Lemke pivots through
// degenerate bases and can end on a ray of the rounded data although the problem is solvable.
// The dual method keeps only linearly independent rows active (at most n_v of them), so its
// multipliers are unique and bounded; a row that depends on the active ones is reached by
// partial steps that drop others. It ends on the primal's optimum, or with a Farkas vector when
// the rows contradict each other (no ν satisfies them all).
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "exactsim/solvers/block_diagonal.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {

// G of the program: a column per row, its nonzeros on the blocks the row touches.
using SparseColMatX = Eigen::SparseMatrix<Real>;

// How the active rows' factor is kept (docs/solvers.md "Dual active set"):
//  kGram        the Cholesky factor of their Gram matrix G_Aᵀ M⁻¹ G_A: O(q²) a row added or
//               dropped on q active rows, but the Gram matrix squares the rows' condition number;
//  kOrthogonal  Goldfarb and Idnani's J = L⁻ᵀ Q and R with Jᵀ G_A = [R; 0], updated by Givens
//               rotations: O(n_v²) a row, and no squaring.
enum class DualActiveSetForm { kGram, kOrthogonal };

// Buffers reused across solves.
struct DualActiveSetScratch {
  MatX L;  // L Lᵀ = G_Aᵀ M⁻¹ G_A over the active rows (lower triangle of the top-left q × q)
  MatX J, R;  // the orthogonal form's J = L_M⁻ᵀ Q (n_v × n_v) and R (upper triangular)
  VecX d;     // the orthogonal form's Jᵀ n_p
  SparseColMatX dense_g;      // a dense G's nonzeros (the overload taking MatX)
  BlockDiagonal inverse;      // M⁻¹
  std::vector<int> block_of;  // per velocity: its block
  VecX x, s, a, l, e, step, dual, u, w_np, downdate;
  std::vector<int> active;  // active rows (of the last solve: all of them, component by component)
  std::vector<char> is_active;
  // The program's components (solve_dual_active_set) and the one being solved.
  std::vector<int> velocity_block, component, row_block, component_blocks, component_rows,
      component_block_begin, component_row_begin, local_offset, all_active;
  BlockDiagonal sub_m;
  SparseColMatX sub_g;
  VecX sub_c, sub_r, sub_nu, sub_z;
};

struct DualActiveSetResult {
  // kSolved: every row satisfied to `tolerance` (the caller certifies); kInfeasible: `farkas`
  // holds y >= 0 with G y = 0 (to round-off) and rᵀ y < 0; kMaxIterations: the iteration cap;
  // kNumerical: a non-finite value.
  SolveStatus status = SolveStatus::kNumerical;
  int iterations = 0;  // rows added or dropped
  VecX farkas;         // size m when kInfeasible, ‖y‖∞ = 1; empty otherwise
};

// Solves the program above. nu (n_v) and z (m, the rows' multipliers) are written when kSolved.
// A row counts as satisfied when (Gᵀ ν + r)_i >= −tolerance. A violated row that no active
// multiplier's fall makes room for, and whose column's part independent of the active rows' is
// below `independence` × its length (in the M⁻¹ metric), ends the solve kInfeasible: satisfying
// it would take multipliers up to 1 / independence² of the problem's scale. At most
// max_iterations additions and drops (0: 10 (n_v + m) + 100). The program separates over the
// groups of M's blocks that rows join, and each group is solved on its own. Its work is
// O(nnz(G)) per row added or dropped besides the factor's work (DualActiveSetForm).
DualActiveSetResult solve_dual_active_set(const BlockDiagonal& M, const SparseColMatX& G,
                                          const VecX& c, const VecX& r, Real tolerance,
                                          Real independence, int max_iterations,
                                          DualActiveSetScratch& scratch, VecX& nu, VecX& z,
                                          DualActiveSetForm form = DualActiveSetForm::kGram);
// The same with a dense G (its exact zeros left out).
DualActiveSetResult solve_dual_active_set(const BlockDiagonal& M, const MatX& G, const VecX& c,
                                          const VecX& r, Real tolerance, Real independence,
                                          int max_iterations, DualActiveSetScratch& scratch,
                                          VecX& nu, VecX& z,
                                          DualActiveSetForm form = DualActiveSetForm::kGram);

}  // namespace exactsim
