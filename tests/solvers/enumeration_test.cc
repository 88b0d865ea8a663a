// The brute-force oracle itself, checked on problems whose solution sets are known in closed form.
#include <gtest/gtest.h>

#include "exactsim/math/error.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {
namespace {

Lcp lcp1(Real m, Real q) {
  Lcp p;
  p.M = MatX::Constant(1, 1, m);
  p.q = VecX::Constant(1, q);
  return p;
}

TEST(Enumeration, ScalarCasesMatchClosedForm) {
  // m > 0: unique z = max(0, −q/m).
  auto s = enumerate_lcp_solutions(lcp1(2.0, -3.0), 1e-12);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_DOUBLE_EQ(s[0](0), 1.5);
  s = enumerate_lcp_solutions(lcp1(2.0, 3.0), 1e-12);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0](0), 0.0);
  // m < 0, q > 0: two solutions, z = 0 and z = q/|m|.
  s = enumerate_lcp_solutions(lcp1(-1.0, 1.0), 1e-12);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NEAR(std::max(s[0](0), s[1](0)), 1.0, 1e-15);
  EXPECT_EQ(std::min(s[0](0), s[1](0)), 0.0);
  // m < 0, q < 0: w = −z − 1 < 0 always.
  EXPECT_TRUE(enumerate_lcp_solutions(lcp1(-1.0, -1.0), 1e-12).empty());
  // m = 0, q < 0: infeasible; m = 0, q = 0: every z >= 0 (one representative).
  EXPECT_TRUE(enumerate_lcp_solutions(lcp1(0.0, -1.0), 1e-12).empty());
  EXPECT_EQ(enumerate_lcp_solutions(lcp1(0.0, 0.0), 1e-12).size(), 1u);
}

TEST(Enumeration, DiagonalProblemHasTheProductSolution) {
  // Decoupled rows: z_i = max(0, −q_i/d_i), unique.
  Lcp p;
  p.M = VecX::LinSpaced(6, 1.0, 3.5).asDiagonal();
  p.q = (VecX(6) << -1, 2, -3, 0, 4, -0.5).finished();
  const auto s = enumerate_lcp_solutions(p, 1e-12);
  ASSERT_EQ(s.size(), 1u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(s[0](i), std::max(0.0, -p.q(i) / p.M(i, i)), 1e-15) << i;
  }
}

TEST(Enumeration, RefusesHugeProblems) {
  Lcp p;
  p.M = MatX::Identity(21, 21);
  p.q = VecX::Zero(21);
  EXPECT_THROW(enumerate_lcp_solutions(p, 1e-10), InputError);
}

}  // namespace
}  // namespace exactsim
