// Reads a small scene and runs a few steps (stepping/step.h): values that pass the reader must
// not crash the stepper. At most 6 bodies and 4 steps, so every input stays fast; a failed
// solve, or a step over the scene's memory budget, is a result, not a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "exactsim/io/scene_json.h"
#include "exactsim/stepping/memory_budget.h"
#include "exactsim/stepping/step.h"
#include "io/json_cursor.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  exactsim::Scene scene;
  try {
    scene = exactsim::parse_scene(exactsim::io::parse_json_strict(text, "fuzz.json"), "fuzz.json");
  } catch (const exactsim::InputError&) {
    return 0;
  }
  if (scene.world.body_count() > 6) return 0;
  for (const auto& p : scene.world.polygons)
    if (p.vertices.size() > 16) return 0;
  for (const auto& p : scene.world.polyhedra)
    if (p.vertices.size() > 24) return 0;
  exactsim::State state = scene.initial;
  exactsim::Workspace ws;
  try {
    for (long k = 0; k < 4; ++k) exactsim::step(scene.world, state, ws, scene.step, k);
  } catch (const exactsim::InputError&) {
    // The stepper's own checks (a NaN bound, ...) report bad state this way. With
    // EXACTSIM_FUZZ_STEP_STRICT set, that is a finding: the reader let the values through.
    static const bool strict = std::getenv("EXACTSIM_FUZZ_STEP_STRICT") != nullptr;
    if (strict) throw;
  } catch (const exactsim::MemoryBudgetError&) {
    // A scene may set a budget (stepping.memory_budget_gib, from 1 MiB) below what its
    // contact problem needs: a clean refusal is the expected result.
  }
  return 0;
}
