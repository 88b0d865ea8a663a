// The exactsim command: one subcommand per file (cmd_<name>.cc), registered here.
#include <cstdio>
#include <exception>
#include <map>
#include <new>
#include <string>

#include "commands.h"
#include "exactsim/api/version.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/memory_budget.h"
#include "memory_budget_option.h"

int main(int argc, char** argv) {
  CLI::App app{"exactsim: physically faithful rigid-body contact simulation (PEG, PLUS)"};
  app.set_version_flag("--version", std::string("exactsim ") + exactsim::version());
  app.require_subcommand(1);
  std::map<std::string, exactsim::cli::Action> actions;
  actions["run"] = exactsim::cli::register_run(app);
  actions["impact"] = exactsim::cli::register_impact(app);
  actions["reproduce"] = exactsim::cli::register_reproduce(app);
  actions["events"] = exactsim::cli::register_events(app);
  actions["view"] = exactsim::cli::register_view(app);
  actions["stress"] = exactsim::cli::register_stress(app);
  actions["lcp"] = exactsim::cli::register_lcp(app);
  actions["sweep"] = exactsim::cli::register_sweep(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end with 0; every error of the command line itself (an unknown or
    // missing option, a missing value, a value out of range) is bad input: exit status 2
    // (docs/input-validation.md "Exit codes").
    const int status = app.exit(e);
    return status == 0 ? 0 : 2;
  }
  for (auto* sub : app.get_subcommands()) {
    try {
      const int status = actions.at(sub->get_name())();
      // What was printed must have reached standard output (a full disk, a closed descriptor):
      // otherwise the results are lost, an I/O failure (docs/input-validation.md "Exit codes").
      if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "exactsim %s: failed: cannot write to standard output\n",
                     sub->get_name().c_str());
        return status == 0 ? 1 : status;
      }
      return status;
    } catch (const exactsim::InputError& e) {
      std::fprintf(stderr, "exactsim %s: error: %s\n", sub->get_name().c_str(), e.what());
      return 2;
    } catch (const exactsim::MemoryBudgetError& e) {
      std::fprintf(stderr, "exactsim %s: memory budget exceeded: %s\n", sub->get_name().c_str(),
                   e.what());
      return 4;
    } catch (const std::bad_alloc&) {
      // What the estimates do not cover, stopped by the address-space limit that `run` and
      // `stress` set from the budget (or by the machine): reported, not an OOM kill.
      const std::uint64_t limit = exactsim::cli::memory_backstop();
      std::fprintf(stderr,
                   "exactsim %s: out of memory: an allocation failed%s%s (the limit follows "
                   "--memory-budget GIB; docs/input-validation.md)\n",
                   sub->get_name().c_str(), limit ? " under the address-space limit of " : "",
                   limit ? exactsim::format_bytes(static_cast<double>(limit)).c_str() : "");
      return 4;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "exactsim %s: failed: %s\n", sub->get_name().c_str(), e.what());
      return 1;
    }
  }
  return 1;
}
