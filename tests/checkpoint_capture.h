// Test helper: a Simulation at a captured state, a folder with the scene.json and checkpoint.bin
// that `exactsim run --out` wrote (docs/robustness.md "Interrupted runs").
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "exactsim/exactsim.h"
#include "exactsim/io/checkpoint.h"

namespace exactsim {

// The simulation of DIR/scene.json at DIR/checkpoint.bin's state, warm-start memory included;
// steps_done is the checkpoint's step count; `edit` may change the scene's options first.
inline Simulation simulation_at_checkpoint(const std::string& dir, long& steps_done,
                                           const std::function<void(Scene&)>& edit = {}) {
  Scene scene = read_scene_file(dir + "scene.json");
  const Checkpoint c = read_checkpoint(dir + "checkpoint.bin", scene, dir + "scene.json");
  steps_done = c.tally.summary.steps_done;
  if (edit) edit(scene);  // (after the checkpoint is read against the scene file)
  Simulation sim(scene);
  sim.set_state(
      {c.state, steps_done, std::make_shared<const StepperMemory>(c.memory), StepReport{}});
  return sim;
}

}  // namespace exactsim
