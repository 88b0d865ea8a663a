// A simulation you step (docs/api.md): a validated Scene, its State, the step's scratch, and the
// time kept inside (the step index is counted here, so time always advances by h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "exactsim/api/contact_results.h"
#include "exactsim/stepping/step.h"

namespace exactsim {

class Simulation {
 public:
  // Validates the scene (validate_scene: InputError naming body and field) and starts at its
  // initial state, time 0.
  explicit Simulation(Scene scene);
  // Reads a scene file (io/scene_json.h; InputError "FILE: bodies[1].shape.box: ...").
  static Simulation from_file(const std::string& path);

  // One step of h: spawn → detect → constraints → solve → integrate → report (stepping/step.h).
  // A failed solve is reported (report.status), never thrown.
  const StepReport& step();

  // Steps round(duration / h) times (InputError unless duration is finite and >= 0). Stops early
  // after a failed solve unless world().stepping.continue_on_solver_failure, or when `on_step`
  // returns false. Returns the last report (the current one if no step was taken).
  const StepReport& run(Real duration, const std::function<bool(const Simulation&)>& on_step = {});

  Real time() const { return state_.time; }       // s
  Real step_size() const { return scene_.step; }  // h, s
  long steps_taken() const { return steps_; }
  const Scene& scene() const { return scene_; }  // as given; initial state included
  const World& world() const { return scene_.world; }
  const State& state() const { return state_; }
  const StepReport& last_report() const { return report_; }  // default report before any step

  // Contacts of the last step with their impulses (api/contact_results.h); empty before a step.
  std::vector<ContactResult> contacts() const;
  // Exact overlap (m² in 2D, m³ in 3D) of the present bodies in the current configuration.
  Real overlap();
  Real kinetic_energy() const;    // J, present dynamic bodies
  Real potential_energy() const;  // J, −Σ m g·x, zero at the origin

 private:
  Scene scene_;
  State state_;
  Workspace ws_;
  StepReport report_;
  long steps_ = 0;
};

}  // namespace exactsim
