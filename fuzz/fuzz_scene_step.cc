// Reads a small scene and runs a few steps (stepping/step.h): values that pass the reader must
// not crash the stepper. At most 6 bodies and 4 steps, so every input stays fast; a failed
// solve, or a step over the scene's memory budget, is a result, not a bug.
#include <algorithm>
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
  // Work per input stays well inside libFuzzer's 10 s timeout under the sanitizers (about 35x
  // slower than a release build): the contact problem is refused above about 130 unknowns by a
  // 4 MiB memory budget (a MemoryBudgetError, below), and the solvers' runaway caps, sized for
  // release builds (Lemke's pivots * n^2 <= 4e9, Fischer-Burmeister's iterations * n^3 <= 2e10),
  // are scaled down. A release step of a large failing LCP legitimately spends seconds inside
  // those caps (fuzz/findings/README.md); that is a cost, not a hang.
  scene.world.stepping.memory_budget_bytes =
      std::min<std::uint64_t>(scene.world.stepping.memory_budget_bytes, std::uint64_t{4} << 20);
  scene.world.solver.max_pivots = 1000;
  scene.world.solver.max_pivot_work = 2e7;
  scene.world.solver.fb_max_work = 2e7;
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
