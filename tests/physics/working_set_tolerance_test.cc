// The working set's rounds are solved to the island's tolerance (docs/solvers.md "The working
// set"): tol = tolerance · max(1, ‖b‖∞) over the whole island's free rows, rows left out of the
// set included. What a round answers is certified on the whole island at that tolerance.
#include <gtest/gtest.h>

#include "physics/physics_scene.h"

namespace exactsim::physics_test::working_set_tolerance {
namespace {

// Six boxes stacked face to face on a floor, the top one leaving upwards at 3 m/s: its contact
// with the box below is a candidate whose free row (about 3 m/s) is the island's largest, and it
// stays out of the set (it opens). The island takes the sparse path (dense_max_unknowns 0).
TEST(WorkingSetTolerance, ItsRoundsAreSolvedToTheWholeIslandsTolerance) {
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {4.0, 4.0, 1.0}}}},
                              {"position", {0.0, 0.0, -0.5}}}});
  constexpr int kBoxes = 6;
  for (int i = 0; i < kBoxes; ++i)
    bodies.push_back({{"name", "box" + std::to_string(i)},
                      {"shape", {{"box", {0.5, 0.4, 0.3}}}},
                      {"density", 400},
                      {"position", {0.02 * (i % 3), -0.01 * (i % 2), 0.15 + 0.3 * i}},
                      {"velocity", {0.0, 0.0, i + 1 == kBoxes ? 3.0 : 0.0}}});
  json doc = scene_doc(3, 0.005, bodies, json{{"friction", 0.4}});
  doc["stepping"] = {{"dense_max_unknowns", 0}};
  Sim sim(doc);
  const StepReport r = sim.advance();
  ASSERT_EQ(r.islands, 1);
  ASSERT_TRUE(r.solver.ok());
  const WorkingSet& s = sim.ws.working;
  ASSERT_GE(s.rounds, 1);
  // The premise: a row left out of the set has the island's largest free row, so the set's own
  // tolerance would be below 1/2.5 of the island's.
  Real b_set = 0;
  for (const int i : s.columns) b_set = std::max(b_set, std::abs(s.b[i]));
  const Real b_island = s.b.lpNorm<Eigen::Infinity>();
  ASSERT_GT(b_island, 2.5);
  ASSERT_LT(std::max<Real>(1, b_set), b_island / 2.5);
  // The last round's solve on the set was judged at the island's tolerance, the one its
  // certificate on the whole island used.
  EXPECT_NEAR(s.solution.certificate.tolerance, r.solver.tolerance, 1e-9 * r.solver.tolerance);
  EXPECT_NEAR(r.solver.tolerance, sim.scene.world.solver.tolerance * b_island,
              1e-9 * r.solver.tolerance);
}

}  // namespace
}  // namespace exactsim::physics_test::working_set_tolerance
