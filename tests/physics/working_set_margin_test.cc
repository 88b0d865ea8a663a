// The working set's margin (docs/solvers.md "The working set"): once a round's answer leaves a row
// closed, the left-out units whose row is open by less than working_set_margin · |g| h join the
// set with it. What the set answers is certified on the whole island either way.
#include <gtest/gtest.h>

#include <algorithm>

#include "physics/physics_scene.h"

namespace exactsim::physics_test::working_set_margin {
namespace {

// Six boxes stacked face to face on a floor (h = 5 ms), the top one leaving upwards at 3 m/s: the
// free motion closes the resting contacts, and the top box's contact opens at about 3 m/s. The
// island takes the sparse path (dense_max_unknowns 0).
Sim stack_with_leaving_top(Real margin) {
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
  doc["solver"] = {{"diagnostics", {{"working_set_margin", margin}}}};
  return Sim(doc);
}

// Without a margin the opening contact stays out of the set; with one of 100 |g| h (4.9 m/s here)
// it joins in the first set with the closed ones, so every unit is in and nothing is left to join.
// Both answers certify on the whole island and hold the stack's velocities alike (the top box's
// contact carries no impulse).
TEST(WorkingSetMargin, OpenRowsWithinTheMarginJoinWithTheClosedOnes) {
  Sim without = stack_with_leaving_top(0);
  Sim with = stack_with_leaving_top(100);
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
}  // namespace exactsim::physics_test::working_set_margin
