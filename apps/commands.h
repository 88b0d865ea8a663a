// Each subcommand of `exactsim` lives in its own cmd_<name>.cc and registers itself in main.cc.
#pragma once

#include <CLI/CLI.hpp>

#include "exactsim/io/event_scene_json.h"

#include <cstdio>
#include <functional>
#include <optional>
#include <string>

namespace exactsim::cli {

// Attaches a subcommand and its options to `app` and returns the action to run when it is
// chosen; the action returns the process exit status.
using Action = std::function<int()>;
Action register_run(CLI::App& app);
Action register_impact(CLI::App& app);
Action register_reproduce(CLI::App& app);
Action register_events(CLI::App& app);
Action register_view(CLI::App& app);
Action register_stress(CLI::App& app);
Action register_lcp(CLI::App& app);
Action register_sweep(CLI::App& app);

// An event-driven PLUS scene (contact.model "plus", docs/plus.md) run to `duration` (the scene's
// when absent), trajectory.csv and impacts.jsonl written to `out` (none when empty); `exactsim
// events` and `exactsim run` on such a scene. Returns the exit status.
int run_events(const EventScene& scene, const std::string& out, std::optional<double> duration);

// A time-stepping scene file run event-driven (`exactsim events` on it, docs/plus.md
// "Event-driven polytopes"): `exactsim run` with PLUS impacts located in the step, the scene's
// contact.impact options, exact flight between impacts; InputError when the file asks for
// contact.impact.model "none".
int run_stepped_events(const std::string& scene_file, const std::string& out,
                       std::optional<double> duration);

// An option's check that its value is a number >= min, with a message a person reads ("--every:
// must be >= 1, got 0") instead of CLI11's range up to the largest double. `meaning` (may be
// empty) follows the bound in the message, e.g. "(the trajectory is written every N steps)".
inline CLI::Validator at_least(double min, const std::string& meaning = "") {
  char text[32];
  std::snprintf(text, sizeof text, "%g", min);
  const std::string bound = text;
  return CLI::Validator(
      [min, bound, meaning](std::string& input) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(input, value))
          return "expected a number, got '" + input + "'";
        if (!(value >= min))
          return "must be >= " + bound + (meaning.empty() ? "" : " " + meaning) + ", got " + input;
        return "";
      },
      ">= " + bound);
}

// The folder of the archived data shipped with exactsim (data/), overridable by $EXACTSIM_DATA.
std::string data_dir();

}  // namespace exactsim::cli
