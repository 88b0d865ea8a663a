// The depth witness (docs/penetration.md "The depth witness"): a pair deeper than its constraints
// see gets a U on the feature pair of its exact penetration depth, with ψ = −depth along the
// depth's direction; a pair its constraints already see gets none.
#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/metrics/penetration_depth.h"
#include "physics/physics_scene.h"
#include "stepping/depth_witness.h"
#include "stepping/detect.h"

namespace exactsim::physics_test {
namespace {

// Two unit cubes edge on edge: a turned 45° about x (its top an edge along x at z = √2/2), b
// turned 45° about y above it (its bottom an edge along y), b's edge `sink` below a's: an
// edge–edge depth of `sink` along z.
Sim crossed_cubes(Real sink) {
  const Real s = std::sqrt(0.5);
  return Sim(
      scene_doc(3, 0.01,
                json::array({{{"name", "a"},
                              {"shape", {{"box", {1, 1, 1}}}},
                              {"density", 100},
                              {"position", {0, 0, 0}},
                              {"orientation", {std::cos(M_PI / 8), std::sin(M_PI / 8), 0, 0}}},
                             {{"name", "b"},
                              {"shape", {{"box", {1, 1, 1}}}},
                              {"density", 100},
                              {"position", {0, 0, 2 * s - sink}},
                              {"orientation", {std::cos(M_PI / 8), 0, std::sin(M_PI / 8), 0}}}}),
                {{"model", "peg"}}));
}

// The step's spawning, placement and detection, as step() runs them, for the pair as placed.
void build(Sim& sim, Real eps) {
  const World& w = sim.scene.world;
  sim.ws.constraints.clear();
  spawn_bodies(w, sim.state, sim.scene.step);
  place_bodies(w, sim.state, sim.scene.step, sim.ws);
  detect_contacts(w, sim.state, sim.scene.step, eps, sim.ws);
}

TEST(DepthWitness, ACrossedEdgePairNoConstraintSeesGetsItsEdgeEdgeU) {
  Sim sim = crossed_cubes(0.05);
  const World& w = sim.scene.world;
  const Real eps = 0.1;
  build(sim, eps);
  const PenetrationResult exact =
      penetration_depth(*sim.ws.shapes3[0], sim.ws.polyhedra[0], *sim.ws.shapes3[1],
                        sim.ws.polyhedra[1], sim.ws.penetration);
  ASSERT_EQ(exact.feature, PenetrationFeature::kEdgeEdge);
  ASSERT_NEAR(exact.depth, 0.05, 1e-12);
  ConstraintSet& set = sim.ws.constraints;
  ASSERT_GT(set.contacts.size(), 0u);  // the detected candidates within ε
  // No constraint on the pair (what the generators left out): the witness is its only U.
  set.clear_constraints();
  EXPECT_EQ(add_depth_witnesses(w, eps, sim.ws), 1);
  ASSERT_EQ(set.unilateral.size(), 1u);
  const Contact& u = set.contacts[set.unilateral[0]];
  EXPECT_EQ(u.type, ContactType::kEdgeEdge);
  EXPECT_EQ(u.feature_a, exact.feature_a);
  EXPECT_EQ(u.feature_b, exact.feature_b);
  EXPECT_NEAR(u.gap, -exact.depth, 1e-12);
  EXPECT_NEAR(u.normal.dot(exact.direction), 1.0, 1e-12);
  EXPECT_NEAR(std::abs(u.normal.z()), 1.0, 1e-12);

  // The same pair with that U among its constraints: they see its depth, nothing is added.
  const int index = set.unilateral[0];
  set.clear_constraints();
  set.unilateral.push_back(index);
  EXPECT_EQ(add_depth_witnesses(w, eps, sim.ws), 0);
  EXPECT_EQ(set.unilateral.size(), 1u);
}

}  // namespace
}  // namespace exactsim::physics_test
