// Scene files: the contract of docs/scene-format.md. Every malformed input is an
// InputError naming the file, the JSON path of the field and the reason; nothing crashes.
#include "exactsim/io/scene_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "experiments/scenarios.h"
#include "experiments/stress_scenes.h"
#include "experiments/structures.h"
#include "input_error.h"

namespace exactsim::scene_json_test {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

json valid_2d() {
  return json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 2,
    "time": {"step": 0.01, "duration": 0.5},
    "contact": {"model": "standard"},
    "bodies": [
      {"name": "floor", "static": true, "shape": {"box": [4, 1]}, "position": [0, -0.5]},
      {"name": "rock", "shape": {"polygon": [[0, 0], [0.2, 0], [0.1, 0.15]]}, "density": 100,
       "position": [0, 0.3], "angle": 0.2, "velocity": [0.5, 0]}]})");
}

json valid_3d() {
  return json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 3,
    "time": {"step": 0.01, "duration": 0.3},
    "contact": {"model": "standard", "friction": 0.3},
    "bodies": [
      {"name": "floor", "static": true, "shape": {"box": [4, 4, 1]}, "position": [0, 0, -0.5]},
      {"name": "rock", "shape": {"hull": [[0.1,0,0],[0,0.1,0],[0,0,0.1],[-0.1,-0.1,-0.1]]},
       "density": 1000, "position": [0, 0, 0.3], "orientation": [1, 0.2, 0, 0]},
      {"name": "ball", "shape": {"icosahedron": {"radius": 0.1}}, "mass": 1,
       "inertia": [[0.004,0,0],[0,0.004,0],[0,0,0.004]], "position": [0.5, 0, 0.3],
       "spawn_time": 0.1}]})");
}

std::string error_of(const json& doc) {
  return ErrorOf([&] { parse_scene(doc, "scene.json"); });
}

TEST(SceneJson, ReadsTheCore) {
  const Scene s2 = parse_scene(valid_2d(), "dir/scene.json");
  EXPECT_EQ(s2.name, "scene");
  EXPECT_EQ(s2.world.dimension, 2);
  EXPECT_EQ(s2.step_count(), 50);
  ASSERT_EQ(s2.world.body_count(), 2);
  EXPECT_TRUE(s2.world.bodies[0].is_static);
  // Density: mass from the exact area, shape re-centred on its centroid; the origin moves to
  // the centroid so the shape stays where the file put it.
  const Body& rock = s2.world.bodies[1];
  EXPECT_NEAR(rock.mass, 100 * 0.5 * 0.2 * 0.15, 1e-12);
  const Vec2 centroid_local(0.1, 0.05);
  const Vec2 expected = Vec2(0, 0.3) + Eigen::Rotation2Dd(0.2) * centroid_local;
  EXPECT_NEAR(s2.initial.q[3], expected.x(), 1e-12);
  EXPECT_NEAR(s2.initial.q[4], expected.y(), 1e-12);
  EXPECT_EQ(s2.initial.v[3], 0.5);

  const Scene s3 = parse_scene(valid_3d(), "scene.json");
  EXPECT_EQ(s3.world.contact.friction, 0.3);
  EXPECT_EQ(s3.world.bodies[2].spawn_time, 0.1);
  EXPECT_NEAR(s3.initial.q_of(1).tail<4>().norm(), 1.0, 1e-15);  // normalised on read
}

TEST(SceneJson, ModelDefaultsToPeg) {
  json d = valid_2d();
  d.erase("contact");
  EXPECT_EQ(parse_scene(d, "s.json").world.contact.model, ContactModel::kPeg);
}

TEST(SceneJson, RejectsMalformedFieldsWithPathAndReason) {
  struct Case {
    std::function<void(json&)> edit;
    const char* message;
  };
  const std::vector<Case> cases = {
      {[](json& d) { d["format"] = "other"; }, "scene.json: format: expected \"exactsim-scene\""},
      {[](json& d) { d["version"] = 2; }, "version: this exactsim reads version 1 only"},
      {[](json& d) { d["dimension"] = 4; }, "dimension: must be between 2 and 3"},
      {[](json& d) { d["time"]["step"] = 0; }, "time.step: must be > 0"},
      {[](json& d) { d["time"].erase("duration"); }, "time.duration: required field is missing"},
      {[](json& d) { d["colour"] = 1; }, "colour: unknown field"},
      {[](json& d) { d["bodies"] = json::array(); }, "bodies: at least one body is required"},
      {[](json& d) { d["bodies"][1]["name"] = "floor"; }, "bodies[1].name: duplicate body name"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"polygon", {{0, 0}, {1, 0}}}};
       },
       "bodies[1].shape.polygon: 2 points given, a polygon needs at least 3"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"polygon", {{0, 0}, {1, 0}, {2, 0}}}};
       },
       "bodies[1].shape.polygon:"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"polygon", {{0, 0}, {1, 0}, {0, 1}, {0.2, 0.2}}}};
       },
       "not convex"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"hull", {{0, 0, 0}}}};
       },
       "bodies[1].shape.hull: shape kind 'hull' is not available in a 2D scene"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"box", {1, -1}}};
       },
       "bodies[1].shape.box[1]: box side lengths must be > 0"},
      {[](json& d) {
         d["bodies"][1]["shape"] = {{"box", {1, 1}}, {"polygon", {}}};
       },
       "bodies[1].shape: exactly one shape kind must be given"},
      {[](json& d) { d["bodies"][1]["density"] = -3; }, "bodies[1].density: must be > 0"},
      {[](json& d) { d["bodies"][1].erase("density"); },
       "bodies[1]: a dynamic body needs 'density' or 'mass' + 'inertia'"},
      {[](json& d) { d["bodies"][1]["mass"] = 1; }, "give either 'density' or 'mass' + 'inertia'"},
      {[](json& d) { d["bodies"][1]["position"] = {0}; }, "bodies[1].position: expected 2 numbers"},
      {[](json& d) {
         d["bodies"][1]["position"] = {0, "x"};
       },
       "bodies[1].position[1]: expected a number"},
      {[](json& d) {
         d["bodies"][1]["orientation"] = {1, 0, 0, 0};
       },
       "bodies[1].orientation: unknown field"},
      {[](json& d) { d["contact"]["model"] = "magic"; }, "contact.model: unknown contact model"},
      {[](json& d) {
         d["solver"] = {{"tolerance", -1}};
       },
       "solver.tolerance: must be > 0"},
      {[](json& d) {
         d["solver"] = {{"diagnostics", {{"revised_min_size", -1}}}};
       },
       "solver.diagnostics.revised_min_size: must be between 0 and 1000000000, got -1"},
      {[](json& d) {
         d["solver"] = {{"diagnostics", {{"revised_sparse_density", 1.5}}}};
       },
       "solver.diagnostics.revised_sparse_density: must lie in [0, 1], got 1.5"},
      {[](json& d) {
         d["solver"] = {{"diagnostics", {{"max_ray_restarts", -1}}}};
       },
       "solver.diagnostics.max_ray_restarts: must be between 0 and 1000, got -1"},
      {[](json& d) {  // the diagnostics are read at the top level of "solver" too
         d["solver"] = {{"max_ray_restarts", -1}};
       },
       "solver.max_ray_restarts: must be between 0 and 1000, got -1"},
      {[](json& d) {
         d["solver"] = {{"polish", false}, {"diagnostics", {{"polish", true}}}};
       },
       "solver.diagnostics.polish: also given in solver; give it once"},
      {[](json& d) {
         d["solver"] = {{"diagnostics", {{"tolerance", 1e-8}}}};
       },
       "solver.diagnostics.tolerance: unknown field"},
      {[](json& d) {
         d["contact"]["impact"] = {{"model", "bouncy"}};
       },
       "contact.impact.model: unknown impact model 'bouncy'"},
      {[](json& d) {
         d["contact"]["impact"] = {{"model", "plus"}, {"restitution", 1.5}};
       },
       "contact.impact.restitution: must lie in [0, 1]"},
      {[](json& d) {
         d["contact"]["impact"] = {{"capture_velocity", 0.1}, {"plastic_velocity", 0.05}};
       },
       "contact.impact.plastic_velocity: must not be below capture_velocity"},
      {[](json& d) {
         d["bodies"][0]["capture_velocity"] = 1;  // above the scene's plastic velocity, 0.01
       },
       "bodies[0].capture_velocity: the plastic velocity (0.01 m/s) must not be below the capture "
       "velocity (1 m/s)"},
      {[](json& d) {
         d["contact"]["impact"] = {{"induced", "staggered"}};
       },
       "contact.impact.induced: unknown induced-impact model 'staggered' (expected "
       "\"sequential\", \"simultaneous\" or \"mixed\")"},
      {[](json& d) {
         d["contact"]["impact"] = {{"induced", "mixed"}, {"mixed_rounds", 0}};
       },
       "contact.impact.mixed_rounds: must be between 1 and 999"},
      {[](json& d) {
         d["contact"]["model"] = "corrective";
         d["contact"]["impact"] = {{"model", "plus"}};
       },
       "contact.impact.model: impacts need the \"peg\" or \"standard\" contact model"},
      {[](json& d) {
         d["contact"]["impact"] = {{"max_impacts_per_step", 0}};
       },
       "contact.impact.max_impacts_per_step: must be between 1 and 10000"},
  };
  for (const Case& c : cases) {
    json d = valid_2d();
    c.edit(d);
    EXPECT_THAT(error_of(d), HasSubstr(c.message)) << d.dump();
  }
}

TEST(SceneJson, Rejects3dSpecificMistakes) {
  auto edit = [](auto f) {
    json d = valid_3d();
    f(d);
    return error_of(d);
  };
  EXPECT_THAT(edit([](json& d) {
                d["bodies"][1]["shape"]["hull"] = {{0, 0, 0}, {1, 0, 0}};
              }),
              HasSubstr("bodies[1].shape.hull: 2 points given, a polyhedron needs at least 4 "
                        "non-coplanar points"));
  EXPECT_THAT(edit([](json& d) {
                d["bodies"][1]["shape"]["hull"] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
              }),
              HasSubstr("bodies[1].shape.hull:"));
  EXPECT_THAT(edit([](json& d) {
                d["bodies"][1]["orientation"] = {0, 0, 0, 0};
              }),
              HasSubstr("bodies[1].orientation: the quaternion has zero norm"));
  EXPECT_THAT(edit([](json& d) {
                d["bodies"][2]["inertia"] = {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
              }),
              HasSubstr("bodies[2].inertia: the inertia matrix must be positive definite"));
  EXPECT_THAT(edit([](json& d) {
                d["bodies"][2]["inertia"] = {{1, 0.5, 0}, {0, 1, 0}, {0, 0, 1}};
              }),
              HasSubstr("bodies[2].inertia: the inertia matrix must be symmetric"));
  EXPECT_THAT(edit([](json& d) {
                d["bodies"][1]["shape"] = {{"mesh", "missing.obj"}};
              }),
              HasSubstr("missing.obj: cannot open the mesh file"));
  EXPECT_THAT(edit([](json& d) {
                d["gravity"] = {0, 0};
              }),
              HasSubstr("gravity: expected 3 numbers"));
}

TEST(SceneJson, FilesWithBadJsonOrMissingAreReported) {
  const auto dir = std::filesystem::temp_directory_path() / "exactsim_scene_json_test";
  std::filesystem::create_directories(dir);
  const std::string bad = (dir / "bad.json").string();
  std::ofstream(bad) << "{ \"format\": ";
  EXPECT_THROW(
      {
        try {
          read_scene_file(bad);
        } catch (const InputError& e) {
          EXPECT_THAT(e.what(), HasSubstr("bad.json: not valid JSON"));
          throw;
        }
      },
      InputError);
  EXPECT_THROW(read_scene_file((dir / "nope.json").string()), InputError);
}

TEST(SceneJson, ConvexMeshFilesAreAcceptedAndNonConvexRejected) {
  const auto dir = std::filesystem::temp_directory_path() / "exactsim_scene_mesh_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tet.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n";
  std::ofstream(dir / "dent.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.1 0.1 0.1\n";
  json d = valid_3d();
  d["bodies"][1]["shape"] = {{"mesh", "tet.obj"}};
  const Scene s = parse_scene(d, (dir / "scene.json").string());
  EXPECT_EQ(s.world.polyhedra[s.world.bodies[1].shape].vertices.size(), 4u);
  d["bodies"][1]["shape"] = {{"mesh", "dent.obj"}};
  try {
    parse_scene(d, (dir / "scene.json").string());
    ADD_FAILURE() << "a non-convex mesh was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bodies[1].shape.mesh:"));
    EXPECT_THAT(e.what(), HasSubstr("vertex 4 lies inside the hull: the mesh is not convex"));
  }
}

// Writing a scene and reading it back reproduces the run bit for bit.
// contact.parameters.general_form selects the PEG general intercontact form (docs/peg.md); it is
// written back only when set, so existing scene files re-read unchanged.
TEST(SceneJson, PegGeneralFormOptionIsReadAndWritten) {
  json d = valid_2d();
  EXPECT_FALSE(parse_scene(d, "s.json").world.contact.peg.general_form);
  EXPECT_FALSE(
      scene_to_json(parse_scene(d, "s.json"))["contact"]["parameters"].contains("general_form"));
  d["contact"]["parameters"]["general_form"] = true;
  const Scene s = parse_scene(d, "s.json");
  EXPECT_TRUE(s.world.contact.peg.general_form);
  EXPECT_TRUE(parse_scene(scene_to_json(s), "again.json").world.contact.peg.general_form);
  d["contact"]["parameters"]["general_form"] = 1;
  EXPECT_THAT(error_of(d), HasSubstr("general_form"));
}

TEST(SceneJson, GaussSeidelOptionsAreReadCheckedAndWritten) {
  json d = valid_2d();
  const StepOptions defaults;
  EXPECT_EQ(parse_scene(d, "s.json").world.stepping.gauss_seidel_min_unknowns,
            defaults.gauss_seidel_min_unknowns);
  EXPECT_FALSE(scene_to_json(parse_scene(d, "s.json"))["stepping"].contains(
      "gauss_seidel_min_unknowns"));  // defaults are not written
  d["stepping"] = {{"gauss_seidel_min_unknowns", 0}, {"gauss_seidel_sweeps", 50}};
  const Scene s = parse_scene(d, "s.json");
  EXPECT_EQ(s.world.stepping.gauss_seidel_min_unknowns, 0);
  EXPECT_EQ(s.world.stepping.gauss_seidel_sweeps, 50);
  const Scene again = parse_scene(scene_to_json(s), "again.json");
  EXPECT_EQ(again.world.stepping.gauss_seidel_min_unknowns, 0);
  EXPECT_EQ(again.world.stepping.gauss_seidel_sweeps, 50);
  d["stepping"]["gauss_seidel_min_unknowns"] = -1;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.gauss_seidel_min_unknowns"));
  d["stepping"]["gauss_seidel_min_unknowns"] = 10;
  d["stepping"]["gauss_seidel_sweeps"] = 0;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.gauss_seidel_sweeps"));
  d["stepping"]["gauss_seidel_sweeps"] = 2.5;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.gauss_seidel_sweeps"));
}

TEST(SceneJson, FrictionOnDemandThresholdIsReadWrittenAndChecked) {
  json d = valid_2d();
  EXPECT_EQ(parse_scene(d, "s.json").world.stepping.friction_on_demand_min_unknowns,
            StepOptions{}.friction_on_demand_min_unknowns);
  EXPECT_FALSE(scene_to_json(parse_scene(d, "s.json"))["stepping"].contains(
      "friction_on_demand_min_unknowns"));  // defaults are not written
  d["stepping"] = {{"friction_on_demand_min_unknowns", 0}};
  const Scene s = parse_scene(d, "s.json");
  EXPECT_EQ(s.world.stepping.friction_on_demand_min_unknowns, 0);
  EXPECT_EQ(
      parse_scene(scene_to_json(s), "again.json").world.stepping.friction_on_demand_min_unknowns,
      0);
  d["stepping"]["friction_on_demand_min_unknowns"] = -1;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.friction_on_demand_min_unknowns"));
  d["stepping"]["friction_on_demand_min_unknowns"] = "many";
  EXPECT_THAT(error_of(d), HasSubstr("stepping.friction_on_demand_min_unknowns"));
}

TEST(SceneJson, SleepingOptionsAreReadCheckedAndWritten) {
  json d = valid_2d();
  EXPECT_FALSE(parse_scene(d, "s.json").world.stepping.sleep);
  EXPECT_FALSE(scene_to_json(parse_scene(d, "s.json"))["stepping"].contains("sleep"));
  d["stepping"] = {{"sleep", true}, {"sleep_speed", 0.002}, {"sleep_time", 1.5}};
  const Scene s = parse_scene(d, "s.json");
  const Scene again = parse_scene(scene_to_json(s), "again.json");
  for (const Scene* x : {&s, &again}) {
    EXPECT_TRUE(x->world.stepping.sleep);
    EXPECT_EQ(x->world.stepping.sleep_speed, 0.002);
    EXPECT_EQ(x->world.stepping.sleep_time, 1.5);
  }
  d["stepping"]["sleep_speed"] = 0;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.sleep_speed"));
  d["stepping"]["sleep_speed"] = 0.01;
  d["stepping"]["sleep_time"] = -1;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.sleep_time"));
  d["stepping"]["sleep_time"] = 1;
  d["stepping"]["sleep"] = "yes";
  EXPECT_THAT(error_of(d), HasSubstr("stepping.sleep"));
}

TEST(SceneJson, ThreadsAreReadCheckedAndWritten) {
  json d = valid_2d();
  EXPECT_EQ(parse_scene(d, "s.json").world.stepping.threads, 1);
  EXPECT_FALSE(scene_to_json(parse_scene(d, "s.json"))["stepping"].contains("threads"));
  d["stepping"] = {{"threads", 0}};
  const Scene s = parse_scene(d, "s.json");
  EXPECT_EQ(s.world.stepping.threads, 0);
  EXPECT_EQ(parse_scene(scene_to_json(s), "again.json").world.stepping.threads, 0);
  d["stepping"]["threads"] = -1;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.threads"));
  d["stepping"]["threads"] = 1.5;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.threads"));
}

TEST(SceneJson, IslandsAndWarmStartAreReadAndWritten) {
  json d = valid_2d();
  const Scene defaults = parse_scene(d, "s.json");
  EXPECT_TRUE(defaults.world.stepping.islands);
  EXPECT_TRUE(defaults.world.stepping.warm_start);
  EXPECT_FALSE(scene_to_json(defaults)["stepping"].contains("islands"));
  EXPECT_FALSE(scene_to_json(defaults)["stepping"].contains("warm_start"));
  d["stepping"] = {{"islands", false}, {"warm_start", false}};
  const Scene again = parse_scene(scene_to_json(parse_scene(d, "s.json")), "again.json");
  EXPECT_FALSE(again.world.stepping.islands);
  EXPECT_FALSE(again.world.stepping.warm_start);
  d["stepping"]["islands"] = 0;
  EXPECT_THAT(error_of(d), HasSubstr("stepping.islands"));
}

// Every number a step reads of the bodies, their shapes and the initial state, bit for bit.
void expect_same_bodies(const Scene& a, const Scene& b, const std::string& label) {
  const World &wa = a.world, &wb = b.world;
  EXPECT_EQ(a.initial.q, b.initial.q) << label;
  EXPECT_EQ(a.initial.v, b.initial.v) << label;
  ASSERT_EQ(wa.body_count(), wb.body_count()) << label;
  for (int i = 0; i < wa.body_count(); ++i) {
    const Body &x = wa.bodies[i], &y = wb.bodies[i];
    const std::string at = label + ", body " + std::to_string(i);
    EXPECT_EQ(x.mass, y.mass) << at;
    EXPECT_EQ(x.planar_inertia, y.planar_inertia) << at;
    EXPECT_EQ(x.inertia, y.inertia) << at;
    if (wa.dimension == 2) {
      EXPECT_EQ(wa.polygons[x.shape].vertices, wb.polygons[y.shape].vertices) << at;
      EXPECT_EQ(wa.polygons[x.shape].edge_normals, wb.polygons[y.shape].edge_normals) << at;
      continue;
    }
    const ConvexPolyhedron &p = wa.polyhedra[x.shape], &r = wb.polyhedra[y.shape];
    EXPECT_EQ(p.vertices, r.vertices) << at;
    ASSERT_EQ(p.faces.size(), r.faces.size()) << at;
    for (std::size_t f = 0; f < p.faces.size(); ++f) {
      EXPECT_EQ(p.faces[f].vertices, r.faces[f].vertices) << at << ", face " << f;
      EXPECT_EQ(p.faces[f].normal, r.faces[f].normal) << at << ", face " << f;
      EXPECT_EQ(p.faces[f].offset, r.faces[f].offset) << at << ", face " << f;
    }
  }
}

// Each kind of shape, with density (re-centred) or mass: the scene read from a file is the one
// its written form reads back to, so that a run and `exactsim run DIR/scene.json` are one run.
TEST(SceneJson, AReadSceneIsItsOwnRewrite) {
  const json d2 = json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 2, "time": {"step": 0.01, "duration": 1},
    "bodies": [
      {"name": "a", "shape": {"polygon": [[0, 0], [1, 0.1], [0.3, 0.9], [-0.2, 0.5]]},
       "density": 3, "position": [0.1, 2.3], "angle": 0.3},
      {"name": "b", "shape": {"regular_polygon": {"sides": 7, "radius": 0.3}}, "density": 3,
       "position": [3, 2.3]},
      {"name": "c", "shape": {"box": [0.3, 0.7]}, "density": 3, "position": [5, 2.3]}]})");
  const json d3 = json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 3, "time": {"step": 0.01, "duration": 1},
    "bodies": [
      {"name": "a", "shape": {"hull": [[0, 0, 0], [1, 0.1, 0], [0.3, 0.9, 0.1], [-0.2, 0.5, 0.7],
       [0.3, 0.3, -0.5]]}, "density": 3, "position": [0.1, 2.3, 1]},
      {"name": "b", "shape": {"icosahedron": {"radius": 0.3}}, "density": 3,
       "position": [3, 2.3, 1]},
      {"name": "c", "shape": {"box": [0.3, 0.7, 0.2]}, "mass": 1,
       "inertia": [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], "position": [6, 2.3, 1]}]})");
  for (const json& d : {d2, d3}) {
    const Scene s = parse_scene(d, "s.json");
    expect_same_bodies(s, rewritten(s), std::to_string(s.world.dimension) + "D");
  }
}

// The built-in scenarios build their shapes in code, moved into their body frames by translated()
// (rebuilt from the moved vertices): the scene as built is its own rewrite, so that stepping it
// and `exactsim run DIR/scene.json` (or a sweep's run, or --resume) are one run bit for bit.
TEST(SceneJson, ABuiltSceneIsItsOwnRewrite) {
  HullPourOptions h;
  Pour2dOptions p2;
  Pour3dOptions p3;
  StructureOptions st;
  const std::vector<Scene> scenes = {hull_pour3d(2, h),    hull_pour2d(1, h),
                                     pour3d_random(2, p3), pour3d_random(7, p3),
                                     pour2d_random(3, p2), pour3d_icosahedra(p3),
                                     arch3d(st),           box_pyramid3d(StackOptions{})};
  for (const Scene& s : scenes) {
    const Scene once = rewritten(s);
    expect_same_bodies(s, once, s.name);
    EXPECT_EQ(scene_to_json(once), scene_to_json(s)) << s.name;
  }
}

TEST(SceneJson, RoundTripReproducesTheTrajectoryBitForBit) {
  for (const json& doc : {valid_2d(), valid_3d()}) {
    const Scene original = parse_scene(doc, "scene.json");
    const Scene reread = parse_scene(scene_to_json(original), "again.json");
    State a = original.initial, b = reread.initial;
    Workspace wa, wb;
    for (int k = 0; k < original.step_count(); ++k) {
      step(original.world, a, wa, original.step, k);
      step(reread.world, b, wb, reread.step, k);
    }
    EXPECT_EQ(a.q, b.q);
    EXPECT_EQ(a.v, b.v);
  }
}

}  // namespace
}  // namespace exactsim::scene_json_test

namespace exactsim::scene_json_test {
namespace {

TEST(SceneJson, MixedInducedImpactsAreWrittenAndReadBack) {
  json d = valid_2d();
  d["contact"]["impact"] = {{"model", "plus"}, {"induced", "mixed"}, {"mixed_rounds", 3}};
  const Scene s = parse_scene(d, "scene.json");
  EXPECT_EQ(s.world.contact.impact.plus.induced_impacts, InducedImpacts::kMixed);
  EXPECT_EQ(s.world.contact.impact.plus.mixed_rounds, 3);
  const json written = scene_to_json(s);
  EXPECT_EQ(written["contact"]["impact"]["induced"], "mixed");
  EXPECT_EQ(written["contact"]["impact"]["mixed_rounds"], 3);
  EXPECT_EQ(scene_to_json(parse_scene(written, "again.json")), written);
  d["contact"]["impact"] = {{"model", "plus"}};  // the sequential default writes no mixed_rounds
  EXPECT_FALSE(
      scene_to_json(parse_scene(d, "scene.json"))["contact"]["impact"].contains("mixed_rounds"));
}

// docs/scene-format.md "solver": the solver's diagnostics are read from "solver.diagnostics" or
// from "solver" itself, and written under "diagnostics" only where one differs from its default.
TEST(SceneJson, SolverDiagnosticsAreReadFromEitherPlaceAndWrittenOnlyWhereSet) {
  json d = valid_2d();
  d["solver"] = {{"tolerance", 1e-9},
                 {"polish", false},
                 {"diagnostics", {{"max_ray_restarts", 0}, {"lexicographic_columns", false}}}};
  const Scene s = parse_scene(d, "scene.json");
  EXPECT_EQ(s.world.solver.tolerance, 1e-9);
  EXPECT_FALSE(s.world.solver.diagnostics.polish);
  EXPECT_EQ(s.world.solver.diagnostics.max_ray_restarts, 0);
  EXPECT_FALSE(s.world.solver.diagnostics.lexicographic_columns);
  EXPECT_EQ(s.world.solver.diagnostics.revised_min_size,
            SolverOptions::Diagnostics{}.revised_min_size);
  const json written = scene_to_json(s);
  EXPECT_EQ(written["solver"]["diagnostics"],
            json({{"polish", false}, {"max_ray_restarts", 0}, {"lexicographic_columns", false}}));
  EXPECT_FALSE(written["solver"].contains("polish"));
  EXPECT_EQ(scene_to_json(parse_scene(written, "again.json")), written);
  d["solver"] = {{"tolerance", 1e-9}};
  EXPECT_FALSE(scene_to_json(parse_scene(d, "scene.json"))["solver"].contains("diagnostics"));
}

TEST(SceneJson, AnEventSceneIsSentToTheEventDrivenSimulator) {
  const std::string file = EXACTSIM_SOURCE_DIR "/scenes/plus/events_example3_cradle.json";
  EXPECT_EQ(ErrorOf([&] { read_scene_file(file); }),
            file +
                ": contact.model: \"plus\" is an event-driven scene: simulate it with "
                "`exactsim run FILE`, Simulation::from_file or, in Python, "
                "exactsim.Simulation(FILE) (docs/plus.md)");
}

TEST(SceneJson, WritingASceneCreatesItsFolder) {
  const std::string dir = std::string(::testing::TempDir()) + "exactsim-write-scene/a/b";
  std::filesystem::remove_all(std::string(::testing::TempDir()) + "exactsim-write-scene");
  const Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/box-on-floor-2d.json");
  write_scene_file(scene, dir + "/scene.json");
  EXPECT_EQ(read_scene_file(dir + "/scene.json").world.body_count(), scene.world.body_count());
}

}  // namespace
}  // namespace exactsim::scene_json_test

namespace exactsim::scene_json_test {
namespace {

// A kinematic body (docs/scene-format.md "Bodies"): read with its velocity, written back as
// "kinematic", re-read bit for bit; static and kinematic together is an error.
TEST(SceneJson, KinematicBodyReadsWritesAndRereads) {
  json d = valid_2d();
  d["bodies"].push_back(json::parse(R"({"name": "plate", "kinematic": true,
      "shape": {"box": [2, 0.1]}, "position": [0, 1], "velocity": [0.5, -0.25],
      "angular_velocity": 0.1})"));
  const Scene s = parse_scene(d, "scene.json");
  const Body& plate = s.world.bodies[2];
  EXPECT_TRUE(plate.kinematic);
  EXPECT_TRUE(plate.is_static);
  EXPECT_EQ(s.initial.v_of(2), Eigen::Vector3d(0.5, -0.25, 0.1));
  const json written = scene_to_json(s);
  EXPECT_EQ(written["bodies"][2]["kinematic"], true);
  EXPECT_FALSE(written["bodies"][2].contains("static"));
  EXPECT_FALSE(written["bodies"][2].contains("mass"));
  EXPECT_EQ(written["bodies"][0]["static"], true);
  EXPECT_FALSE(written["bodies"][0].contains("kinematic"));
  const Scene again = parse_scene(written, "scene.json");
  EXPECT_TRUE(again.world.bodies[2].kinematic);
  EXPECT_EQ(again.initial.q, s.initial.q);
  EXPECT_EQ(again.initial.v, s.initial.v);
  EXPECT_EQ(scene_to_json(again), written);

  json both = d;
  both["bodies"][2]["static"] = true;
  EXPECT_THAT(error_of(both),
              HasSubstr("bodies[2].kinematic: a body is static or kinematic, not both"));
  json not_bool = d;
  not_bool["bodies"][2]["kinematic"] = 1;
  EXPECT_THAT(error_of(not_bool), HasSubstr("bodies[2].kinematic:"));
  // "kinematic": false is a dynamic body, which needs a density.
  json off = d;
  off["bodies"][2]["kinematic"] = false;
  EXPECT_THAT(error_of(off), HasSubstr("bodies[2]: a dynamic body needs 'density'"));
}

}  // namespace
}  // namespace exactsim::scene_json_test
