// The working set's rounds are solved to the island's tolerance (docs/solvers.md "The working
// set"): tol = tolerance · max(1, ‖b‖∞) over the whole island's free rows, rows left out of the
// set included. What a round answers is certified on the whole island at that tolerance. Its
// margin: once a round's answer leaves a row closed, the left-out units whose row is open by less
// than working_set_margin · |g| h join the set with it.
#include <gtest/gtest.h>

#include <algorithm>

#include "physics/physics_scene.h"

namespace exactsim::physics_test::working_set_tolerance {
namespace {

// Six boxes stacked face to face on a floor (h = 5 ms), the top one leaving upwards at 3 m/s: the
// free motion closes the resting contacts, and the top box's contact with the box below is a
// candidate whose free row (about 3 m/s) is the island's largest, and it opens. The island takes
// the sparse path (dense_max_unknowns 0).
json stack_with_leaving_top() {
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
  return doc;
}

// The top box's contact stays out of the set (it opens).
TEST(WorkingSetTolerance, ItsRoundsAreSolvedToTheWholeIslandsTolerance) {
  Sim sim(stack_with_leaving_top());
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

// Without a margin the opening contact stays out of the set; with one of 100 |g| h (4.9 m/s here)
// it joins in the first set with the closed ones, so every unit is in and nothing is left to join.
// Both answers certify on the whole island and hold the stack's velocities alike (the top box's
// contact carries no impulse).
TEST(WorkingSetMargin, OpenRowsWithinTheMarginJoinWithTheClosedOnes) {
  json doc = stack_with_leaving_top();
  doc["solver"] = {{"diagnostics", {{"working_set_margin", 0}}}};
  Sim without(doc);
  doc["solver"] = {{"diagnostics", {{"working_set_margin", 100}}}};
  Sim with(doc);
  const StepReport r0 = without.advance();
  const StepReport r1 = with.advance();
  ASSERT_EQ(r0.islands, 1);
  ASSERT_EQ(r1.islands, 1);
  ASSERT_TRUE(r0.solver.ok());
  ASSERT_TRUE(r1.solver.ok());
  const WorkingSet& s0 = without.ws.working;
  const WorkingSet& s1 = with.ws.working;
  ASSERT_EQ(s0.unit_in.size(), s1.unit_in.size());
  EXPECT_LT(std::count(s0.unit_in.begin(), s0.unit_in.end(), 1),
            static_cast<long>(s0.unit_in.size()))
      << "every unit joined without a margin: the scene no longer tests it";
  EXPECT_EQ(std::count(s1.unit_in.begin(), s1.unit_in.end(), 1),
            static_cast<long>(s1.unit_in.size()));
  EXPECT_EQ(s1.rounds, 1);  // the first set holds every unit: nothing can join
  EXPECT_GE(s0.rounds, 1);
  ASSERT_EQ(without.state.v.size(), with.state.v.size());
  EXPECT_LE((without.state.v - with.state.v).lpNorm<Eigen::Infinity>(), 1e-6);
}

}  // namespace
}  // namespace exactsim::physics_test::working_set_tolerance
