// Half-spaces in the time stepper (docs/scene-format.md "Half-spaces"): a body on a half-space
// moves as on a static box with the same top face; a ball rolls down a tilted half-space at
// (5/7) g sin α, the slope given by the normal or by the body's orientation; a box at rest on one
// keeps its overlap at round-off; a scene without bounds loses no body; a pour into a bin over a
// half-space; the scene file's
// half-space, the builder's, and their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include "exactsim/api/body_spec.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/metrics/energy.h"
#include "exactsim/stepping/adaptive_step.h"
#include "input_error.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::half_spaces {
namespace {

constexpr Real kG = 9.81;

json vec_json(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

json plane(const Vec3& normal, Real offset, const Quat& orientation = Quat::Identity()) {
  return {{"name", "ground"},
          {"static", true},
          {"shape", {{"half_space", {{"normal", vec_json(normal)}, {"offset", offset}}}}},
          {"orientation", {orientation.w(), orientation.x(), orientation.y(), orientation.z()}}};
}

// A tilted cube and a ball thrown sideways, 1 s at h = 5 ms, under PEG.
json drop_doc(const json& ground) {
  const Quat tilt = Quat(0.9, 0.3, 0.2, 0.1).normalized();
  json bodies = json::array({ground,
                             {{"name", "cube"},
                              {"shape", {{"box", {0.2, 0.2, 0.2}}}},
                              {"density", 1000},
                              {"position", {0.3, -0.2, 0.5}},
                              {"orientation", {tilt.w(), tilt.x(), tilt.y(), tilt.z()}}},
                             {{"name", "ball"},
                              {"shape", {{"sphere", {{"radius", 0.1}}}}},
                              {"density", 1000},
                              {"position", {-0.3, 0.2, 0.4}},
                              {"velocity", {1, 0, 0}}}});
  json doc = scene_doc(3, 0.005, bodies, {{"friction", 0.5}});
  doc["contact"]["model"] = "peg";
  doc["gravity"] = {0, 0, -kG};
  return doc;
}

TEST(HalfSpaces, ABodyOnAHalfSpaceMovesAsOnAStaticBoxWithItsTopFace) {
  // The same drop on {z ≤ 0} and on a static 4 × 4 × 1 m box with its top at z = 0: the bodies
  // stay 1 m from the box's edges, so both grounds give them the same contacts. The ball ends
  // rolling at (5/7) of its launch speed.
  Sim on_plane(drop_doc(plane(Vec3::UnitZ(), 0)));
  Sim on_box(drop_doc({{"name", "ground"},
                       {"static", true},
                       {"shape", {{"box", {4, 4, 1}}}},
                       {"position", {0, 0, -0.5}}}));
  for (int k = 0; k < 200; ++k) {
    ASSERT_EQ(on_plane.advance().status, StepStatus::kOk) << "step " << k;
    ASSERT_EQ(on_box.advance().status, StepStatus::kOk) << "step " << k;
  }
  for (const int b : {1, 2}) {
    EXPECT_LT((on_plane.state.q_of(b) - on_box.state.q_of(b)).norm(), 1e-12) << b;
    EXPECT_LT((on_plane.state.v_of(b) - on_box.state.v_of(b)).norm(), 1e-12) << b;
  }
  EXPECT_NEAR(on_plane.state.q_of(1)[2], 0.1, 1e-12);  // the cube rests on a face
  EXPECT_NEAR(body_velocity(on_plane.state, 2).x(), 5.0 / 7.0, 1e-9);
}

// A ball of radius 0.1 m rolling 0.5 s from rest down the half-space {n·x ≤ 0} with
// n = R_y(α) ẑ, given as that normal or as ẑ turned by the body's orientation.
Vec3 rolled_velocity(Real alpha, bool by_orientation) {
  const Quat tilt(Eigen::AngleAxisd(alpha, Vec3::UnitY()));
  const json ground =
      by_orientation ? plane(Vec3::UnitZ(), 0, tilt) : plane(tilt * Vec3::UnitZ(), 0);
  json bodies = json::array({ground,
                             {{"name", "ball"},
                              {"shape", {{"sphere", {{"radius", 0.1}}}}},
                              {"density", 1000},
                              {"position", vec_json(tilt * Vec3(-2, 0, 0.1))}}});
  json doc = scene_doc(3, 1e-3, bodies, {{"friction", 0.5}});
  doc["contact"]["model"] = "peg";
  doc["gravity"] = {0, 0, -kG};
  Sim sim(doc);
  for (int k = 0; k < 500; ++k) EXPECT_EQ(sim.advance().status, StepStatus::kOk) << "step " << k;
  return body_velocity(sim.state, 1);
}

TEST(HalfSpaces, ABallRollsDownATiltedHalfSpaceAtFiveSeventhsGSinAlpha) {
  // μ = 0.5 ≥ (2/7) tan α: v = (5/7) g sin α t down the slope R_y(α) x̂; symplectic Euler's
  // velocity is exact under a constant force.
  const Real alpha = 0.3, v = 5.0 / 7.0 * kG * std::sin(alpha) * 0.5;
  const Vec3 down = Quat(Eigen::AngleAxisd(alpha, Vec3::UnitY())) * Vec3::UnitX();
  for (const bool by_orientation : {false, true}) {
    const Vec3 rolled = rolled_velocity(alpha, by_orientation);
    EXPECT_NEAR(rolled.dot(down), v, 1e-9 * v) << by_orientation;
    EXPECT_NEAR((rolled - rolled.dot(down) * down).norm(), 0, 1e-9 * v) << by_orientation;
  }
}

TEST(HalfSpaces, ABoxAtRestOnATiltedHalfSpaceKeepsItsOverlapAtRoundOff) {
  // A 0.3 m cube on {n·x ≤ 0.2}, n 0.1 rad off vertical, μ = 0.5 (it sticks: tan 0.1 < 0.5),
  // 2 s at h = 10 ms: the exact overlap with the stand-in box stays at round-off and the energy
  // never rises.
  const Quat tilt(Eigen::AngleAxisd(0.1, Vec3(1, 1, 0).normalized()));
  const Vec3 n = tilt * Vec3::UnitZ();
  json bodies = json::array({plane(n, 0.2),
                             {{"name", "cube"},
                              {"shape", {{"box", {0.3, 0.3, 0.3}}}},
                              {"density", 2000},
                              {"position", vec_json(0.2 * n + tilt * Vec3(0.4, -0.3, 0.15))},
                              {"orientation", {tilt.w(), tilt.x(), tilt.y(), tilt.z()}}}});
  json doc = scene_doc(3, 0.01, bodies, {{"friction", 0.5}});
  doc["contact"]["model"] = "peg";
  doc["gravity"] = {0, 0, -kG};
  Sim sim(doc);
  const World& w = sim.scene.world;
  Real energy = std::numeric_limits<Real>::infinity();  // (bodies enter in the first step)
  for (int k = 0; k < 200; ++k) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k;
    EXPECT_LE(r.overlap, 1e-15) << "step " << k;
    const Real e =
        kinetic_energy(w.bodies, sim.state) + potential_energy(w.bodies, sim.state, w.gravity);
    EXPECT_LE(e, energy + 1e-12) << "step " << k;
    energy = e;
  }
  EXPECT_LT(body_velocity(sim.state, 1).norm(), 1e-12);
  EXPECT_NEAR(n.dot(body_position(sim.state, 1)), 0.2 + 0.15, 1e-12);
}

TEST(HalfSpaces, AScenesBodiesAreLostOnlyWhereSomethingBoundsIt) {
  // A ball over a half-space and a box thrown away from it: nothing but the half-space is static,
  // so nothing bounds the scene; with a static block beside them, the thrown box leaves its bounds.
  for (const bool block : {false, true}) {
    json bodies = json::array({plane(Vec3::UnitZ(), 0),
                               {{"name", "ball"},
                                {"shape", {{"sphere", {{"radius", 0.1}}}}},
                                {"density", 1000},
                                {"position", {0, 0, 0.1}}},
                               {{"name", "box"},
                                {"shape", {{"box", {0.1, 0.1, 0.1}}}},
                                {"density", 1000},
                                {"position", {0, 0, 1}},
                                {"velocity", {40, 0, 5}}}});
    if (block)
      bodies.push_back({{"name", "block"},
                        {"static", true},
                        {"shape", {{"box", {0.2, 0.2, 0.2}}}},
                        {"position", {-1, 0, 0.1}}});
    json doc = scene_doc(3, 0.01, bodies);
    doc["gravity"] = {0, 0, -kG};
    Sim sim(doc);
    bool lost = false;
    for (int k = 0; k < 100; ++k) lost = lost || !sim.advance().bodies_out_of_bounds.empty();
    EXPECT_EQ(lost, block);
  }
}

TEST(HalfSpaces, BallsAndBoxesPourIntoABinOverAHalfSpace) {
  // scenes/balls-in-bin-3d.json with its floor a half-space, the first 0.85 s (170 steps, PEG,
  // located PLUS impacts): every step and impact certified. Step 159 has an impact of ten
  // contacts, one of them ending with no normal impulse and 5.5e-19 N s of friction: within the
  // cone's round-off on the impact's scale (docs/impacts.md "The certificate").
  std::ifstream file(EXACTSIM_SOURCE_DIR "/scenes/balls-in-bin-3d.json");
  json doc = json::parse(file);
  for (json& body : doc["bodies"])
    if (body["name"] == "floor") {
      body["shape"] = {{"half_space", {{"normal", {0, 0, 1}}}}};
      body["position"] = {0, 0, 0};
    }
  Sim sim(doc);
  int impacts = 0;
  for (long k = 0; k < 170; ++k) {
    const StepReport r = advance(sim.scene.world, sim.state, sim.ws, sim.scene.step, k);
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k << " " << r.impacts.failure;
    impacts += r.impacts.count;
  }
  EXPECT_GT(impacts, 500);
}

TEST(HalfSpaces, TheSceneFileAndTheBuilderHoldAHalfSpaceAndNameItsErrors) {
  // A written scene reads back to the same plane bit for bit; add_body builds the same world;
  // bad half-spaces are named errors.
  const Vec3 n = Vec3(0.1, -0.2, 1).normalized();
  const json doc = drop_doc(plane(n, 0.25));
  const Scene scene = parse_scene(doc, "drop.json");
  ASSERT_EQ(scene.world.half_spaces.size(), 1u);
  EXPECT_EQ(scene.world.bodies[0].kind, ShapeKind::kHalfSpace);
  const Scene again = parse_scene(scene_to_json(scene), "again.json");
  ASSERT_EQ(again.world.half_spaces.size(), 1u);
  EXPECT_EQ(again.world.half_spaces[0].normal, scene.world.half_spaces[0].normal);
  EXPECT_EQ(again.world.half_spaces[0].offset, 0.25);
  EXPECT_EQ(again.initial.q_of(0), scene.initial.q_of(0));

  Scene built = make_scene(3, 0.005, 1.0);
  BodySpec ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shape = HalfSpace{n, 0.25};
  add_body(built, ground);
  ASSERT_EQ(built.world.half_spaces.size(), 1u);
  EXPECT_EQ(built.world.half_spaces[0].normal, scene.world.half_spaces[0].normal);
  EXPECT_EQ(built.world.polyhedra[0].vertices, scene.world.polyhedra[0].vertices);
  BodySpec wall = ground;
  wall.name = "wall";
  wall.shape = HalfSpace{Vec3(0, -3, 0), 1};  // scaled to unit length
  add_body(built, wall);
  EXPECT_EQ(built.world.half_spaces[1].normal, Vec3(0, -1, 0));
  json huge = doc;  // scaled without overflow
  huge["bodies"][0]["shape"]["half_space"]["normal"] = {0, 0, 1e308};
  EXPECT_EQ(parse_scene(huge, "huge.json").world.half_spaces[0].normal, Vec3::UnitZ());

  auto error = [](const json& d) { return ErrorOf([&] { parse_scene(d, "bad.json"); }); };
  auto expect_error = [&](json d, const std::string& message) {
    EXPECT_NE(error(d).find(message), std::string::npos) << error(d);
  };
  json flat = scene_doc(2, 1e-3, json::array({plane(Vec3::UnitZ(), 0)}));
  flat["bodies"][0].erase("orientation");
  expect_error(flat,
               "bodies[0].shape.half_space: shape kind 'half_space' is not available in a 2D");
  json moving = doc;
  moving["bodies"][0].erase("static");
  expect_error(moving, "bodies[0].shape: a half_space body must be \"static\": true");
  json zero = doc;
  zero["bodies"][0]["shape"]["half_space"]["normal"] = {0, 0, 0};
  expect_error(zero, "bodies[0].shape.half_space.normal: the half-space's normal has zero length");
  json heavy = doc;
  heavy["bodies"][0]["density"] = 1000;
  expect_error(heavy, "bodies[0].density: a half_space body has no density");
  json part = doc;
  part["bodies"][0]["shape"] = {
      {"compound", json::array({{{"box", {1, 1, 1}}}, doc["bodies"][0]["shape"]})}};
  expect_error(part, "a half_space is a body's one shape, not a part of a compound");
  BodySpec loose = ground;
  loose.name = "loose";
  loose.is_static = false;
  loose.density = 1000;
  EXPECT_NE(ErrorOf([&] { add_body(built, loose); }).find("a half-space body must be static"),
            std::string::npos);
}

}  // namespace
}  // namespace exactsim::physics_test::half_spaces
