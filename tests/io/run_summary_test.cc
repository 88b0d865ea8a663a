// The run summary: how many bodies are asleep (docs/stepping.md "Sleeping"), still falling or not
// yet spawned at the end, in summary.json and RunSummary; the stop rules (docs/sweeps.md "Stop
// rules"); and the progress line's times.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"

namespace exactsim {
namespace {

using nlohmann::json;

// Three unit boxes resting 1 mm above a floor, apart (three islands), μ = 0.5, 1 s.
Scene three_boxes(bool sleep) {
  json d = {{"format", "exactsim-scene"},
            {"version", 1},
            {"dimension", 2},
            {"time", {{"step", 0.005}, {"duration", 1.0}}},
            {"contact", {{"friction", 0.5}}},
            {"stepping", {{"sleep", sleep}}}};
  d["bodies"] = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {10, 1}}}},
                              {"position", {0, -0.5}}}});
  for (int i = 0; i < 3; ++i)
    d["bodies"].push_back({{"name", "b" + std::to_string(i)},
                           {"shape", {{"box", {1, 1}}}},
                           {"density", 100},
                           {"position", {2.0 * i - 2, 0.501}}});
  return parse_scene(d, "three.json");
}

TEST(RunSummary, CountsTheBodiesAsleepAtTheEnd) {
  RunOptions o;
  o.progress = false;
  const RunSummary slept = run_scene(three_boxes(true), o);
  EXPECT_FALSE(slept.failed);
  EXPECT_EQ(slept.bodies_asleep, 3);
  EXPECT_EQ(summary_to_json(slept)["bodies_asleep"], 3);
  EXPECT_EQ(run_scene(three_boxes(false), o).bodies_asleep, 0);
}

TEST(RunSummary, CountsTheBodiesStillFallingAndNotYetSpawned) {
  Scene scene = three_boxes(false);
  scene.duration = 0.2;
  RunOptions o;
  o.progress = false;
  const RunSummary resting = run_scene(scene, o);
  EXPECT_EQ(resting.bodies_falling, 0);
  EXPECT_EQ(resting.bodies_not_spawned, 0);
  // Box 1 lifted 2 m (falling for 0.64 s), box 2 spawning at 1 s.
  scene.initial.q_of(2)[1] += 2;
  scene.world.bodies[3].spawn_time = 1.0;
  scene.initial.present[3] = 0;
  const RunSummary s = run_scene(scene, o);
  EXPECT_FALSE(s.failed);
  EXPECT_EQ(s.bodies_falling, 1);
  EXPECT_EQ(s.bodies_not_spawned, 1);
  EXPECT_EQ(summary_to_json(s)["bodies_falling"], 1);
  EXPECT_EQ(summary_to_json(s)["bodies_not_spawned"], 1);
  scene.duration = 1.5;  // landed and spawned (and landed: it spawns 1 mm above the floor)
  const RunSummary settled = run_scene(scene, o);
  EXPECT_EQ(settled.bodies_falling, 0);
  EXPECT_EQ(settled.bodies_not_spawned, 0);
}

// Runs `scene` with `rules`, keeping every step's report.
RunSummary run_with(const Scene& scene, const StopRules& rules, std::vector<StepReport>& reports) {
  RunOptions o;
  o.progress = false;
  o.stop = rules;
  reports.clear();
  return run_scene(scene, o, [&](const State&, const StepReport& r) { reports.push_back(r); });
}

// A stopped run: not failed, ended after its last report, stopped_at its end, both in summary.json.
void expect_stopped(const RunSummary& s, const std::vector<StepReport>& reports,
                    const std::string& rule, const Scene& scene) {
  EXPECT_EQ(s.stopped, rule);
  EXPECT_FALSE(s.failed) << s.failure;
  ASSERT_EQ(static_cast<long>(reports.size()), s.steps_done);
  EXPECT_LT(s.steps_done, s.steps_planned);
  EXPECT_DOUBLE_EQ(s.stopped_at, s.steps_done * scene.step);
  const json j = summary_to_json(s);
  EXPECT_EQ(j["stopped"], rule);
  EXPECT_DOUBLE_EQ(j["stopped_at"].get<double>(), s.stopped_at);
}

TEST(RunStopRules, EndTheRunAtTheFirstStepThatBreaksOne) {
  Scene scene = three_boxes(false);
  scene.initial.q_of(2)[1] += 2;  // box 1 falls for 0.64 s, the others rest
  std::vector<StepReport> reports;

  // Kinetic energy over the three boxes' mass above 0.5 J/kg: the fall's ½ v² / 3 passes it at
  // v = √3 m/s, t ≈ 0.18 s; every earlier step is below.
  StopRules rules;
  rules.max_kinetic_energy_per_kg = 0.5;
  RunSummary s = run_with(scene, rules, reports);
  expect_stopped(s, reports, "max_kinetic_energy_per_kg", scene);
  Real mass = 0;
  for (const Body& b : scene.world.bodies)
    if (!b.is_static) mass += b.mass;
  EXPECT_GT(reports.back().kinetic_energy / mass, 0.5);
  for (std::size_t k = 0; k + 1 < reports.size(); ++k)
    EXPECT_LE(reports[k].kinetic_energy / mass, 0.5) << "step " << k;
  EXPECT_NEAR(s.stopped_at, 0.18, 0.01);

  // LCP unknowns above 0: the first step that solves a contact.
  rules = StopRules{};
  rules.max_lcp_unknowns = 0;
  s = run_with(scene, rules, reports);
  expect_stopped(s, reports, "max_lcp_unknowns", scene);
  EXPECT_GT(reports.back().lcp_size, 0);
  for (std::size_t k = 0; k + 1 < reports.size(); ++k) EXPECT_EQ(reports[k].lcp_size, 0);

  // A wall-time budget every step exceeds: one step.
  rules = StopRules{};
  rules.wall_seconds = 1e-12;
  s = run_with(scene, rules, reports);
  expect_stopped(s, reports, "wall_seconds", scene);
  EXPECT_EQ(s.steps_done, 1);

  // Rules the run keeps (no failed solve, fewer unknowns, less energy, time enough): it runs to
  // the end, and summary.json has no stopped fields.
  rules.max_solver_failures = 0;
  rules.max_lcp_unknowns = 1000;
  rules.max_kinetic_energy_per_kg = 1000;
  rules.wall_seconds = 600;
  s = run_with(scene, rules, reports);
  EXPECT_EQ(s.stopped, "");
  EXPECT_EQ(s.solver_failures, 0);
  EXPECT_EQ(s.steps_done, s.steps_planned);
  EXPECT_FALSE(summary_to_json(s).contains("stopped"));
  EXPECT_FALSE(summary_to_json(s).contains("stopped_at"));
}

TEST(RunProgress, SaysTheTimeElapsedAndLeft) {
  EXPECT_EQ(format_duration(0.4), "0 s");
  EXPECT_EQ(format_duration(42.4), "42 s");
  EXPECT_EQ(format_duration(185), "3 min 05 s");
  EXPECT_EQ(format_duration(7620), "2 h 07 min");
  // 100 of 1000 steps in 10 s: 900 left at 10 steps per second.
  EXPECT_EQ(progress_line("pour", 100, 1000, 0.5, 12, 10.0, 0),
            "pour: step 100/1000 (10%), t = 0.500 s, 12 contacts, 10 s elapsed, about 1 min "
            "30 s left");
  // A resumed run that continued at step 500: its rate is that of this invocation's steps.
  EXPECT_EQ(progress_line("pour", 600, 1000, 3.0, 4, 20.0, 500),
            "pour: step 600/1000 (60%), t = 3.000 s, 4 contacts, 20 s elapsed, about 1 min 20 s "
            "left");
  EXPECT_EQ(progress_line("pour", 1000, 1000, 5.0, 4, 20.0, 0),
            "pour: step 1000/1000 (100%), t = 5.000 s, 4 contacts, 20 s elapsed");
}

}  // namespace
}  // namespace exactsim
