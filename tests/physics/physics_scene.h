// Shared scaffolding of the closed-form physics tests: scenes are written as scene-format JSON
// (docs/scene-format.md) and advanced one step() at a time.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

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
};

}  // namespace exactsim::physics_test
