// The run summary of a scene run with sleeping (docs/stepping.md "Sleeping"): how many bodies
// are asleep at the end, in summary.json and RunSummary.
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

}  // namespace
}  // namespace exactsim
