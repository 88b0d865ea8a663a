// The memory budget in scene files and runs (docs/input-validation.md "Memory budget"): the
// scene field stepping.memory_budget_gib, a run that outgrows its budget ends with a
// MemoryBudgetError and a summary that says so, and the per-step record of a run stays bounded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/stepping/memory_budget.h"
#include "input_error.h"

namespace exactsim {
namespace {

using nlohmann::json;

// n unit boxes in a row on a floor, 1 mm apart, μ = 0.5 (a contact problem of ~40 n unknowns).
json row_of_boxes(int n) {
  json d = {{"format", "exactsim-scene"},
            {"version", 1},
            {"dimension", 2},
            {"time", {{"step", 0.005}, {"duration", 0.05}}},
            {"contact", {{"model", "standard"}, {"friction", 0.5}}}};
  d["bodies"] = json::array();
  d["bodies"].push_back({{"name", "floor"},
                         {"static", true},
                         {"shape", {{"box", {1.01 * n + 2, 1}}}},
                         {"position", {0.505 * n, -0.5}}});
  for (int i = 0; i < n; ++i)
    d["bodies"].push_back({{"name", "b" + std::to_string(i)},
                           {"shape", {{"box", {1, 1}}}},
                           {"density", 100},
                           {"position", {1.001 * i + 0.5, 0.5}}});
  return d;
}

TEST(MemoryBudgetScene, TheFieldIsReadCheckedAndWrittenBack) {
  json d = row_of_boxes(2);
  EXPECT_EQ(parse_scene(d, "scene.json").world.stepping.memory_budget_bytes, 4ull << 30);
  d["stepping"] = {{"memory_budget_gib", 0.25}};
  const Scene s = parse_scene(d, "scene.json");
  EXPECT_EQ(s.world.stepping.memory_budget_bytes, 1ull << 28);
  EXPECT_EQ(scene_to_json(s)["stepping"]["memory_budget_gib"], 0.25);
  EXPECT_EQ(parse_scene(scene_to_json(s), "again.json").world.stepping.memory_budget_bytes,
            1ull << 28);
  // The default is not written (earlier written scenes stay as they were).
  EXPECT_FALSE(scene_to_json(parse_scene(row_of_boxes(2), "x.json"))["stepping"].contains(
      "memory_budget_gib"));
  d["stepping"]["memory_budget_gib"] = 0;
  EXPECT_EQ(ErrorOf([&] { parse_scene(d, "scene.json"); }),
            "scene.json: stepping.memory_budget_gib: must be > 0, got 0.0");
  d["stepping"]["memory_budget_gib"] = 1e-4;
  EXPECT_EQ(ErrorOf([&] { parse_scene(d, "scene.json"); }),
            "scene.json: stepping.memory_budget_gib: must lie in [0.001, 1e6] GiB, got 0.0001 "
            "(docs/input-validation.md)");
}

TEST(MemoryBudgetScene, ARunOverItsBudgetEndsWithTheErrorAndAFailedSummary) {
  json d = row_of_boxes(10);
  // 1.02 MiB, and the island on the dense path (its 368 unknowns are above the 2D default).
  d["stepping"] = {{"memory_budget_gib", 0.001}, {"dense_max_unknowns", 2000}};
  const Scene scene = parse_scene(d, "row.json");
  const auto dir = std::filesystem::temp_directory_path() / "exactsim_memory_budget_test";
  std::filesystem::remove_all(dir);
  RunOptions o;
  o.out_dir = dir.string();
  o.progress = false;
  std::string what;
  try {
    run_scene(scene, o);
  } catch (const MemoryBudgetError& e) {
    what = e.what();
  }
  EXPECT_EQ(what.substr(0, 36), "the step's contact problem (368 unkn") << what;
  EXPECT_NE(what.find("more than the memory budget of 1.02 MiB"), std::string::npos) << what;
  std::ifstream f(dir / "summary.json");
  const json summary = json::parse(f);
  EXPECT_EQ(summary["failed"], true);
  EXPECT_EQ(summary["steps_done"], 0);
  EXPECT_EQ(summary["failure"], "step 0: " + what);

  // The same scene within the default budget runs to the end.
  RunOptions quiet;
  quiet.progress = false;
  const RunSummary ok = run_scene(parse_scene(row_of_boxes(10), "row.json"), quiet);
  EXPECT_FALSE(ok.failed) << ok.failure;
  EXPECT_EQ(ok.steps_done, 10);
}

TEST(MemoryBudgetScene, TheOverlapRecordStaysBoundedWithASystematicSample) {
  json d = row_of_boxes(3);
  d["time"]["duration"] = 0.05;           // 10 steps
  d["bodies"][1]["position"][1] = 0.499;  // a little overlap, changing as it is pushed out
  const Scene scene = parse_scene(d, "row.json");
  std::vector<Real> all;
  RunOptions o;
  o.progress = false;
  const RunSummary full =
      run_scene(scene, o, [&](const State&, const StepReport& r) { all.push_back(r.overlap); });
  ASSERT_EQ(all.size(), 10u);
  EXPECT_EQ(full.median_overlap_every, 1);
  EXPECT_EQ(full.median_overlap, median(all));
  EXPECT_FALSE(summary_to_json(full).contains("median_overlap_every"));
  // A record of 4 values: steps 0-3, then 0, 2, 4, 6, then 0, 4, 8.
  o.overlap_record_cap = 4;
  const RunSummary thin = run_scene(scene, o);
  EXPECT_EQ(thin.median_overlap_every, 4);
  EXPECT_EQ(thin.median_overlap, median({all[0], all[4], all[8]}));
  EXPECT_EQ(summary_to_json(thin)["median_overlap_every"], 4);
  EXPECT_EQ(thin.max_overlap, full.max_overlap);  // the maximum is over every step still
}

}  // namespace
}  // namespace exactsim
