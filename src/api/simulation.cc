#include "exactsim/api/simulation.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "exactsim/api/validate.h"
#include "exactsim/events/event_simulation.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/io/scene_rules.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"
#include "exactsim/stepping/adaptive_step.h"
#include "exactsim/stepping/snapshot.h"
#include "located.h"

namespace exactsim {

using api::at;

Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

Simulation::Simulation(Scene scene) : scene_(std::move(scene)), ws_(std::make_unique<Workspace>()) {
  validate_scene(scene_);
  state_ = scene_.initial;
}

Simulation::Simulation(const EventScene& scene) : ws_(std::make_unique<Workspace>()) {
  events_ = std::make_unique<EventSimulation>(event_simulation(scene));
  advance(*events_, 0.0);  // checks the world and the options (InputError naming the field)
  scene_.name = scene.name;
  scene_.world = events_->world;
  scene_.step = scene.options.max_step;
  scene_.duration = scene.duration;
  scene_.initial = events_->state;
  state_ = scene_.initial;
}

Simulation Simulation::from_file(const std::string& path) {
  const nlohmann::json doc = read_scene_document(path);
  if (is_event_scene(doc)) return Simulation(parse_event_scene(doc, path));
  return Simulation(parse_scene(doc, path));
}

// One step of an event-driven scene: the event-driven simulation from this state to the next
// multiple of h, its impacts reported as the time stepper's (ImpactReport).
void Simulation::step_events() {
  EventSimulation& sim = *events_;
  sim.state = state_;
  sim.time = state_.time;
  const size_t first = sim.impacts.size();
  advance(sim, static_cast<Real>(steps_ + 1) * scene_.step);
  state_ = sim.state;
  state_.time = sim.time;
  report_ = StepReport{};
  report_.step = steps_;
  report_.time = sim.time;
  report_.bodies_present = scene_.world.body_count();
  report_.active_bodies = report_.bodies_present;
  ImpactReport& r = report_.impacts;
  for (size_t k = first; k < sim.impacts.size(); ++k) {
    const ImpactEvent& e = sim.impacts[k];
    if (r.count++ == 0) r.first_time = e.time;
    r.contacts = std::max(r.contacts, static_cast<int>(e.contacts.size()));
    r.rounds += e.result.rounds;
    r.intervals += e.result.intervals;
    r.energy_change += e.result.kinetic_energy_change;
    if (!e.result.converged && r.failure.empty()) {
      report_.status = StepStatus::kImpactFailed;
      r.failure = "the impact at t = " + std::to_string(e.time) +
                  " s did not finish: " + e.result.stop_reason;
    }
  }
  report_.kinetic_energy = kinetic_energy();
  report_.potential_energy = potential_energy();
}

const StepReport& Simulation::step() {
  if (events_) {
    step_events();
    ++steps_;
    return report_;
  }
  // The step index is ours: time is (index + 1) h after the step, never frozen (stepping/step.h).
  report_ = advance(scene_.world, state_, *ws_, scene_.step, steps_);  // as run_scene
  ++steps_;
  contacts_valid_ = true;
  if (state_.force.size() > 0) state_.force.resize(0);  // applied for this step only
  return report_;
}

bool Simulation::stops(const StepReport& r) const {
  return r.status == StepStatus::kDiverged ||
         (r.status != StepStatus::kOk && !scene_.world.stepping.continue_on_solver_failure);
}

const StepReport& Simulation::step(long n) {
  if (n < 0) throw InputError("step: n must be >= 0, got " + std::to_string(n));
  for (long k = 0; k < n; ++k)
    if (stops(step())) break;
  return report_;
}

const StepReport& Simulation::run(Real duration,
                                  const std::function<bool(const Simulation&)>& on_step) {
  if (!(duration >= 0) || !std::isfinite(duration))
    throw InputError("run: duration must be >= 0 and finite (s), got " + std::to_string(duration));
  const long n = std::llround(duration / scene_.step);  // as Scene::step_count
  for (long k = 0; k < n; ++k) {
    const bool stop = stops(step());
    if (on_step && !on_step(*this)) break;
    if (stop) break;
  }
  return report_;
}

int Simulation::body(const std::string& name) const {
  const World& w = scene_.world;
  for (int i = 0; i < w.body_count(); ++i)
    if (w.bodies[i].name == name) return i;
  throw InputError("body: no body is named '" + name + "'");
}

int Simulation::index(int b, const char* what) const {
  const int n = scene_.world.body_count();
  if (b < 0 || b >= n)
    throw InputError(std::string(what) + ": body index " + std::to_string(b) + " is not in [0, " +
                     std::to_string(n) + ")");
  return b;
}

std::string Simulation::touch(int b, const char* what, bool moves, bool pushes) {
  const World& w = scene_.world;
  index(b, what);
  const std::string label = body_label(w, b) + "." + what;
  at(label, [&] { rules::static_at_rest(is_fixed(w.bodies[b]), moves); });
  if (pushes) at(label, [&] { rules::not_kinematic(w.bodies[b].kinematic); });
  if (!state_.asleep.empty()) {  // docs/stepping.md "Sleeping": set or pushed, it wakes
    state_.asleep[b] = 0;
    state_.rest_time[b] = 0;
  }
  return label;
}

Vec3 Simulation::position(int b) const { return body_position(state_, index(b, "position")); }
Quat Simulation::orientation(int b) const {
  return body_orientation(state_, index(b, "orientation"));
}

Real Simulation::angle(int b) const {
  if (scene_.world.dimension != 2) throw InputError("angle: a 3D body turns by orientation()");
  return state_.q_of(index(b, "angle"))[2];
}

Vec3 Simulation::velocity(int b) const {
  const auto v = state_.v_of(index(b, "velocity"));
  return scene_.world.dimension == 2 ? Vec3(v[0], v[1], 0) : Vec3(v.head<3>());
}

Vec3 Simulation::angular_velocity(int b) const {
  const auto v = state_.v_of(index(b, "angular_velocity"));
  return scene_.world.dimension == 2 ? Vec3(0, 0, v[2]) : Vec3(v.tail<3>());
}

namespace {

// A 2D scene's coordinates have z = 0.
void check_planar(const World& w, const std::string& label, const Coordinates& c) {
  if (w.dimension == 2 && c.z != 0) api::fail(label, "z must be 0 in a 2D scene");
}

}  // namespace

void Simulation::set_pose(int b, const Coordinates& position, Real angle) {
  const std::string label = touch(b, "position", false);
  if (scene_.world.dimension != 2)
    api::fail(label, "a 3D body turns by orientation (a unit quaternion)");
  check_planar(scene_.world, label, position);
  const VecX q = Eigen::Vector3d(position.x, position.y, angle);
  validate_configuration(scene_.world, b, q);
  state_.q_of(b) = q;
}

void Simulation::set_pose(int b, const Coordinates& position, const Quat& orientation) {
  const std::string label = touch(b, "position", false);
  if (scene_.world.dimension != 3) api::fail(label, "a 2D body turns by angle (rad)");
  const Quat o = at(body_label(scene_.world, b) + ".orientation", [&] {
    return rules::orientation(orientation.w(), orientation.x(), orientation.y(), orientation.z());
  });
  VecX q(7);
  q << position.x, position.y, position.z, o.w(), o.x(), o.y(), o.z();
  validate_configuration(scene_.world, b, q);
  state_.q_of(b) = q;
}

void Simulation::set_velocity(int b, const Coordinates& linear, Real omega) {
  const std::string label = touch(b, "velocity", true);
  if (scene_.world.dimension != 2)
    api::fail(label, "a 3D body spins by an angular velocity vector (rad/s, world axes)");
  check_planar(scene_.world, label, linear);
  const VecX v = Eigen::Vector3d(linear.x, linear.y, omega);
  validate_velocity(scene_.world, b, v);
  state_.v_of(b) = v;
}

void Simulation::set_velocity(int b, const Coordinates& linear, const Coordinates& omega) {
  const std::string label = touch(b, "velocity", true);
  if (scene_.world.dimension != 3) {
    if (omega.x != 0 || omega.y != 0) api::fail(label, "a 2D body spins by omega (rad/s)");
    return set_velocity(b, linear, omega.z);
  }
  VecX v(6);
  v << linear.x, linear.y, linear.z, omega.x, omega.y, omega.z;
  validate_velocity(scene_.world, b, v);
  state_.v_of(b) = v;
}

Eigen::Ref<VecX> Simulation::force_of(int b) {
  const int nv = velocity_size(scene_.world.dimension);
  if (state_.force.size() == 0) state_.force = VecX::Zero(state_.v.size());
  return state_.force.segment(b * nv, nv);
}

void Simulation::apply_force(int b, const Coordinates& force) {
  const std::string label = touch(b, "force", true, true);
  if (events_) api::fail(label, "an event-driven scene takes no applied forces");
  check_planar(scene_.world, label, force);
  const Vec3 f = force.vec3();
  for (int k = 0; k < 3; ++k)
    at(label + "[" + std::to_string(k) + "]", [&] { rules::finite(f[k]); });
  auto g = force_of(b);
  g.head(scene_.world.dimension) += f.head(scene_.world.dimension);
}

void Simulation::apply_force(int b, const Coordinates& force, const Coordinates& point) {
  const std::string label = touch(b, "force", true, true);
  check_planar(scene_.world, label + " point", point);
  const Vec3 p = point.vec3();
  for (int k = 0; k < 3; ++k)
    at(label + " point[" + std::to_string(k) + "]", [&] { rules::finite(p[k]); });
  apply_force(b, force);
  const Vec3 torque = (p - position(b)).cross(force.vec3());
  if (scene_.world.dimension == 2)
    apply_torque(b, torque.z());
  else
    apply_torque(b, Coordinates(torque));
}

void Simulation::apply_torque(int b, Real torque) {
  const std::string label = touch(b, "torque", true, true);
  if (events_) api::fail(label, "an event-driven scene takes no applied forces");
  if (scene_.world.dimension != 2) api::fail(label, "a 3D torque is a vector (N m, world axes)");
  at(label, [&] { rules::finite(torque); });
  force_of(b)[2] += torque;
}

void Simulation::apply_torque(int b, const Coordinates& torque) {
  const std::string label = touch(b, "torque", true, true);
  if (scene_.world.dimension != 3) {
    if (torque.x != 0 || torque.y != 0) api::fail(label, "a 2D torque is about z (N m)");
    return apply_torque(b, torque.z);
  }
  if (events_) api::fail(label, "an event-driven scene takes no applied forces");
  const Vec3 t = torque.vec3();
  for (int k = 0; k < 3; ++k)
    at(label + "[" + std::to_string(k) + "]", [&] { rules::finite(t[k]); });
  force_of(b).tail<3>() += t;
}

SimulationState Simulation::get_state() const {
  return {state_, steps_, std::make_shared<const StepperMemory>(capture(*ws_)), report_};
}

void Simulation::set_state(const SimulationState& s) {
  validate_state(scene_.world, s.state);
  if (s.steps < 0) throw InputError("steps: must be >= 0, got " + std::to_string(s.steps));
  state_ = s.state;
  steps_ = s.steps;
  restore(s.memory ? *s.memory : StepperMemory{}, *ws_);
  report_ = s.report;
  contacts_valid_ = false;
  if (events_)  // the impacts it lists are those up to this state
    std::erase_if(events_->impacts, [&](const ImpactEvent& e) { return e.time > state_.time; });
}

std::vector<ContactResult> Simulation::contacts() const {
  if (!contacts_valid_ || events_) return {};
  return contact_results(*ws_);
}

std::vector<JointResult> Simulation::joints() const {
  if (!contacts_valid_ || events_) return {};
  return joint_results(scene_.world, state_, *ws_);
}

Real Simulation::overlap() {
  if (events_)
    throw InputError(
        "overlap: not measured in an event-driven scene (its spheres are kept apart "
        "to the event tolerance, docs/plus.md)");
  place_bodies(scene_.world, state_, scene_.step, *ws_);
  return measure_overlap(scene_.world, state_, *ws_);
}

Real Simulation::kinetic_energy() const {
  return exactsim::kinetic_energy(scene_.world.bodies, state_);
}

Real Simulation::potential_energy() const {
  return exactsim::potential_energy(scene_.world.bodies, state_, scene_.world.gravity);
}

}  // namespace exactsim
