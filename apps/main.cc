// The exactsim command: one subcommand per file (cmd_<name>.cc), registered here.
#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include "commands.h"
#include "exactsim/api/version.h"
#include "exactsim/math/error.h"

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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  for (auto* sub : app.get_subcommands()) {
    try {
      return actions.at(sub->get_name())();
    } catch (const exactsim::InputError& e) {
      std::fprintf(stderr, "exactsim %s: error: %s\n", sub->get_name().c_str(), e.what());
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "exactsim %s: failed: %s\n", sub->get_name().c_str(), e.what());
      return 1;
    }
  }
  return 1;
}
