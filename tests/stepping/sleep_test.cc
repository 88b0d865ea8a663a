// Sleeping (docs/stepping.md "Sleeping"): islands at rest leave the solve, frozen, and wake whole
// when an awake body joins them or a velocity is set.
#include <gtest/gtest.h>

#include "exactsim/stepping/sleep.h"
#include "stepping/planar_sim.h"

namespace exactsim {
namespace {

using planar_test::box;
using planar_test::Sim;

constexpr Real kH = 0.005;

// A floor and a two-box stack 1 mm above it, μ = 0.5, PEG.
Sim stack(bool sleep) {
  Sim s;
  s.world.contact.model = ContactModel::kPeg;
  s.world.contact.friction = 0.5;
  s.world.stepping.sleep = sleep;
  s.add(box(-2, -1, 2, 0), true);
  s.add(box(-0.2, 0.001, 0.2, 0.201), false);
  s.add(box(-0.1, 0.202, 0.15, 0.302), false);
  return s;
}

// The first step after which both boxes sleep, or −1 within `steps`.
long steps_until_asleep(Sim& s, int steps) {
  for (int k = 0; k < steps; ++k) {
    const StepReport r = s.step(kH);
    EXPECT_EQ(r.status, StepStatus::kOk) << "step " << k;
    if (r.bodies_asleep == 2) return k;
  }
  return -1;
}

TEST(Sleeping, AStackAtRestFallsAsleepAndStaysPut) {
  Sim s = stack(true);
  const long asleep = steps_until_asleep(s, 300);
  // It settles within a few steps, then must rest sleep_time (0.5 s = 100 steps).
  ASSERT_GE(asleep, 99);
  ASSERT_LE(asleep, 150);
  EXPECT_TRUE(s.v(1).isZero(0) && s.v(2).isZero(0));
  const VecX q = s.state.q;
  for (int k = 0; k < 100; ++k) {
    const StepReport r = s.step(kH);
    ASSERT_EQ(r.status, StepStatus::kOk);
    EXPECT_EQ(r.islands_asleep, 1);
    EXPECT_EQ(r.islands, 0);
    EXPECT_EQ(r.lcp_size, 0);
    EXPECT_EQ(r.bodies_asleep, 2);
  }
  EXPECT_EQ(s.state.q, q);  // frozen, bit for bit
  // Where the stack rests without sleeping, to well under the contact distance.
  Sim awake = stack(false);
  for (long k = 0; k < s.steps; ++k) ASSERT_EQ(awake.step(kH).status, StepStatus::kOk);
  EXPECT_TRUE(awake.state.asleep.empty());  // off: the state's sleep vectors are never touched
  EXPECT_LT((awake.state.q - s.state.q).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(Sleeping, ABodyLandingOnASleepingStackWakesItsIsland) {
  Sim s = stack(true);
  // A third box joins at t = 1 s, 0.1 m above the stack, and falls onto it.
  const int drop = s.add(box(-0.05, 0.402, 0.05, 0.452), false);
  s.world.bodies[drop].spawn_time = 1.0;
  s.state.present[drop] = 0;
  ASSERT_GT(steps_until_asleep(s, 200), 0);
  bool woke = false;
  Real lowest = 1;
  for (int k = 0; s.steps < 600; ++k) {
    const StepReport r = s.step(kH);
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << s.steps;
    lowest = std::min(lowest, s.q(drop).y());
    if (s.state.present[drop] && r.bodies_asleep == 0 && r.islands > 0 && r.islands_asleep == 0 &&
        r.active_bodies == 3)
      woke = true;  // the landing step solved all three boxes together
  }
  EXPECT_TRUE(woke);
  // The dropped box (half height 0.025) rests on the top box's top face (its centre + 0.05),
  // and never sank into it by more than 1 mm.
  const Real rest = s.q(2).y() + 0.05 + 0.025;
  EXPECT_GT(lowest, rest - 1e-3);
  EXPECT_NEAR(s.q(drop).y(), rest, 1e-4);
  EXPECT_EQ(s.state.asleep[drop], 1);  // and the three sleep again
  EXPECT_EQ(s.state.asleep[1], 1);
}

TEST(Sleeping, SettingAVelocityWakesTheBody) {
  Sim s = stack(true);
  ASSERT_GT(steps_until_asleep(s, 200), 0);
  const Real x = s.q(2).x();
  s.state.v.segment<3>(3 * 2) = Vec3(0.5, 0, 0);  // push the top box
  const StepReport r = s.step(kH);
  EXPECT_EQ(r.status, StepStatus::kOk);
  EXPECT_EQ(r.bodies_asleep, 0);  // its island woke, the bottom box too
  EXPECT_EQ(r.islands_asleep, 0);
  EXPECT_GT(s.q(2).x(), x);
}

}  // namespace
}  // namespace exactsim
