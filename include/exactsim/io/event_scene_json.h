// Scene files for the event-driven PLUS simulation (contact.model "plus"): the core of
// docs/scene-format.md with the sphere, welded-spheres and half-space shapes and the
// PLUS contact fields of docs/plus.md "Scene files". Errors name the file, the JSON path of the
// field and the reason (`bodies[1].shape.spheres[0].radius: must be > 0, got -1`).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "exactsim/events/event_simulation.h"
#include "exactsim/events/world.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

struct EventScene {
  std::string name;            // "name" or the file's stem
  // The dynamic bodies in file order, then the half-spaces (events/world.h), each named as in
  // the file, with their materials (Body::friction, restitution, capture_speed, plastic_speed).
  World world = event_world();
  State state = event_state();
  EventOptions options;        // max_step = time.step; contact.events; contact.plus
  Real duration = 0.0;         // s, time.duration
  Real output_interval = 0.0;  // s, trajectory sampling period (time.output_interval)
};

// Reads and validates a scene file; throws InputError("FILE: JSON.PATH: reason").
EventScene read_event_scene_file(const std::string& path);

// Parses an already-loaded document; `origin` names it in messages.
EventScene parse_event_scene(const nlohmann::json& doc, const std::string& origin);

// True when the document asks for the event-driven PLUS simulation (contact.model == "plus"),
// so a caller can choose between this reader and parse_scene (io/scene_json.h).
bool is_event_scene(const nlohmann::json& doc);

// A simulation at t = 0 ready for advance() (events/event_simulation.h).
EventSimulation event_simulation(const EventScene& scene);

// The same scene for the time stepper with PLUS impacts (docs/plus.md "Time-stepping an
// event-driven scene"): PEG, h = time.step, each body its sphere or its welded spheres (a
// compound, its mass and inertia as given), each half-space a static half-space body; PLUS's
// options and proximity as the scene's, each body's restitution law its own with the capture
// speed raised to v_persist at least. Friction and restitution pair as the time stepper pairs
// them (√(μ_A μ_B)); a half-space takes the scene's, which is the first body's material.
// InputError when the bodies' friction or restitution differ in a scene with a half-space (the
// event-driven simulator gives a sphere–half-space contact the sphere's own).
Scene stepper_scene(const EventScene& scene);

}  // namespace exactsim
