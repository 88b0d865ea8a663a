// JSON documents (nlohmann) to and from Python objects: dicts, lists, numbers, strings, None.
#pragma once

#include <pybind11/pybind11.h>
#include <nlohmann/json.hpp>

namespace exactsim::py {

pybind11::object to_python(const nlohmann::json& j);
// numpy arrays and scalars are accepted (through .tolist()); other types raise TypeError.
nlohmann::json from_python(pybind11::handle h);

}  // namespace exactsim::py
