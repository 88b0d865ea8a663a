// The working set's first round started near last step's answer (solver.diagnostics.
// first_round_from_last_answer, off by default; docs/solvers.md "The working set", "The first
// round from last step's answer"): on a structure at rest that answer is this step's to within
// what changed, and the interior point from it certifies in fewer iterations than from its cold
// starts; the tower stands either way.
#include <gtest/gtest.h>

#include "experiments/structures.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::working_set_start {
namespace {

struct Totals {
  long iterations = 0;  // over the steps after the first (the first has no last answer)
  Real largest_speed = 0;
};

// The Jenga tower at rest on the sparse path, `steps` steps of 5 ms.
Totals tower_at_rest(bool from_last_answer, int steps) {
  StructureOptions o;
  o.step = 0.005;
  Sim sim(jenga3d(o));
  sim.scene.world.stepping.dense_max_unknowns = 0;
  sim.scene.world.solver.diagnostics.first_round_from_last_answer = from_last_answer;
  Totals t;
  for (int k = 0; k < steps; ++k) {
    const StepReport r = sim.advance();
    EXPECT_TRUE(r.solver.ok()) << k;
    EXPECT_EQ(r.status, StepStatus::kOk) << k;
    if (k > 0) t.iterations += r.solver.iterations;
  }
  for (int b = 1; b < sim.state.body_count(); ++b)
    t.largest_speed = std::max(t.largest_speed, sim.state.v_of(b).head<3>().norm());
  return t;
}

TEST(WorkingSetStart, LastStepsAnswerShortensTheFirstRoundOfATowerAtRest) {
  const Totals cold = tower_at_rest(false, 40), near = tower_at_rest(true, 40);
  std::printf("interior-point iterations, steps 1-39: cold starts %ld, last answer %ld\n",
              cold.iterations, near.iterations);
  EXPECT_LT(near.iterations, cold.iterations);
  EXPECT_LT(cold.largest_speed, 1e-3);
  EXPECT_LT(near.largest_speed, 1e-3);
}

}  // namespace
}  // namespace exactsim::physics_test::working_set_start
