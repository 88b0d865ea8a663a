// Scene files (JSON, version 1): docs/scene-format.md plus the additions in
// docs/scene-format.md. Errors name the file, the JSON path of the field and the reason.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "exactsim/stepping/world.h"

namespace exactsim {

// Reads and validates a scene file; throws InputError("FILE: bodies[3].shape.hull: ...").
Scene read_scene_file(const std::string& path);

// The JSON document of a scene file, read and parsed strictly (the size limit and messages of
// read_scene_file), for a caller that chooses its reader: parse_scene, or parse_event_scene
// (io/event_scene_json.h) where is_event_scene.
nlohmann::json read_scene_document(const std::string& path);

// Parses an already-loaded document; `origin` names it in messages and resolves relative paths
// (mesh files) against its folder.
Scene parse_scene(const nlohmann::json& doc, const std::string& origin);

// contact.impact of a scene file (docs/impacts.md "Using it"): the options `impact` gives,
// on top of the defaults, for a world of contact model `model`; InputError
// "ORIGIN: contact.impact.FIELD: reason". And back: null for the model "none".
ImpactStepOptions read_impact_options(const nlohmann::json& impact, ContactModel model,
                                      const std::string& origin);
nlohmann::json impact_options_to_json(const ImpactStepOptions& options);

// Writes a scene so that read_scene_file reproduces it bit for bit (shapes as explicit vertex
// lists, mass and inertia explicit).
nlohmann::json scene_to_json(const Scene& scene);
void write_scene_file(const Scene& scene, const std::string& path);

// The scene with its bodies, shapes and initial state as writing it and reading it back gives
// them: what run_scene runs, so that a run is the run of the scene.json it writes
// (docs/scene-format.md "Writing a scene"). A scene read from a file is its own rewrite; one built
// in code (the built-in scenarios) can differ in the last bits of its shapes' face planes, which
// the reader computes from the vertices. Every option of the World is kept as given, also those
// the file format does not carry.
Scene rewritten(const Scene& scene);

}  // namespace exactsim
