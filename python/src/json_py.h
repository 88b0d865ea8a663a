// JSON documents (nlohmann) to and from Python objects: dicts, lists, numbers, strings, None.
#pragma once

#include <string>

#include <pybind11/pybind11.h>
#include <nlohmann/json.hpp>

namespace exactsim::py {

pybind11::object to_python(const nlohmann::json& j);
// numpy arrays and scalars are accepted (through .tolist()). InputError "ORIGIN: PATH: reason"
// for what JSON cannot hold: another type, a key that is not a string, nesting deeper than a
// scene file may be (64 levels), a dict or list that contains itself.
nlohmann::json from_python(pybind11::handle h, const std::string& origin);

}  // namespace exactsim::py
