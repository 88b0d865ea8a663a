// Test helper: the message of the InputError a callable throws.
#pragma once

#include <string>

#include "exactsim/math/error.h"

namespace exactsim {

// e.what() of the InputError that f() throws, or "(no InputError)".
template <class F>
std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

}  // namespace exactsim
