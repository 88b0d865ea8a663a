// Iterate, then certify (docs/stepping.md): with projected Gauss–Seidel forced on every island
// (stepping.gauss_seidel_min_unknowns = 1), Lemke starts from the active set the iteration found;
// the answer is certified as always, so the closed forms and the resting stack must hold as they do
// without it. The iteration's own velocities are checked against the certified solve's.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "exactsim/metrics/energy.h"
#include "exactsim/stepping/projected_gauss_seidel.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::iterate_then_certify {
namespace {

constexpr Real kH = 0.01, kG = 9.81, kV0 = 2.0;

// A 0.6 × 0.6 × 0.2 block sliding at kV0 along x on a static floor, pair μ = √(0.8 · 0.2) = 0.4,
// k = 4 cone directions (±x, ±y: sliding along x feels the full μ).
json sliding_block_doc() {
  const json bodies = json::array({{{"name", "floor"},
                                    {"static", true},
                                    {"friction", 0.8},
                                    {"shape", {{"box", {40.0, 40.0, 1.0}}}},
                                    {"position", {0.0, 0.0, -0.5}}},
                                   {{"name", "block"},
                                    {"friction", 0.2},
                                    {"shape", {{"box", {0.6, 0.6, 0.2}}}},
                                    {"density", 100},
                                    {"position", {0.0, 0.0, 0.1}},
                                    {"velocity", {kV0, 0.0, 0.0}}}});
  json doc = scene_doc(3, kH, bodies, json{{"friction_directions", 4}});
  doc["stepping"] = {{"gauss_seidel_min_unknowns", 1}};
  return doc;
}

TEST(IterateThenCertify, SlidingBlockStopsAtTheClosedFormDistance) {
  Sim sim(sliding_block_doc());
  ASSERT_EQ(sim.scene.world.stepping.gauss_seidel_min_unknowns, 1);
  const Real mu = std::sqrt(0.8 * 0.2), stop = kV0 * kV0 / (2 * mu * kG);
  const Real x0 = sim.state.q_of(1)[0];
  long stop_step = -1;
  Real stopped_at = 0;
  int iterated = 0;
  for (int n = 0; n < 100; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    iterated += r.gauss_seidel_sweeps > 0;
    if (stop_step < 0 && sim.state.v_of(1).head<3>().norm() <= 1e-9) {
      stop_step = n;
      stopped_at = sim.state.q_of(1)[0] - x0;
    }
  }
  EXPECT_EQ(iterated, 100) << "every step's island should have iterated first";
  ASSERT_GE(stop_step, 0) << "the block never stopped";
  // Semi-implicit Euler: within one step of travel of v0² / (2 μ g) (tests/physics/sliding_block).
  EXPECT_NEAR(stopped_at, stop, kV0 * kH);
  EXPECT_NEAR(sim.state.q_of(1)[1], 0.0, 1e-9);
}

TEST(IterateThenCertify, GaussSeidelVelocitiesAgreeWithTheCertifiedSolve) {
  // While the block slides, ν is unique (the friction force is μ m g against the motion, however
  // the four corners share the load): the iteration's ν must match the certified one.
  Sim sim(sliding_block_doc());
  for (int n = 0; n < 5; ++n) ASSERT_EQ(sim.advance().status, StepStatus::kOk);
  GaussSeidelScratch gs;
  const GaussSeidelResult g =
      projected_gauss_seidel(sim.ws.mlcp, sim.ws.layout, sim.ws.solver, nullptr, 10000, 1e-13, gs);
  std::printf("[ gauss-seidel ] %d sweeps, last change %.2e m/s, |nu - nu_certified| = %.2e\n",
              g.sweeps, g.last_change, (gs.nu - sim.ws.solution.nu).lpNorm<Eigen::Infinity>());
  EXPECT_LT(g.sweeps, 10000);
  EXPECT_LE((gs.nu - sim.ws.solution.nu).lpNorm<Eigen::Infinity>(), 1e-9);
  // Its sliding cone is saturated and σ is the sliding speed.
  ASSERT_GT(sim.ws.layout.n_friction_contacts, 0);
  EXPECT_NEAR(gs.z[sim.ws.layout.sigma_begin()], sim.ws.solution.nu[0], 1e-9);
  EXPECT_TRUE(gs.guess[sim.ws.layout.sigma_begin()]);
}

TEST(IterateThenCertify, FrictionalBoxStackComesToRest) {
  // The four-box offset stack of Determinism.BoxStack3d (μ = 0.4, k = 6, PEG) with every island
  // iterated first: every step certified, no energy from nowhere, and it comes to rest.
  json doc = offset_box_stack_doc();
  doc["stepping"] = {{"gauss_seidel_min_unknowns", 1}};
  Sim sim(doc);
  sim.scene.world.contact.model = ContactModel::kPeg;
  int failed = 0, iterated = 0;
  for (int n = 0; n < 200; ++n) {
    const StepReport r = sim.advance();
    failed += r.status != StepStatus::kOk;
    iterated += r.gauss_seidel_sweeps > 0;
  }
  const Real ke = kinetic_energy(sim.scene.world.bodies, sim.state);
  std::printf("[ stack ] 200 steps iterated first (%d), %d failed, final kinetic energy %.3e J\n",
              iterated, failed, ke);
  EXPECT_EQ(failed, 0);
  EXPECT_GT(iterated, 150);
  EXPECT_LT(ke, 1e-2);
}

}  // namespace
}  // namespace exactsim::physics_test::iterate_then_certify
