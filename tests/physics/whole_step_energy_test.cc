// Energy over the whole step and resting contact at round-off (docs/robustness.md "Energy
// balance", "Stabilisation"): kinetic plus potential energy at the end of every step is at most
// that at its start plus the push-out and projection budgets, checked here on the state itself;
// positions follow velocities (a body is not moved off its velocity step after step); a thrown
// pile comes to rest; and resting contact ends its steps with overlaps at round-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "exactsim/io/run.h"
#include "exactsim/metrics/energy.h"
#include "experiments/scenarios.h"
#include "experiments/stress_scenes.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::whole_step {
namespace {

struct Balance {
  int steps = 0, over_budget = 0, off_velocity = 0, longest_off_streak = 0;
  Real worst_rise = 0;  // J, the largest rise of T + V in a step without a spawn
  Real final_kinetic = 0;
};

// Steps `scene` to its end (whole steps, or with `split` by advance(), which retakes a step that
// crosses deeper than ε as halves); per step, T + V from the state against the report's budgets,
// and each body's displacement against h times its velocity (off by more than 0.1 m/s: moved by
// the projection).
Balance run(const Scene& scene, bool split = false) {
  Balance b;
  const World& w = scene.world;
  State state = scene.initial;
  Workspace ws;
  std::vector<int> streak(w.body_count(), 0);
  for (long n = 0; n < scene.step_count(); ++n) {
    const State before = state;
    const Real e0 = kinetic_energy(w.bodies, state) + potential_energy(w.bodies, state, w.gravity);
    const StepReport r =
        split ? advance(w, state, ws, scene.step, n) : step(w, state, ws, scene.step, n);
    EXPECT_EQ(r.status, StepStatus::kOk) << scene.name << " step " << n;
    const Real e1 = kinetic_energy(w.bodies, state) + potential_energy(w.bodies, state, w.gravity);
    ++b.steps;
    if (r.spawned > 0) continue;
    b.worst_rise = std::max(b.worst_rise, e1 - e0);
    const Real budget = r.energy.stabilisation + r.energy.projection + r.energy.total_tolerance;
    b.over_budget += e1 - e0 > budget;
    for (int i = 0; i < w.body_count(); ++i) {
      if (!state.present[i] || w.bodies[i].is_static) continue;
      const int d = w.dimension;
      const VecX moved = (state.q_of(i).head(d) - before.q_of(i).head(d)) / scene.step;
      const bool off = (moved - state.v_of(i).head(d)).norm() > 0.1;
      b.off_velocity += off;
      streak[i] = off ? streak[i] + 1 : 0;
      b.longest_off_streak = std::max(b.longest_off_streak, streak[i]);
    }
  }
  b.final_kinetic = kinetic_energy(w.bodies, state);
  return b;
}

TEST(WholeStepEnergy, FrictionlessRandomPoursStayWithinTheirBudgets) {
  // pour3d-random seed 1: from step ≈ 836 a rock in the container's corner reported a velocity
  // into the corner while the projection moved it out, step after step (238 steps in a row), and
  // T + V rose 16–18 J per step while the certificate saw −2.7 J; every seed of 1–15 had a step
  // raising T + V by over 1 J (worst 20.5 J), seed 13 in a 188-step streak. A pile settling has
  // short streaks: the longest over seeds 1–13 is 1–3 steps (seed 13: 4) with the standard model's
  // applicable pairs, and 1–5 with every pair within ε (docs/collision.md "Applicable pairs").
  for (std::uint64_t seed = 1; seed <= 13; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Balance b = run(pour3d_random(seed, {}));
    EXPECT_EQ(b.over_budget, 0);
    EXPECT_LT(b.worst_rise, 1.0);
    EXPECT_LE(b.longest_off_streak, 5);
  }
}

TEST(WholeStepEnergy, AThrownSteelPileComesToRest) {
  // Six steel hulls (about 20 kg) thrown at 4.4 m/s into a corner, h = 0.05, μ = 0.3: steps
  // gained 5.1, 1.1, 0.5 J with projections of centimetres, and the pile still moved at t = 2 s.
  // Whether it comes to rest turns on a hull resting with an edge across a flat ridge of another
  // (docs/collision.md "Flat ridges") and on the velocity correction of turned hulls
  // (docs/robustness.md "Stabilisation" step 3). Whole steps with its islands dense, as in the run
  // it was found in; by default its moving islands are sparse (docs/solvers.md "The threshold"),
  // on which step 7's whole step crosses deeper than ε and advance() takes it as halves.
  Scene scene =
      read_scene_file(EXACTSIM_SOURCE_DIR "/tests/physics/data/corner-throw-steel-3d.json");
  for (const bool dense : {true, false}) {
    scene.world.stepping.dense_max_unknowns = dense ? 1000 : -1;
    const Balance b = run(scene, !dense);
    EXPECT_EQ(b.over_budget, 0) << dense;
    EXPECT_LT(b.worst_rise, 0.1) << dense;
    EXPECT_LT(b.final_kinetic, 1e-12) << dense;
  }
}

TEST(WholeStepEnergy, AFastSpinningClumpGainsNothingFromTheVelocityCorrection) {
  // ball_pour3d seed 94, h = 5 ms: in step 465 a clump of three balls spinning at 46 rad/s turns
  // 0.23 rad in the step. The velocity correction after the projection (docs/robustness.md
  // "Stabilisation" step 3), solved with the step's start mass matrices, gave it 1.29 J against
  // a lift budget of 0.40 J; solved with those at the step's end it only removes energy.
  HullPourOptions o;
  o.duration = 2.4;  // through step 479
  const Balance b = run(ball_pour3d(94, o));
  EXPECT_EQ(b.steps, 480);
  EXPECT_EQ(b.over_budget, 0);
  EXPECT_LT(b.worst_rise, 0.5);
}

// The 10-hull pours of bench_scaling (seed 1, μ = 0.3), 2 s at h from 1 to 50 ms: the median
// overlap per step was 1e-11–5e-8 (m² or m³) with the projection's slop at 1e-3 ε.
Real median_overlap(const char* file, Real h) {
  Scene scene = read_scene_file(std::string(EXACTSIM_SOURCE_DIR "/tests/physics/data/") + file);
  scene.step = h;
  scene.duration = 2.0;
  RunOptions o;
  o.progress = false;
  const RunSummary s = run_scene(scene, o);
  EXPECT_FALSE(s.failed) << file << " h = " << h << ": " << s.failure;
  return s.median_overlap;
}

TEST(WholeStepEnergy, RestingContactEndsItsStepsAtRoundOff) {
  for (const Real h : {0.001, 0.002, 0.005, 0.01, 0.02, 0.05}) {
    EXPECT_LE(median_overlap("pour2d-10-hulls.json", h), 1e-15) << "2D, h = " << h;
    EXPECT_LE(median_overlap("pour3d-10-hulls.json", h), 1e-15) << "3D, h = " << h;
  }
}

}  // namespace
}  // namespace exactsim::physics_test::whole_step
