// Block-diagonal mass matrix M and its inverse W = M⁻¹ (docs/dynamics.md "Bodies":
// per-body 3×3 or 6×6 blocks).
#include "exactsim/solvers/block_diagonal.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "exactsim/math/error.h"

namespace exactsim {

void BlockDiagonal::add_block(const MatX& block) {
  offsets.push_back(size());
  blocks.push_back(block);
}

int BlockDiagonal::size() const {
  if (blocks.empty()) return 0;
  return offsets.back() + static_cast<int>(blocks.back().rows());
}

void BlockDiagonal::apply(const VecX& x, VecX& y) const {
  y.resize(size());
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const Eigen::Index o = offsets[k], s = blocks[k].rows();
    y.segment(o, s).noalias() = blocks[k] * x.segment(o, s);
  }
}

void BlockDiagonal::apply(const MatX& x, MatX& y) const {
  y.resize(size(), x.cols());
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const Eigen::Index o = offsets[k], s = blocks[k].rows();
    y.middleRows(o, s).noalias() = blocks[k] * x.middleRows(o, s);
  }
}

MatX BlockDiagonal::dense() const {
  MatX d = MatX::Zero(size(), size());
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    d.block(offsets[k], offsets[k], blocks[k].rows(), blocks[k].cols()) = blocks[k];
  }
  return d;
}

void BlockColumns::from_dense(const MatX& a, const BlockDiagonal& layout) {
  const int m = static_cast<int>(a.cols());
  const int blocks = static_cast<int>(layout.offsets.size());
  begin.assign(1, 0);
  block.clear();
  values.clear();
  column.clear();
  block_begin.assign(blocks + 1, 0);
  for (int j = 0; j < m; ++j) {
    for (int k = 0; k < blocks; ++k) {
      const auto seg = a.col(j).segment(layout.offsets[k], layout.blocks[k].rows());
      if (seg.cwiseAbs().maxCoeff() == 0) continue;
      Vec6 v = Vec6::Zero();
      v.head(seg.size()) = seg;
      block.push_back(k);
      values.push_back(v);
      column.push_back(j);
      ++block_begin[k + 1];
    }
    begin.push_back(static_cast<int>(block.size()));
  }
  for (int k = 0; k < blocks; ++k) block_begin[k + 1] += block_begin[k];
  by_block.resize(block.size());
  fill.assign(block_begin.begin(), block_begin.end() - 1);
  for (int e = 0; e < static_cast<int>(block.size()); ++e) by_block[fill[block[e]]++] = e;
}

void BlockDiagonal::append_triplets(std::vector<Eigen::Triplet<Real>>& t, bool zeros) const {
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const MatX& block = blocks[k];
    for (Eigen::Index b = 0; b < block.cols(); ++b)
      for (Eigen::Index a = 0; a < block.rows(); ++a)
        if (zeros || block(a, b) != 0) t.emplace_back(offsets[k] + a, offsets[k] + b, block(a, b));
  }
}

void BlockColumns::compress(int columns, int blocks) {
  // Entries by column (counting sort, stable), then each column's by block (insertion sort,
  // stable: a column has a few entries). No allocation once the buffers have grown.
  begin.assign(columns + 1, 0);
  for (const Entry& e : pending) ++begin[e.column + 1];
  for (int j = 0; j < columns; ++j) begin[j + 1] += begin[j];
  fill.assign(begin.begin(), begin.end() - 1);
  sorted.resize(pending.size());
  for (const Entry& e : pending) sorted[fill[e.column]++] = e;
  for (int j = 0; j < columns; ++j)
    for (int a = begin[j] + 1; a < begin[j + 1]; ++a)
      for (int b = a; b > begin[j] && sorted[b - 1].block > sorted[b].block; --b)
        std::swap(sorted[b - 1], sorted[b]);
  begin.assign(columns + 1, 0);
  block.clear();
  values.clear();
  column.clear();
  block_begin.assign(blocks + 1, 0);
  for (std::size_t e = 0; e < sorted.size();) {
    const int j = sorted[e].column, k = sorted[e].block;
    Vec6 sum = sorted[e].values;
    for (++e; e < sorted.size() && sorted[e].column == j && sorted[e].block == k; ++e)
      sum += sorted[e].values;
    if (sum.cwiseAbs().maxCoeff() == 0) continue;
    block.push_back(k);
    values.push_back(sum);
    column.push_back(j);
    ++begin[j + 1];
    ++block_begin[k + 1];
  }
  pending.clear();
  for (int j = 0; j < columns; ++j) begin[j + 1] += begin[j];
  for (int k = 0; k < blocks; ++k) block_begin[k + 1] += block_begin[k];
  by_block.resize(block.size());
  fill.assign(block_begin.begin(), block_begin.end() - 1);
  for (int e = 0; e < static_cast<int>(block.size()); ++e) by_block[fill[block[e]]++] = e;
}

namespace {

// aᵀb over a body's block: for the 6 and 3 rows of a spatial or planar body unrolled, and added
// in the order of Eigen's dynamic-size dot product with two-lane packets (SSE2), so a column's
// product is the same to the last bit either way.
Real block_dot(const Real* a, const Real* b, int nb) {
  if (nb == 6)
    return ((a[0] * b[0] + a[2] * b[2]) + a[4] * b[4]) +
           ((a[1] * b[1] + a[3] * b[3]) + a[5] * b[5]);
  if (nb == 3) return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
  return Eigen::Map<const VecX>(a, nb).dot(Eigen::Map<const VecX>(b, nb));
}

}  // namespace

void BlockColumns::multiply_add(const BlockDiagonal& layout, const VecX& x, VecX& y) const {
  for (int j = 0; j < cols(); ++j)
    if (x[j] != 0) add_column(layout, j, x[j], y);
}

void BlockColumns::add_column(const BlockDiagonal& layout, int j, Real x_j, VecX& y) const {
  for (int e = begin[j]; e < begin[j + 1]; ++e) {
    const int k = block[e], nb = static_cast<int>(layout.blocks[k].rows());
    if (nb == 6)
      y.segment<6>(layout.offsets[k]) += x_j * values[e];
    else if (nb == 3)
      y.segment<3>(layout.offsets[k]) += x_j * values[e].head<3>();
    else
      y.segment(layout.offsets[k], nb) += x_j * values[e].head(nb);
  }
}

Real BlockColumns::column_dot(const BlockDiagonal& layout, int j, const VecX& v) const {
  Real s = 0;
  for (int e = begin[j]; e < begin[j + 1]; ++e) {
    const int k = block[e], nb = static_cast<int>(layout.blocks[k].rows());
    s += block_dot(values[e].data(), v.data() + layout.offsets[k], nb);
  }
  return s;
}

void BlockColumns::transpose_multiply(const BlockDiagonal& layout, const VecX& v, VecX& y) const {
  y.resize(cols());
  for (int j = 0; j < cols(); ++j) y[j] = column_dot(layout, j, v);
}

void BlockColumns::to_dense(const BlockDiagonal& layout, MatX& a) const {
  a.setZero(layout.size(), cols());
  for (int j = 0; j < cols(); ++j)
    for (int e = begin[j]; e < begin[j + 1]; ++e) {
      const int k = block[e], nb = static_cast<int>(layout.blocks[k].rows());
      a.col(j).segment(layout.offsets[k], nb) = values[e].head(nb);
    }
}

void validate_block_diagonal(const BlockDiagonal& m, const char* who) {
  if (m.offsets.size() != m.blocks.size()) {
    std::ostringstream msg;
    msg << who << ": block-diagonal matrix has " << m.blocks.size() << " blocks but "
        << m.offsets.size() << " offsets";
    throw InputError(msg.str());
  }
  int expected = 0;
  for (std::size_t k = 0; k < m.blocks.size(); ++k) {
    const MatX& b = m.blocks[k];
    const auto fail = [&](const char* what) {
      std::ostringstream msg;
      msg << who << ": mass block " << k << " (" << b.rows() << "x" << b.cols() << " at offset "
          << m.offsets[k] << ") " << what;
      throw InputError(msg.str());
    };
    if (m.offsets[k] != expected) fail("is not contiguous with the previous block");
    if (b.rows() != b.cols() || b.rows() == 0) fail("must be square and non-empty");
    if (!b.allFinite()) fail("contains NaN or Inf");
    const Real scale = b.cwiseAbs().maxCoeff();
    for (Eigen::Index i = 0; i < b.rows(); ++i) {
      for (Eigen::Index j = 0; j < i; ++j) {
        if (std::abs(b(i, j) - b(j, i)) > 1e-12 * scale) fail("is not symmetric");
      }
    }
    expected += static_cast<int>(b.rows());
  }
}

void invert_spd(const BlockDiagonal& m, BlockDiagonal& w) {
  validate_block_diagonal(m, "invert_spd");
  w.offsets = m.offsets;
  w.blocks.resize(m.blocks.size());
  for (std::size_t k = 0; k < m.blocks.size(); ++k) {
    MatX& a = w.blocks[k];
    a = m.blocks[k];
    const Eigen::Index s = a.rows();
    // In place, no temporaries: Cholesky A = L Lᵀ in the lower triangle ...
    for (Eigen::Index j = 0; j < s; ++j) {
      Real d = a(j, j);
      for (Eigen::Index p = 0; p < j; ++p) d -= a(j, p) * a(j, p);
      if (!(d > 1e-14 * std::abs(m.blocks[k](j, j)))) {
        std::ostringstream msg;
        msg << "invert_spd: mass block " << k << " (offset " << m.offsets[k]
            << ") is not positive definite (a mass matrix must be SPD)";
        throw InputError(msg.str());
      }
      a(j, j) = std::sqrt(d);
      for (Eigen::Index i = j + 1; i < s; ++i) {
        Real v = a(i, j);
        for (Eigen::Index p = 0; p < j; ++p) v -= a(i, p) * a(j, p);
        a(i, j) = v / a(j, j);
      }
    }
    // ... then L⁻¹ over it, column by column (column j needs original L right of it) ...
    for (Eigen::Index j = 0; j < s; ++j) {
      a(j, j) = 1.0 / a(j, j);
      for (Eigen::Index i = j + 1; i < s; ++i) {
        Real v = 0;
        for (Eigen::Index p = j; p < i; ++p) v += a(i, p) * a(p, j);
        a(i, j) = -v / a(i, i);
      }
    }
    // ... then W = L⁻ᵀ L⁻¹: off-diagonal into the free upper triangle, diagonal last.
    for (Eigen::Index c = 1; c < s; ++c) {
      for (Eigen::Index r = 0; r < c; ++r) {
        Real v = 0;
        for (Eigen::Index p = c; p < s; ++p) v += a(p, r) * a(p, c);
        a(r, c) = v;
      }
    }
    for (Eigen::Index r = 0; r < s; ++r) {
      Real v = 0;
      for (Eigen::Index p = r; p < s; ++p) v += a(p, r) * a(p, r);
      a(r, r) = v;
    }
    for (Eigen::Index c = 1; c < s; ++c) {
      for (Eigen::Index r = 0; r < c; ++r) a(c, r) = a(r, c);
    }
  }
}

}  // namespace exactsim
