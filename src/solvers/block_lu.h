// The LU factorisation of a sparse matrix made of dense square blocks of one size: the interior
// point's body-space system S = M + G K⁻¹ Hᵀ, one block for each pair of bodies that share a
// group (docs/solvers.md "Interior point"). Blocks are eliminated in minimum-degree order on the
// block graph (Rose 1972; George and Liu 1989, "The evolution of the minimum degree ordering
// algorithm"), which also gives the factor's block pattern; rows are pivoted only within each
// diagonal block, and the arithmetic is on whole 3 × 3 (2D) or 6 × 6 (3D) blocks, where a general
// sparse LU works column by column on scalars.
//
// Without pivoting across blocks the factorisation can be unstable where a diagonal block is
// small against its neighbours, so factor() measures the growth max|L| max|U| / max|A| that
// bounds its backward error (Higham 2002, thm. 9.3) and declines beyond kMaxGrowth: the caller
// then factorises with a pivoting sparse LU.
#pragma once

#include <vector>

#include <Eigen/SparseCore>

#include "exactsim/math/types.h"

namespace exactsim {

struct BlockLu {
  // A factor whose growth exceeds this is declined (its backward error could exceed 10⁻⁸ of A's
  // largest entry; one step of iterative refinement recovers a direction from there).
  static constexpr Real kMaxGrowth = 1e8;

  int size = 0;               // rows of a block (3 or 6; 0: not analysed)
  int blocks = 0;             // block rows
  std::vector<int> order;     // the block eliminated j-th
  std::vector<int> position;  // j of each block
  // L's blocks in column j (equally U's in row j): rows below[begin[j]] … below[begin[j+1] − 1],
  // elimination positions, ascending.
  std::vector<int> begin, below;
  std::vector<int> slot;     // where each value of the analysed matrix goes in `values`
  std::vector<Real> values;  // diagonal blocks (their LU), then L's, then U's; column-major
  std::vector<int> pivots;   // row interchanges within each diagonal block
  std::vector<int> mark;     // (scratch)
  std::vector<int> analysed_outer, analysed_inner;  // the pattern analysed
  Real growth = 0;                                  // of the last factor()

  // The pattern of `a` (compressed columns, n × n with n a multiple of `block_size`, 3 or 6): the
  // ordering, the factor's pattern and the slots. False for another block size. An analysis of
  // the same pattern is kept.
  bool analyse(const Eigen::SparseMatrix<Real>& a, int block_size);
  // Factorises `a`, whose pattern is the analysed one: its values go to `values` through `slot`,
  // then factor().
  bool factor(const Eigen::SparseMatrix<Real>& a);
  // Factorises the matrix whose values the caller has written into `values` through `slot`.
  // False where nothing is analysed, a pivot is zero or not finite, or the growth exceeds
  // kMaxGrowth.
  bool factor();
  // x = A⁻¹ x.
  void solve(VecX& x) const;
  // Blocks of L below the diagonal (as many are in U).
  int lower_blocks() const { return static_cast<int>(below.size()); }
  // Where L's blocks and U's begin in `values` (after the diagonal blocks, then L's).
  std::size_t lower_offset() const { return static_cast<std::size_t>(blocks) * size * size; }
  std::size_t upper_offset() const { return lower_offset() + below.size() * size * size; }
};

// c −= a b for 6 × 6 column-major blocks, the Schur update that takes most of a large pile's
// factorisation: each entry's products added in the order of k, then subtracted, as Eigen's
// product of fixed-size blocks adds them, so the factor is the same to the bit.
void subtract_product_6x6(Real* c, const Real* a, const Real* b);

}  // namespace exactsim
