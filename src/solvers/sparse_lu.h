// The sparse LU of one square matrix by one of the backends (KLU, UMFPACK or Eigen's SparseLU):
// the basis matrices of the sparse Lemke and block pivoting, and the interior point's body-space
// system (docs/solvers.md "Large islands: the sparse path"); or, for a symmetric positive definite
// matrix, its Cholesky factor by CHOLMOD (supernodal: dense blocks where the factor fills in).
#pragma once

#include <memory>
#include <vector>

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include "exactsim/solvers/sparse_lemke.h"

namespace exactsim {

struct SparseBasisLu {
  using EigenLu = Eigen::SparseLU<Eigen::SparseMatrix<Real>, Eigen::COLAMDOrdering<int>>;
  SparseLuBackend backend = SparseLuBackend::kEigen;
  Eigen::SparseMatrix<Real> matrix;  // the factorised matrix (UMFPACK's solves read it)
  std::unique_ptr<EigenLu> eigen;
  struct SuiteSparse;  // KLU's and UMFPACK's objects (sparse_lu.cc: only it sees SuiteSparse)
  std::unique_ptr<SuiteSparse> suitesparse;
  bool analysed = false;  // a symbolic analysis of `matrix`'s pattern is held
  std::vector<int> analysed_outer, analysed_inner;  // the pattern it was made for
  VecX out;                                         // UMFPACK's solution buffer
  Real pivot_ratio = 0;                             // min |u_ii| / max |u_ii|
  Real factored_pivot_ratio = 0;  // ... of the last factorisation that chose its pivots
  long nonzeros = 0;              // nnz(L + U)
  bool cholesky = false;          // the factor is factor_spd's
  static constexpr Real kMinPivotRatio = 1e-14;

  SparseBasisLu();
  SparseBasisLu(const SparseBasisLu&) = delete;
  SparseBasisLu& operator=(const SparseBasisLu&) = delete;
  ~SparseBasisLu();

  void release();

  // Factorises `matrix` (kAuto: KLU where SuiteSparse was found, else Eigen's). The analysis of
  // the last factorisation is reused where `matrix` has its pattern (with `same_pattern` the
  // caller promises so, and it is not compared). False when the backend fails or the pivot ratio is
  // not above `min_pivot_ratio` (numerically singular; 0: any finite ratio). With `scale_rows`
  // KLU divides each row by its largest entry before it chooses pivots (its default); without,
  // it also skips its checking pass over the matrix (docs/solvers.md "Interior point").
  bool factor(SparseLuBackend which, bool same_pattern = false,
              Real min_pivot_ratio = kMinPivotRatio, bool scale_rows = true);

  // Factorises the symmetric positive definite `matrix` (both triangles stored; the lower one is
  // read) as L Lᵀ: by CHOLMOD where SuiteSparse was found, else as factor(kAuto) does. The
  // analysis is reused as factor() reuses it. False where `matrix` is not positive definite or
  // the pivot ratio (CHOLMOD's estimate of the reciprocal condition number) is not above
  // `min_pivot_ratio`.
  bool factor_spd(bool same_pattern = false, Real min_pivot_ratio = kMinPivotRatio);

  // x = A⁻¹ x, or A⁻ᵀ x.
  void solve(VecX& x, bool transpose = false);
};

}  // namespace exactsim
