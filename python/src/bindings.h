// The pieces of the Python module, one per concept (docs/python.md).
#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include "exactsim/api/body_spec.h"
#include "exactsim/stepping/world.h"

namespace exactsim::py {

void bind_shapes(pybind11::module_& m);      // Shape, box, regular_polygon, polygon, hull, ...
void bind_scene(pybind11::module_& m);       // Scene: files, dicts, the builder
void bind_simulation(pybind11::module_& m);  // Simulation: step, run, state, contacts
void bind_impact(pybind11::module_& m);      // impact(), EventSimulation

// exactsim.Shape (a struct, not the bare std::variant: pybind11/stl.h would convert that).
struct PyShape {
  Shape shape;
};

// parse_scene of a dict (io/scene_json.h); `origin` names it in messages.
Scene scene_from_dict(pybind11::handle document, const std::string& origin);

}  // namespace exactsim::py
