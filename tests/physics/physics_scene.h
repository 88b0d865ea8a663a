// Shared scaffolding of the closed-form physics tests: scenes are written as scene-format JSON
// (docs/scene-format.md) and advanced one step() at a time.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/api/contact_results.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/stepping/step.h"

namespace exactsim::physics_test {

using nlohmann::json;

// A scene document with the given bodies; the contact model is the standard one.
inline json scene_doc(int dimension, Real h, const json& bodies,
                      const json& contact = json::object()) {
  json c = contact;
  c["model"] = "standard";
  return json{{"format", "exactsim-scene"},
              {"version", 1},
              {"name", "physics"},
              {"dimension", dimension},
              {"time", {{"step", h}, {"duration", 1.0}}},
              {"contact", c},
              {"bodies", bodies}};
}

// A 20 cm box on a floor (3D, μ = 0.5, h = 0.01), moving at `velocity` (m/s) and `spin` (rad/s).
inline json moving_box_on_floor_doc(const std::vector<double>& velocity,
                                    const std::vector<double>& spin) {
  const json bodies = json::array({{{"name", "floor"},
                                    {"static", true},
                                    {"shape", {{"box", {4.0, 4.0, 0.2}}}},
                                    {"position", {0.0, 0.0, -0.1}}},
                                   {{"name", "box"},
                                    {"shape", {{"box", {0.2, 0.2, 0.2}}}},
                                    {"density", 1000},
                                    {"position", {0.0, 0.0, 0.1}},
                                    {"velocity", velocity},
                                    {"angular_velocity", spin}}});
  return scene_doc(3, 0.01, bodies, {{"friction", 0.5}});
}

// Four boxes stacked with offsets and twists on a floor, μ = 0.4, k = 6 cone directions, h = 5 ms
// (the frictional LCPs that made Lemke cycle, docs/solvers.md); the model is set by the caller.
inline json offset_box_stack_doc() {
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {10.0, 10.0, 1.0}}}},
                              {"position", {0.0, 0.0, -0.5}}}});
  for (int i = 0; i < 4; ++i)
    bodies.push_back({{"name", "box" + std::to_string(i)},
                      {"shape", {{"box", {0.5, 0.4, 0.3}}}},
                      {"density", 400},
                      {"position", {0.03 * i, -0.02 * i, 0.16 + 0.32 * i}},
                      {"orientation", {1.0, 0.0, 0.0, 0.05 * i}},
                      {"angular_velocity", {0.0, 0.1 * i, 0.0}}});
  return scene_doc(3, 0.005, bodies, json{{"friction", 0.4}, {"friction_directions", 6}});
}

// A scene being stepped: the state and the workspace that step() reuses.
struct Sim {
  Scene scene;
  State state;
  Workspace ws;
  long steps = 0;

  explicit Sim(const json& doc)
      : scene(parse_scene(doc, "physics_test.json")), state(scene.initial) {}
  explicit Sim(Scene s) : scene(std::move(s)), state(scene.initial) {}

  StepReport advance() { return step(scene.world, state, ws, scene.step, steps++); }
  // The last step's contacts and their impulses, as Simulation::contacts() gives them.
  std::vector<ContactResult> contacts() const { return contact_results(ws); }
};

}  // namespace exactsim::physics_test
