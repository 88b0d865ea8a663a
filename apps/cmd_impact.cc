// `exactsim impact PROBLEM.json`: solve one stand-alone impact problem (docs/impact-problem.md)
// and print the result JSON on stdout.
#include <cstdio>
#include <string>

#include "commands.h"
#include "exactsim/impact/impact_problem_json.h"

namespace exactsim::cli {

Action register_impact(CLI::App& app) {
  auto* sub = app.add_subcommand("impact", "solve a stand-alone PLUS impact problem (JSON)");
  auto path = std::make_shared<std::string>();
  auto indent = std::make_shared<int>(1);
  auto no_log = std::make_shared<bool>(false);
  sub->add_option("problem", *path, "impact problem file (format exactsim-impact)")->required();
  sub->add_option("--indent", *indent, "JSON indentation (-1: one line)");
  sub->add_flag("--no-log", *no_log, "omit the rounds/intervals log");
  return [path, indent, no_log]() {
    ImpactProblemFile file = read_impact_problem(*path);
    if (*no_log) file.problem.options.record_log = false;
    const ImpactResult result = solve_impact_problem(file);
    std::printf("%s\n", impact_result_to_json(result).dump(*indent).c_str());
    return result.converged ? 0 : 3;
  };
}

}  // namespace exactsim::cli
