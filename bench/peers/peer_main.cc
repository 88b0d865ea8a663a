#include "peer_main.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "exactsim/math/error.h"

namespace exactsim::peers {

int run_program(CLI::App& app, int argc, char** argv, const std::function<int()>& work) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);  // --help: 0
    return status == 0 ? 0 : 2;
  }
  const char* name = app.get_name().c_str();
  try {
    return work();
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s: error: %s\n", name, e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: failed: %s\n", name, e.what());
    return 1;
  }
}

CLI::Validator number_above(double min, bool inclusive) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", min);
  const std::string bound = std::string(inclusive ? ">= " : "> ") + text;
  return CLI::Validator(
      [=](std::string& input) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value))
          return "expected a number, got '" + input + "'";
        if (inclusive ? value >= min : value > min) return "";
        return "must be " + bound + ", got " + input;
      },
      bound);
}

}  // namespace exactsim::peers
