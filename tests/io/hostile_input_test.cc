// Hostile input at the door (docs/input-validation.md): reproducers of hostile files and the
// accepted ranges. Every rejection is an InputError naming the file, the JSON path and the
// reason once; the tests compare whole messages.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "exactsim/impact/impact_problem_json.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "input_error.h"

namespace exactsim::hostile_input_test {
namespace {

using nlohmann::json;

const std::string kData = std::string(EXACTSIM_SOURCE_DIR) + "/tests/io/data/";

std::string file_error(const std::string& name) {
  return ErrorOf([&] { read_scene_file(kData + name); });
}

// ---- The reproducers: each is rejected with file, path and reason ---------------------------

TEST(HostileInput, NumberOutsideTheDoubleRangeNamesItsPath) {
  EXPECT_EQ(file_error("overflow-1e309.json"),
            kData +
                "overflow-1e309.json: bodies[0].position[1]: the number 1e309 is outside "
                "the range of a double (line 2, column 83)");
}

TEST(HostileInput, TinyBoxIsOutOfRange) {
  EXPECT_EQ(file_error("tiny-box-nan.json"),
            kData +
                "tiny-box-nan.json: bodies[0].shape.box[0]: must lie in [1e-5, 100000] m, "
                "got 1e-300 (docs/input-validation.md)");
}

TEST(HostileInput, SubnormalDensityIsOutOfRange) {
  EXPECT_EQ(file_error("fuzz-density-1e-320-nan-bound.json"),
            kData +
                "fuzz-density-1e-320-nan-bound.json: bodies[1].density: must lie in [0.001, "
                "1e6] kg/m^2, got 1e-320 (docs/input-validation.md)");
}

TEST(HostileInput, NamesWithACommaOrANewlineAreRejected) {
  EXPECT_EQ(file_error("fuzz-name-comma-csv.json"),
            kData +
                "fuzz-name-comma-csv.json: bodies[1].name: character 1 is ','; names may "
                "not contain , \" ' or \\ (they are written unquoted to CSV files)");
  EXPECT_EQ(file_error("fuzz-name-newline-csv.json"),
            kData +
                "fuzz-name-newline-csv.json: bodies[1].name: character 1 is a control "
                "character (code 10); names may not contain control characters");
}

TEST(HostileInput, DuplicateKeysAreErrorsNamingTheKey) {
  EXPECT_EQ(file_error("dupkey-dimension.json"),
            kData +
                "dupkey-dimension.json: dimension: duplicate key \"dimension\" (an object "
                "names each key once)");
}

TEST(HostileInput, CoincidentBoxesAreRejectedNamingThePairs) {
  EXPECT_EQ(file_error("coincident2d-200.json"),
            kData +
                "coincident2d-200.json: bodies[2]: starts deeply inside bodies[1] \"b0\": "
                "their intersection is 100% of the smaller body's area; also bodies[1] "
                "\"b0\" and bodies[3] \"b2\" (100%); also bodies[1] \"b0\" and bodies[4] "
                "\"b3\" (100%); the check stopped there. Bodies present at t = 0 may overlap "
                "by at most 50% (docs/input-validation.md)");
}

TEST(HostileInput, HugeVelocityIsOutOfRange) {
  EXPECT_EQ(file_error("huge-velocity-null-energy.json"),
            kData +
                "huge-velocity-null-energy.json: bodies[0].velocity: speed 1.41421e154 m/s "
                "exceeds the accepted maximum of 100000 m/s (docs/input-validation.md)");
}

TEST(HostileInput, HugeGravityIsOutOfRange) {
  EXPECT_EQ(file_error("fuzz-gravity-x-1e308-null-energy.json"),
            kData +
                "fuzz-gravity-x-1e308-null-energy.json: gravity: magnitude 1e308 m/s^2 "
                "exceeds the accepted maximum of 10000 m/s^2 (docs/input-validation.md)");
}

// [1e200, 1e200, 0, 0] is scaled by its largest component before normalising: the rotation the
// file means (90° about x), not (0, 0, 0, 0).
TEST(HostileInput, HugeQuaternionIsScaledBeforeNormalising) {
  const Scene s = read_scene_file(kData + "quaternion-overflow.json");
  const auto q = s.initial.q_of(0).tail<4>();
  EXPECT_NEAR(q[0], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(q[1], std::sqrt(0.5), 1e-15);
  EXPECT_EQ(q[2], 0.0);
  EXPECT_EQ(q[3], 0.0);
}

// ---- Scenes built here ----------------------------------------------------------------------

json box_scene_2d() {
  return json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 2,
    "time": {"step": 0.01, "duration": 0.1},
    "bodies": [
      {"name": "floor", "static": true, "shape": {"box": [4, 1]}, "position": [0, -0.5]},
      {"name": "box", "shape": {"box": [0.2, 0.2]}, "density": 100, "position": [0, 0.3]}]})");
}

json box_scene_3d() {
  return json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 3,
    "time": {"step": 0.01, "duration": 0.1},
    "bodies": [
      {"name": "floor", "static": true, "shape": {"box": [4, 4, 1]}, "position": [0, 0, -0.5]},
      {"name": "box", "shape": {"box": [0.2, 0.2, 0.2]}, "mass": 1,
       "inertia": [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]], "position": [0, 0, 0.3]}]})");
}

std::string error_of(const json& doc) {
  return ErrorOf([&] { parse_scene(doc, "scene.json"); });
}

// Found by fuzz_scene_step: a non-string contact model threw a JSON type_error (exit 1, no
// path) from the check for event scenes, before the reader's own type check.
TEST(HostileInput, ANonStringContactModelIsAnInputError) {
  json d = box_scene_2d();
  d["contact"] = {{"model", 1e308}};
  EXPECT_EQ(error_of(d), "scene.json: contact.model: expected a string, got number");
  d["contact"] = {{"model", json::array({"plus"})}};
  EXPECT_EQ(error_of(d), "scene.json: contact.model: expected a string, got array");
}

// The location appears once, also for errors raised inside a shape's construction.
TEST(HostileInput, LocationAppearsOnce) {
  json d = box_scene_2d();
  d["bodies"][1]["shape"] = {{"polygon", {{0, 0}, {1, 0}}}};
  EXPECT_EQ(error_of(d),
            "scene.json: bodies[1].shape.polygon: 2 points given, a polygon needs at least 3");
  d["bodies"][1]["shape"] = {{"polygon", {{0, 0}, {1, 0}, {1e7, 1}}}};
  EXPECT_EQ(error_of(d),
            "scene.json: bodies[1].shape.polygon[2][0]: must lie in [-1e6, 1e6] m, got 10000000.0 "
            "(docs/input-validation.md)");
}

TEST(HostileInput, AcceptedRangesOfTheScene) {
  struct Case {
    std::function<void(json&)> edit;
    std::string message;
  };
  const std::vector<Case> cases = {
      {[](json& d) { d["bodies"][1]["density"] = 1e7; },
       "bodies[1].density: must lie in [0.001, 1e6] kg/m^2, got 10000000.0 "
       "(docs/input-validation.md)"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"box", {1e-5, 1e-5}}};
         d["bodies"][1]["density"] = 1e-3;
       },
       "bodies[1].density: gives a mass of 1e-13 kg, outside the accepted range [1e-9, 1e9] kg "
       "(docs/input-validation.md)"},
      {[](json& d) {
         d["bodies"][1].erase("density");
         d["bodies"][1]["mass"] = 1;
         d["bodies"][1]["inertia"] = 5e-324;
       },
       "bodies[1].inertia: inertia 4.94066e-324 kg m^2 is outside [1e-9, 2] x m r^2 = "
       "[2e-11, 0.04] (m = 1 kg, r = 0.141421 m, the largest vertex distance from the origin; "
       "docs/input-validation.md)"},
      {[](json& d) {
         d["bodies"][1].erase("density");
         d["bodies"][1]["mass"] = 1e10;
         d["bodies"][1]["inertia"] = 1;
       },
       "bodies[1].mass: must lie in [1e-9, 1e9] kg, got 10000000000.0 "
       "(docs/input-validation.md)"},
      {[](json& d) {
         d["bodies"][1]["position"] = {0, -1e308};
       },
       "bodies[1].position[1]: must lie in [-1e6, 1e6] m, got -1e+308 "
       "(docs/input-validation.md)"},
      {[](json& d) { d["bodies"][1]["angular_velocity"] = 1e7; },
       "bodies[1].angular_velocity: must lie in [-1e6, 1e6] rad/s, got 10000000.0 "
       "(docs/input-validation.md)"},
      {[](json& d) { d["bodies"][1]["angle"] = 1e300; },
       "bodies[1].angle: must lie in [-10000, 10000] rad, got 1e+300 "
       "(docs/input-validation.md)"},
      {[](json& d) { d["time"]["step"] = 1e-12; },
       "time.step: must lie in [1e-9, 10] s, got 1e-12 (docs/input-validation.md)"},
      {[](json& d) { d["time"]["step"] = 0.5; },
       "time.step: the step (0.5 s) is longer than the duration (0.1 s)"},
      {[](json& d) { d["time"]["duration"] = 1e8; }, "time: duration / step exceeds 1e9 steps"},
      {[](json& d) { d["bodies"][1]["friction"] = 1e3; },
       "bodies[1].friction: must lie in [0, 100], got 1000.0 (docs/input-validation.md)"},
      {[](json& d) { d["bodies"][1]["spawn_time"] = 1e300; },
       "bodies[1].spawn_time: must lie in [0, 1e9] s, got 1e+300 (docs/input-validation.md)"},
      {[](json& d) {
         d["contact"] = {{"parameters", {{"epsilon", 1e300}}}};
       },
       "contact.parameters.epsilon: must lie in [1e-12, 1000] m, got 1e+300 "
       "(docs/input-validation.md)"},
      {[](json& d) {
         d["contact"] = {{"parameters", {{"min_applicability", -2}}}};
       },
       "contact.parameters.min_applicability: must lie in [-1, 1], got -2.0 "
       "(docs/input-validation.md)"},
      {[](json& d) {
         d["solver"] = {{"tolerance", 10}};
       },
       "solver.tolerance: must lie in [0, 1], got 10.0 (docs/input-validation.md)"},
      {[](json& d) { d["name"] = std::string("a\0b", 3); },
       "name: character 1 is a control character (code 0); names may not contain control "
       "characters"},
      {[](json& d) { d["bodies"][1]["name"] = " box"; },
       "bodies[1].name: must not begin or end with a space"},
      {[](json& d) { d["bodies"][1]["name"] = "say \"hi\""; },
       "bodies[1].name: character 4 is '\"'; names may not contain , \" ' or \\ (they are "
       "written unquoted to CSV files)"},
      {[](json& d) { d["bodies"][1]["name"] = std::string(300, 'x'); },
       "bodies[1].name: longer than 256 bytes"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"box", {1e5, 1e-5}}};
       },
       "bodies[1].shape.box: the shape's area (1) is below 1e-9 of its size^2: too thin for "
       "meaningful mass properties (docs/input-validation.md)"},
  };
  for (const Case& c : cases) {
    json d = box_scene_2d();
    c.edit(d);
    EXPECT_EQ(error_of(d), "scene.json: " + c.message) << d.dump();
  }
}

TEST(HostileInput, AcceptedRangesIn3d) {
  json d = box_scene_3d();
  d["bodies"][1]["inertia"] = {{1e3, 0, 0}, {0, 1e3, 0}, {0, 0, 1e3}};
  EXPECT_EQ(error_of(d),
            "scene.json: bodies[1].inertia: inertia 1000 kg m^2 is outside [1e-9, 2] x m r^2 = "
            "[3e-11, 0.06] (m = 1 kg, r = 0.173205 m, the largest vertex distance from the "
            "origin; docs/input-validation.md)");
  d = box_scene_3d();
  d["bodies"][1]["angular_velocity"] = {1e7, 0, 0};
  EXPECT_EQ(error_of(d),
            "scene.json: bodies[1].angular_velocity: angular speed 1e7 rad/s exceeds the accepted "
            "maximum of 1e6 rad/s (docs/input-validation.md)");
  d = box_scene_3d();
  d["bodies"][1]["orientation"] = {0, 0, 0, 0};
  EXPECT_EQ(error_of(d), "scene.json: bodies[1].orientation: the quaternion has zero norm");
  // A tiny quaternion is a direction too: scaled, it is the identity.
  d["bodies"][1]["orientation"] = {1e-300, 0, 0, 0};
  EXPECT_EQ(parse_scene(d, "s.json").initial.q_of(1).tail<4>(), Eigen::Vector4d(1, 0, 0, 0));
  // Deep overlap in 3D: the box sunk into the floor by 80% of its height.
  d = box_scene_3d();
  d["bodies"][1]["position"] = {0, 0, -0.06};
  EXPECT_EQ(error_of(d),
            "scene.json: bodies[1]: starts deeply inside bodies[0] \"floor\": their intersection "
            "is 80% of the smaller body's volume. Bodies present at t = 0 may overlap by at most "
            "50% (docs/input-validation.md)");
  // Shallow contact and later spawns are fine.
  d["bodies"][1]["position"] = {0, 0, 0.05};
  EXPECT_NO_THROW(parse_scene(d, "s.json"));
  d["bodies"][1]["position"] = {0, 0, -0.06};
  d["bodies"][1]["spawn_time"] = 0.05;
  EXPECT_NO_THROW(parse_scene(d, "s.json"));
}

// 20,000 coincident boxes: rejected after naming three pairs, in bounded time (under 10 s: the
// sweep stops at the third deep pair).
TEST(HostileInput, TwentyThousandCoincidentBoxesAreRejectedQuickly) {
  json d = box_scene_2d();
  for (int i = 0; i < 20000; ++i)
    d["bodies"].push_back({{"name", "b" + std::to_string(i)},
                           {"shape", {{"box", {0.1, 0.1}}}},
                           {"density", 100},
                           {"position", {0, 1}}});
  const auto t0 = std::chrono::steady_clock::now();
  const std::string e = error_of(d);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(e.substr(0, 60), "scene.json: bodies[3]: starts deeply inside bodies[2] \"b0\": ");
  EXPECT_LT(seconds, 10.0);
}

// Many bodies whose boxes overlap without deep overlap: the check's work is bounded too.
TEST(HostileInput, AbsurdlyDenseScenesAreRejected) {
  json d = box_scene_2d();
  d["bodies"] = json::array();
  // 400 thin rotated rods through one point: every pair's boxes overlap, areas barely do.
  for (int i = 0; i < 400; ++i)
    d["bodies"].push_back({{"name", "r" + std::to_string(i)},
                           {"shape", {{"box", {1.0, 0.001}}}},
                           {"density", 100},
                           {"position", {0, 1}},
                           {"angle", 3.14159 * i / 400}});
  EXPECT_EQ(error_of(d),
            "scene.json: bodies: more than 35600 pairs of bodies have overlapping bounding boxes "
            "at t = 0 (at most 64 per body plus 10000): the scene is too dense to check or to "
            "simulate (docs/input-validation.md)");
}

// ---- JSON syntax, nesting, files --------------------------------------------------------------

std::filesystem::path scratch_dir() {
  const auto dir = std::filesystem::temp_directory_path() / "exactsim_hostile_input_test";
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(HostileInput, JsonErrorsNameLineColumnAndPath) {
  const auto dir = scratch_dir();
  const std::string f = (dir / "nested-dup.json").string();
  std::ofstream(f) << R"({"format": "exactsim-scene", "version": 1, "dimension": 2,
 "time": {"step": 0.01, "duration": 0.05, "step": 0.02}, "bodies": []})";
  EXPECT_EQ(ErrorOf([&] { read_scene_file(f); }),
            f + ": time.step: duplicate key \"step\" (an object names each key once)");
  const std::string g = (dir / "syntax.json").string();
  std::ofstream(g) << "{\"format\": \"exactsim-scene\",\n \"bodies\": [1, 2 3]}";
  EXPECT_EQ(ErrorOf([&] { read_scene_file(g); }),
            g + ": not valid JSON at line 2, column 18 (in bodies[2]): syntax error while "
                "parsing array - unexpected number literal; expected ']'");
  const std::string h = (dir / "deep.json").string();
  std::ofstream(h) << std::string(100000, '[') << std::string(100000, ']');
  EXPECT_EQ(ErrorOf([&] { read_scene_file(h); }),
            h + ": [0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
                "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
                "[0][0][0][0][0][0][0][0][0][0][0][0]: nested deeper than 64 levels");
}

TEST(HostileInput, FifosAreRefused) {
  const auto dir = scratch_dir();
  const std::string pipe = (dir / "pipe.json").string();
  const std::string mesh = (dir / "pipe.obj").string();
  std::filesystem::remove(pipe);
  std::filesystem::remove(mesh);
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  ASSERT_EQ(mkfifo(mesh.c_str(), 0600), 0);
  EXPECT_EQ(ErrorOf([&] { read_scene_file(pipe); }), pipe + ": not a regular file");
  EXPECT_EQ(ErrorOf([&] { read_event_scene_file(pipe); }), pipe + ": not a regular file");
  EXPECT_EQ(ErrorOf([&] { read_impact_problem(pipe); }), pipe + ": not a regular file");
  json d = box_scene_3d();
  d["bodies"][1]["shape"] = {{"mesh", "pipe.obj"}};
  EXPECT_EQ(ErrorOf([&] { parse_scene(d, (dir / "scene.json").string()); }),
            (dir / "scene.json").string() + ": bodies[1].shape.mesh: " + mesh +
                ": the mesh file is not a regular file");
}

// ---- The event-scene and impact-problem readers -----------------------------------------------

json ball_scene() {
  return json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 3,
    "time": {"step": 0.001, "duration": 0.01},
    "contact": {"model": "plus", "restitution": {"constant": 0.5}},
    "bodies": [
      {"name": "ground", "static": true, "shape": {"half_space": {"normal": [0, 0, 1]}}},
      {"name": "ball", "shape": {"sphere": {"radius": 0.1}}, "density": 1000,
       "position": [0, 0, 1]}]})");
}

TEST(HostileInput, EventScenesHaveTheSameDoor) {
  auto err = [](const json& d) { return ErrorOf([&] { parse_event_scene(d, "ev.json"); }); };
  json d = ball_scene();
  EXPECT_NO_THROW(parse_event_scene(d, "ev.json"));
  d["bodies"][1]["name"] = "a,b";
  EXPECT_EQ(err(d),
            "ev.json: bodies[1].name: character 1 is ','; names may not contain , \" ' or \\ "
            "(they are written unquoted to CSV files)");
  d = ball_scene();
  d["bodies"][1]["velocity"] = {1e200, 0, 0};
  EXPECT_EQ(err(d),
            "ev.json: bodies[1].velocity: speed 1e200 m/s exceeds the accepted maximum of 100000 "
            "m/s (docs/input-validation.md)");
  d = ball_scene();
  d["bodies"][1]["shape"]["sphere"]["radius"] = 1e-300;
  EXPECT_EQ(err(d),
            "ev.json: bodies[1].shape.sphere.radius: must lie in [1e-5, 100000] m, got 1e-300 "
            "(docs/input-validation.md)");
  d = ball_scene();
  d["bodies"][1]["orientation"] = {1e200, 1e200, 0, 0};
  const EventScene s = parse_event_scene(d, "ev.json");
  EXPECT_NEAR(body_orientation(s.state, 0).w(), std::sqrt(0.5), 1e-15);

  const auto dir = scratch_dir();
  const std::string f = (dir / "ev-dup.json").string();
  std::ofstream(f) << R"({"format": "exactsim-scene", "format": "x"})";
  EXPECT_EQ(ErrorOf([&] { read_event_scene_file(f); }),
            f + ": format: duplicate key \"format\" (an object names each key once)");
}

TEST(HostileInput, ImpactProblemsHaveStrictJson) {
  const auto dir = scratch_dir();
  const std::string f = (dir / "impact-overflow.json").string();
  std::ofstream(f) << R"({"format": "exactsim-impact", "version": 1, "velocity": [1, 2e999]})";
  EXPECT_EQ(ErrorOf([&] { read_impact_problem(f); }),
            f + ": velocity[1]: the number 2e999 is outside the range of a double");
  const std::string g = (dir / "impact-dup.json").string();
  std::ofstream(g) << R"({"format": "exactsim-impact", "options": {"log": true, "log": false}})";
  EXPECT_EQ(ErrorOf([&] { read_impact_problem(g); }),
            g + ": options.log: duplicate key \"log\" (an object names each key once)");
}

}  // namespace
}  // namespace exactsim::hostile_input_test
