// A simulation you step and drive (docs/api.md): a validated Scene, its State, the step's
// scratch, and the time kept inside (the step index is counted here, so time always advances by
// h). Bodies are set, pushed and read between steps; the whole dynamic state is saved and
// restored bit for bit.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exactsim/api/body_spec.h"
#include "exactsim/api/contact_results.h"
#include "exactsim/api/joint_results.h"
#include "exactsim/stepping/step_report.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

struct Workspace;        // the stepper's scratch (internal)
struct EventScene;       // an event-driven scene (io/event_scene_json.h)
struct EventSimulation;  // the event-driven simulation (events/event_simulation.h)
struct StepperMemory;  // what the stepper carries across steps (internal, stepping/snapshot.h)

// Everything that makes the coming steps what they are (docs/api.md "Saving and restoring"):
// set_state() of it into a Simulation of the same scene, then stepping, gives bit for bit what
// stepping on from get_state() gave.
struct SimulationState {
  State state;     // time, poses, velocities, presence, sleep flags, forces to apply
  long steps = 0;  // steps taken
  // What the stepper carries across steps (warm-start bases, friction directions, the last
  // penetration depth): opaque, shared by copies of this state, never changed after capture.
  std::shared_ptr<const StepperMemory> memory;
  StepReport report;  // the last step's report
};

class Simulation {
 public:
  // Validates the scene (validate_scene: InputError naming body and field) and starts at its
  // initial state, time 0.
  explicit Simulation(Scene scene);
  // An event-driven PLUS scene (contact.model "plus", docs/plus.md): the same interface, each
  // step() advancing the event-driven simulation by the scene's time.step (docs/api.md
  // "Event-driven scenes"). Its world() holds the bodies (3D, no shapes) and gravity.
  explicit Simulation(const EventScene& scene);
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;
  ~Simulation();
  // Reads a scene file (io/scene_json.h; InputError "FILE: bodies[1].shape.box: ..."), either
  // kind: a time-stepping scene or an event-driven one.
  static Simulation from_file(const std::string& path);

  // One step of h: spawn → detect → constraints → solve → integrate → report (stepping/step.h).
  // A failed solve is reported (report.status), never thrown. The forces applied for this step
  // are cleared after it.
  const StepReport& step();
  // n steps (n >= 0), stopping after a failed solve as run() does. Returns the last report (the
  // current one if no step was taken).
  const StepReport& step(long n);

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
  // The event-driven simulation (its impacts, step counts), or nullptr for a time-stepping scene.
  const EventSimulation* events() const { return events_.get(); }

  // The index of the body named `name` (InputError if there is none).
  int body(const std::string& name) const;

  // Body b now (docs/api.md "Driving the bodies"): its centre of mass (m, world frame; z = 0 in
  // 2D), orientation (body → world; 2D: about z by the angle), angle (rad, 2D only), velocity of
  // the centre of mass (m/s) and angular velocity (rad/s, world axes; 2D: (0, 0, ω)).
  // InputError for an index out of range.
  Vec3 position(int b) const;
  Quat orientation(int b) const;
  Real angle(int b) const;
  Vec3 velocity(int b) const;
  Vec3 angular_velocity(int b) const;

  // Moves body b: its centre of mass to `position` (m) and its orientation to `angle` (rad, 2D)
  // or `orientation` (3D; normalised). Static bodies may be moved too.
  void set_pose(int b, const Coordinates& position, Real angle);
  void set_pose(int b, const Coordinates& position, const Quat& orientation);
  // Sets body b's velocity: its centre of mass's (m/s) and ω (rad/s: a number in 2D, world axes
  // in 3D). A static body cannot move (InputError); a kinematic body keeps this velocity, step
  // after step, until it is set again (docs/stepping.md "Kinematic bodies").
  void set_velocity(int b, const Coordinates& linear, Real omega);
  void set_velocity(int b, const Coordinates& linear, const Coordinates& omega);
  // Adds a force (N, world frame) on body b over the next step only: at its centre of mass, or
  // at a world point (m), which adds the torque (point − centre) × force. A force that lasts is
  // applied again before every step. Not on a static or kinematic body, nor in an event-driven
  // scene (InputError).
  void apply_force(int b, const Coordinates& force);
  void apply_force(int b, const Coordinates& force, const Coordinates& point);
  // Adds a torque (N·m: about z in 2D, world axes in 3D) on body b over the next step only.
  void apply_torque(int b, Real torque);
  void apply_torque(int b, const Coordinates& torque);
  // Each setter wakes body b if it sleeps (docs/stepping.md "Sleeping"), and rejects values out
  // of the scene format's ranges (docs/input-validation.md) with InputError naming body and field.

  // The whole dynamic state, and back (InputError unless it fits this simulation's scene).
  // After set_state, contacts() is empty until the next step.
  SimulationState get_state() const;
  void set_state(const SimulationState& s);

  // Contacts of the last step with their impulses (api/contact_results.h); empty before a step
  // and in an event-driven scene (its impacts are in events()).
  std::vector<ContactResult> contacts() const;
  // The joints' impulses in the last step (api/joint_results.h), one per joint of the scene;
  // empty before a step and after set_state.
  std::vector<JointResult> joints() const;
  // Exact overlap (m² in 2D, m³ in 3D) of the present bodies in the current configuration
  // (InputError in an event-driven scene).
  Real overlap();
  Real kinetic_energy() const;    // J, present dynamic bodies
  Real potential_energy() const;  // J, −Σ m g·x, zero at the origin

 private:
  // b, or InputError "WHAT: body index b is not in [0, n)".
  int index(int b, const char* what) const;
  // Body b checked for a setter: its label, and InputError for a bad index, a static body where
  // it cannot move, or a kinematic body pushed (a force or torque); wakes it.
  std::string touch(int b, const char* what, bool moves, bool pushes = false);
  Eigen::Ref<VecX> force_of(int b);
  bool stops(const StepReport& r) const;
  void step_events();

  Scene scene_;
  State state_;
  std::unique_ptr<Workspace> ws_;  // the step's scratch, kept between steps
  std::unique_ptr<EventSimulation> events_;  // an event-driven scene's simulation
  StepReport report_;
  long steps_ = 0;
  bool contacts_valid_ = false;  // ws_ holds the last step's contacts
};

}  // namespace exactsim
