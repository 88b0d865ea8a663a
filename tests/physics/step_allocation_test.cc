// A step reuses its Workspace: once a scene's contact set stops changing, step() makes no heap
// allocation at all (docs/stepping.md "Memory": no reallocation in the steady state; issue: scratch
// is reused). Counted by interposing malloc (tests/malloc_counter.h); skipped under sanitizers.
#include <gtest/gtest.h>

#include "malloc_counter.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test {
namespace {

#if EXACTSIM_COUNT_MALLOC
json box_on_floor(int dimension) {
  const bool planar = dimension == 2;
  return json::array({{{"name", "floor"},
                       {"static", true},
                       {"shape", {{"box", planar ? json{20.0, 1.0} : json{20.0, 20.0, 1.0}}}},
                       {"position", planar ? json{0.0, -0.5} : json{0.0, 0.0, -0.5}}},
                      {{"name", "box"},
                       {"shape", {{"box", planar ? json{1.0, 0.5} : json{1.0, 0.6, 0.4}}}},
                       {"density", 200},
                       {"position", planar ? json{0.3, 0.25} : json{0.3, -0.2, 0.2}}}});
}

// Steps `warm_up` times, then counts the heap allocations of the next `counted` steps.
long allocations_after_warm_up(Sim& sim, int warm_up, int counted) {
  for (int n = 0; n < warm_up; ++n) EXPECT_EQ(sim.advance().status, StepStatus::kOk);
  const long before = malloc_calls;
  for (int n = 0; n < counted; ++n) {
    const StepReport r = sim.advance();
    if (r.status != StepStatus::kOk || !r.solver_called) {
      ADD_FAILURE() << "step " << sim.steps << ": expected a solved contact step";
      break;
    }
  }
  return malloc_calls - before;
}

TEST(StepAllocation, PlanarFrictionalContactStepAllocatesNothing) {
  Sim sim(scene_doc(2, 0.01, box_on_floor(2), json{{"friction", 0.5}}));
  sim.scene.world.stepping.measure_overlap = true;
  EXPECT_EQ(allocations_after_warm_up(sim, 5, 50), 0);
}

TEST(StepAllocation, SpatialFrictionalContactStepAllocatesNothing) {
  Sim sim(scene_doc(3, 0.01, box_on_floor(3), json{{"friction", 0.5}}));
  sim.scene.world.stepping.measure_overlap = true;
  EXPECT_EQ(allocations_after_warm_up(sim, 5, 50), 0);
}

TEST(StepAllocation, PegStepAllocatesNothing) {
  Sim sim(scene_doc(2, 0.01, box_on_floor(2), json{{"friction", 0.5}}));
  sim.scene.world.contact.model = ContactModel::kPeg;
  EXPECT_EQ(allocations_after_warm_up(sim, 5, 50), 0);
}

TEST(StepAllocation, SpatialPegStepAllocatesNothing) {
  Sim sim(scene_doc(3, 0.01, box_on_floor(3), json{{"friction", 0.5}}));
  sim.scene.world.contact.model = ContactModel::kPeg;
  sim.scene.world.stepping.measure_overlap = true;
  EXPECT_EQ(allocations_after_warm_up(sim, 5, 50), 0);
}

TEST(StepAllocation, CounterSeesAllocations) {
  const long before = malloc_calls;
  std::vector<Real> probe(1000, 1.0);
  EXPECT_GT(malloc_calls, before);
  EXPECT_EQ(probe.size(), 1000u);
}
#else
TEST(StepAllocation, SkippedUnderSanitizers) {
  GTEST_SKIP() << "malloc interposition is unavailable under sanitizers";
}
#endif

}  // namespace
}  // namespace exactsim::physics_test
