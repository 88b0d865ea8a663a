// exactsim.Simulation: step, run, poses and velocities as numpy arrays, reports as dicts, the
// contacts of the last step.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>

#include "bindings.h"
#include "exactsim/api/simulation.h"
#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "json_py.h"

namespace exactsim::py {

namespace pb = pybind11;
using Array = pb::array_t<double>;

namespace {

// Columns [first, first + count) of every body's block of q or v: an (n, count) array, or (n,)
// when `flat` (one column).
Array columns(const State& s, const VecX& x, int block, int first, int count, bool flat) {
  const int n = s.body_count();
  Array a = flat ? Array({static_cast<pb::ssize_t>(n)})
                 : Array({static_cast<pb::ssize_t>(n), static_cast<pb::ssize_t>(count)});
  double* out = a.mutable_data();
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < count; ++k) out[i * count + k] = x[i * block + first + k];
  return a;
}

Array vec(const Vec3& v, int dimension) {
  Array a({static_cast<pb::ssize_t>(dimension)});
  for (int k = 0; k < dimension; ++k) a.mutable_data()[k] = v[k];
  return a;
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

Simulation make_simulation(pb::handle source) {
  if (pb::isinstance<Scene>(source)) return Simulation(source.cast<Scene>());
  if (pb::isinstance<pb::dict>(source)) return Simulation(scene_from_dict(source, "<dict>"));
  if (pb::isinstance<pb::str>(source) || pb::hasattr(source, "__fspath__"))
    return Simulation::from_file(pb::str(pb::module_::import("os").attr("fspath")(source)));
  throw pb::type_error("Simulation(): expected a Scene, a scene dict or a file path");
}

}  // namespace

void bind_simulation(pb::module_& m) {
  m.def(
      "run_scene",
      [](pb::handle scene, pb::object out, int every) {
        const Simulation checked = make_simulation(scene);  // validated, as a Simulation is
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
  pb::class_<Simulation>(
      m, "Simulation",
      "A simulation you step: Simulation(scene) with a Scene, a dict in the scene format or a "
      "scene file path. The scene is validated first (InputError naming the body and field); "
      "time starts at 0 and advances by h per step.")
      .def(pb::init(&make_simulation), pb::arg("scene"))
      .def(
          "step", [](Simulation& s) { return to_python(report_to_json(s.step())); },
          "Takes one step of h and returns its report (dict: step, time in s, status, contacts, "
          "U/I/X counts, solver certificate, overlap in m^2 or m^3, energies in J, wall seconds "
          "per stage). A failed solve is a status, not an exception.")
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
          "Body masses in kg (0 for static bodies).")
      .def_property_readonly(
          "present",
          [](const Simulation& s) {
            pb::array_t<bool> a({static_cast<pb::ssize_t>(s.state().body_count())});
            for (int i = 0; i < s.state().body_count(); ++i)
              a.mutable_data()[i] = s.state().present[i] != 0;
            return a;
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
