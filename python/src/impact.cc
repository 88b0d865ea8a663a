// exactsim.impact (one PLUS impact problem) and exactsim.EventSimulation (event-driven PLUS).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "exactsim/impact/impact_problem_json.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/math/error.h"
#include "json_py.h"

namespace exactsim::py {

namespace pb = pybind11;

pb::dict impact_event_dict(const ImpactEvent& e) {
  pb::dict d;
  d["time"] = e.time;
  pb::list contacts;
  for (std::size_t k = 0; k < e.contacts.size(); ++k) {
    const SphereContact& c = e.contacts[k];
    pb::dict cd;
    cd["sphere_a"] = c.sphere_a;
    cd["half_space"] = c.half_space;
    cd["sphere_b"] = c.sphere_b;
    cd["point"] = std::vector<double>{c.point.x(), c.point.y(), c.point.z()};
    cd["normal"] = std::vector<double>{c.normal.x(), c.normal.y(), c.normal.z()};
    cd["impulse"] = std::vector<double>{e.result.impulse(3 * k), e.result.impulse(3 * k + 1),
                                        e.result.impulse(3 * k + 2)};
    contacts.append(cd);
  }
  d["contacts"] = contacts;
  d["rounds"] = e.result.rounds;
  d["intervals"] = e.result.intervals;
  d["kinetic_energy_change"] = e.result.kinetic_energy_change;
  d["energy_before"] = e.energy_before;
  d["energy_after"] = e.energy_after;
  d["converged"] = e.result.converged;
  return d;
}

namespace {

struct PyEventSimulation {
  EventScene scene;
  EventSimulation sim;
};

PyEventSimulation make_event_simulation(pb::handle source) {
  PyEventSimulation s;
  if (pb::isinstance<pb::dict>(source))
    s.scene = parse_event_scene(from_python(source, "<dict>"), "<dict>");
  else
    s.scene = read_event_scene_file(pb::str(pb::module_::import("os").attr("fspath")(source)));
  s.sim = event_simulation(s.scene);
  return s;
}

}  // namespace

void bind_impact(pb::module_& m) {
  m.def(
      "impact",
      [](pb::object problem, bool log) {
        ImpactProblemFile f;
        if (pb::isinstance<pb::dict>(problem))
          f = impact_problem_from_json(from_python(problem, "<dict>"));
        else
          f = read_impact_problem(pb::str(pb::module_::import("os").attr("fspath")(problem)));
        f.problem.options.record_log = log;
        return to_python(impact_result_to_json(solve_impact_problem(f)));
      },
      pb::arg("problem"), pb::arg("log") = false,
      "Solves one stand-alone impact with PLUS (or Newton restitution if the problem asks): "
      "`problem` is a dict in the exactsim-impact format (docs/impact-problem.md) or a file "
      "path. Returns the result dict of `exactsim impact`: impulse per contact row in N s (rows "
      "t1, t2, n per contact), velocity after the impact in m/s, rounds, intervals, "
      "kinetic_energy_change in J, converged; with log=True also the rounds and intervals. "
      "InputError names the JSON path, e.g. 'contacts[1].restitution.e_min: ...'.");

  pb::class_<PyEventSimulation>(
      m, "EventSimulation",
      "Event-driven simulation with PLUS impacts (spheres on bodies, half-space ground; "
      "docs/plus.md): EventSimulation(scene) with a scene file path or dict whose "
      "contact.model is 'plus'. Run it with advance(t_end).")
      .def(pb::init(&make_event_simulation), pb::arg("scene"))
      .def(
          "advance",
          [](PyEventSimulation& s, double t_end) {
            if (!(t_end >= s.sim.time)) throw InputError("advance: t_end must be >= time (s)");
            advance(s.sim, t_end);
          },
          pb::arg("t_end"), "Advances to time t_end (s), resolving impacts on the way.")
      .def_property_readonly(
          "time", [](const PyEventSimulation& s) { return s.sim.time; }, "Simulated time, s.")
      .def_property_readonly(
          "duration", [](const PyEventSimulation& s) { return s.scene.duration; },
          "The scene's duration, s.")
      .def_property_readonly(
          "body_names",
          [](const PyEventSimulation& s) {
            std::vector<std::string> names;
            for (const Body& b : s.sim.world.bodies) names.push_back(b.name);
            return names;
          },
          "Body names in index order: the moving bodies in file order, then the half-spaces.")
      .def_property_readonly(
          "positions",
          [](const PyEventSimulation& s) {
            std::vector<std::vector<double>> p;
            for (int b = 0; b < s.sim.world.body_count(); ++b) {
              const Vec3 x = body_position(s.sim.state, b);
              p.push_back({x.x(), x.y(), x.z()});
            }
            return frozen(pb::array_t<double>(pb::cast(p)));
          },
          "Centre-of-mass positions, m: an (n, 3) array (read-only).")
      .def_property_readonly(
          "velocities",
          [](const PyEventSimulation& s) {
            std::vector<std::vector<double>> p;
            for (int b = 0; b < s.sim.world.body_count(); ++b) {
              const Vec3 v = body_velocity(s.sim.state, b);
              p.push_back({v.x(), v.y(), v.z()});
            }
            return frozen(pb::array_t<double>(pb::cast(p)));
          },
          "Centre-of-mass velocities, m/s: an (n, 3) array (read-only).")
      .def_property_readonly(
          "impacts",
          [](const PyEventSimulation& s) {
            pb::list l;
            for (const ImpactEvent& e : s.sim.impacts) l.append(impact_event_dict(e));
            return l;
          },
          "Every impact so far, one dict each: time (s), contacts (with impulse (t1, t2, n) in "
          "N s), rounds, intervals, kinetic_energy_change, energy_before, energy_after (J), "
          "converged.")
      .def(
          "mechanical_energy",
          [](const PyEventSimulation& s) { return mechanical_energy(s.sim.world, s.sim.state); },
          "Kinetic plus gravitational potential energy, J.");
}

}  // namespace exactsim::py
