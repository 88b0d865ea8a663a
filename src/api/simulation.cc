#include "exactsim/api/simulation.h"

#include "exactsim/stepping/adaptive_step.h"

#include <cmath>

#include "exactsim/api/validate.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"

namespace exactsim {

Simulation::Simulation(Scene scene) : scene_(std::move(scene)) {
  validate_scene(scene_);
  state_ = scene_.initial;
}

Simulation Simulation::from_file(const std::string& path) {
  return Simulation(read_scene_file(path));
}

const StepReport& Simulation::step() {
  // The step index is ours: time is (index + 1) h after the step, never frozen (stepping/step.h).
  report_ = advance(scene_.world, state_, ws_, scene_.step, steps_);  // as run_scene
  ++steps_;
  return report_;
}

const StepReport& Simulation::run(Real duration,
                                  const std::function<bool(const Simulation&)>& on_step) {
  if (!(duration >= 0) || !std::isfinite(duration))
    throw InputError("run: duration must be >= 0 and finite (s), got " + std::to_string(duration));
  const long n = std::llround(duration / scene_.step);  // as Scene::step_count
  for (long k = 0; k < n; ++k) {
    const StepReport& r = step();
    const bool stop =
        r.status == StepStatus::kDiverged ||
        (r.status != StepStatus::kOk && !scene_.world.stepping.continue_on_solver_failure);
    if (on_step && !on_step(*this)) break;
    if (stop) break;
  }
  return report_;
}

std::vector<ContactResult> Simulation::contacts() const {
  if (steps_ == 0) return {};
  return contact_results(ws_);
}

Real Simulation::overlap() {
  place_bodies(scene_.world, state_, scene_.step, ws_);
  return measure_overlap(scene_.world, state_, ws_);
}

Real Simulation::kinetic_energy() const {
  return exactsim::kinetic_energy(scene_.world.bodies, state_);
}

Real Simulation::potential_energy() const {
  return exactsim::potential_energy(scene_.world.bodies, state_, scene_.world.gravity);
}

}  // namespace exactsim
