// A block-diagonal matrix: the mass matrix M of the active bodies (one 3×3 planar or 6×6 spatial
// SPD block per body, docs/dynamics.md "Bodies") and its inverse W = M⁻¹ (docs/solvers.md "Problem
// forms").
#pragma once

#include <vector>

#include <Eigen/SparseCore>

#include "exactsim/math/types.h"

namespace exactsim {

struct BlockDiagonal {
  std::vector<int> offsets;  // offsets[k] = first row/column of block k (contiguous, ascending)
  std::vector<MatX> blocks;  // square blocks, any size >= 1 (3 planar, 6 spatial)

  // Appends a block after the last one (sets its offset).
  void add_block(const MatX& block);
  // Total number of rows (= columns).
  int size() const;
  // y = B x (y is resized to size()).
  void apply(const VecX& x, VecX& y) const;
  // Y = B X for a matrix with size() rows (Y is resized).
  void apply(const MatX& x, MatX& y) const;
  // The dense matrix (for tests and small problems).
  MatX dense() const;
  // Appends the blocks' entries as triplets (row, column, value); zeros too when `zeros` (a
  // pattern that does not depend on the values).
  void append_triplets(std::vector<Eigen::Triplet<Real>>& t, bool zeros = false) const;
};

// The nonzero parts of the columns of a matrix with rows blocked like a BlockDiagonal (G or H of
// an MLCP: a contact's column touches at most the blocks of a few bodies): entry e of column j is
// block[e] with the values[e] (its first rows(block) entries used), for e in [begin[j],
// begin[j+1]); entries ascend by block. by_block lists the same entries grouped by block.
struct BlockColumns {
  std::vector<int> begin, block;
  std::vector<Vec6> values;
  std::vector<int> column;    // (entries) the column of each entry
  std::vector<int> by_block;  // entry indices, grouped by block (block_begin delimits)
  std::vector<int> block_begin;
  std::vector<int> fill;  // scratch of from_dense and compress
  // Reads a (rows = layout.size()); exact zeros are left out.
  void from_dense(const MatX& a, const BlockDiagonal& layout);

  // Columns written in any order: add() collects entries, compress() sums those of one column
  // on one block in the order they were added and stores the result (all-zero blocks left out,
  // as from_dense does; the sums are bit for bit those of a dense column written the same way).
  struct Entry {
    int column, block;
    Vec6 values;
  };
  std::vector<Entry> pending, sorted;
  void add(int column, int block, const Vec6& values) {
    pending.push_back({column, block, values});
  }
  void compress(int columns, int blocks);

  int cols() const { return static_cast<int>(begin.size()) - 1; }
  // y += A x (y sized layout.size()).
  void multiply_add(const BlockDiagonal& layout, const VecX& x, VecX& y) const;
  // y += A_j x_j.
  void add_column(const BlockDiagonal& layout, int j, Real x_j, VecX& y) const;
  // y = Aᵀ v (sized cols()).
  void transpose_multiply(const BlockDiagonal& layout, const VecX& v, VecX& y) const;
  // A_jᵀ v.
  Real column_dot(const BlockDiagonal& layout, int j, const VecX& v) const;
  // The dense matrix (layout.size() × cols()).
  void to_dense(const BlockDiagonal& layout, MatX& a) const;
};

// Throws InputError unless offsets match the block sizes and blocks are square, finite and
// symmetric. `who` names the caller in the message. (Definiteness is checked by invert_spd.)
void validate_block_diagonal(const BlockDiagonal& m, const char* who);

// w = m⁻¹ block by block through an in-place Cholesky factorisation (no heap allocation when w
// already has m's layout; the result is exactly symmetric). Throws InputError when m is invalid
// or a block is not positive definite.
void invert_spd(const BlockDiagonal& m, BlockDiagonal& w);

}  // namespace exactsim
