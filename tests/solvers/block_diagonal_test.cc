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
