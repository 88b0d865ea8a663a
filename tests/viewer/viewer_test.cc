// The viewer layer without a browser (docs/viewer.md): a results folder read back (frames equal the
// trajectory, even subsampling keeps the first and last frame, reports attached by step), the
// per-pair overlaps behind the red highlight, the still picture, and the errors for bad folders.
// The page itself is tested in headless Chromium by replay_test.py.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/viewer/final_picture.h"
#include "exactsim/viewer/pair_overlaps.h"
#include "exactsim/viewer/replay.h"
#include "exactsim/viewer/view_camera.h"
#include "input_error.h"
#include "temp_folder.h"

namespace exactsim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kScene2d = std::string(EXACTSIM_SOURCE_DIR) + "/scenes/box-on-floor-2d.json";
const std::string kScene3d = std::string(EXACTSIM_SOURCE_DIR) + "/scenes/cube-drop-3d.json";

// A fresh results folder of a short run of `scene_file` (`steps` steps).
std::string make_run(const std::string& scene_file, int steps, const std::string& name) {
  const std::string dir = fresh_temp_folder("exactsim-viewer-test-" + name);
  Scene scene = read_scene_file(scene_file);
  scene.duration = steps * scene.step;
  RunOptions o;
  o.out_dir = dir;
  o.progress = false;
  run_scene(scene, o);
  return dir;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ViewerResults, FramesEqualTheRunAndSubsampleKeepsFirstAndLast) {
  const std::string dir = make_run(kScene2d, 10, "sub");
  const RunResults all = read_results(dir, kScene2d);
  ASSERT_EQ(all.frames.size(), 11u);  // the initial state (step −1) and the 10 steps
  EXPECT_EQ(all.frames_in_file, 11);
  const RunResults four = read_results(dir, kScene2d, nullptr, 4);
  ASSERT_EQ(four.frames.size(), 4u);
  EXPECT_EQ(four.frames_in_file, 11);
  EXPECT_EQ(four.frames[0].step, -1);
  EXPECT_EQ(four.frames[1].step, 2);
  EXPECT_EQ(four.frames[2].step, 6);
  EXPECT_EQ(four.frames[3].step, 9);
  for (const ReplayFrame& f : four.frames) {
    const ReplayFrame& same = all.frames[f.step + 1];
    EXPECT_EQ(f.q, same.q);
    if (f.step < 0) {
      EXPECT_TRUE(f.report.is_null());  // no step was taken
      continue;
    }
    ASSERT_TRUE(f.report.is_object());
    EXPECT_EQ(f.report["step"].get<long>(), f.step);
  }
  EXPECT_TRUE(all.summary.is_object());
  // The first frame is the scene's initial state, the last the state the run ended in: replay
  // the same scene and compare.
  Scene scene = read_scene_file(kScene2d);
  EXPECT_EQ(all.frames.front().q, scene.initial.q);
  EXPECT_EQ(all.frames.front().time, 0);
  scene.duration = 10 * scene.step;
  State last;
  RunOptions o;
  o.progress = false;
  run_scene(scene, o, [&](const State& s, const StepReport&) { last = s; });
  EXPECT_EQ(all.frames.back().q, last.q);
  EXPECT_EQ(all.frames.back().present, last.present);
}

TEST(ViewerResults, ErrorsNameTheFolderAndTheReason) {
  EXPECT_THAT(ErrorOf([] { read_results("/nonexistent/results"); }),
              HasSubstr("/nonexistent/results: no such results folder"));
  const std::string dir = make_run(kScene2d, 3, "errors");
  ASSERT_TRUE(fs::exists(fs::path(dir) / "scene.json"));  // written by run_scene's recorder
  fs::remove(fs::path(dir) / "scene.json");
  EXPECT_THAT(ErrorOf([&] { read_results(dir); }), HasSubstr("no scene.json"));
  EXPECT_THAT(ErrorOf([&] { read_results(dir, kScene3d); }), HasSubstr("a 2D trajectory, but"));
  // A scene whose body names differ from the trajectory's.
  Scene other = read_scene_file(kScene2d);
  other.world.bodies[1].name = "crate";
  EXPECT_THAT(ErrorOf([&] { read_results(dir, "", &other); }),
              HasSubstr("trajectory.csv: line 3: body 'box' is not in the scene"));
  std::ofstream(fs::path(dir) / "impacts.jsonl") << "\n";
  EXPECT_THAT(ErrorOf([&] { read_results(dir, kScene2d); }), HasSubstr("an event-driven run"));
  fs::remove(fs::path(dir) / "impacts.jsonl");
  fs::remove(fs::path(dir) / "trajectory.csv");
  EXPECT_THAT(ErrorOf([&] { read_results(dir, kScene2d); }), HasSubstr("has no trajectory.csv"));
}

// The plotted series hold every line of steps.jsonl, not only the kept frames' steps.
TEST(ViewerResults, SeriesHoldEveryStepReport) {
  const std::string dir = make_run(kScene2d, 10, "series");
  const RunResults r = read_results(dir, kScene2d, nullptr, 3);
  ASSERT_EQ(r.frames.size(), 3u);
  EXPECT_EQ(r.series_steps, 10);
  EXPECT_EQ(r.series_group, 1);
  std::ifstream in(fs::path(dir) / "steps.jsonl");
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 10u);
  for (const char* name : kSeriesNames) {
    const StepSeries& s = r.series.at(name);
    ASSERT_EQ(s.time.size(), 10u) << name;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const nlohmann::json& v =
          std::string(name) == "solve_seconds" ? lines[i]["seconds"]["solve"] : lines[i][name];
      EXPECT_EQ(s.time[i], lines[i]["time"].get<double>()) << name;
      EXPECT_EQ(s.value[i], v.get<double>()) << name << " step " << i;
    }
  }
}

// A long run's series keeps each group's smallest and largest value: a one-step spike survives.
TEST(ViewerResults, LongSeriesKeepEachGroupsExtremes) {
  const std::string dir = make_run(kScene2d, 1, "long-series");
  {
    std::ofstream out(fs::path(dir) / "steps.jsonl");
    for (int k = 0; k < 5000; ++k)
      out << nlohmann::json{{"step", k},
                            {"time", 0.01 * (k + 1)},
                            {"overlap", k == 3001   ? 7.0
                                        : k == 4444 ? -1.0
                                                    : 0.5},
                            {"contacts", k}}
                 .dump()
          << "\n";
  }
  const RunResults r = read_results(dir, kScene2d);
  EXPECT_EQ(r.series_steps, 5000);
  EXPECT_EQ(r.series_group, 4);  // 2000 groups of 1, then of 2, then 1250 of 4
  const StepSeries& o = r.series.at("overlap");
  EXPECT_LE(o.time.size(), 2u * kSeriesGroups);
  EXPECT_EQ(*std::max_element(o.value.begin(), o.value.end()), 7.0);
  EXPECT_EQ(*std::min_element(o.value.begin(), o.value.end()), -1.0);
  const auto spike = std::find(o.value.begin(), o.value.end(), 7.0) - o.value.begin();
  EXPECT_DOUBLE_EQ(o.time[spike], 0.01 * 3002);  // at its own step's time
  EXPECT_TRUE(std::is_sorted(o.time.begin(), o.time.end()));
  const StepSeries& c = r.series.at("contacts");  // increasing: each group's first and last step
  EXPECT_EQ(c.value.front(), 0);
  EXPECT_EQ(c.value.back(), 4999);
  EXPECT_EQ(c.value.size(), 2500u);
  EXPECT_TRUE(r.series.at("kinetic_energy").time.empty());  // not in these lines
}

TEST(ViewerOverlaps, PairsAreTheExactIntersectionOfTheShapes) {
  Scene scene = read_scene_file(kScene2d);  // floor 4 × 1 with top at y = 0, box 0.2 × 0.2
  ReplayFrame f;
  f.present = {1, 1};
  f.q = VecX::Zero(6);
  f.q << 0, -0.5, 0, 0.3, 0.05, 0;  // box bottom at y = −0.05: 0.2 × 0.05 inside the floor
  const auto pairs = pair_overlaps(scene.world, f);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].a, 0);
  EXPECT_EQ(pairs[0].b, 1);
  EXPECT_NEAR(pairs[0].overlap, 0.2 * 0.05, 1e-15);
  EXPECT_NEAR(body_size(scene.world, 1), 0.04, 1e-15);
  f.q[4] = 0.1;  // resting exactly on the floor: touching is not overlapping
  EXPECT_TRUE(pair_overlaps(scene.world, f).empty());
  f.present[1] = 0;
  f.q[4] = 0;
  EXPECT_TRUE(pair_overlaps(scene.world, f).empty());
}

TEST(ViewerPicture, FinalSvgDrawsTheLastFrame) {
  const std::string dir = make_run(kScene3d, 5, "svg3d");
  ReplayOptions o;
  o.scene_file = kScene3d;
  const ReplayOutput out = write_replay(dir, o);
  EXPECT_EQ(out.frames_in_run, 6);
  EXPECT_EQ(out.frames_shown, 6);
  const std::string svg = slurp(out.picture);
  EXPECT_THAT(svg, HasSubstr("cube-drop-3d, step 4,"));
  // Front faces only: a box shows at most 3 faces, at least 1; floor and cube.
  std::size_t polygons = 0;
  for (std::size_t p = svg.find("<polygon"); p != std::string::npos;
       p = svg.find("<polygon", p + 1))
    ++polygons;
  EXPECT_GE(polygons, 2u);
  EXPECT_LE(polygons, 6u);
  const std::string html = slurp(out.html);
  EXPECT_THAT(html, HasSubstr("\"format\":\"exactsim-replay\""));
  EXPECT_EQ(html.find("</script>", html.find("replay-data")), html.find("</script>\n<script>"));
}

// A run of no steps has its initial state: the page and the picture show it.
TEST(ViewerPicture, ARunOfNoStepsShowsTheInitialState) {
  const std::string dir = make_run(kScene2d, 0, "no-steps");
  ReplayOptions o;
  o.scene_file = kScene2d;
  const ReplayOutput out = write_replay(dir, o);
  EXPECT_EQ(out.frames_in_run, 1);
  EXPECT_THAT(slurp(out.picture), HasSubstr("box-on-floor-2d, initial state, t = 0.0000 s"));
}

TEST(ViewerCamera, ThreeDViewLooksDownAtTheFloor) {
  World w;
  w.dimension = 3;
  w.gravity = Vec3(0, 0, -9.81);
  const ViewCamera c = default_camera(w);
  EXPECT_NEAR(c.up.z(), 1, 1e-15);
  EXPECT_NEAR(c.right.dot(c.screen_up), 0, 1e-15);
  EXPECT_NEAR(c.right.dot(c.toward_camera), 0, 1e-15);
  EXPECT_GT(c.screen_up.z(), 0.5);      // up on screen is against gravity
  EXPECT_GT(c.toward_camera.z(), 0.3);  // the camera is above: the floor's top face is in view
  EXPECT_GT(c.project(Vec3(0, 0, 1)).y(), c.project(Vec3(0, 0, 0)).y());
}

TEST(ViewerCamera, ViewBoxClipsALongFloorToTheBodies) {
  const ViewBox b = view_box({{Vec2(0, 0), Vec2(1, 1)}}, {{Vec2(-100, -1), Vec2(100, 0)}});
  EXPECT_LT(b.width(), 3.5);  // not the 200 m floor
  EXPECT_LT(b.lo.y(), -0.5);  // but the floor near the bodies (clipped at twice their box)
  EXPECT_GT(b.lo.y(), -1.0);
  EXPECT_GT(b.hi.x(), 1.0);
}

}  // namespace
}  // namespace exactsim
