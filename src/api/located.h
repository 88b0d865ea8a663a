// Putting the place in front of a scene rule's reason (exactsim/io/scene_rules.h): "bodies[1]
// (box).density: must be > 0, got -1.0".
#pragma once

#include <string>

#include "exactsim/math/error.h"

namespace exactsim::api {

// Runs f; its InputError comes back as InputError("WHERE: reason").
template <class F>
auto at(const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

[[noreturn]] inline void fail(const std::string& where, const std::string& reason) {
  throw InputError(where + ": " + reason);
}

}  // namespace exactsim::api
