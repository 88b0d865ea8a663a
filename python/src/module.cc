// import exactsim: the Python module (docs/python.md).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "exactsim/api/version.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/memory_budget.h"

PYBIND11_MODULE(exactsim, m) {
  m.doc() =
      "exactsim: rigid-body contact simulation with exact geometry (PEG, PLUS).\n\n"
      "Units are SI throughout: m, s, kg, N, N s (impulses), J, rad. 2D scenes use (x, y) and\n"
      "an angle; 3D scenes use (x, y, z) and unit quaternions (w, x, y, z). See docs/python.md.";
  m.attr("__version__") = exactsim::version();
  // Bad input (scenes, shapes, options): the message names the field and the reason, as the
  // command line does. A ValueError, so `except ValueError` catches it too.
  pybind11::register_exception<exactsim::InputError>(m, "InputError", PyExc_ValueError);
  // A step over the scene's memory budget (docs/input-validation.md "Memory budget"). A
  // MemoryError, so `except MemoryError` catches it too.
  pybind11::register_exception<exactsim::MemoryBudgetError>(m, "MemoryBudgetError",
                                                            PyExc_MemoryError)
      .attr("__doc__") =
      "A step whose contact problem would exceed the scene's memory budget "
      "(stepping.memory_budget_gib, 4 GiB by default); raised before the memory is allocated.";
  exactsim::py::bind_shapes(m);
  exactsim::py::bind_scene(m);
  exactsim::py::bind_simulation(m);
  exactsim::py::bind_impact(m);
}
