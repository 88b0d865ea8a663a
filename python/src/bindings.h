// The pieces of the Python module, one per concept (docs/python.md).
#pragma once

#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "exactsim/api/body_spec.h"
#include "exactsim/events/event_simulation.h"
#include "exactsim/stepping/world.h"

namespace exactsim::py {

void bind_shapes(pybind11::module_& m);      // Shape, box, regular_polygon, polygon, hull, ...
void bind_scene(pybind11::module_& m);       // Scene: files, dicts, the builder
void bind_simulation(pybind11::module_& m);  // Simulation: step, run, state, contacts
void bind_impact(pybind11::module_& m);      // impact(), EventSimulation

// exactsim.Shape (a struct, not the bare std::variant: pybind11/stl.h would convert that).
// A body's shape: one convex shape, or the convex parts of a compound body (`parts` non-empty).
struct PyShape {
  Shape shape;
  std::vector<Shape> parts;
};

// A number from Python (int or float; not bool or str): InputError "WHERE: expected a number,
// got 'a'" otherwise. NaN and infinities pass, for the scene rules to reject with their reason.
double number(pybind11::handle h, const std::string& where);
// n numbers from a sequence (or a scalar when n == 1), each as number().
std::vector<double> numbers(pybind11::handle h, std::size_t n, const std::string& where);

// Arrays the module hands out are read-only snapshots: a write raises (docs/python.md "Stepping
// and state") rather than changing a copy that nothing reads.
template <class A>
A frozen(A a) {
  a.attr("setflags")(pybind11::arg("write") = false);
  return a;
}

// One impact of the event-driven simulation as a dict: time (s), contacts (with impulse (t1, t2,
// n) in N s), rounds, intervals, kinetic_energy_change, energy_before, energy_after (J),
// converged.
pybind11::dict impact_event_dict(const ImpactEvent& e);

// parse_scene of a dict (io/scene_json.h); `origin` names it in messages.
Scene scene_from_dict(pybind11::handle document, const std::string& origin);

}  // namespace exactsim::py
