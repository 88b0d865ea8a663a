// Lemke in exact arithmetic (docs/solvers.md "Exact Lemke"), against closed forms and the
// enumeration oracle.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "exactsim/solvers/lcp.h"

namespace exactsim {
namespace {

LcpSolution exact(const Lcp& p, const SolverOptions& o = {}) {
  LcpSolution s;
  solve_lemke_exact(p, o, s);
  return s;
}

TEST(ExactLemke, RationalSolutionIsExactToTheLastBit) {
  // 2a + b = 1, a + 3b = 1: z = (2/5, 1/5), both positive.
  Lcp p{(MatX(2, 2) << 2, 1, 1, 3).finished(), (VecX(2) << -1, -1).finished()};
  const LcpSolution s = exact(p);
  ASSERT_EQ(s.certificate.status, SolveStatus::kSolved);
  EXPECT_EQ(s.certificate.method, SolveMethod::kExactLemke);
  EXPECT_TRUE(s.certificate.exact);
  // mpq → double truncates: within one ulp of the correctly rounded value.
  EXPECT_LE(std::abs(s.z(0) - 0.4), std::nextafter(0.4, 1.0) - 0.4);
  EXPECT_LE(std::abs(s.z(1) - 0.2), std::nextafter(0.2, 1.0) - 0.2);
}

TEST(ExactLemke, FullyDegenerateTiesAreBrokenWithoutCycling) {
  // M = I + 1·1ᵀ, q = −1: every row ties at every ratio test; z_i = 1/(n+1).
  const int n = 7;
  Lcp p{MatX::Identity(n, n) + MatX::Ones(n, n), VecX::Constant(n, -1.0)};
  const LcpSolution s = exact(p);
  ASSERT_EQ(s.certificate.status, SolveStatus::kSolved);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(s.z(i), 1.0 / (n + 1), 1e-16);
}

TEST(ExactLemke, InfeasibleProblemGetsAnExactFarkasVector) {
  // w = −z − 1 < 0 for every z >= 0 (and a coupled 3×3 variant).
  Lcp p{-MatX::Identity(3, 3), VecX::Constant(3, -1.0)};
  p.M(0, 1) = -0.5;
  const LcpSolution s = exact(p);
  ASSERT_EQ(s.certificate.status, SolveStatus::kInfeasible);
  ASSERT_EQ(s.ray.size(), 3);
  EXPECT_GE(s.ray.minCoeff(), 0.0);
  EXPECT_LE((p.M.transpose() * s.ray).maxCoeff(), 0.0);
  EXPECT_LT(p.q.dot(s.ray), 0.0);
}

TEST(ExactLemke, SolutionBeyondTheImpulseScaleIsNamedNotAccepted) {
  // z = 1e8 solves it exactly; with the physical impulse scale Z = 1 the certificate refuses it.
  Lcp p{MatX::Constant(1, 1, 1e-8), VecX::Constant(1, -1.0)};
  SolverOptions o;
  o.impulse_scale = 1;
  const LcpSolution s = exact(p, o);
  EXPECT_EQ(s.certificate.status, SolveStatus::kBeyondScale);
  EXPECT_FALSE(s.certificate.ok());
  EXPECT_NEAR(s.z(0), 1e8, 1e-7);
}

TEST(ExactLemke, AgreesWithEnumerationOnRandomPositiveDefiniteProblems) {
  // M = AAᵀ + I + S (S skew): positive definite, so the solution is unique; mixed signs in q.
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + trial % 9;
    MatX a(n, n), sk(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) a(i, j) = u(rng), sk(i, j) = u(rng);
    Lcp p{a * a.transpose() + MatX::Identity(n, n) + (sk - sk.transpose()), VecX(n)};
    for (int i = 0; i < n; ++i) p.q(i) = u(rng) * std::pow(10.0, trial % 4 - 2);
    const auto all = enumerate_lcp_solutions(p, 1e-10);
    ASSERT_EQ(all.size(), 1u) << "trial " << trial;
    const LcpSolution s = exact(p);
    ASSERT_EQ(s.certificate.status, SolveStatus::kSolved) << "trial " << trial;
    EXPECT_LE((s.z - all[0]).lpNorm<Eigen::Infinity>(),
              1e-12 * (1 + all[0].lpNorm<Eigen::Infinity>()))
        << "trial " << trial;
  }
}

TEST(ExactLemke, DegenerateCopositiveProblemsAreSolvedOrProvenInfeasible) {
  // Low-rank PSD plus friction-like zero blocks: many ties and singular principal minors. For
  // copositive-plus M Lemke's path ends on a solution or on a ray with a Farkas vector.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> small(-2, 2);
  int solved = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 4 + trial % 7, r = 1 + trial % 3;
    MatX a(n, r);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < r; ++j) a(i, j) = small(rng);  // integers: exact ties
    Lcp p{a * a.transpose(), VecX(n)};
    for (int i = 0; i < n; ++i) p.q(i) = small(rng);
    const LcpSolution s = exact(p);
    const bool enumerated = !enumerate_lcp_solutions(p, 1e-10).empty();
    if (enumerated) {
      ASSERT_EQ(s.certificate.status, SolveStatus::kSolved) << "trial " << trial;
      ++solved;
    } else {
      ASSERT_EQ(s.certificate.status, SolveStatus::kInfeasible) << "trial " << trial;
    }
  }
  EXPECT_GT(solved, 10);
}

}  // namespace
}  // namespace exactsim
