// Semismooth Newton on the Fischer–Burmeister function (docs/solvers.md "Algorithms"), alone.
#include <gtest/gtest.h>

#include <random>

#include "exactsim/math/error.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {
namespace {

Lcp random_p_problem(int n, std::mt19937& rng) {
  std::uniform_real_distribution<Real> u(-1, 1);
  Lcp p{MatX(n, n), VecX(n)};
  for (Eigen::Index k = 0; k < p.M.size(); ++k) p.M.data()[k] = u(rng);
  for (int i = 0; i < n; ++i) p.M(i, i) = p.M.row(i).cwiseAbs().sum() + 0.2;
  for (int i = 0; i < n; ++i) p.q(i) = 3 * u(rng);
  return p;
}

TEST(FischerBurmeister, ScalarRootIsTheComplementarySolution) {
  // Φ(z) = √(z² + w²) − z − w with w = 2z − 3: the root is z = 1.5 (w = 0).
  Lcp p{MatX::Constant(1, 1, 2.0), VecX::Constant(1, -3.0)};
  const LcpSolution s = solve_fischer_burmeister(p, VecX::Constant(1, 10.0));
  ASSERT_TRUE(s.certificate.ok());
  EXPECT_NEAR(s.z(0), 1.5, 1e-12);
  EXPECT_EQ(s.certificate.method, SolveMethod::kFischerBurmeister);
  EXPECT_EQ(s.certificate.pivots, 0);
}

TEST(FischerBurmeister, PMatricesFromColdAndRandomStartsMatchEnumeration) {
  std::mt19937 rng(13);
  std::normal_distribution<Real> normal;
  for (int k = 0; k < 60; ++k) {
    const int n = 1 + k % 10;
    const Lcp p = random_p_problem(n, rng);
    VecX z0 = VecX::Zero(n);
    if (k % 2) {
      for (int i = 0; i < n; ++i) z0(i) = 5 * normal(rng);
    }
    const LcpSolution s = solve_fischer_burmeister(p, z0);
    ASSERT_TRUE(s.certificate.ok()) << k << " " << to_string(s.certificate.status);
    EXPECT_LE(s.certificate.iterations, 40) << k;  // superlinear: a handful of steps
    const auto all = enumerate_lcp_solutions(p, s.certificate.tolerance);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_LE((all[0] - s.z).lpNorm<Eigen::Infinity>(), 1e-9 * (1 + all[0].norm())) << k;
  }
}

TEST(FischerBurmeister, WithoutPolishTheNewtonIterateItselfConverges) {
  std::mt19937 rng(17);
  SolverOptions o;
  o.diagnostics.polish = false;
  for (int k = 0; k < 20; ++k) {
    const Lcp p = random_p_problem(2 + k % 6, rng);
    const LcpSolution s = solve_fischer_burmeister(p, VecX::Zero(p.q.size()), o);
    ASSERT_TRUE(s.certificate.ok()) << k;
    // ‖Φ‖∞ below the stopping bound: each pair satisfies min(z_i, w_i) ≈ 0.
    for (Eigen::Index i = 0; i < p.q.size(); ++i) {
      EXPECT_LE(std::abs(std::hypot(s.z(i), s.w(i)) - s.z(i) - s.w(i)),
                o.diagnostics.fb_residual_factor * s.certificate.tolerance);
    }
  }
}

TEST(FischerBurmeister, DegenerateDuplicateContactsConverge) {
  // Duplicate rows make the generalized Jacobian singular at every solution (a continuum);
  // the Levenberg–Marquardt direction keeps the iteration going.
  std::mt19937 rng(19);
  std::normal_distribution<Real> normal;
  for (int k = 0; k < 20; ++k) {
    const int m = 4;
    MatX g(3, m);
    for (Eigen::Index i = 0; i < g.size(); ++i) g.data()[i] = normal(rng);
    g.col(1) = g.col(0);
    Lcp p{g.transpose() * g, VecX(m)};
    // Planted: contacts 0/1 carry load together, 2 and 3 separate.
    VecX z_star = VecX::Zero(m), w_star = VecX::Zero(m);
    z_star(0) = 1.0;
    w_star(2) = 0.5;
    w_star(3) = 0.0;  // degenerate: z = w = 0
    p.q = w_star - p.M * z_star;
    SolverOptions o;
    o.diagnostics.polish = false;  // test the Newton iteration, not the active-set re-solve
    const LcpSolution s = solve_fischer_burmeister(p, VecX::Zero(m), o);
    ASSERT_TRUE(s.certificate.ok()) << k << " " << to_string(s.certificate.status);
    EXPECT_NEAR(s.z(0) + s.z(1), 1.0, 1e-7);  // total load is determined, its split is not
  }
}

TEST(FischerBurmeister, InfeasibleProblemDoesNotClaimSuccess) {
  Lcp p{MatX::Constant(1, 1, -1.0), VecX::Constant(1, -1.0)};
  const LcpSolution s = solve_fischer_burmeister(p, VecX::Zero(1));
  EXPECT_FALSE(s.certificate.ok());
  EXPECT_EQ(s.certificate.status, SolveStatus::kMaxIterations);
}

TEST(FischerBurmeister, RejectsABadStart) {
  Lcp p{MatX::Identity(2, 2), VecX::Zero(2)};
  EXPECT_THROW(solve_fischer_burmeister(p, VecX::Zero(3)), InputError);
  EXPECT_THROW(solve_fischer_burmeister(p, VecX::Constant(2, std::nan(""))), InputError);
}

}  // namespace
}  // namespace exactsim
