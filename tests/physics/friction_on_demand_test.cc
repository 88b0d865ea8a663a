// Friction on demand (docs/stepping.md): an island's MLCP is solved with the friction unknowns of
// the loaded cones only, the others are completed (β = 0, σ from ν), and the whole MLCP is
// verified. Checked here against a closed form, against a whole solve of the same MLCP, and on
// every step of a frictional hull pour with an independent certificate of the full problem.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "experiments/stress.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test {
namespace {

constexpr Real kH = 0.01, kG = 9.81, kV0 = 2.0, kWallGap = 0.002;

// A 0.6 × 0.6 × 0.2 block sliding at kV0 along y on a static floor, pair μ = √(0.8 · 0.2) = 0.4,
// beside a static wall 2 mm away (inside the contact distance: its contacts are in the MLCP, idle
// and not touching, ψ/h = 0.2 m/s). Friction on demand forced on every island.
json block_beside_wall_doc() {
  const json bodies = json::array({{{"name", "floor"},
                                    {"static", true},
                                    {"friction", 0.8},
                                    {"shape", {{"box", {40.0, 40.0, 1.0}}}},
                                    {"position", {0.0, 0.0, -0.5}}},
                                   {{"name", "wall"},
                                    {"static", true},
                                    {"friction", 0.8},
                                    {"shape", {{"box", {1.0, 40.0, 1.0}}}},
                                    {"position", {-0.8 - kWallGap, 0.0, 0.5}}},
                                   {{"name", "block"},
                                    {"friction", 0.2},
                                    {"shape", {{"box", {0.6, 0.6, 0.2}}}},
                                    {"density", 100},
                                    {"position", {0.0, 0.0, 0.1}},
                                    {"velocity", {0.0, kV0, 0.0}}}});
  json doc = scene_doc(3, kH, bodies, json{{"friction_directions", 4}});
  doc["stepping"] = {{"friction_on_demand_min_unknowns", 1}};
  return doc;
}

TEST(FrictionOnDemand, BlockSlidingBesideAWallStopsAtTheClosedFormDistance) {
  Sim sim(block_beside_wall_doc());
  ASSERT_EQ(sim.scene.world.stepping.friction_on_demand_min_unknowns, 1);
  const Real mu = std::sqrt(0.8 * 0.2), stop = kV0 * kV0 / (2 * mu * kG);
  const Real y0 = sim.state.q_of(2)[1];
  long stop_step = -1;
  Real stopped_at = 0;
  int left_out = 0;
  for (int n = 0; n < 100; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    left_out += r.friction_cones_left_out > 0;
    if (stop_step < 0 && sim.state.v_of(2).head<3>().norm() <= 1e-9) {
      stop_step = n;
      stopped_at = sim.state.q_of(2)[1] - y0;
    }
  }
  EXPECT_EQ(left_out, 100) << "the idle wall contacts' cones should be left out of every step";
  ASSERT_GE(stop_step, 0) << "the block never stopped";
  EXPECT_NEAR(stopped_at, stop, kV0 * kH);       // semi-implicit Euler: within one step of travel
  EXPECT_NEAR(sim.state.q_of(2)[0], 0.0, 1e-9);  // it neither drifted to the wall nor away
}

TEST(FrictionOnDemand, AgreesWithTheWholeSolveOfTheSameProblem) {
  // While the block slides, ν is unique: the whole MLCP solved with every cone must give the same.
  Sim sim(block_beside_wall_doc());
  for (int n = 0; n < 5; ++n) ASSERT_EQ(sim.advance().status, StepStatus::kOk);
  const Workspace& ws = sim.ws;
  ASSERT_GT(ws.layout.n_friction_contacts, 0);
  int left_out = 0;
  for (int c = 0; c < ws.layout.n_friction_contacts; ++c) left_out += !ws.friction.keep[c];
  ASSERT_GT(left_out, 0);
  const MlcpSolution whole = solve_mlcp(ws.mlcp, sim.scene.world.solver);
  ASSERT_TRUE(whole.certificate.ok());
  EXPECT_LE((whole.nu - ws.solution.nu).lpNorm<Eigen::Infinity>(), 1e-9);
}

TEST(FrictionOnDemand, ASubProblemOutOfPivotsEndsTheDensePathAndTheWorkingSetSolvesTheStep) {
  // A pivot budget of one pivot and no fallback: the sub-problem's Lemke runs out of pivots. That
  // ends the dense path, reported as the first attempt with the cones it left out. The island
  // then goes to the sparse path's working set, whose interior point needs no pivots
  // (docs/solvers.md "Large islands: the sparse path"), and its certified answer is the step's.
  // A sub-problem that fails otherwise is retried whole: IterateThenCertify.
  // FrictionalBoxStackComesToRest fails its step 24 without that retry.
  Sim sim(block_beside_wall_doc());
  SolverOptions& solver = sim.scene.world.solver;
  solver.max_pivots = 1;
  solver.fallback = solver.diagnostics.extended_precision_retry = solver.exact_retry = false;
  const StepReport r = sim.advance();
  EXPECT_EQ(r.solver.primary_status, SolveStatus::kMaxIterations);
  EXPECT_GT(r.friction_cones_left_out, 0);
  EXPECT_EQ(r.rescued_islands, 1);
  EXPECT_EQ(r.status, StepStatus::kOk);
  EXPECT_TRUE(r.solver.ok());
  EXPECT_TRUE(r.solution_applied);
}

TEST(FrictionOnDemand, AConeLeftOutThatTakesAnImpulseIsAddedInASecondRound) {
  // Three 0.2 m cubes in a row on a frictionless floor, block–block μ = 0.5: C (left) moves at
  // 1 m/s against A, A touches C and stands 2 mm from B. The A–B contacts are idle at the start
  // (neither loaded before, nor closed by the free flight, nor touching: ψ/h = 0.2 m/s), so the
  // first round leaves their cones out; but C pushes A into B within the step, so they take an
  // impulse and a second round must add their cones. Closed form of the step (momentum, C–A
  // closing speed 0, A–B closing speed ψ/h): v_C = v_A = 0.4 m/s, v_B = 0.2 m/s.
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"friction", 0.0},
                              {"shape", {{"box", {10.0, 10.0, 1.0}}}},
                              {"position", {0.0, 0.0, -0.5}}}});
  const Real x[3] = {-0.2, 0.0, 0.2 + kWallGap}, v[3] = {1.0, 0.0, 0.0};
  const char* names[3] = {"C", "A", "B"};
  for (int i = 0; i < 3; ++i)
    bodies.push_back({{"name", names[i]},
                      {"friction", 0.5},
                      {"shape", {{"box", {0.2, 0.2, 0.2}}}},
                      {"density", 1000},
                      {"position", {x[i], 0.0, 0.1}},
                      {"velocity", {v[i], 0.0, 0.0}}});
  json doc = scene_doc(3, kH, bodies, json{{"friction_directions", 4}});
  doc["stepping"] = {{"friction_on_demand_min_unknowns", 1}};
  Sim sim(doc);
  const StepReport r = sim.advance();
  ASSERT_EQ(r.status, StepStatus::kOk);
  EXPECT_NEAR(sim.state.v_of(1)[0], 0.4, 1e-9);  // C
  EXPECT_NEAR(sim.state.v_of(2)[0], 0.4, 1e-9);  // A
  EXPECT_NEAR(sim.state.v_of(3)[0], 0.2, 1e-9);  // B
  // The first round's choice leaves out every cone of the contacts across the A–B gap; those
  // whose contact took an impulse were added.
  const Workspace& ws = sim.ws;
  FrictionOnDemand first;
  choose_friction_cones(ws.layout, ws.mlcp, nullptr, first);
  int ab_cones = 0, ab_loaded = 0;
  for (int f = 0; f < ws.layout.n_friction_contacts; ++f) {
    const Contact& c = ws.island.contacts[ws.layout.friction_contact[f]];
    // (The standard model also pairs the cubes' coplanar top and bottom features, at ψ = 0.)
    const bool across_the_gap = std::abs(c.normal.x()) > 0.99 && c.gap > 0.5 * kWallGap;
    if (std::min(c.body_a, c.body_b) != 2 || std::max(c.body_a, c.body_b) != 3 || !across_the_gap)
      continue;
    ++ab_cones;
    EXPECT_FALSE(first.keep[f]) << "cone " << f;
    if (ws.solution.z[ws.layout.friction_impulse[f]] > 0) {
      ++ab_loaded;
      EXPECT_TRUE(ws.friction.keep[f]) << "cone " << f;
    }
  }
  EXPECT_GT(ab_cones, 0);
  EXPECT_GT(ab_loaded, 0);
}

TEST(FrictionOnDemand, EveryStepOfAFrictionalHullPourCertifiesOnTheWholeProblem) {
  // Ten random hulls poured with μ = 0.3 (the stress campaign's hull-pour3d, seed 1), one MLCP per
  // step and friction on demand on it. After each step the full MLCP's solution gets its own
  // certificate (impulse scale recomputed from the whole problem, not the sub-problem's), and
  // every cone left out carries nothing.
  Scene scene = build_stress_scene(StressRun{"hull-pour3d", "peg", 0.01, 3.0, 1});
  scene.world.stepping.islands = false;
  scene.world.stepping.friction_on_demand_min_unknowns = 1;
  scene.world.stepping.dense_max_unknowns = 1000;  // friction on demand is the dense path's
  State state = scene.initial;
  Workspace ws;
  int checked = 0;
  long cones_left_out = 0;
  for (long n = 0; n < scene.step_count(); ++n) {
    const StepReport r = step(scene.world, state, ws, scene.step, n);
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    if (r.friction_cones_left_out == 0) continue;
    const MlcpLayout& L = ws.layout;
    const VecX& z = ws.solution.z;
    VecX w;
    const SolveCertificate c =
        verify_mlcp(ws.mlcp, ws.solution.nu, z, r.solver.tolerance, scene.world.solver, w);
    ASSERT_TRUE(c.ok()) << "step " << n << ": " << to_string(c.status) << ", complementarity "
                        << c.complementarity << ", min w " << c.min_w;
    int left_out = 0;
    for (int f = 0; f < L.n_friction_contacts; ++f) {
      if (ws.friction.keep[f]) continue;
      ++left_out;
      EXPECT_EQ(z[L.friction_impulse[f]], 0.0) << "step " << n << " cone " << f;
      for (int d = 0; d < L.friction_directions; ++d)
        EXPECT_EQ(z[L.beta_begin() + f * L.friction_directions + d], 0.0);
    }
    EXPECT_EQ(left_out, r.friction_cones_left_out);
    cones_left_out += left_out;
    ++checked;
  }
  std::printf("[ hull pour ] %d of %ld steps solved with cones left out (%ld cones in all)\n",
              checked, static_cast<long>(scene.step_count()), cones_left_out);
  EXPECT_GT(checked, scene.step_count() / 2);
}

}  // namespace
}  // namespace exactsim::physics_test
