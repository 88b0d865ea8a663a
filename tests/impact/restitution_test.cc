// The velocity-dependent COR (PLUS paper Fig. 2; docs/plus.md).
#include "exactsim/impact/restitution.h"

#include <gtest/gtest.h>

namespace exactsim {
namespace {

TEST(Restitution, PiecewiseCurveOfFigure2) {
  const RestitutionLaw law{0.392, 0.01, 0.1};
  EXPECT_EQ(effective_cor(law, -1.0), 0.0);   // separating
  EXPECT_EQ(effective_cor(law, 0.005), 0.0);  // captured
  EXPECT_EQ(effective_cor(law, 0.01), 0.0);   // at v_capture: still captured
  // The middle branch is the line through (0, 1) and (v_plastic, e_min): e jumps at v_capture.
  EXPECT_NEAR(effective_cor(law, 0.0100001), 1.0 - 0.608 * 0.100001, 1e-12);
  EXPECT_NEAR(effective_cor(law, 0.05), 1.0 - 0.608 * 0.5, 1e-15);
  EXPECT_EQ(effective_cor(law, 0.1), 0.392);
  EXPECT_EQ(effective_cor(law, 5.74), 0.392);
}

TEST(Restitution, ConstantLawIsConstantForEveryApproach) {
  const RestitutionLaw law = RestitutionLaw::constant(0.7);
  EXPECT_TRUE(law.is_constant());
  for (Real w : {1e-9, 1e-3, 1.0, 100.0}) EXPECT_EQ(effective_cor(law, w), 0.7);
  EXPECT_EQ(effective_cor(law, 0.0), 0.0);
}

}  // namespace
}  // namespace exactsim
