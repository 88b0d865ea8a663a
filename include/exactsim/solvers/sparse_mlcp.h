// The time-step MLCP in body space, without its dense Jacobians (docs/solvers.md "Large islands:
// the sparse path"):
//
//   M ν = G z + c,   w = Hᵀ ν + D z + r,   0 <= z ⊥ w >= 0,
//
// with the columns of G and H kept as their few nonzero body blocks (BlockColumns): a contact's
// column touches at most two bodies. Nothing of size m² or n_v × m is formed, so memory is O(nnz).
// solve_sparse_mlcp finds a complementary basis by block principal pivoting (min-map semismooth
// Newton), each iteration one sparse factorisation of the basis system
//
//   [ M      −G_B        ] [ν  ]   [ c   ]
//   [ H_Bᵀ   D_BB + δ I  ] [z_B] = [ −r_B ],
//
// (δ keeps a rank-deficient basis solvable; iterative refinement takes the answer back to δ = 0),
// and certifies the answer on the whole, unregularised problem with sparse products.
#pragma once

#include <memory>
#include <vector>

#include <Eigen/SparseCore>

#include "exactsim/solvers/mlcp.h"

namespace exactsim {

struct SparseBasisLu;
struct BlockLu;

struct SparseMlcp {
  BlockDiagonal M;    // n_v × n_v, SPD blocks
  BlockColumns g, h;  // the columns of G and H (m each), blocked like M
  SparseRowMatX D;    // m × m
  VecX c, r;          // n_v, m
  int bilateral = 0;  // the last `bilateral` unknowns are free (equality rows; Mlcp::bilateral)
  int size() const { return static_cast<int>(r.size()); }
};

// The dense MLCP's columns as blocks (tests, and problems assembled dense), and back.
SparseMlcp sparse_of(const Mlcp& mlcp);
void dense_of(const SparseMlcp& p, Mlcp& out);

// The rows coupled through D (one contact's friction cone, one PEG group): the connected
// components of D's pattern, and the bodies each touches.
struct CoupledRows {
  std::vector<int> group_of;             // (m) the group of each row
  std::vector<int> begin, rows;          // rows of group g: rows[begin[g] .. begin[g+1])
  std::vector<int> block_begin, blocks;  // bodies (blocks of M) of group g, ascending
};
void couple_rows(const SparseMlcp& p, CoupledRows& out);

// The independent parts of a problem: rows joined through a body (a block of M that their columns
// of G or H touch) or through D. Its MLCP is then block diagonal, one block per part and one per
// body no row touches, and each part is an MLCP of its own (docs/solvers.md "The working set's
// parts"). Rows that touch no body and no other row join the first part.
struct MlcpParts {
  std::vector<int> part_of_row, local_row;  // (m) each row's part and its index there
  std::vector<int> row_begin, rows;         // rows of part k: rows[row_begin[k] .. row_begin[k+1])
  std::vector<int> block_begin, blocks;     // its bodies (blocks of M), ascending
  std::vector<int> parent, root_part;       // scratch
  int count() const { return static_cast<int>(row_begin.size()) - 1; }
};
// The parts of p (one part holding every row where p has bilateral rows).
void split_parts(const SparseMlcp& p, MlcpParts& out);
// Part k as its own problem: its bodies' blocks of M and entries of c, its rows of G, H, D and r.
void part_problem(const SparseMlcp& p, const MlcpParts& parts, int k, SparseMlcp& out);

// Buffers reused across solves.
struct SparseMlcpScratch {
  BlockDiagonal W;     // M⁻¹
  VecX Wc, b, n_diag;  // W c; b = Hᵀ W c + r and the diagonal of N = Hᵀ W G + D (never formed)
  std::vector<int> slot;  // z index → its row in the basis system (−1: nonbasic)
  std::vector<int> basic;
  std::vector<Eigen::Triplet<Real>> triplets;
  // The LU of the basis system or the interior point's body-space system, and that matrix
  // (src/solvers/sparse_lu.h; held by pointer: factorisations cannot be copied).
  std::shared_ptr<SparseBasisLu> lu;
  // The interior point's body-space system by blocks of bodies (src/solvers/block_lu.h).
  std::shared_ptr<BlockLu> block_lu;
  VecX rhs, x, momentum, impulse;  // the basis system's right-hand side and solution; residuals
  std::vector<bool> active;
  bool basis_solved = false;  // the last answer is active's basis solve (not an interior point's)
  // The problem is symmetric (H = G, D = 0): the interior point's body-space system is then
  // positive definite, and where it is not factorised by blocks, by Cholesky
  // (SparseBasisLu::factor_spd).
  bool symmetric = false;
  // The interior point factorises its body-space system by blocks of bodies where every body has
  // 3 or 6 velocities (false: by the sparse LU or Cholesky only; for tests).
  bool by_blocks = true;
  // A run ends at its best iterate within 3/4 of the certificate's bounds where it met one and
  // then slows, stalls or runs out of iterations (SolverOptions::Diagnostics::interior_point_best).
  bool best_iterate = true;
  CoupledRows coupled;
  MlcpSolution crossover;       // the basis solve after the interior point
  VecX z_previous, w_previous;  // the interior point's iterate before its last (Tapia's indicators)
};

// w = Hᵀν + D z + r (sized m).
void sparse_rows(const SparseMlcp& p, const VecX& nu, const VecX& z, VecX& w);

// Whether p's bodies are planar (3 velocities each).
bool planar_bodies(const SparseMlcp& p);

// The impulse scale Z of the problem (as mlcp_impulse_scale: the free momentum ‖c‖₁, the impulse
// of the largest free velocity Σ_k max diag M_k · ‖b‖∞, and n ‖b‖∞ / max diag N), from s.b and
// s.n_diag (prepare_sparse_mlcp).
Real sparse_mlcp_impulse_scale(const SparseMlcp& p, const SparseMlcpScratch& s);

// W, Wc, b and N's diagonal in s.
void prepare_sparse_mlcp(const SparseMlcp& p, SparseMlcpScratch& s);

// The certificate of (ν, z) on the whole problem (as verify_mlcp), with sparse products; writes w.
SolveCertificate verify_sparse_mlcp(const SparseMlcp& p, const VecX& nu, const VecX& z, Real tol,
                                    Real impulse_scale, const SolverOptions& options,
                                    SparseMlcpScratch& s, VecX& w);

// Block principal pivoting from the basic set s.active (block_principal_pivoting.cc), at most
// max_iterations basis solves, the basis system regularised by +δ on its z block: all sign
// violations (below −tol) are flipped at once while their count falls, then one at a time. True
// when every sign is right; then out holds the basis's ν, z, w (not yet certified) and s.active
// the basis.
bool block_pivoting(const SparseMlcp& p, Real tol, Real delta, int max_iterations,
                    SparseMlcpScratch& s, MlcpSolution& out, int& iterations);

// Mehrotra's predictor–corrector (interior_point.cc) from the free motion (z: `start` × the
// impulses of the free rows' scale), or from `near` (its ν and z, every z_i and row w_i raised to
// `start` × those of the free motion's start); true when z∘w, the
// row and the momentum residuals fell below 1/2 of the certificate's bounds (tolerance tol,
// impulse scale `scale`). (ν, z, w) is where it ended either way: converged, stalled (neither μ
// nor the residual halved in its last 12 iterations) or out of iterations; with s.best_iterate,
// at its best iterate within 3/4 of the certificate's bounds where it met one (there once μ has
// not halved in 4 iterations). With `recentre`, an iteration whose step would be short takes the
// centring direction instead.
bool interior_point(const SparseMlcp& p, Real tol, Real scale, int max_iterations,
                    SparseMlcpScratch& s, VecX& nu, VecX& z, VecX& w, int& iterations,
                    Real start = 1, const MlcpSolution* near = nullptr, bool recentre = true);

// Pseudo-arc-length continuation of the interior point's infeasible central path from its cold
// start (interior_point.cc; docs/solvers.md "Arc-length continuation"): the path z∘w = t μ₀,
// w − (Hᵀν + D z + r) = t rd₀, M ν − G z − c = t rp₀ in (ν, log z, log t), followed with a secant
// predictor and a Newton corrector orthogonal to it, so that t may rise where the path turns back
// (a fold, where Mehrotra's iteration stalls). At most max_solves factorisations, each counted in
// `iterations`. True when the point reached meets interior_point's stop.
bool arc_length(const SparseMlcp& p, Real tol, Real scale, int max_solves, SparseMlcpScratch& s,
                VecX& nu, VecX& z, VecX& w, int& iterations);

// The sparse solve (sparse_solve.cc; docs/solvers.md "Large islands: the sparse path"): the guessed
// basis (`guess`, size m: z_i expected positive, e.g. last step's by contact; null or the wrong
// size: none) by block pivoting, else the interior-point method and the basis its answer lies on.
// The answer in out (ν, z, w) is certified on the whole problem whatever its status (method: the
// attempt that produced it); s.active is its basis (the interior point's estimate of one where
// no basis was solved).
// Without `crossover`, a certified interior-point answer is returned as it is, with the estimate
// of its basis in s.active (the working set's rounds take it so), and so is an uncertified one on
// a problem of more than 1,000 rows (below that the crossover runs). `near` (ν, z; null:
// none), a point near the answer, is the interior point's first start; `rescue` (ν, z; null:
// none), another point that may be near it, its start after the cold starts stalled.
void solve_sparse_mlcp(const SparseMlcp& p, const SolverOptions& options, SparseMlcpScratch& s,
                       MlcpSolution& out, const std::vector<bool>* guess = nullptr,
                       bool crossover = true, const MlcpSolution* near = nullptr,
                       const MlcpSolution* rescue = nullptr);

}  // namespace exactsim
