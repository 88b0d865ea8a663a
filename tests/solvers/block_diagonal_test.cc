// Block-diagonal mass matrices and their in-place Cholesky inverse W = M⁻¹ (docs/solvers.md).
#include "exactsim/solvers/block_diagonal.h"

#include <gtest/gtest.h>

#include <random>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

BlockDiagonal random_mass(std::mt19937& rng) {
  std::normal_distribution<Real> normal;
  BlockDiagonal m;
  for (int k = 0; k < 4; ++k) {
    const int s = k % 2 ? 6 : 3;  // planar and spatial bodies mixed
    MatX a(s, s);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(rng);
    m.add_block(a * a.transpose() + 0.1 * MatX::Identity(s, s));
  }
  return m;
}

TEST(BlockDiagonal, InverseTimesMatrixIsIdentity) {
  std::mt19937 rng(1);
  const BlockDiagonal m = random_mass(rng);
  EXPECT_EQ(m.size(), 18);
  EXPECT_EQ(m.offsets, (std::vector<int>{0, 3, 9, 12}));
  BlockDiagonal w;
  invert_spd(m, w);
  const MatX product = w.dense() * m.dense();
  EXPECT_LT((product - MatX::Identity(18, 18)).lpNorm<Eigen::Infinity>(), 1e-10);
  const MatX wd = w.dense();
  EXPECT_EQ(wd, wd.transpose());  // exactly symmetric, so GᵀWG is too
}

TEST(BlockDiagonal, ApplyMatchesDenseProduct) {
  std::mt19937 rng(2);
  const BlockDiagonal m = random_mass(rng);
  const VecX x = VecX::LinSpaced(18, -1, 2);
  VecX y;
  m.apply(x, y);
  EXPECT_LT((y - m.dense() * x).norm(), 1e-12);
  const MatX xs = MatX::Ones(18, 4) + x * VecX::LinSpaced(4, 0, 1).transpose();
  MatX ys;
  m.apply(xs, ys);
  EXPECT_LT((ys - m.dense() * xs).norm(), 1e-12);
}

TEST(BlockColumns, ProductsAreTheBlocksOwnToTheLastBit) {
  // The unrolled products of a body's block add in the order of the dynamic-size ones, so a
  // column's product does not depend on which is used (docs/solvers.md "Problem forms"); a block
  // of 4 rows takes the generic path.
  std::mt19937 rng(3);
  std::normal_distribution<Real> normal;
  BlockDiagonal m = random_mass(rng);
  m.add_block(MatX::Identity(4, 4));
  MatX a(m.size(), 9);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(rng);
  a.block(3, 2, 6, 1).setZero();  // a column that misses a body
  BlockColumns c;
  c.from_dense(a, m);
  // Terms of comparable size with mixed signs, so another order of addition shows in the last bit
  // of a good share of these products.
  VecX v(m.size());
  for (int trial = 0; trial < 1000; ++trial) {
    for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = normal(rng);
    for (int j = 0; j < c.cols(); ++j) {
      Real expected = 0;
      for (int e = c.begin[j]; e < c.begin[j + 1]; ++e) {
        const int k = c.block[e], nb = static_cast<int>(m.blocks[k].rows());
        expected += c.values[e].head(nb).dot(v.segment(m.offsets[k], nb));
      }
      ASSERT_EQ(c.column_dot(m, j, v), expected) << "trial " << trial << ", column " << j;
    }
  }
  const VecX x = VecX::LinSpaced(9, -2, 3);
  VecX y = VecX::Zero(m.size());
  c.multiply_add(m, x, y);
  EXPECT_LT((y - a * x).lpNorm<Eigen::Infinity>(), 1e-12 * (a.cwiseAbs() * x.cwiseAbs()).maxCoeff());
  for (int j = 0; j < c.cols(); ++j) {  // one column into zeros: one product per entry
    VecX yj = VecX::Zero(m.size());
    c.add_column(m, j, x[j], yj);
    EXPECT_EQ(yj, VecX(x[j] * a.col(j))) << "column " << j;
  }
}

TEST(BlockDiagonal, RejectsNonSpdAndMalformedBlocks) {
  BlockDiagonal w;
  BlockDiagonal bad;
  bad.add_block(Vec3(1, 1, -0.1).asDiagonal().toDenseMatrix());
  EXPECT_THROW(invert_spd(bad, w), InputError);
  bad = BlockDiagonal{};
  bad.add_block((MatX(2, 2) << 1, 2, 0, 1).finished());  // not symmetric
  EXPECT_THROW(invert_spd(bad, w), InputError);
  bad = BlockDiagonal{};
  bad.add_block(MatX::Identity(3, 3));
  bad.offsets[0] = 1;
  EXPECT_THROW(invert_spd(bad, w), InputError);
  bad = BlockDiagonal{};
  bad.add_block(MatX::Zero(3, 3));  // a massless body
  EXPECT_THROW(invert_spd(bad, w), InputError);
}

}  // namespace
}  // namespace exactsim
