// The certificate fields of verify_lcp (docs/solvers.md "Certificate": min z, min w,
// complementarity, tolerance).
#include <gtest/gtest.h>

#include "exactsim/math/error.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {
namespace {

TEST(VerifyLcp, ReportsTheWorstEntries) {
  Lcp p{MatX::Identity(3, 3), (VecX(3) << -1, 2, 0.5).finished()};
  // z = (1, 0, 0): w = (0, 2, 0.5), a solution.
  SolveCertificate c = verify_lcp(p, (VecX(3) << 1, 0, 0).finished(), 1e-10);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.min_z, 0.0);
  EXPECT_EQ(c.min_w, 0.0);
  EXPECT_EQ(c.complementarity, 0.0);
  EXPECT_EQ(c.tolerance, 1e-10);
  // z = (1, 0.1, −0.2): w = (0, 2.1, 0.3); worst pair |0.1·2.1| = 0.21.
  c = verify_lcp(p, (VecX(3) << 1, 0.1, -0.2).finished(), 1e-10);
  EXPECT_EQ(c.status, SolveStatus::kVerificationFailed);
  EXPECT_DOUBLE_EQ(c.min_z, -0.2);
  EXPECT_DOUBLE_EQ(c.complementarity, 0.21);
  // Violations inside the tolerance pass; just outside fail.
  EXPECT_TRUE(verify_lcp(p, (VecX(3) << 1, 0, -0.5e-10).finished(), 1e-10).ok());
  EXPECT_FALSE(verify_lcp(p, (VecX(3) << 1, 0, -2e-10).finished(), 1e-10).ok());
}

TEST(VerifyLcp, ToleranceScalesWithQ) {
  Lcp p{MatX::Identity(2, 2), (VecX(2) << -300, 1).finished()};
  SolverOptions o;
  EXPECT_DOUBLE_EQ(verification_tolerance(p, o), 3e-8);
  p.q *= 1e-3;
  EXPECT_DOUBLE_EQ(verification_tolerance(p, o), 1e-10);  // floor at max(1, ‖q‖∞)
}

TEST(VerifyLcp, NanIsNumericalNotSolved) {
  Lcp p{MatX::Identity(2, 2), VecX::Zero(2)};
  const SolveCertificate c =
      verify_lcp(p, (VecX(2) << 0, std::numeric_limits<Real>::quiet_NaN()).finished(), 1e-10);
  EXPECT_EQ(c.status, SolveStatus::kNumerical);
  EXPECT_FALSE(c.ok());
  EXPECT_THROW(verify_lcp(p, VecX::Zero(3), 1e-10), InputError);
}

// M's entries are checked through the product (verify.cc): one that is not finite is an input
// error even where z is zero, as is one of q.
TEST(VerifyLcp, NonFiniteDataIsAnInputErrorEvenWhereZIsZero) {
  const Real inf = std::numeric_limits<Real>::infinity();
  const VecX z = (VecX(2) << 1, 0).finished();
  for (const Real bad : {std::numeric_limits<Real>::quiet_NaN(), inf, -inf}) {
    Lcp p{MatX::Identity(2, 2), VecX::Zero(2)};
    p.M(1, 1) = bad;  // z_1 = 0
    EXPECT_THROW(verify_lcp(p, z, 1e-10), InputError) << bad;
    p.M(1, 1) = 1;
    p.q(1) = bad;
    EXPECT_THROW(verify_lcp(p, z, 1e-10), InputError) << bad;
  }
}

TEST(VerifyLcp, NamesAreStable) {
  EXPECT_STREQ(to_string(SolveStatus::kInfeasible), "infeasible");
  EXPECT_STREQ(to_string(SolveMethod::kFischerBurmeister), "fischer-burmeister");
}

}  // namespace
}  // namespace exactsim
