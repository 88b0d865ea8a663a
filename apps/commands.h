// Each subcommand of `exactsim` lives in its own cmd_<name>.cc and registers itself in main.cc.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

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

// The folder of the archived data shipped with exactsim (data/), overridable by $EXACTSIM_DATA.
std::string data_dir();

}  // namespace exactsim::cli
