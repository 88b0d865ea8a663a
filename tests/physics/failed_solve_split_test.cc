// A step whose solve fails is taken again as halves (docs/stepping.md "When a solve fails";
// adaptive_step.h). The capture (tests/physics/data/hull-pour3d-n100-seed3-parts-off-step98) is
// the 3D pour of 100 random hulls that bench_scaling writes with --seed 3 (μ = 0.3, h = 0.01),
// with solver.diagnostics.working_set_parts off, as `exactsim run` checkpointed it after 98 steps:
// on its island of about 8,200 unknowns, the working set solved as one problem, the interior
// point stalls from every start and the sparse Lemke, held because the halves come next, stops
// uncertified; its two halves certify. By its parts (docs/solvers.md "The working set's parts")
// the whole step certifies, and so it does as one problem from the interior point's start at last
// step's answer after the stalled ones (SolverOptions::Diagnostics::rescue_from_last_answer), which
// the tests of the retake turn off, or with the working set's margin (working_set_margin; the
// capture's run took none).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "checkpoint_capture.h"
#include "exactsim/exactsim.h"
#include "exactsim/stepping/adaptive_step.h"
#include "experiments/stress_scenes.h"
#include "physics/physics_scene.h"

namespace exactsim::failed_solve_split_test {
namespace {

// The capture at step 98 as its run took it (the working set as one problem, no margin), with the
// interior point's start at last step's answer after stalled starts where `rescue`, and the
// retaken step's sparse Lemke cap `retaken_pivots_per_unknown` where it is >= 0.
Simulation capture_step98(bool rescue, Real retaken_pivots_per_unknown = -1) {
  long steps_done = 0;
  Simulation sim =
      simulation_at_checkpoint(std::string(EXACTSIM_SOURCE_DIR) +
                                   "/tests/physics/data/hull-pour3d-n100-seed3-parts-off-step98/",
                               steps_done, [&](Scene& s) {
                                 SolverOptions::Diagnostics& d = s.world.solver.diagnostics;
                                 d.working_set_parts = false;
                                 d.working_set_margin = 0;
                                 d.rescue_from_last_answer = rescue;
                                 if (retaken_pivots_per_unknown >= 0)
                                   d.retaken_pivots_per_unknown = retaken_pivots_per_unknown;
                               });
  EXPECT_EQ(steps_done, 98);
  return sim;
}

TEST(FailedSolve, AStepWhoseSolveFailsIsCertifiedAsTwoHalves) {
  Simulation sim = capture_step98(false);
  ASSERT_GE(sim.world().stepping.max_step_splits, 1);
  const StepReport& r = sim.step();
  // The whole step's solve failed (else nothing was retaken, and the capture no longer tests
  // this), and its two halves certified on their whole problems, within their energy budgets;
  // the step ends at 99 h.
  EXPECT_EQ(r.retaken_failed_solves, 1) << "the whole step certified: pick another capture";
  EXPECT_EQ(r.substeps, 2);
  EXPECT_EQ(r.split.kind, SplitCause::Kind::kFailedSolve) << to_string(r.split.kind);
  EXPECT_EQ(r.status, StepStatus::kOk) << to_string(r.status);
  EXPECT_TRUE(r.solver.ok());
  ASSERT_TRUE(r.energy.checked);
  EXPECT_LE(r.energy.total_excess(), r.energy.total_tolerance);
  EXPECT_NEAR(sim.time(), 99 * sim.step_size(), 1e-12);
}

// The same whole step with the interior point's last start at last step's answer, mapped by
// contact (docs/solvers.md "The working set": after the cold starts stalled): the whole step
// certifies on its whole problem and within its energy budget, and nothing is retaken (without
// that start it is: AStepWhoseSolveFailsIsCertifiedAsTwoHalves).
TEST(FailedSolve, LastStepsAnswerAfterTheStalledStartsCertifiesTheWholeStep) {
  ASSERT_TRUE(SolverOptions{}.diagnostics.rescue_from_last_answer);  // the default
  Simulation sim = capture_step98(true);
  const StepReport& r = sim.step();
  EXPECT_EQ(r.retaken_failed_solves, 0);
  EXPECT_EQ(r.substeps, 1);
  EXPECT_EQ(r.split.kind, SplitCause::Kind::kNone) << to_string(r.split.kind);
  EXPECT_EQ(r.status, StepStatus::kOk) << to_string(r.status);
  EXPECT_TRUE(r.solver.ok());
  EXPECT_EQ(r.solver.method, SolveMethod::kInteriorPoint);
  ASSERT_TRUE(r.energy.checked);
  EXPECT_LE(r.energy.total_excess(), r.energy.total_tolerance);
  EXPECT_NEAR(sim.time(), 99 * sim.step_size(), 1e-12);
}

// The same whole step, which a failed solve takes again as halves, stops its working set's sparse
// Lemke runs after solver.diagnostics.retaken_pivots_per_unknown pivots per unknown
// (docs/solvers.md "The working set", "A step that will be retaken"): a round runs the sparse Lemke
// at most twice (from the last round's basis, then cold) and again at the solver's own tolerance,
// in at most 8 rounds, each run on at most the island's unknowns, and the halves certify. With
// their own budget (0) the runs go on along their path (on this capture to an answer of the whole
// step).
TEST(FailedSolve, AWholeStepToBeRetakenStopsItsSparseLemkeRunsEarly) {
  constexpr int kIslandUnknowns = 8600;  // the capture's islands: 8,180–8,520
  constexpr Real kPerUnknown = 0.02;
  const int bound = 8 * 4 * static_cast<int>(std::ceil(kPerUnknown * kIslandUnknowns));
  int pivots[2] = {0, 0};
  for (const int own_budget : {0, 1}) {
    Simulation sim = capture_step98(false, own_budget ? 0 : kPerUnknown);
    const StepReport& r = sim.step();
    ASSERT_LE(r.largest_island_lcp, kIslandUnknowns);
    EXPECT_EQ(r.status, StepStatus::kOk) << to_string(r.status);
    if (own_budget) {  // its walks go on: here to an answer of the whole step
      pivots[1] = r.split.kind == SplitCause::Kind::kFailedSolve ? r.split.pivots : r.solver.pivots;
      continue;
    }
    EXPECT_EQ(r.split.kind, SplitCause::Kind::kFailedSolve) << to_string(r.split.kind);
    EXPECT_GT(r.split.seconds, 0);
    pivots[0] = r.split.pivots;
  }
  EXPECT_LE(pivots[0], bound);
  EXPECT_GT(pivots[1], bound) << "the whole step's own runs end as soon: the capture no longer "
                                 "tests the bound";
  std::printf("the whole step's pivots: %d held to %.2f a unknown (bound %d), %d own budget\n",
              pivots[0], kPerUnknown, bound, pivots[1]);
}

// A solve that fails at every size (a tolerance no answer meets) is taken again down to eighth
// steps and no further: with the run going on past failures the step is 8 eighths, 7 of its
// failed solves retaken (the whole step's, both halves' and the four quarters'), and it reports
// the failure; without, the step ends at its first failed eighth, after 3 retakes.
TEST(FailedSolve, ASolveThatFailsAtEverySizeIsRetakenDownToEighthSteps) {
  for (const bool go_on : {true, false}) {
    physics_test::Sim sim(physics_test::moving_box_on_floor_doc({1.0, 0.3, -0.5}, {0.2, 0.1, 0.3}));
    World& w = sim.scene.world;
    w.stepping.continue_on_solver_failure = go_on;
    w.solver.tolerance = 1e-300;  // no solve certifies
    const StepReport r = advance(w, sim.state, sim.ws, sim.scene.step, 0);
    EXPECT_TRUE(is_failed_solve(r.status)) << to_string(r.status);
    EXPECT_EQ(r.retaken_failed_solves, go_on ? 7 : 3) << "go on " << go_on;
    EXPECT_EQ(r.substeps, go_on ? 8 : 1) << "go on " << go_on;
    EXPECT_DOUBLE_EQ(sim.state.time, go_on ? 0.01 : 0.00125) << "go on " << go_on;
    // No recovery certifies either: in every part taken the box flew free, ν + h M⁻¹F, into the
    // floor (docs/stepping.md "When a solve fails").
    EXPECT_EQ(r.islands_flown_free, go_on ? 8 : 1) << "go on " << go_on;
    EXPECT_EQ(r.regularisation, 0) << "go on " << go_on;
    const auto v = sim.state.v_of(1);
    EXPECT_NEAR(v(0), 1.0, 1e-12) << "go on " << go_on;
    EXPECT_NEAR(v(2), -0.5 + w.gravity(2) * sim.state.time, 1e-12) << "go on " << go_on;

    // Without the watchdog (the fixed h of the papers' experiments), or with no splitting, the
    // whole step's failure is the step's.
    for (const bool watch : {false, true}) {
      w.stepping.watch_penetration = watch;
      w.stepping.max_step_splits = watch ? 0 : 5;
      const StepReport whole = advance(w, sim.state, sim.ws, sim.scene.step, 1);
      EXPECT_TRUE(is_failed_solve(whole.status));
      EXPECT_EQ(whole.retaken_failed_solves, 0) << "watch " << watch;
      EXPECT_EQ(whole.substeps, 1) << "watch " << watch;
    }
  }
}

// The 3D pour of 100 random hulls that bench_scaling writes (seed 1, μ = 0.3) at h = 0.05, as
// `exactsim run` checkpointed it after 26 steps (tests/physics/data/
// hull-pour3d-n100-seed1-h50-step26): on its settled island of about 12,600 unknowns the step's
// halves (taken from their start after the run's earlier failed whole steps) fail, and so does
// its first quarter, whose working set and sparse Lemke on the whole island took 82 s and 169,717
// pivots to end uncertified; eighth steps certify (docs/stepping.md "When a solve fails").
TEST(FailedSolve, APileWhoseQuarterStepsFailIsCertifiedInEighths) {
  long steps_done = 0;
  Simulation sim = simulation_at_checkpoint(
      EXACTSIM_SOURCE_DIR "/tests/physics/data/hull-pour3d-n100-seed1-h50-step26/", steps_done);
  ASSERT_EQ(steps_done, 26);
  ASSERT_DOUBLE_EQ(sim.step_size(), 0.05);
  const StepReport& r = sim.step();
  EXPECT_EQ(r.status, StepStatus::kOk) << to_string(r.status);
  EXPECT_TRUE(r.solver.ok());
  EXPECT_GE(r.retaken_failed_solves, 2);
  // At most 4 sub-steps down to quarters: more are eighths.
  EXPECT_GT(r.substeps, 4) << "no eighth step was taken: the capture no longer tests them";
  ASSERT_TRUE(r.energy.checked);
  EXPECT_LE(r.energy.total_excess(), r.energy.total_tolerance);
  EXPECT_NEAR(sim.time(), 27 * sim.step_size(), 1e-12);
}

// After a whole step whose solve failed, the next StepOptions::halves_after_failed_solve steps are
// taken as halves from their start, without the whole step first; a whole step that fails again
// doubles that count, one that certifies lowers it by one (docs/stepping.md "Halves after a
// failed solve"). 0: every step whole first. A tolerance no answer meets makes a chosen step fail.
TEST(FailedSolve, TheStepsAfterAFailedWholeStepAreTakenAsHalves) {
  for (const int first_span : {4, 0}) {
    physics_test::Sim sim(physics_test::moving_box_on_floor_doc({0.5, 0.3, 0.0}, {0.0, 0.0, 0.0}));
    World& w = sim.scene.world;
    w.stepping.continue_on_solver_failure = true;
    w.stepping.halves_after_failed_solve = first_span;
    const Real tolerance = w.solver.tolerance;
    long k = 0;
    // Takes step k, failing its solves where `fail`; returns its sub-steps.
    const auto take = [&](bool fail) {
      w.solver.tolerance = fail ? 1e-300 : tolerance;
      const StepReport r = advance(w, sim.state, sim.ws, sim.scene.step, k);
      EXPECT_EQ(is_failed_solve(r.status), fail) << "step " << k << ": " << to_string(r.status);
      EXPECT_NEAR(sim.state.time, (k + 1) * sim.scene.step, 1e-12) << "step " << k;
      ++k;
      // Taken as halves from its start exactly where the whole step was not tried: 2 sub-steps
      // that this step's own failed whole attempt did not cause.
      EXPECT_EQ(r.halves_from_start, r.substeps == 2 && r.split.kind == SplitCause::Kind::kNone)
          << "step " << k - 1;
      return r.substeps;
    };
    // Whole, its halves, quarters and eighths: every one fails.
    EXPECT_EQ(take(true), 8);
    if (first_span == 0) {
      for (int i = 0; i < 3; ++i) EXPECT_EQ(take(false), 1) << "step " << k;
      continue;
    }
    for (int i = 0; i < 4; ++i) EXPECT_EQ(take(false), 2) << "step " << k;
    // The whole step again. Failing: the next 8 steps are halves (the count doubled to 16).
    EXPECT_EQ(take(true), 8);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(take(false), 2) << "step " << k;
    // Certified: the count falls by one (15), and failing again gives 15 halves (the count 30).
    EXPECT_EQ(take(false), 1);
    EXPECT_EQ(take(true), 8);
    for (int i = 0; i < 15; ++i) EXPECT_EQ(take(false), 2) << "step " << k;
    // 26 whole steps certified bring the count back to 4.
    for (int i = 0; i < 26; ++i) EXPECT_EQ(take(false), 1) << "step " << k;
    EXPECT_EQ(take(true), 8);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(take(false), 2) << "step " << k;
    EXPECT_EQ(take(false), 1);
  }
}

// A large dense island (200 unknowns or more) of a step that a failed solve will take again as
// halves runs its brief Lemke and its working set, not the dense path's whole stack
// (docs/solvers.md "The solve policy"): the 3D hull pour of seed 2 at h = 0.05, step 94, an
// island of about 800 unknowns that neither certifies. Taken on its own (nothing retaken), the
// whole stack runs after them and certifies it.
TEST(FailedSolve, ALargeDenseIslandOfAStepThatWillBeRetakenSkipsTheWholeStack) {
  HullPourOptions o;
  o.step = 0.05;
  Scene scene = hull_pour3d(2, o);
  // Every step whole first, as in the run this state was found in (docs/stepping.md "Halves
  // after a failed solve").
  scene.world.stepping.halves_after_failed_solve = 0;
  // Dense islands up to 1,000 unknowns, moving or not, as in that run (docs/solvers.md "The
  // threshold").
  scene.world.stepping.dense_max_unknowns = 1000;
  const World& w = scene.world;
  State state = scene.initial;
  Workspace ws;
  for (long k = 0; k < 94; ++k) advance(w, state, ws, scene.step, k);
  auto kinds = [](const StepReport& r) {
    std::vector<SolveAttemptKind> k;
    for (const SolveAttempt& a : r.attempts) k.push_back(a.kind);
    return k;
  };
  using K = SolveAttemptKind;
  State retaken_state = state;
  Workspace retaken_ws = ws;
  retaken_ws.retakes_failed_solve = true;
  const StepReport retaken = step(w, retaken_state, retaken_ws, scene.step, 94);
  ASSERT_GE(retaken.largest_island_lcp, 200);
  EXPECT_TRUE(is_failed_solve(retaken.status)) << "the step certified: pick another";
  EXPECT_EQ(kinds(retaken), (std::vector<K>{K::kDenseBrief, K::kWorkingSet}));

  const StepReport whole = step(w, state, ws, scene.step, 94);
  EXPECT_EQ(kinds(whole), (std::vector<K>{K::kDenseBrief, K::kWorkingSet, K::kDense}));
  EXPECT_EQ(whole.status, StepStatus::kOk) << to_string(whole.status);
  EXPECT_TRUE(whole.solver.ok());
}

}  // namespace
}  // namespace exactsim::failed_solve_split_test
