// The block LU of the interior point's body-space system (src/solvers/block_lu.h): its solves
// against a dense LU with full pivoting, its ordering's pattern, and the factors it declines.
#include "solvers/block_lu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include <Eigen/Dense>

namespace exactsim {
namespace {

using Edges = std::vector<std::pair<int, int>>;

// `dense` in compressed columns, every entry of a block that is not all zero stored (the pattern
// the interior point lays out: a block for each pair of bodies that share a group).
Eigen::SparseMatrix<Real> whole_blocks(const MatX& dense, int b) {
  std::vector<Eigen::Triplet<Real>> t;
  for (int c = 0; c < dense.cols(); c += b)
    for (int r = 0; r < dense.rows(); r += b)
      if (!dense.block(r, c, b, b).isZero(0) || r == c)
        for (int y = 0; y < b; ++y)
          for (int x = 0; x < b; ++x) t.emplace_back(r + x, c + y, dense(r + x, c + y));
  Eigen::SparseMatrix<Real> a(dense.rows(), dense.cols());
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  return a;
}

// A matrix of blocks of size b on `blocks` bodies shaped as S = M + Σ_e G_e K_e H_eᵀ: M block
// diagonal and positive definite, and for each edge a group on two bodies with a non-symmetric
// K (a cone's is), so each edge fills the four blocks of its pair.
Eigen::SparseMatrix<Real> body_system(int blocks, int b, const Edges& edges, std::mt19937& rng) {
  std::uniform_real_distribution<Real> u(-1, 1);
  const int n = blocks * b;
  MatX dense = MatX::Zero(n, n);
  for (int k = 0; k < blocks; ++k) {
    const MatX r = MatX::NullaryExpr(b, b, [&] { return u(rng); });
    dense.block(k * b, k * b, b, b) = r * r.transpose() + MatX::Identity(b, b);
  }
  for (const auto& [i, j] : edges) {
    // G and H have rows on bodies i and j only: the group's product fills the pair's four blocks.
    const int q = 4;
    const int body[] = {i, j};
    MatX g(2 * b, q), h(2 * b, q);
    for (int at = 0; at < 2; ++at) {
      g.middleRows(at * b, b) = MatX::NullaryExpr(b, q, [&] { return u(rng); });
      h.middleRows(at * b, b) =
          g.middleRows(at * b, b) + 0.3 * MatX::NullaryExpr(b, q, [&] { return u(rng); });
    }
    const MatX k = MatX::Identity(q, q) * 2 + 0.5 * MatX::NullaryExpr(q, q, [&] { return u(rng); });
    const MatX gkh = g * k * h.transpose();
    for (int x = 0; x < 2; ++x)
      for (int y = 0; y < 2; ++y)
        dense.block(body[x] * b, body[y] * b, b, b) += gkh.block(x * b, y * b, b, b);
  }
  return whole_blocks(dense, b);
}

Edges random_graph(int blocks, int extra, std::mt19937& rng) {
  Edges e;
  std::uniform_int_distribution<int> pick(0, blocks - 1);
  for (int k = 1; k < blocks; ++k)
    e.emplace_back(std::uniform_int_distribution<int>(0, k - 1)(rng), k);
  for (int x = 0; x < extra; ++x) {
    const int i = pick(rng), j = pick(rng);
    if (i != j) e.emplace_back(i, j);
  }
  return e;
}

TEST(BlockLu, SolvesAgainstFullPivotingLu) {
  std::mt19937 rng(7);
  for (const int b : {3, 6})
    for (int trial = 0; trial < 20; ++trial) {
      const int blocks = 5 + trial * 3;
      const Eigen::SparseMatrix<Real> a =
          body_system(blocks, b, random_graph(blocks, 2 * blocks, rng), rng);
      BlockLu lu;
      ASSERT_TRUE(lu.analyse(a, b));
      ASSERT_TRUE(lu.factor(a)) << "growth " << lu.growth;
      const MatX dense(a);
      const VecX rhs = VecX::NullaryExpr(
          a.rows(), [&] { return std::uniform_real_distribution<Real>(-1, 1)(rng); });
      VecX x = rhs;
      lu.solve(x);
      const VecX oracle = dense.fullPivLu().solve(rhs);
      const Real cond = dense.norm() * dense.inverse().norm();
      EXPECT_LE((x - oracle).norm(), 1e3 * cond * 1e-16 * oracle.norm())
          << "b " << b << ", blocks " << blocks << ", cond " << cond;
      EXPECT_LE((dense * x - rhs).norm(), 1e-12 * dense.norm() * x.norm());
    }
}

// The written-out 6 × 6 Schur update gives Eigen's fixed-size product to the bit, entries spanning
// 30 decades included, so the factor (and every trajectory through it) is what Eigen's gives.
TEST(BlockLu, TheSixBySixUpdateIsEigensProductToTheBit) {
  std::mt19937 rng(11);
  std::normal_distribution<Real> n(0, 1);
  const auto entry = [&] { return n(rng) * std::pow(10.0, 15 * std::tanh(n(rng))); };
  using Six = Eigen::Matrix<Real, 6, 6>;
  for (int trial = 0; trial < 1000; ++trial) {
    const Six a = Six::NullaryExpr(entry), b = Six::NullaryExpr(entry), c = Six::NullaryExpr(entry);
    Six eigen = c, written = c;
    eigen.noalias() -= a * b;
    subtract_product_6x6(written.data(), a.data(), b.data());
    ASSERT_EQ(0, std::memcmp(eigen.data(), written.data(), sizeof(Six))) << "trial " << trial;
  }
}

// Every pair of L's rows in one column is joined later (the elimination's clique), which the
// numeric factorisation relies on; A's pattern lies within the factor's.
TEST(BlockLu, PatternIsClosedUnderElimination) {
  std::mt19937 rng(11);
  const int blocks = 60;
  const Edges edges = random_graph(blocks, 120, rng);
  const Eigen::SparseMatrix<Real> a = body_system(blocks, 3, edges, rng);
  BlockLu lu;
  ASSERT_TRUE(lu.analyse(a, 3));
  const auto in_column = [&](int j, int i) {
    for (int t = lu.begin[j]; t < lu.begin[j + 1]; ++t)
      if (lu.below[t] == i) return true;
    return false;
  };
  for (int j = 0; j < blocks; ++j)
    for (int ta = lu.begin[j]; ta < lu.begin[j + 1]; ++ta) {
      EXPECT_GT(lu.below[ta], j);
      for (int tb = ta + 1; tb < lu.begin[j + 1]; ++tb)
        EXPECT_TRUE(in_column(lu.below[ta], lu.below[tb]));
    }
  for (const auto& [i, k] : edges) {
    const int pi = lu.position[i], pk = lu.position[k];
    EXPECT_TRUE(in_column(std::min(pi, pk), std::max(pi, pk)));
  }
}

// Minimum degree eliminates a tree from its leaves: no fill, one block of L per edge.
TEST(BlockLu, TreeHasNoFill) {
  std::mt19937 rng(3);
  const int blocks = 200;
  const Edges edges = random_graph(blocks, 0, rng);
  const Eigen::SparseMatrix<Real> a = body_system(blocks, 6, edges, rng);
  BlockLu lu;
  ASSERT_TRUE(lu.analyse(a, 6));
  EXPECT_EQ(lu.lower_blocks(), blocks - 1);
  ASSERT_TRUE(lu.factor(a));
}

// A diagonal block small against its neighbours needs pivoting across blocks: the growth bounds
// the backward error, and the factor is declined.
TEST(BlockLu, DeclinesGrowthAndZeroPivots) {
  const int b = 3;
  MatX dense(2 * b, 2 * b);
  dense << MatX::Identity(b, b) * 1e-12, MatX::Identity(b, b), MatX::Identity(b, b),
      MatX::Identity(b, b);
  Eigen::SparseMatrix<Real> a = whole_blocks(dense, b);
  BlockLu lu;
  ASSERT_TRUE(lu.analyse(a, b));
  EXPECT_FALSE(lu.factor(a));
  EXPECT_GT(lu.growth, BlockLu::kMaxGrowth);
  // Scaled by 10⁻³ instead (growth 10⁶), it is factorised and solves.
  dense.topLeftCorner(b, b) = MatX::Identity(b, b) * 1e-3;
  a = whole_blocks(dense, b);
  ASSERT_TRUE(lu.factor(a));
  VecX x = VecX::Ones(2 * b);
  lu.solve(x);
  EXPECT_LE((dense * x - VecX::Ones(2 * b)).norm(), 1e-12);
  // A zero column within a diagonal block.
  dense.topLeftCorner(b, b).col(1).setZero();
  dense.bottomLeftCorner(b, b).col(1).setZero();
  a = whole_blocks(dense, b);
  EXPECT_FALSE(lu.factor(a));
}

TEST(BlockLu, AnalysesOnlyBlocksOfThreeOrSix) {
  Eigen::SparseMatrix<Real> a(8, 8);
  a.setIdentity();
  a.makeCompressed();
  BlockLu lu;
  EXPECT_FALSE(lu.analyse(a, 4));
  EXPECT_FALSE(lu.analyse(a, 3));  // (8 is not a multiple of 3)
  Eigen::SparseMatrix<Real> b(6, 6);
  b.setIdentity();
  b.makeCompressed();
  EXPECT_TRUE(lu.analyse(b, 3));
  EXPECT_TRUE(lu.factor(b));
}

}  // namespace
}  // namespace exactsim
