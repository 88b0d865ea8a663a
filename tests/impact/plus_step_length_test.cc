// Interval step lengths α_CP (eq. 2.13) and α_DC (eq. 2.14), checked against their geometric
// definitions: closest point of a segment, and the angle actually turned.
#include "exactsim/impact/plus_step_length.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace exactsim {
namespace {

Real angle(const Vec2& a, const Vec2& b) { return std::atan2(std::abs(cross2(a, b)), a.dot(b)); }

TEST(PlusStepLength, ClosestPointIsTheSegmentPointNearestTheOrigin) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-3.0, 3.0);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec2 t0(u(rng), u(rng)), d(u(rng), u(rng));
    if (t0.norm() < 0.1) continue;
    const Real a = alpha_closest_point(t0, d, 0.1);
    Real best = 1e300, best_alpha = 0;
    for (int i = 0; i <= 20000; ++i) {  // brute force over the segment
      const Real s = i / 20000.0;
      if ((t0 + s * d).norm() < best) best = (t0 + s * d).norm(), best_alpha = s;
    }
    EXPECT_NEAR(a, best_alpha, 1e-4);
  }
}

TEST(PlusStepLength, DirectionChangeRootTurnsExactlyThetaMax) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(-3.0, 3.0);
  int checked = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const Vec2 t0(u(rng), u(rng)), d(u(rng), u(rng));
    for (Real theta : {0.01, 0.15, 0.25, 0.5}) {
      if (angle(t0, t0 + d) <= theta || (t0 + d).norm() < 1e-3) continue;
      const Real a = alpha_direction_change(t0, d, theta);
      ASSERT_GT(a, 0.0);
      ASSERT_LE(a, 1.0);
      EXPECT_NEAR(angle(t0, t0 + a * d), theta, 1e-9);
      // Smallest root: the direction has turned less than θ everywhere before α_DC.
      for (int i = 1; i < 50; ++i) EXPECT_LT(angle(t0, t0 + (a * i / 50.0) * d), theta + 1e-12);
      ++checked;
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(PlusStepLength, RulesOfSection3_6) {
  ImpactOptions o;
  o.v_transition = 0.1;
  o.theta_max = 0.1;
  // Small direction change: the whole interval.
  EXPECT_EQ(sliding_step_length(Vec2(1, 0), Vec2(0.5, 0.01), o).limit, StepLimit::kWhole);
  // The slip passes close to the origin: stop at the closest point (sliding → rolling).
  StepLength s = sliding_step_length(Vec2(1, 0), Vec2(-1, 0.05), o);
  EXPECT_EQ(s.limit, StepLimit::kRollingTransition);
  EXPECT_NEAR(s.alpha, 2.0 / (4.0 + 0.05 * 0.05), 1e-15);  // −t⁰·Δ/‖Δ‖²
  // Large turn far from the origin: α_DC.
  s = sliding_step_length(Vec2(1, 0), Vec2(1, 1), o);
  EXPECT_EQ(s.limit, StepLimit::kDirectionChange);
  EXPECT_NEAR(std::atan2(s.alpha, 1.0), 0.1, 1e-12);
  // Ending inside the rolling disc: α_CP (Simbody, default) or α = 1 (paper text).
  s = sliding_step_length(Vec2(1, 0), Vec2(-0.05, 0.02), o);
  EXPECT_EQ(s.limit, StepLimit::kEndInRollingDisc);
  EXPECT_LT(s.alpha, 1.0);
  o.step_length = StepLengthRule::kWholeStep;
  EXPECT_EQ(sliding_step_length(Vec2(1, 0), Vec2(-0.05, 0.02), o).alpha, 1.0);
  // α_min floors α_DC.
  o.alpha_min = 0.5;
  s = sliding_step_length(Vec2(1, 0), Vec2(1, 1), o);
  EXPECT_EQ(s.limit, StepLimit::kAlphaMin);
  EXPECT_EQ(s.alpha, 0.5);
}

}  // namespace
}  // namespace exactsim
