// Sleeping in 3D (docs/stepping.md "Sleeping"): the 10-box tower of the stress campaign, at rest,
// sleeps where it stands and costs no solve.
#include <gtest/gtest.h>

#include "exactsim/stepping/step.h"
#include "experiments/stress_scenes.h"

namespace exactsim {
namespace {

State run_tower(bool sleep, int steps, long& first_asleep, long& solved_after) {
  StackOptions o;
  Scene scene = box_tower3d(o);
  scene.world.stepping.sleep = sleep;
  State state = scene.initial;
  Workspace ws;
  first_asleep = -1;
  solved_after = 0;
  for (int k = 0; k < steps; ++k) {
    const StepReport r = step(scene.world, state, ws, scene.step, k);
    EXPECT_EQ(r.status, StepStatus::kOk) << "step " << k;
    if (first_asleep >= 0) solved_after += r.lcp_size;
    if (first_asleep < 0 && r.bodies_asleep == 10) first_asleep = k;
  }
  return state;
}

TEST(Sleeping, TheTenBoxTowerSleepsWhereItStands) {
  long asleep = 0, solved = 0, unused = 0;
  const State slept = run_tower(true, 300, asleep, solved);
  const State awake = run_tower(false, 300, unused, unused);
  // h = 5 ms: the tower settles in its first steps, then rests sleep_time = 0.5 s.
  EXPECT_GE(asleep, 99);
  EXPECT_LE(asleep, 200);
  EXPECT_EQ(solved, 0);  // nothing solved once asleep
  EXPECT_LT((slept.q - awake.q).cwiseAbs().maxCoeff(), 1e-6);
}

}  // namespace
}  // namespace exactsim
