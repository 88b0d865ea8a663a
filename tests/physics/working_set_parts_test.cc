// The working set's parts (docs/solvers.md "The working set's parts"): where the rows a set holds
// fall apart, each part is solved alone, and the parts' answers together are certified on the
// whole island.
#include <gtest/gtest.h>

#include "physics/physics_scene.h"

namespace exactsim::physics_test::working_set_parts {
namespace {

// A stack of three boxes on a floor and a lower box 1 mm beside it, sliding away at 5 cm/s: the
// faces across the gap are candidate contacts (one island), which the free motion opens, so the
// set holds the stack's contacts and the box's with the floor, and no row joins them.
json two_stacks(int dense_max_unknowns) {
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {4.0, 4.0, 1.0}}}},
                              {"position", {0.0, 0.0, -0.5}}}});
  for (int stack = 0; stack < 2; ++stack)
    for (int i = 0; i < (stack ? 1 : 3); ++i)
      bodies.push_back(
          {{"name", "box" + std::to_string(stack) + std::to_string(i)},
           {"shape", {{"box", {0.5, 0.4, stack ? 0.25 : 0.3}}}},
           {"density", 400},
           {"position", {0.501 * stack, 0.0, stack ? 0.125 + 0.25 * i : 0.15 + 0.3 * i}},
           {"velocity", {0.05 * stack, 0.0, 0.0}}});
  json doc = scene_doc(3, 0.005, bodies, json{{"friction", 0.4}});
  doc["stepping"] = {{"dense_max_unknowns", dense_max_unknowns}};
  return doc;
}

TEST(WorkingSetParts,
     AStackAndASlidingBoxJoinedOnlyByCandidatesAreTwoPartsAndMoveAsOnTheDensePath) {
  Sim sparse(two_stacks(0)), dense(two_stacks(100000));
  for (int k = 0; k < 4; ++k) {
    const StepReport r = sparse.advance(), d = dense.advance();
    ASSERT_EQ(r.islands, 1) << k;  // the premise: the gap's contacts join the stacks
    ASSERT_TRUE(r.solver.ok()) << k;
    ASSERT_TRUE(d.solver.ok()) << k;
    EXPECT_EQ(sparse.ws.working.parts.count(), 2) << k;
    for (int b = 1; b <= 4; ++b) {
      const VecX v = sparse.state.v_of(b), vd = dense.state.v_of(b);
      if (b <= 3) {
        EXPECT_LT(v.lpNorm<Eigen::Infinity>(), 1e-8)
            << k << " body " << b << " " << v.transpose();  // at rest
      }
      EXPECT_LT((v - vd).lpNorm<Eigen::Infinity>(), 1e-8)
          << k << " body " << b << " " << (v - vd).transpose();
    }
  }
}

}  // namespace
}  // namespace exactsim::physics_test::working_set_parts
