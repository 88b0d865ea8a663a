// The interval systems' minimum-norm solve (docs/plus.md "The solver as implemented", active set):
// elimination for nonsingular systems, Eigen's complete orthogonal decomposition otherwise, checked
// against the COD itself and against the defining properties of B⁺w (normal equations, no
// null-space component).
#include "exactsim/impact/min_norm_solve.h"

#include <gtest/gtest.h>

#include <random>

namespace exactsim {
namespace {

MatX random_matrix(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<Real> normal;
  MatX M(rows, cols);
  for (Eigen::Index i = 0; i < M.size(); ++i) M.data()[i] = normal(rng);
  return M;
}

VecX cod_solution(const MatX& B, const VecX& w) {
  return Eigen::CompleteOrthogonalDecomposition<MatX>(B).solve(w);
}

TEST(MinNormSolve, NonsingularSystemsUseEliminationAndMatchTheCod) {
  std::mt19937 rng(3);
  MinNormSolver solver;
  for (int m = 1; m <= 12; ++m) {
    // Scratch larger than the system, as in the interval loop (top-left block only).
    MatX B = MatX::Constant(m + 2, m + 2, 7.0);
    B.topLeftCorner(m, m) = random_matrix(m, m, rng) + 3.0 * MatX::Identity(m, m);
    VecX w = VecX::Constant(m + 2, 7.0);
    w.head(m) = random_matrix(m, 1, rng);
    VecX x = VecX::Zero(m + 2);
    EXPECT_FALSE(solve_min_norm(B, m, w, solver, x)) << m;  // no COD needed
    const VecX ref = cod_solution(B.topLeftCorner(m, m), w.head(m));
    EXPECT_LT((x.head(m) - ref).norm(), 1e-12 * ref.norm()) << m;
    EXPECT_LT((B.topLeftCorner(m, m) * x.head(m) - w.head(m)).norm(), 1e-12 * w.head(m).norm());
  }
}

TEST(MinNormSolve, SingularSystemsGetTheMinimumNormLeastSquaresSolution) {
  std::mt19937 rng(5);
  MinNormSolver solver;
  for (int m = 2; m <= 9; ++m) {
    const int rank = m / 2;
    const MatX B = random_matrix(m, rank, rng) * random_matrix(rank, m, rng);
    const VecX w = random_matrix(m, 1, rng);  // generically inconsistent
    VecX x = VecX::Zero(m), x_nonsingular = VecX::Zero(m);
    EXPECT_FALSE(solve_nonsingular(B, m, w, solver, x_nonsingular)) << m;
    EXPECT_TRUE(solve_min_norm(B, m, w, solver, x)) << m;
    // Least squares: the residual is orthogonal to the range, Bᵀ(Bx − w) = 0 …
    EXPECT_LT((B.transpose() * (B * x - w)).norm(), 1e-10 * B.norm() * w.norm()) << m;
    // … and minimum norm: x has no null-space component (x lies in the row space of B).
    const Eigen::JacobiSVD<MatX> svd(B, Eigen::ComputeFullV);
    const MatX null_space = svd.matrixV().rightCols(m - rank);
    EXPECT_LT((null_space.transpose() * x).norm(), 1e-10 * x.norm()) << m;
    EXPECT_LT((x - cod_solution(B, w)).norm(), 1e-12 * x.norm()) << m;
  }
}

TEST(MinNormSolve, RedundantContactRowsAreSplitEvenly) {
  // Two identical rows (two coincident contacts): x₁ + x₂ = 2 has the minimum-norm answer (1, 1).
  MatX B(2, 2);
  B << 1.0, 1.0, 1.0, 1.0;
  const VecX w = Eigen::Vector2d(2.0, 2.0);
  MinNormSolver solver;
  VecX x(2);
  EXPECT_TRUE(solve_min_norm(B, 2, w, solver, x));
  EXPECT_NEAR(x(0), 1.0, 1e-14);
  EXPECT_NEAR(x(1), 1.0, 1e-14);
}

TEST(MinNormSolve, NearlySingularPivotsGoToTheCod) {
  // Pivot ratio 1e-12 < kMinNormPivotRel: treated as rank 1, the near-null direction is dropped.
  MatX B(2, 2);
  B << 1.0, 0.0, 0.0, 1e-12;
  const VecX w = Eigen::Vector2d(1.0, 1e-12);
  MinNormSolver solver;
  VecX x(2);
  EXPECT_TRUE(solve_min_norm(B, 2, w, solver, x));
  const VecX ref = cod_solution(B, w);
  EXPECT_LT((x - ref).norm(), 1e-12);
  // A comfortable pivot ratio is solved by elimination.
  B(1, 1) = 1e-6;
  EXPECT_FALSE(solve_min_norm(B, 2, w, solver, x));
  EXPECT_NEAR(x(1), 1e-6, 1e-18);
}

TEST(MinNormSolve, NonFiniteEntriesAreNotTrustedToElimination) {
  MatX B = MatX::Identity(3, 3);
  B(1, 1) = std::numeric_limits<Real>::quiet_NaN();
  MinNormSolver solver;
  VecX x(3);
  EXPECT_FALSE(solve_nonsingular(B, 3, VecX::Ones(3), solver, x));
}

}  // namespace
}  // namespace exactsim
