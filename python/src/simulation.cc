// exactsim.Simulation: step, run, poses and velocities as numpy arrays, reports as dicts, the
// contacts of the last step.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>

#include <nlohmann/json.hpp>

#include "bindings.h"
#include "exactsim/api/simulation.h"
#include "exactsim/api/validate.h"
#include "exactsim/io/checkpoint.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "json_py.h"

namespace exactsim::py {

namespace pb = pybind11;
using Array = pb::array_t<double>;

namespace {

// Columns [first, first + count) of every body's block of q or v: an (n, count) array, or (n,)
// when `flat` (one column); read-only.
Array columns(const State& s, const VecX& x, int block, int first, int count, bool flat) {
  const int n = s.body_count();
  Array a = flat ? Array({static_cast<pb::ssize_t>(n)})
                 : Array({static_cast<pb::ssize_t>(n), static_cast<pb::ssize_t>(count)});
  double* out = a.mutable_data();
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < count; ++k) out[i * count + k] = x[i * block + first + k];
  return frozen(a);
}

Array vec(const Vec3& v, int dimension) {
  Array a({static_cast<pb::ssize_t>(dimension)});
  for (int k = 0; k < dimension; ++k) a.mutable_data()[k] = v[k];
  return frozen(a);
}

// A body given by index or by name.
int body_of(const Simulation& sim, pb::handle b) {
  if (pb::isinstance<pb::str>(b)) return sim.body(b.cast<std::string>());
  if (pb::isinstance<pb::int_>(b) && !pb::isinstance<pb::bool_>(b)) {
    const int n = sim.world().body_count();
    const double i = b.cast<double>();  // any Python int, without overflow
    if (!(i >= 0 && i < n))
      throw InputError("body index " + std::string(pb::str(b)) + " is not in [0, " +
                       std::to_string(n) + ")");
    return static_cast<int>(i);
  }
  throw pb::type_error("expected a body index (int) or name (str), got " +
                       std::string(pb::str(pb::repr(b))));
}

// A point or vector of the scene's dimension (m, m/s, N), or a 3-vector in 3D rotations.
Coordinates coordinates(pb::handle h, int n, const std::string& where) {
  const auto v = numbers(h, n, where);
  return Coordinates(v[0], n > 1 ? v[1] : 0.0, n > 2 ? v[2] : 0.0);
}

// The contacts of the last step as one numpy structured array (docs/python.md "Stepping and
// state").
pb::object contact_array(const Simulation& sim) {
  const int d = sim.world().dimension;
  const auto contacts = sim.contacts();
  pb::module_ np = pb::module_::import("numpy");
  pb::list fields;
  auto field = [&](const char* name, const char* type, int size) {
    fields.append(size == 0 ? pb::make_tuple(name, type) : pb::make_tuple(name, type, size));
  };
  field("body_a", "i4", 0);
  field("body_b", "i4", 0);
  field("role", "U10", 0);
  field("cross", "?", 0);
  field("point", "f8", d);
  field("normal", "f8", d);
  field("gap", "f8", 0);
  field("normal_impulse", "f8", 0);
  field("friction_impulse", "f8", d);
  pb::object a = np.attr("zeros")(contacts.size(), pb::arg("dtype") = np.attr("dtype")(fields));
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const ContactResult& c = contacts[i];
    a[pb::int_(i)] =
        pb::make_tuple(c.body_a, c.body_b, to_string(c.role), c.cross, vec(c.point, d),
                       vec(c.normal, d), c.gap, c.normal_impulse, vec(c.friction_impulse, d));
  }
  a.attr("setflags")(pb::arg("write") = false);
  return a;
}

// The state object of the Python module: the C++ SimulationState, pickled through
// encode_state (io/checkpoint.h); a pickled state has no report.
pb::bytes state_bytes(const SimulationState& s) {
  return pb::bytes(encode_state(s.state, s.steps, s.memory ? *s.memory : StepperMemory{}));
}

SimulationState state_from_bytes(const pb::bytes& b) {
  SimulationState s;
  auto memory = std::make_shared<StepperMemory>();
  decode_state(std::string(b), s.state, s.steps, *memory);
  s.memory = std::move(memory);
  return s;
}

pb::dict contact_dict(const Simulation& sim, const ContactResult& c) {
  const int d = sim.world().dimension;
  const Real h = sim.step_size();
  pb::dict r;
  r["body_a"] = c.body_a;
  r["body_b"] = c.body_b;
  r["name_a"] = sim.world().bodies[c.body_a].name;
  r["name_b"] = sim.world().bodies[c.body_b].name;
  r["role"] = to_string(c.role);
  r["cross"] = c.cross;
  r["point"] = vec(c.point, d);
  r["normal"] = vec(c.normal, d);
  r["gap"] = c.gap;
  r["normal_impulse"] = c.normal_impulse;
  r["friction_impulse"] = vec(c.friction_impulse, d);
  r["normal_force"] = c.normal_impulse / h;
  r["friction_force"] = vec(c.friction_impulse / h, d);
  return r;
}

// A joint's reaction in the last step (api/joint_results.h): in 2D the angular impulse is the
// scalar about z.
pb::dict joint_dict(const Simulation& sim, const JointResult& j) {
  const int d = sim.world().dimension;
  const Real h = sim.step_size();
  pb::dict r;
  r["name"] = sim.world().joints[j.joint].name;
  r["body_a"] = j.body_a;
  r["body_b"] = j.body_b == kWorldBody ? pb::object(pb::none()) : pb::object(pb::int_(j.body_b));
  r["anchor"] = vec(j.anchor, d);
  r["impulse"] = vec(j.impulse, d);
  r["force"] = vec(j.impulse / h, d);
  if (d == 2) {
    r["angular_impulse"] = j.angular_impulse.z();
    r["torque"] = j.angular_impulse.z() / h;
  } else {
    r["angular_impulse"] = vec(j.angular_impulse, d);
    r["torque"] = vec(j.angular_impulse / h, d);
  }
  return r;
}

// The scene as a scene file holds it (rewritten(), io/scene_json.h), after its validation: the
// Simulation then runs what `exactsim run` and run_scene run, and its pickle, which keeps the
// scene as a dict, comes back bit for bit. An event-driven scene (contact.model "plus") gives
// the event-driven Simulation.
Simulation make_simulation(pb::handle source) {
  Scene scene;
  if (pb::isinstance<Scene>(source)) {
    scene = source.cast<Scene>();
  } else if (pb::isinstance<pb::dict>(source)) {
    const nlohmann::json doc = from_python(source, "<dict>");
    if (is_event_scene(doc)) return Simulation(parse_event_scene(doc, "<dict>"));
    scene = parse_scene(doc, "<dict>");
  } else if (pb::isinstance<pb::str>(source) || pb::hasattr(source, "__fspath__")) {
    const std::string path = pb::str(pb::module_::import("os").attr("fspath")(source));
    const nlohmann::json doc = read_scene_document(path);
    if (is_event_scene(doc)) return Simulation(parse_event_scene(doc, path));
    scene = parse_scene(doc, path);
  } else {
    throw pb::type_error("Simulation(): expected a Scene, a scene dict or a file path");
  }
  validate_scene(scene);
  return Simulation(rewritten(scene));
}

}  // namespace

void bind_simulation(pb::module_& m) {
  m.def(
      "run_scene",
      [](pb::handle scene, pb::object out, int every) {
        const Simulation checked = make_simulation(scene);  // validated, as a Simulation is
        if (checked.events())
          throw InputError(
              "run_scene: an event-driven scene (contact.model \"plus\") runs with "
              "Simulation(scene).run() or `exactsim run FILE` (docs/plus.md)");
        RunOptions o;
        if (!out.is_none()) o.out_dir = pb::str(pb::module_::import("os").attr("fspath")(out));
        o.trajectory_every = every;
        o.progress = false;
        // Ctrl-C: Python's handler runs between steps; the run stops after the step with its
        // summary and checkpoint (docs/robustness.md "Interrupted runs"), then KeyboardInterrupt.
        volatile std::sig_atomic_t interrupted = 0;
        o.interrupt = &interrupted;
        const RunSummary summary =
            run_scene(checked.scene(), o, [&](const State&, const StepReport&) {
              if (PyErr_CheckSignals() != 0) interrupted = SIGINT;
            });
        if (interrupted) throw pb::error_already_set();
        return to_python(summary_to_json(summary));
      },
      pb::arg("scene"), pb::arg("out") = pb::none(), pb::arg("every") = 1,
      "Runs a whole scene (a Scene, a scene dict or a file path) as `exactsim run` does and "
      "returns its summary (dict: steps, solver calls and failures, overlap in m^2 or m^3, "
      "energies in J, wall seconds). With `out` (a folder) it writes the CLI's files there: "
      "scene.json, trajectory.csv (the initial state as step -1, then every `every` steps), "
      "steps.jsonl, summary.json and a checkpoint. Ctrl-C stops it after a whole step "
      "(KeyboardInterrupt); `exactsim run --resume OUT` continues it.");
  pb::class_<SimulationState>(
      m, "SimulationState",
      "Everything that makes a Simulation's coming steps what they are: time, steps taken, poses, "
      "velocities, sleep flags, forces applied for the next step, and the stepper's memory. "
      "From Simulation.get_state(); Simulation.set_state() of it, then stepping, repeats bit for "
      "bit what stepping on from get_state() gave. Pickles (and deep-copies) exactly.")
      .def_property_readonly(
          "time", [](const SimulationState& s) { return s.state.time; }, "Simulated time, s.")
      .def_property_readonly(
          "steps", [](const SimulationState& s) { return s.steps; }, "Steps taken.")
      .def_property_readonly(
          "q",
          [](const SimulationState& s) {
            const int c = config_size(s.state.dimension);
            return columns(s.state, s.state.q, c, 0, c, false);
          },
          "Configurations as Simulation.q (read-only).")
      .def_property_readonly(
          "v",
          [](const SimulationState& s) {
            const int c = velocity_size(s.state.dimension);
            return columns(s.state, s.state.v, c, 0, c, false);
          },
          "Velocities as Simulation.v (read-only).")
      .def(pb::pickle([](const SimulationState& s) { return state_bytes(s); },
                      [](const pb::bytes& b) { return state_from_bytes(b); }))
      .def("__repr__", [](const SimulationState& s) {
        return "<exactsim.SimulationState t = " + std::to_string(s.state.time) + " s, " +
               std::to_string(s.steps) + " steps>";
      });
  pb::class_<Simulation>(
      m, "Simulation",
      "A simulation you step and drive: Simulation(scene) with a Scene, a dict in the scene "
      "format or a scene file path. The scene is validated first (InputError naming the body "
      "and field) and run as a scene file holds it; time starts at 0 and advances by h per "
      "step. Pickles (and deep-copies) with its scene and state, bit for bit. An event-driven "
      "scene (contact.model 'plus', docs/plus.md) runs through the same interface: each step "
      "advances the event-driven simulation by the scene's time.step (event_driven, impacts).")
      .def(pb::init(&make_simulation), pb::arg("scene"))
      .def(
          "step", [](Simulation& s, long n) { return to_python(report_to_json(s.step(n))); },
          pb::arg("n") = 1,
          "Takes n steps of h (default 1), stopping after a failed solve as run() does, and "
          "returns the last step's report (dict: step, time in s, status, contacts, U/I/X "
          "counts, solver certificate, overlap in m^2 or m^3, energies in J, wall seconds per "
          "stage). A failed solve is a status, not an exception. Forces applied before it act "
          "on the first of these steps only.")
      .def(
          "body", [](const Simulation& s, const std::string& name) { return s.body(name); },
          pb::arg("name"), "The index of the body named `name` (InputError if none).")
      .def(
          "set_pose",
          [](Simulation& s, pb::handle body, pb::object position, pb::object angle,
             pb::object orientation) {
            const int b = body_of(s, body);
            const int d = s.world().dimension;
            const std::string at = body_label(s.world(), b);
            const Coordinates p = coordinates(position, d, at + ".position");
            if (d == 2) {
              if (!orientation.is_none())
                throw InputError(at + ".orientation: a 2D body turns by angle (rad)");
              s.set_pose(b, p, angle.is_none() ? s.angle(b) : number(angle, at + ".angle"));
            } else {
              if (!angle.is_none())
                throw InputError(at + ".angle: a 3D body turns by orientation (a unit quaternion)");
              Quat o = s.orientation(b);
              if (!orientation.is_none()) {
                const auto q = numbers(orientation, 4, at + ".orientation");
                o = Quat(q[0], q[1], q[2], q[3]);
              }
              s.set_pose(b, p, o);
            }
          },
          pb::arg("body"), pb::arg("position"), pb::kw_only(), pb::arg("angle") = pb::none(),
          pb::arg("orientation") = pb::none(),
          "Moves a body (index or name): its centre of mass to `position` (m) and, if given, "
          "its angle (rad, 2D) or orientation (unit quaternion w, x, y, z, 3D); what is not "
          "given is kept. Wakes the body if it sleeps. InputError for values outside the scene "
          "format's ranges.")
      .def(
          "set_velocity",
          [](Simulation& s, pb::handle body, pb::object linear, pb::object angular) {
            const int b = body_of(s, body);
            const int d = s.world().dimension;
            const std::string at = body_label(s.world(), b);
            const Coordinates v = linear.is_none() ? Coordinates(s.velocity(b))
                                                   : coordinates(linear, d, at + ".velocity");
            if (d == 2)
              s.set_velocity(b, v,
                             angular.is_none() ? s.angular_velocity(b).z()
                                               : number(angular, at + ".angular_velocity"));
            else
              s.set_velocity(b, v,
                             angular.is_none() ? Coordinates(s.angular_velocity(b))
                                               : coordinates(angular, 3, at + ".angular_velocity"));
          },
          pb::arg("body"), pb::arg("linear") = pb::none(), pb::arg("angular") = pb::none(),
          "Sets a body's velocity: `linear` of its centre of mass (m/s) and `angular` (rad/s: a "
          "number in 2D, world-axes vector in 3D); what is not given is kept. Wakes the body if "
          "it sleeps; a static body cannot move (InputError). A kinematic body keeps the velocity "
          "set, step after step.")
      .def(
          "apply_force",
          [](Simulation& s, pb::handle body, pb::object force, pb::object point) {
            const int b = body_of(s, body);
            const int d = s.world().dimension;
            const std::string at = body_label(s.world(), b);
            const Coordinates f = coordinates(force, d, at + ".force");
            if (point.is_none())
              s.apply_force(b, f);
            else
              s.apply_force(b, f, coordinates(point, d, at + ".force point"));
          },
          pb::arg("body"), pb::arg("force"), pb::arg("point") = pb::none(),
          "Adds a force (N, world frame) on a body over the next step only: at its centre of "
          "mass, or at the world point `point` (m), which adds the torque (point - centre) x "
          "force. A lasting force is applied again before every step. Wakes the body if it "
          "sleeps.")
      .def(
          "apply_torque",
          [](Simulation& s, pb::handle body, pb::object torque) {
            const int b = body_of(s, body);
            const std::string at = body_label(s.world(), b) + ".torque";
            if (s.world().dimension == 2)
              s.apply_torque(b, number(torque, at));
            else
              s.apply_torque(b, coordinates(torque, 3, at));
          },
          pb::arg("body"), pb::arg("torque"),
          "Adds a torque (N m: a number about z in 2D, a world-axes vector in 3D) on a body over "
          "the next step only.")
      .def("get_state", &Simulation::get_state,
           "The whole dynamic state now (SimulationState): set_state() of it returns here.")
      .def("set_state", &Simulation::set_state, pb::arg("state"),
           "Returns to a state from get_state() of this simulation or of one of the same scene; "
           "stepping on repeats bit for bit what stepping on from there gave. contacts() is "
           "empty until the next step.")
      .def(pb::pickle(
          [](const Simulation& s) {
            if (s.events())
              throw InputError(
                  "Simulation: an event-driven simulation does not pickle; keep its scene file "
                  "and its get_state() (a SimulationState pickles)");
            return pb::make_tuple(to_python(scene_to_json(s.scene())), state_bytes(s.get_state()));
          },
          [](const pb::tuple& t) {
            if (t.size() != 2) throw InputError("Simulation: not a pickled Simulation");
            Simulation s = make_simulation(t[0]);
            s.set_state(state_from_bytes(t[1].cast<pb::bytes>()));
            return s;
          }))
      .def("contact_array", &contact_array,
           "The contacts of the last step as a read-only numpy structured array, one row each: "
           "body_a, body_b (int32), role (str), cross (bool), point (m, on A), normal (unit, A "
           "to B), gap (m), normal_impulse (N s), friction_impulse (N s, vector); the fields of "
           "contacts(), for vectorised use (e.g. a['normal_impulse'].sum() / h).")
      .def(
          "run",
          [](pb::object self, pb::object duration, pb::object callback) {
            Simulation& s = self.cast<Simulation&>();
            const Real t = duration.is_none() ? s.scene().duration : duration.cast<Real>();
            std::function<bool(const Simulation&)> f;
            if (!callback.is_none())
              f = [&](const Simulation&) {
                const pb::object r = callback(self);
                return r.is_none() || r.cast<bool>();
              };
            return to_python(report_to_json(s.run(t, f)));
          },
          pb::arg("duration") = pb::none(), pb::arg("callback") = pb::none(),
          "Steps round(duration / h) times (duration in s; default: the scene's) and returns the "
          "last report (dict). callback(sim) runs after every step; returning False stops. "
          "Stops after a failed solve unless the scene continues on failure.")
      .def_property_readonly("time", &Simulation::time, "Simulated time, s.")
      .def_property_readonly("step_size", &Simulation::step_size, "h, s.")
      .def_property_readonly("steps_taken", &Simulation::steps_taken, "Steps taken so far.")
      .def_property_readonly(
          "dimension", [](const Simulation& s) { return s.world().dimension; }, "2 or 3.")
      .def_property_readonly(
          "body_names",
          [](const Simulation& s) {
            std::vector<std::string> n;
            for (const Body& b : s.world().bodies) n.push_back(b.name);
            return n;
          },
          "Body names in index order.")
      .def_property_readonly(
          "masses",
          [](const Simulation& s) {
            std::vector<double> m;
            for (const Body& b : s.world().bodies) m.push_back(b.is_static ? 0.0 : b.mass);
            return m;
          },
          "Body masses in kg (0 for static and kinematic bodies).")
      .def_property_readonly(
          "present",
          [](const Simulation& s) {
            pb::array_t<bool> a({static_cast<pb::ssize_t>(s.state().body_count())});
            for (int i = 0; i < s.state().body_count(); ++i)
              a.mutable_data()[i] = s.state().present[i] != 0;
            return frozen(a);
          },
          "Whether each body has joined (bodies join at their spawn time, at the first step).")
      .def_property_readonly(
          "q",
          [](const Simulation& s) {
            const int c = config_size(s.world().dimension);
            return columns(s.state(), s.state().q, c, 0, c, false);
          },
          "Configurations, an (n, 3) array (x, y in m, theta in rad) in 2D or (n, 7) (x, y, z "
          "in m, quaternion w, x, y, z) in 3D: the rows of the CLI's trajectory.csv.")
      .def_property_readonly(
          "v",
          [](const Simulation& s) {
            const int c = velocity_size(s.world().dimension);
            return columns(s.state(), s.state().v, c, 0, c, false);
          },
          "Velocities, an (n, 3) array (vx, vy in m/s, omega in rad/s) in 2D or (n, 6) (v in "
          "m/s, omega in rad/s, world axes) in 3D.")
      .def_property_readonly(
          "positions",
          [](const Simulation& s) {
            const int d = s.world().dimension;
            return columns(s.state(), s.state().q, config_size(d), 0, d, false);
          },
          "Centre-of-mass positions, m: an (n, 2) or (n, 3) array.")
      .def_property_readonly(
          "orientations",
          [](const Simulation& s) {
            const int d = s.world().dimension;
            return d == 2 ? columns(s.state(), s.state().q, 3, 2, 1, true)
                          : columns(s.state(), s.state().q, 7, 3, 4, false);
          },
          "Orientations: angles in rad, shape (n,), in 2D; unit quaternions (w, x, y, z), "
          "shape (n, 4), in 3D.")
      .def_property_readonly(
          "velocities",
          [](const Simulation& s) {
            const int d = s.world().dimension;
            return columns(s.state(), s.state().v, velocity_size(d), 0, d, false);
          },
          "Centre-of-mass velocities, m/s: an (n, 2) or (n, 3) array.")
      .def_property_readonly(
          "angular_velocities",
          [](const Simulation& s) {
            const int d = s.world().dimension;
            return d == 2 ? columns(s.state(), s.state().v, 3, 2, 1, true)
                          : columns(s.state(), s.state().v, 6, 3, 3, false);
          },
          "Angular velocities, rad/s: shape (n,) in 2D, (n, 3) in world axes in 3D.")
      .def_property_readonly(
          "event_driven", [](const Simulation& s) { return s.events() != nullptr; },
          "Whether the scene is event-driven (contact.model 'plus', docs/plus.md).")
      .def_property_readonly(
          "impacts",
          [](const Simulation& s) {
            pb::list l;
            if (s.events())
              for (const ImpactEvent& e : s.events()->impacts) l.append(impact_event_dict(e));
            return l;
          },
          "An event-driven scene's impacts so far, one dict each: time (s), contacts (with "
          "impulse (t1, t2, n) in N s), rounds, intervals, kinetic_energy_change, energy_before, "
          "energy_after (J), converged. Empty for a time-stepping scene (its impacts are in each "
          "step's report).")
      .def_property_readonly(
          "report",
          [](const Simulation& s) -> pb::object {
            if (s.steps_taken() == 0) return pb::none();
            return to_python(report_to_json(s.last_report()));
          },
          "The last step's report (dict), None before the first step.")
      .def(
          "contacts",
          [](const Simulation& s) {
            pb::list l;
            for (const ContactResult& c : s.contacts()) l.append(contact_dict(s, c));
            return l;
          },
          "The contacts of the last step, one dict each: body_a, body_b (indices; the normal "
          "points from A to B), name_a, name_b, role ('unilateral', 'primary', 'secondary', "
          "'unused'), cross (part of an X constraint), point (on A, m), normal (unit), gap (m, "
          "> 0 separated), all at the start of the step; normal_impulse (N s, on B along the "
          "normal, A gets the opposite), friction_impulse (N s vector, on B), and the mean "
          "forces normal_force (N) and friction_force (N) = impulse / h.")
      .def(
          "joints",
          [](const Simulation& s) {
            pb::list l;
            for (const JointResult& j : s.joints()) l.append(joint_dict(s, j));
            return l;
          },
          "The joints' reactions in the last step, one dict per joint of the scene: name, body_a, "
          "body_b (None: the world), anchor (m, as body A carries it at the start of the step), "
          "impulse (N s on body A; B gets the opposite), angular_impulse (N m s on A about the "
          "anchor; a float in 2D), and the mean force (N) and torque (N m) = impulse / h. Empty "
          "before a step (docs/joints.md \"Reactions\").")
      .def("overlap", &Simulation::overlap,
           "Exact total overlap of the present bodies now: area in m^2 (2D) or volume in m^3 "
           "(3D), the papers' accuracy metric.")
      .def("kinetic_energy", &Simulation::kinetic_energy, "Kinetic energy of the bodies, J.")
      .def("potential_energy", &Simulation::potential_energy,
           "Gravitational potential energy -sum m g.x of the bodies, J (zero at the origin).")
      .def_property_readonly(
          "scene", [](const Simulation& s) { return s.scene(); },
          "A copy of the Scene this simulation started from.")
      .def("__repr__", [](const Simulation& s) {
        return "<exactsim.Simulation '" + s.scene().name + "' t = " + std::to_string(s.time()) +
               " s, " + std::to_string(s.steps_taken()) + " steps>";
      });
}

}  // namespace exactsim::py
