// The standard-model trap of docs/peg.md "The worked example": a dynamic triangle A slides
// right (ν = (3, 0, 0), h = 0.01, g = 9.81, m = 1, J = 0.1) with its bottom vertex just past the
// apex of a static triangle B. With ε large enough for the four contacts C1–C4 of PEG paper Fig. 5
// (gaps 0.035355, 0.007071, 0.035777, 0.017889), the standard model's unique solution is
//   p = (0, 0.95373, 0, 0),   ν⁺ = (2.325611, 0.576289, −2.247964):
// the extension of B's left edge (C2) kicks A up and spins it although nothing touches. This
// test pins the standard model's behaviour; PEG (docs/peg.md) must remove the spurious impulse.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "physics/physics_scene.h"

namespace exactsim::physics_test {
namespace {

TEST(StandardModelTrap, SpuriousImpulseOfSection3_9) {
  const Vec2 a_world[3] = {{-0.98, 0.53}, {0.02, 0.03}, {1.02, 0.53}};
  const Vec2 com = (a_world[0] + a_world[1] + a_world[2]) / 3.0;
  json a_local = json::array();
  for (const Vec2& p : a_world) a_local.push_back({p.x() - com.x(), p.y() - com.y()});
  json doc =
      scene_doc(2, 0.01,
                json::array({{{"name", "B"},
                              {"static", true},
                              {"shape", {{"polygon", {{1.0, -1.0}, {0.0, 0.0}, {-1.0, -1.0}}}}},
                              {"position", {0.0, 0.0}}},
                             {{"name", "A"},
                              {"shape", {{"polygon", a_local}}},
                              {"mass", 1.0},
                              {"inertia", 0.1},
                              {"position", {com.x(), com.y()}},
                              {"velocity", {3.0, 0.0}},
                              {"angular_velocity", 0.0}}}),
                json{{"friction", 0.0}, {"parameters", {{"epsilon", 0.05}}}});
  doc["gravity"] = {0.0, -9.81};
  Sim sim(doc);

  const StepReport r = sim.advance();
  ASSERT_EQ(r.status, StepStatus::kOk);
  ASSERT_TRUE(r.solver_called);
  ASSERT_EQ(r.unilateral, 4) << "expected exactly the contacts C1–C4 of PEG paper Fig. 5";

  std::vector<Real> gaps, impulses;
  const std::vector<ContactResult> contacts = sim.contacts();
  for (int j : sim.ws.constraints.unilateral) {
    gaps.push_back(contacts[j].gap);
    impulses.push_back(contacts[j].normal_impulse);
  }
  std::sort(gaps.begin(), gaps.end());
  const Real expected_gaps[4] = {0.007071, 0.017889, 0.035355, 0.035777};
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(gaps[j], expected_gaps[j], 1e-6) << "gap " << j;

  // One spurious impulse (on C2, the vertex against the extension of B's edge), the rest zero.
  std::sort(impulses.begin(), impulses.end());
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(impulses[j], 0.0, 1e-9) << "impulse " << j;
  EXPECT_NEAR(impulses[3], 0.95373, 1e-5);

  const auto v = sim.state.v_of(1);
  EXPECT_NEAR(v[0], 2.325611, 1e-6);
  EXPECT_NEAR(v[1], 0.576289, 1e-6);
  EXPECT_NEAR(v[2], -2.247964, 1e-6);
}

}  // namespace
}  // namespace exactsim::physics_test
