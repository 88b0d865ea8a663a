// An event-driven scene through Simulation (docs/api.md "Event-driven scenes"): the same
// interface as a time-stepping scene, stepping the event-driven simulation (docs/plus.md).
#include <gtest/gtest.h>

#include <string>

#include "exactsim/api/simulation.h"
#include "exactsim/events/event_simulation.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/math/error.h"
#include "input_error.h"

namespace exactsim {
namespace {

std::string plus_scene(const std::string& name) {
  return std::string(EXACTSIM_SOURCE_DIR) + "/scenes/plus/" + name + ".json";
}

// Stepping the Simulation is advancing the event-driven simulation to the same times: equal to
// the last bit, with every impact reported in the step it falls in.
TEST(EventSceneApi, StepsAreTheEventDrivenSimulationsToTheBit) {
  Simulation sim = Simulation::from_file(plus_scene("events_bouncing_ball"));
  ASSERT_NE(sim.events(), nullptr);
  EXPECT_EQ(sim.world().dimension, 3);
  const int ball = sim.body("ball");
  const Real h = sim.step_size();
  EXPECT_EQ(h, 0.001);
  EventSimulation direct =
      event_simulation(read_event_scene_file(plus_scene("events_bouncing_ball")));
  int impacts = 0;
  Real energy = sim.kinetic_energy() + sim.potential_energy();
  for (long k = 0; k < 1500; ++k) {
    const StepReport& r = sim.step();
    advance(direct, static_cast<Real>(k + 1) * h);
    ASSERT_EQ(r.status, StepStatus::kOk);
    EXPECT_EQ(r.step, k);
    EXPECT_EQ(sim.time(), direct.time);
    EXPECT_EQ(sim.state().q, direct.state.q) << "step " << k;
    EXPECT_EQ(sim.state().v, direct.state.v) << "step " << k;
    impacts += r.impacts.count;
    if (r.impacts.count > 0) {
      EXPECT_GT(r.impacts.first_time, r.time - h - 1e-15);
      EXPECT_LE(r.impacts.first_time, r.time);
      EXPECT_LT(r.impacts.energy_change, 0.0);  // e = 0.8: each bounce loses energy
    }
    const Real e = r.kinetic_energy + r.potential_energy;
    EXPECT_LE(e, energy + 1e-9) << "step " << k;
    energy = e;
  }
  EXPECT_EQ(impacts, static_cast<int>(sim.events()->impacts.size()));
  EXPECT_GE(impacts, 2);
  EXPECT_GT(sim.position(ball).z(), 0.1 - 1e-9);  // above the ground, to the event tolerance
}

TEST(EventSceneApi, RunGivesTheCradlesAnswer) {
  Simulation sim = Simulation::from_file(plus_scene("events_example3_cradle"));
  sim.run(sim.scene().duration);
  const int n = sim.world().body_count();
  ASSERT_EQ(n, 5);
  EXPECT_NEAR(sim.velocity(n - 1).x(), -2.0, 1e-9);
  for (int i = 0; i + 1 < n; ++i) EXPECT_NEAR(sim.velocity(i).norm(), 0.0, 1e-9) << i;
}

TEST(EventSceneApi, StateRestoresBitForBitAndSettersApply) {
  Simulation sim = Simulation::from_file(plus_scene("events_bouncing_ball"));
  sim.step(300);
  const SimulationState saved = sim.get_state();
  sim.step(400);
  const State first = sim.state();
  sim.set_state(saved);
  EXPECT_EQ(sim.time(), saved.state.time);
  sim.step(400);
  EXPECT_EQ(sim.state().q, first.q);
  EXPECT_EQ(sim.state().v, first.v);
  EXPECT_EQ(sim.time(), first.time);

  // Thrown straight up from the ground's top at 2 m/s: back down after 2 v / g, its apex v²/2g.
  const int ball = sim.body("ball");
  sim.set_pose(ball, Coordinates(0.0, 0.0, 0.5), Quat::Identity());
  sim.set_velocity(ball, Coordinates(0.0, 0.0, 2.0), Coordinates(0.0, 0.0, 0.0));
  Real top = 0.0;
  sim.run(0.3, [&](const Simulation& s) {
    top = std::max(top, s.position(ball).z());
    return true;
  });
  EXPECT_NEAR(top, 0.5 + 4.0 / (2 * 9.81), 1e-5);  // sampled every 1 ms near the apex
}

TEST(EventSceneApi, WhatAnEventDrivenSceneDoesNotTakeIsANamedError) {
  Simulation sim = Simulation::from_file(plus_scene("events_bouncing_ball"));
  EXPECT_EQ(ErrorOf([&] { sim.apply_force(0, Coordinates(1.0, 0.0, 0.0)); }),
            "bodies[0] (ball).force: an event-driven scene takes no applied forces");
  EXPECT_EQ(ErrorOf([&] { sim.apply_torque(0, Coordinates(1.0, 0.0, 0.0)); }),
            "bodies[0] (ball).torque: an event-driven scene takes no applied forces");
  EXPECT_NE(ErrorOf([&] { sim.overlap(); }).find("overlap: not measured"), std::string::npos);
  sim.step();
  EXPECT_TRUE(sim.contacts().empty());
  EXPECT_TRUE(sim.joints().empty());
}

}  // namespace
}  // namespace exactsim
