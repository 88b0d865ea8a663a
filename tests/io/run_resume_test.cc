// Runs that end cleanly (docs/robustness.md "Interrupted runs"): an interrupted run writes its
// summary and a checkpoint, and resuming it gives the files of a run never interrupted; the
// trajectory starts with the initial state; a new run removes an earlier run's files; bad
// checkpoints are refused naming the file and the reason. The CLI's signals and exit statuses
// are tested by cli_interrupt_test.py.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "exactsim/io/checkpoint.h"
#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "experiments/scenarios.h"
#include "experiments/stress_scenes.h"
#include "input_error.h"
#include "physics/physics_scene.h"
#include "temp_folder.h"

namespace exactsim::run_resume_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;

std::string folder(const std::string& name) { return fresh_temp_folder("exactsim-resume-" + name); }

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// steps.jsonl without the wall times of the stages, the solve's attempts and a split's first try.
std::vector<json> step_reports(const std::string& dir) {
  std::vector<json> out;
  std::ifstream in(fs::path(dir) / "steps.jsonl");
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    j.erase("seconds");
    if (j.contains("solver") && j["solver"].contains("attempts"))
      for (json& attempt : j["solver"]["attempts"]) attempt.erase("seconds");
    if (j.contains("split")) j["split"].erase("seconds");
    out.push_back(j);
  }
  return out;
}

// summary.json without its timings and peak memory.
json summary_without_timings(const std::string& dir) {
  json j = json::parse(slurp(fs::path(dir) / "summary.json"));
  for (const char* key : {"wall_seconds", "solver_seconds", "peak_memory_mb"}) j.erase(key);
  return j;
}

RunOptions options(const std::string& dir, int every = 1) {
  RunOptions o;
  o.out_dir = dir;
  o.progress = false;
  o.trajectory_every = every;
  return o;
}

// Runs `scene` into `dir` and interrupts it after step `at` (as the CLI's signal handler would:
// the flag is set while the step is reported).
RunSummary run_interrupted(const Scene& scene, const std::string& dir, long at, int every = 1) {
  volatile std::sig_atomic_t flag = 0;
  RunOptions o = options(dir, every);
  o.interrupt = &flag;
  return run_scene(scene, o, [&](const State&, const StepReport& r) {
    if (r.step == at) flag = SIGINT;
  });
}

RunSummary resume(const Scene& scene, const std::string& dir) {
  RunOptions o = options(dir);
  o.resume = true;
  return run_scene(scene, o);
}

void expect_same_run(const std::string& a, const std::string& b) {
  EXPECT_EQ(slurp(fs::path(a) / "trajectory.csv"), slurp(fs::path(b) / "trajectory.csv"));
  EXPECT_EQ(step_reports(a), step_reports(b));
  EXPECT_EQ(summary_without_timings(a), summary_without_timings(b));
}

Scene pour2d() {
  Pour2dOptions o;
  o.duration = 2.0;
  o.model = ContactModel::kPeg;
  return pour2d_random(1, o);
}

TEST(RunResume, AnInterruptedRunResumesBitForBit) {
  const Scene scene = pour2d();
  const std::string whole = folder("whole"), parts = folder("parts");
  run_scene(scene, options(whole));
  const RunSummary stopped = run_interrupted(scene, parts, 150);
  EXPECT_TRUE(stopped.failed);
  EXPECT_TRUE(stopped.interrupted);
  EXPECT_EQ(stopped.failure, "interrupted");
  EXPECT_EQ(stopped.steps_done, 151);
  const json summary = json::parse(slurp(fs::path(parts) / "summary.json"));
  EXPECT_EQ(summary["failed"], true);
  EXPECT_EQ(summary["failure"], "interrupted");
  EXPECT_TRUE(fs::exists(fs::path(parts) / kCheckpointFile));
  const std::string rows = slurp(fs::path(parts) / "trajectory.csv");
  EXPECT_EQ(rows.back(), '\n');
  EXPECT_THAT(rows.substr(rows.rfind('\n', rows.size() - 2) + 1), ::testing::StartsWith("150,"));

  const RunSummary resumed = resume(scene, parts);
  EXPECT_FALSE(resumed.failed);
  EXPECT_EQ(resumed.steps_done, scene.step_count());
  expect_same_run(whole, parts);
  EXPECT_FALSE(fs::exists(fs::path(parts) / kCheckpointFile));  // the run ended: nothing to resume
}

// A frictional 3D pour of hulls (friction on demand, warm-started frictional LCPs), stopped twice,
// with the trajectory written every 7th step.
TEST(RunResume, AFrictional3dPourStoppedTwiceResumesBitForBit) {
  HullPourOptions o;
  o.duration = 3.0;
  const Scene scene = hull_pour3d(1, o);
  const std::string whole = folder("whole3d"), parts = folder("parts3d");
  run_scene(scene, options(whole, 7));
  run_interrupted(scene, parts, 300, 7);
  volatile std::sig_atomic_t flag = 0;
  RunOptions again = options(parts);
  again.resume = true;
  again.interrupt = &flag;
  run_scene(scene, again, [&](const State&, const StepReport& r) {
    if (r.step == 450) flag = SIGTERM;
  });
  resume(scene, parts);
  expect_same_run(whole, parts);
}

// Located impacts (docs/impacts.md): the die of scenes/die-bounce-3d.json stopped between its
// bounces; the resumed run's impacts and summary are the uninterrupted run's.
TEST(RunResume, ARunWithImpactsResumesBitForBit) {
  const Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/die-bounce-3d.json");
  ASSERT_EQ(scene.world.contact.impact.model, ImpactModel::kPlus);
  const std::string whole = folder("impacts-whole"), parts = folder("impacts-parts");
  const RunSummary all = run_scene(scene, options(whole));
  EXPECT_GT(all.impacts, 5);
  run_interrupted(scene, parts, 300);
  resume(scene, parts);
  expect_same_run(whole, parts);
}

// A run that goes on past failed solves none of which certifies, nor their regularised recovery
// (a tolerance no answer meets): its bodies fly free (docs/stepping.md "When a solve fails"), and
// summary.json counts the islands that did, as steps.jsonl does step by step; stopped and
// resumed, the count goes on from the checkpoint's.
TEST(RunResume, TheIslandsFlownFreeAreCountedAcrossAResume) {
  json doc = physics_test::moving_box_on_floor_doc({1.0, 0.3, -0.5}, {0.2, 0.1, 0.3});
  doc["time"]["duration"] = 0.3;
  doc["solver"] = {{"tolerance", 1e-300}};
  doc["stepping"] = {{"continue_on_solver_failure", true}};
  const Scene scene = parse_scene(doc, "box.json");
  const std::string whole = folder("flown-free-whole"), parts = folder("flown-free-parts");
  const RunSummary all = run_scene(scene, options(whole));
  long per_step = 0;
  for (const json& r : step_reports(whole)) per_step += r.value("islands_flown_free", 0L);
  EXPECT_GT(all.islands_flown_free, 0);
  EXPECT_EQ(all.islands_flown_free, per_step);
  EXPECT_EQ(summary_without_timings(whole)["islands_flown_free"], per_step);
  run_interrupted(scene, parts, 15);
  resume(scene, parts);
  expect_same_run(whole, parts);
}

// A killed run keeps rows written after its last checkpoint, and maybe half a row: resuming cuts
// them off and writes them again.
TEST(RunResume, RowsAfterTheCheckpointAreWrittenAgain) {
  const Scene scene = pour2d();
  const std::string whole = folder("whole-kill"), parts = folder("parts-kill");
  run_scene(scene, options(whole));
  run_interrupted(scene, parts, 100);
  const std::string whole_rows = slurp(fs::path(whole) / "trajectory.csv");
  const std::string cut = slurp(fs::path(parts) / "trajectory.csv");
  // What a kill leaves: the rows of later steps, the last one cut in the middle.
  std::ofstream(fs::path(parts) / "trajectory.csv", std::ios::binary)
      << whole_rows.substr(0, cut.size() + 1000);
  std::ofstream(fs::path(parts) / "steps.jsonl", std::ios::app) << "{\"step\": 101, \"ti";
  fs::remove(fs::path(parts) / "summary.json");
  resume(scene, parts);
  expect_same_run(whole, parts);
}

TEST(RunResume, TheTrajectoryStartsWithTheInitialState) {
  const Scene scene = pour2d();
  const std::string dir = folder("initial");
  Scene short_run = scene;
  short_run.duration = 3 * scene.step;
  run_scene(short_run, options(dir, 2));
  std::istringstream rows(slurp(fs::path(dir) / "trajectory.csv"));
  std::string line;
  std::getline(rows, line);  // header
  std::vector<std::string> initial;
  std::set<std::string> steps;
  while (std::getline(rows, line)) {
    steps.insert(line.substr(0, line.find(',')));
    if (line.rfind("-1,0,", 0) == 0) initial.push_back(line);
  }
  // Step −1 at t = 0, then the steps 0 and 2 (every 2nd) and the last one.
  EXPECT_EQ(steps, (std::set<std::string>{"-1", "0", "2"}));
  // The bodies that join at the first step (the container; the pour's polygons spawn later), at
  // their initial pose and velocity.
  int joining = 0;
  for (int i = 0; i < scene.world.body_count(); ++i) {
    if (scene.world.bodies[i].spawn_time > 0) continue;
    ++joining;
    std::ostringstream row;
    row << std::setprecision(17) << "-1,0," << scene.world.bodies[i].name;
    for (Eigen::Index k = 0; k < 3; ++k) row << ',' << scene.initial.q_of(i)[k];
    for (Eigen::Index k = 0; k < 3; ++k) row << ',' << scene.initial.v_of(i)[k];
    EXPECT_THAT(initial, ::testing::Contains(row.str()));
  }
  EXPECT_GT(joining, 0);
  EXPECT_EQ(initial.size(), static_cast<std::size_t>(joining));
}

TEST(RunResume, ANewRunRemovesAnEarlierRunsFiles) {
  const std::string dir = folder("stale");
  fs::create_directories(dir);
  for (const char* file : kRunFiles) std::ofstream(fs::path(dir) / file) << "stale\n";
  std::ofstream(fs::path(dir) / "notes.txt") << "the user's own\n";
  bool seen = false;
  Scene scene = pour2d();
  scene.duration = 2 * scene.step;
  run_scene(scene, options(dir), [&](const State&, const StepReport&) {
    if (seen) return;
    seen = true;
    for (const char* file : {"summary.json", "replay.html", "final.svg"})
      EXPECT_FALSE(fs::exists(fs::path(dir) / file)) << file << " stands beside the new run";
    EXPECT_NE(slurp(fs::path(dir) / kCheckpointFile), "stale\n");
  });
  EXPECT_TRUE(seen);
  EXPECT_TRUE(fs::exists(fs::path(dir) / "notes.txt"));
  for (const char* file : {"scene.json", "trajectory.csv", "steps.jsonl", "summary.json"})
    EXPECT_NE(slurp(fs::path(dir) / file), "stale\n") << file;
}

TEST(RunResume, BadCheckpointsAreRefusedWithTheFileAndTheReason) {
  const Scene scene = pour2d();
  const std::string dir = folder("bad");
  run_interrupted(scene, dir, 20);
  const fs::path file = fs::path(dir) / kCheckpointFile;
  const std::string good = slurp(file);
  const auto resume_error = [&] { return ErrorOf([&] { resume(scene, dir); }); };

  std::string damaged = good;
  damaged[damaged.size() / 2] ^= 0x10;
  std::ofstream(file, std::ios::binary) << damaged;
  EXPECT_THAT(resume_error(), HasSubstr(file.string() + ": the checkpoint is damaged"));
  std::ofstream(file, std::ios::binary) << good.substr(0, good.size() / 2);
  EXPECT_THAT(resume_error(), HasSubstr(file.string() + ": the checkpoint is damaged"));
  std::ofstream(file, std::ios::binary) << "step,time,body\n";
  EXPECT_THAT(resume_error(), HasSubstr(file.string() + ": not an exactsim checkpoint"));

  std::ofstream(file, std::ios::binary) << good;
  const std::string scene_file = (fs::path(dir) / "scene.json").string();
  const std::string scene_text = slurp(scene_file);
  std::ofstream(scene_file) << scene_text << " ";
  EXPECT_THAT(resume_error(), HasSubstr(file.string() + ": written for another scene"));
  std::ofstream(scene_file) << scene_text;

  fs::resize_file(fs::path(dir) / "steps.jsonl", 10);
  EXPECT_THAT(resume_error(), HasSubstr("steps.jsonl: not the file of the checkpointed run"));

  fs::remove(file);
  EXPECT_THAT(resume_error(),
              HasSubstr(file.string() + ": no checkpoint to resume from: the run was interrupted "
                                        "(summary.json), but its checkpoint is gone"));
  EXPECT_THAT(ErrorOf([&] { require_checkpoint(dir + "/missing"); }),
              HasSubstr("no such results folder"));
}

}  // namespace
}  // namespace exactsim::run_resume_test
