// The run summary: how many bodies are asleep (docs/stepping.md "Sleeping"), still falling or not
// yet spawned at the end, in summary.json and RunSummary; and the progress line's times.
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
