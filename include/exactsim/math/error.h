// The one exception type for bad input: the message names what is wrong and why.
#pragma once

#include <stdexcept>
#include <string>

namespace exactsim {

// Thrown for invalid user input (shapes, scenes, options). Internal invariant
// failures are assertions, not InputError.
class InputError : public std::invalid_argument {
 public:
  explicit InputError(const std::string& what) : std::invalid_argument(what) {}
};

}  // namespace exactsim
