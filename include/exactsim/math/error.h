// The one exception type for bad input: the message names what is wrong and why.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace exactsim {

// Thrown for invalid user input (shapes, scenes, options). Internal invariant
// failures are assertions, not InputError.
class InputError : public std::invalid_argument {
 public:
  explicit InputError(const std::string& what) : std::invalid_argument(what) {}
};

// An amount in a message, with three significant digits (std::to_string shows 5.5e-19 as
// 0.000000).
inline std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

}  // namespace exactsim
