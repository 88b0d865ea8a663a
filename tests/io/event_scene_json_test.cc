// Event-driven PLUS scene files (docs/plus.md "Scene files"): the shipped scenes in scenes/plus
// read back as the paper's example worlds and reproduce one published behaviour each; a sphere's
// density gives its exact mass; half-spaces are placed by the body pose; malformed fields are
// rejected with the file, the JSON path and the reason.
#include "exactsim/io/event_scene_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "exactsim/impact/plus.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/world.h"
#include "experiments/plus_examples.h"

namespace exactsim {
namespace {

using ::testing::HasSubstr;

std::string scene_path(const std::string& file) {
  return std::string(EXACTSIM_SOURCE_DIR) + "/scenes/plus/" + file;
}

// The file's world equals the C++ example world (same bodies, spheres, materials, ground).
void expect_same_world(const World& a, const State& s, const World& b, const State& t) {
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  ASSERT_EQ(a.half_spaces.size(), b.half_spaces.size());
  EXPECT_LT((a.gravity - b.gravity).norm(), 1e-15);
  for (size_t i = 0; i < a.bodies.size(); ++i) {
    const Body &x = a.bodies[i], &y = b.bodies[i];
    const int k = static_cast<int>(i);
    ASSERT_EQ(x.is_static, y.is_static) << "body " << i;
    EXPECT_LT((body_position(s, k) - body_position(t, k)).norm(), 1e-14) << "body " << i;
    EXPECT_LT(body_orientation(s, k).angularDistance(body_orientation(t, k)), 1e-14);
    EXPECT_LT((body_velocity(s, k) - body_velocity(t, k)).norm(), 1e-14);
    EXPECT_LT((body_angular_velocity(s, k) - body_angular_velocity(t, k)).norm(), 1e-15);
    if (x.is_static) continue;
    EXPECT_EQ(x.mass, y.mass);
    EXPECT_LT((x.inertia - y.inertia).norm(), 1e-15);
    const ContactLaw m = body_contact_law(a, k), n = body_contact_law(b, k);
    EXPECT_EQ(m.friction, n.friction);
    EXPECT_EQ(m.restitution.e_min, n.restitution.e_min);
    EXPECT_EQ(m.restitution.v_capture, n.restitution.v_capture);
    EXPECT_EQ(m.restitution.v_plastic, n.restitution.v_plastic);
  }
  const std::vector<WeldedSphere> sa = welded_spheres(a), sb = welded_spheres(b);
  ASSERT_EQ(sa.size(), sb.size());
  for (size_t i = 0; i < sa.size(); ++i) {
    EXPECT_EQ(sa[i].body, sb[i].body);
    EXPECT_LT((sa[i].center - sb[i].center).norm(), 1e-15);
    EXPECT_EQ(sa[i].radius, sb[i].radius);
  }
  for (size_t i = 0; i < a.half_spaces.size(); ++i) {
    EXPECT_LT((a.half_spaces[i].normal - b.half_spaces[i].normal).norm(), 1e-15);
    EXPECT_EQ(a.half_spaces[i].offset, b.half_spaces[i].offset);
  }
}

TEST(EventSceneFile, CradleIsExample3AndEndsWithOnlyTheLastBallMoving) {
  const EventScene scene = read_event_scene_file(scene_path("events_example3_cradle.json"));
  const EventSimulation example = example3_simulation(0.1);
  expect_same_world(scene.world, scene.state, example.world, example.state);
  EXPECT_EQ(scene.world.bodies.front().name, "ball-1");
  EventSimulation sim = event_simulation(scene);
  advance(sim, scene.duration);
  ASSERT_EQ(sim.impacts.size(), 1u);
  EXPECT_EQ(sim.impacts[0].result.rounds, 5);  // Table 2
  // Paper §4c: final velocities (0, 0, 0, 0, −2) m/s.
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(body_velocity(sim.state, i).norm(), 0.0, 1e-9);
  EXPECT_NEAR(body_velocity(sim.state, 4).x(), -2.0, 1e-9);
  EXPECT_NEAR(body_velocity(sim.state, 4).tail<2>().norm(), 0.0, 1e-9);
}

TEST(EventSceneFile, BouncingBallReboundsToESquaredOfItsApex) {
  const EventScene scene = read_event_scene_file(scene_path("events_bouncing_ball.json"));
  ASSERT_EQ(scene.world.bodies.size(), 2u);  // the ball, then the ground
  const Real r = welded_spheres(scene.world)[0].radius,
             e = body_contact_law(scene.world, 0).restitution.e_min;
  ASSERT_TRUE(body_contact_law(scene.world, 0).restitution.is_constant());
  const Real g = -scene.world.gravity.z();
  const Real h0 = body_position(scene.state, 0).z() - r;
  EventSimulation sim = event_simulation(scene);
  std::vector<Real> apex;
  Real highest = -1.0;
  size_t impacts = 0;
  advance(sim, scene.duration, [&](const EventSimulation& s) {
    if (s.impacts.size() != impacts) {
      if (impacts > 0) apex.push_back(highest);
      impacts = s.impacts.size();
      highest = -1.0;
    }
    highest = std::max(highest, body_position(s.state, 0).z() - r);
  });
  ASSERT_GE(apex.size(), 3u);
  Real expected = h0;
  for (size_t i = 0; i < 3; ++i) {
    expected *= e * e;
    // Sampled every step: the sampled maximum is within ½ g (h/2)² of the apex.
    const Real h = scene.options.max_step;
    EXPECT_NEAR(apex[i], expected, 0.5 * g * 0.25 * h * h + 1e-9) << "bounce " << i + 1;
  }
}

TEST(EventSceneFile, Example1FirstImpactIsThePapersSingleVertexImpact) {
  const EventScene scene = read_event_scene_file(scene_path("events_example1_mu0.125.json"));
  const EventSimulation example = example1_simulation(0.125, 0.05);
  expect_same_world(scene.world, scene.state, example.world, example.state);
  EXPECT_EQ(scene.options.impact.theta_max, 0.01);
  EventSimulation sim = event_simulation(scene);
  advance(sim, scene.duration);
  ASSERT_GE(sim.impacts.size(), 1u);
  const ImpactEvent& first = sim.impacts[0];
  ASSERT_EQ(first.contacts.size(), 1u);
  // docs/plus.md table (the paper's behaviour): 120 intervals, no sliding → rolling transition.
  EXPECT_EQ(first.result.intervals, 120);
  EXPECT_EQ(first.result.contacts[0].transition, Transition::kNone);
  EXPECT_NEAR(first.result.impulse(2), solve_plus(example1_problem(0.125, 0.01)).impulse(2), 1e-6);
  EXPECT_LT(first.energy_after, first.energy_before);
}

TEST(EventSceneFile, Example2LandsOnFourVerticesWithMirrorSymmetry) {
  const EventScene scene = read_event_scene_file(scene_path("events_example2.json"));
  const EventSimulation example = example2_simulation(0.05);
  expect_same_world(scene.world, scene.state, example.world, example.state);
  EventSimulation sim = event_simulation(scene);
  advance(sim, scene.duration);
  ASSERT_GE(sim.impacts.size(), 1u);
  const ImpactEvent& first = sim.impacts[0];
  ASSERT_EQ(first.contacts.size(), 4u);
  EXPECT_EQ(first.result.rounds, 2);
  const ImpactResult reference = solve_plus(example2_problem());
  ASSERT_EQ(reference.impulse.size(), first.result.impulse.size());
  EXPECT_LT((first.result.impulse - reference.impulse).cwiseAbs().maxCoeff(), 1e-6);
  // Mirror symmetry y → −y: the four normal impulses come in equal pairs (trailing, leading).
  std::vector<Real> normal;
  for (int k = 0; k < 4; ++k) normal.push_back(first.result.impulse(3 * k + 2));
  std::sort(normal.begin(), normal.end());
  EXPECT_NEAR(normal[0], normal[1], 1e-9);
  EXPECT_NEAR(normal[2], normal[3], 1e-9);
  EXPECT_GT(normal[2], normal[1] + 1.0);
}

nlohmann::json ball_scene() {
  return nlohmann::json::parse(R"({
    "format": "exactsim-scene", "version": 1, "dimension": 3,
    "time": { "step": 0.001, "duration": 1.0 },
    "contact": { "model": "plus", "restitution": { "constant": 0.5 } },
    "bodies": [
      { "name": "ground", "static": true, "shape": { "half_space": { "normal": [0, 0, 1] } } },
      { "name": "ball", "shape": { "sphere": { "radius": 0.2 } }, "density": 500,
        "position": [0, 0, 1] } ] })");
}

TEST(EventSceneFile, DefaultsAndExactSphereMass) {
  const EventScene scene = parse_event_scene(ball_scene(), "ball.json");
  EXPECT_EQ(scene.name, "ball");
  EXPECT_EQ(scene.output_interval, scene.options.max_step);
  EXPECT_EQ(scene.world.gravity, Vec3(0, 0, -9.81));
  const EventOptions defaults;
  EXPECT_EQ(scene.options.proximity, defaults.proximity);
  EXPECT_EQ(scene.options.impact.theta_max, defaults.impact.theta_max);
  const Body& b = scene.world.bodies[0];
  const Real m = 500 * 4.0 / 3.0 * M_PI * 0.2 * 0.2 * 0.2;
  EXPECT_NEAR(b.mass, m, 1e-12 * m);
  EXPECT_NEAR(b.inertia(0, 0), 0.4 * m * 0.04, 1e-12);
  EXPECT_NEAR(b.inertia(0, 1), 0.0, 0.0);
  EXPECT_EQ(body_contact_law(scene.world, 0).friction, 0.0);  // contact.friction default
  EXPECT_EQ(body_contact_law(scene.world, 0).restitution.e_min, 0.5);
}

TEST(EventSceneFile, HalfSpaceIsPlacedByTheBodyPose) {
  nlohmann::json doc = ball_scene();
  // The plane z' = 0.3 of a frame tilted 90° about x (z' → −y) through (0, 2, 0): the plane
  // y = 2 − 0.3 with outward normal −y.
  doc["bodies"][0]["shape"]["half_space"] = {{"normal", {0, 0, 2}}, {"offset", 0.3}};
  doc["bodies"][0]["position"] = {0, 2, 0};
  doc["bodies"][0]["orientation"] = {std::cos(M_PI / 4), std::sin(M_PI / 4), 0, 0};
  const EventScene scene = parse_event_scene(doc, "tilted.json");
  const HalfSpace& h = scene.world.half_spaces[0];
  EXPECT_LT((h.normal - Vec3(0, -1, 0)).norm(), 1e-15);
  const Vec3 on_plane(5, 1.7, -3);  // n·x = offset on the boundary
  EXPECT_NEAR(h.normal.dot(on_plane), h.offset, 1e-15);
}

// contact.impact, the time stepper's spelling, gives the world and options of the event format's
// own fields for the same law: the constant law e = 0.5 is capture and plastic speeds 0, and
// induced "sequential" is PLUS's rounds; the bouncing ball then runs identically. Without the
// speeds it is the stepper's nominal law (capture at 0.01 m/s).
TEST(EventSceneFile, TheTimeSteppersImpactSpellingGivesTheSameScene) {
  nlohmann::json own = ball_scene(), stepper = ball_scene();
  own["contact"]["plus"] = {{"theta_max", 0.02}, {"induced_impacts", "simultaneous"}};
  stepper["contact"].erase("restitution");
  stepper["contact"]["impact"] = {{"model", "plus"},
                                  {"restitution", 0.5},
                                  {"capture_velocity", 0},
                                  {"theta_max", 0.02},
                                  {"induced", "simultaneous"}};
  const EventScene a = parse_event_scene(own, "own.json");
  const EventScene b = parse_event_scene(stepper, "stepper.json");
  expect_same_world(a.world, a.state, b.world, b.state);
  EXPECT_EQ(b.options.impact.theta_max, 0.02);
  EXPECT_EQ(b.options.impact.induced_impacts, InducedImpacts::kSimultaneous);
  EventSimulation sa = event_simulation(a), sb = event_simulation(b);
  advance(sa, 2.0);
  advance(sb, 2.0);
  EXPECT_EQ(sa.impacts.size(), sb.impacts.size());
  EXPECT_GT(sa.impacts.size(), 3u);
  EXPECT_EQ(body_position(sa.state, 0), body_position(sb.state, 0));
  EXPECT_EQ(body_velocity(sa.state, 0), body_velocity(sb.state, 0));

  stepper["contact"]["impact"] = {{"restitution", 0.7}};
  const RestitutionLaw nominal =
      body_contact_law(parse_event_scene(stepper, "nominal.json").world, 0).restitution;
  EXPECT_EQ(nominal.e_min, 0.7);
  EXPECT_EQ(nominal.v_capture, ImpactStepOptions{}.restitution.v_capture);
  EXPECT_EQ(nominal.v_plastic, ImpactStepOptions{}.restitution.v_plastic);
}

// Applies `edit` to the ball scene; expects an InputError containing `message`.
template <class Edit>
void expect_error(Edit edit, const std::string& message) {
  nlohmann::json doc = ball_scene();
  edit(doc);
  try {
    parse_event_scene(doc, "bad.json");
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad.json: "));
    EXPECT_THAT(e.what(), HasSubstr(message));
  }
}

TEST(EventSceneFile, MalformedFieldsNameTheirPath) {
  using J = nlohmann::json;
  expect_error(
      [](J& d) {
        d["contact"]["impact"] = {{"restitution", 0.5}};
      },
      "contact.restitution: give either contact.impact");
  expect_error(
      [](J& d) {
        d["contact"].erase("restitution");
        d["contact"]["impact"] = {{"model", "none"}};
      },
      "contact.impact.model: an event-driven scene's impacts are PLUS's");
  expect_error(
      [](J& d) {
        d["contact"].erase("restitution");
        d["contact"]["impact"] = {{"max_impacts_per_step", 3}};
      },
      "contact.impact");
  expect_error(
      [](J& d) {
        d["contact"].erase("restitution");
        d["contact"]["impact"] = {{"restitution", 1.5}};
      },
      "contact.impact.restitution");
  expect_error(
      [](J& d) {
        d["bodies"][1]["shape"] = {{"spheres", {{{"center", {0, 0, 0}}, {"radius", -1}}}}};
      },
      "bodies[1].shape.spheres[0].radius: must be > 0");
  expect_error(
      [](J& d) {
        d["bodies"][1]["shape"] = {{"spheres", J::array()}};
      },
      "bodies[1].shape.spheres: at least one sphere is required");
  expect_error(
      [](J& d) {
        d["bodies"][1]["shape"] = {{"spheres", {{{"center", {0, 0}}, {"radius", 1}}}}};
      },
      "bodies[1].shape.spheres[0].center: expected 3 numbers, got 2");
  expect_error(
      [](J& d) {
        d["bodies"][1]["shape"] = {{"spheres", {{{"center", {0, 0, 0}}, {"radius", 1}}}}};
      },
      "bodies[1].density: density is defined for a single \"sphere\" only");
  expect_error(
      [](J& d) {
        d["bodies"][1]["shape"] = {{"sphere", {{"radius", 1}}}, {"half_space", J::object()}};
      },
      "bodies[1].shape: exactly one shape kind must be given");
  expect_error(
      [](J& d) {
        d["bodies"][1]["shape"] = {{"box", {1, 1, 1}}};
      },
      "bodies[1].shape.box: unknown field");
  expect_error([](J& d) { d["bodies"][0].erase("static"); },
               "bodies[0]: a half_space body must be \"static\": true");
  expect_error([](J& d) { d["bodies"][0]["friction"] = 0.5; },
               "bodies[0].friction: a half-space has no material");
  expect_error(
      [](J& d) {
        d["bodies"][0]["shape"]["half_space"]["normal"] = {0, 0, 0};
      },
      "bodies[0].shape.half_space.normal: the normal has zero length");
  expect_error([](J& d) { d["bodies"][1]["static"] = true; },
               "bodies[1].static: only half_space bodies can be static");
  expect_error([](J& d) { d["bodies"][1].erase("density"); },
               "bodies[1]: a dynamic body needs 'density' or 'mass' + 'inertia'");
  expect_error([](J& d) { d["bodies"][1]["mass"] = 1.0; },
               "bodies[1]: give either 'density' or 'mass' + 'inertia', not both");
  expect_error(
      [](J& d) {
        d["bodies"][1].erase("density");
        d["bodies"][1]["mass"] = 1.0;
        d["bodies"][1]["inertia"] = {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}};
      },
      "bodies[1].inertia: the inertia matrix must be positive definite");
  expect_error(
      [](J& d) {
        d["bodies"][1]["orientation"] = {0, 0, 0, 0};
      },
      "bodies[1].orientation: the quaternion has zero norm");
  expect_error([](J& d) { d["bodies"][1]["spawn_time"] = 0.5; },
               "bodies[1].spawn_time: the event-driven simulation starts every body at t = 0");
  expect_error([](J& d) { d["bodies"][1]["colour"] = "red"; }, "bodies[1].colour: unknown field");
  expect_error([](J& d) { d["contact"]["model"] = "peg"; }, "contact.model: this reader runs");
  expect_error([](J& d) { d["contact"].erase("restitution"); }, "bodies[1]: no restitution law");
  expect_error(
      [](J& d) {
        d["contact"]["restitution"] = {{"constant", 1.5}};
      },
      "contact.restitution.constant: must lie in [0, 1]");
  expect_error(
      [](J& d) {
        d["contact"]["restitution"] = {{"constant", 0.5}, {"e_min", 0.5}};
      },
      "contact.restitution: give either");
  expect_error(
      [](J& d) {
        d["contact"]["restitution"] = {{"e_min", 0.4}, {"v_capture", 0.2}, {"v_plastic", 0.1}};
      },
      "contact.restitution.v_plastic: must be >= v_capture");
  expect_error(
      [](J& d) {
        d["contact"]["restitution"] = {{"e_min", 0.4}, {"v_capture", 0.01}};
      },
      "contact.restitution.v_plastic: required field is missing");
  expect_error(
      [](J& d) {
        d["contact"]["plus"] = {{"theta_max", 2.0}};
      },
      "contact.plus.theta_max: must lie in (0, pi/2) rad");
  expect_error(
      [](J& d) {
        d["contact"]["plus"] = {{"induced_impacts", "sequential"}};
      },
      "contact.plus.induced_impacts: unknown model 'sequential'");
  expect_error(
      [](J& d) {
        d["contact"]["plus"] = {{"max_rounds", 0}};
      },
      "contact.plus.max_rounds: must be between 1");
  expect_error(
      [](J& d) {
        d["contact"]["events"] = {{"proximity", 1e-12}};
      },
      "contact.events: proximity");
  expect_error([](J& d) { d["time"]["step"] = 0; }, "time.step: must be > 0");
  expect_error([](J& d) { d["time"].erase("duration"); },
               "time.duration: required field is missing");
  expect_error([](J& d) { d["dimension"] = 2; },
               "dimension: the event-driven \"plus\" simulation is 3D only");
  expect_error([](J& d) { d["gravity"] = {0, -9.81}; }, "gravity: expected 3 numbers, got 2");
  expect_error([](J& d) { d["bodies"][1]["name"] = "ground"; },
               "bodies[1].name: duplicate body name 'ground'");
  expect_error([](J& d) { d["bodies"].erase(1); },
               "bodies: at least one dynamic (sphere) body is required");
}

TEST(EventSceneFile, FileErrorsNameTheFile) {
  EXPECT_THROW(read_event_scene_file("/nonexistent/scene.json"), InputError);
  try {
    read_event_scene_file(scene_path("example3_cradle.json"));  // an impact-problem file
    ADD_FAILURE() << "an impact problem was read as a scene";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("example3_cradle.json: "));
    EXPECT_THAT(e.what(), HasSubstr("unknown field"));
  }
}

TEST(EventSceneFile, ModelDetection) {
  EXPECT_TRUE(is_event_scene(ball_scene()));
  nlohmann::json doc = ball_scene();
  doc["contact"]["model"] = "peg";
  EXPECT_FALSE(is_event_scene(doc));
  doc.erase("contact");
  EXPECT_FALSE(is_event_scene(doc));
}

}  // namespace
}  // namespace exactsim
