// `exactsim stress`: the stress campaign (docs/robustness.md "Stress campaign").
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "exactsim/math/error.h"
#include "experiments/stress.h"
#include "experiments/sweep.h"
#include "memory_budget_option.h"

namespace exactsim::cli {
namespace {

using nlohmann::json;

struct StressArgs {
  bool quick = false;
  bool penetration_sweep = false;
  int seeds = 100;
  int hull_seeds = 0;  // 0: the campaign's (5, --quick 1)
  std::string out;
  int jobs = 0;
  std::string only;  // keep only runs whose name contains this
  bool report_only = false;
  StressLimits limits;
  std::optional<double> memory_budget;  // GiB, per run
};

int stress(const StressArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  StressLimits limits = a.limits;
  if (a.memory_budget) limits.memory_budget_bytes = memory_budget_bytes(*a.memory_budget);
  const std::string out = !a.out.empty()        ? a.out
                          : a.penetration_sweep ? "results/penetration-sweep"
                          : a.quick             ? "results/stress-quick"
                                                : "results/stress";
  std::vector<StressRun> runs;
  for (const StressRun& r : a.penetration_sweep ? penetration_sweep_job_list(a.seeds)
                                                : stress_job_list(a.quick, a.hull_seeds))
    if (a.only.empty() || r.name().find(a.only) != std::string::npos) runs.push_back(r);
  if (runs.empty()) throw InputError("--only: no run of the campaign matches '" + a.only + "'");
  std::vector<SweepJob> jobs;
  for (const StressRun& r : runs) {
    const StressLimits lim = limits;
    jobs.push_back({r.name(), stress_params(r, lim), [r, lim] { return run_stress(r, lim); }});
  }
  SweepOptions so;
  so.dir = out + "/runs";
  so.jobs = a.jobs;
  // The backstop: every parallel run may use its budget (docs/input-validation.md).
  set_memory_backstop(limits.memory_budget_bytes, sweep_threads(so, jobs.size()));
  std::printf("stress%s: %zu runs in %s (results resume from earlier invocations)\n",
              a.penetration_sweep ? " --penetration-sweep"
              : a.quick           ? " --quick"
                                  : "",
              jobs.size(), so.dir.c_str());
  std::fflush(stdout);
  SweepOutcome outcome;
  if (!a.report_only)
    outcome = run_sweep(jobs, so, [start](const SweepProgress& p) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!p.result) {
        std::printf("[%d/%d %.0fs] %s FAILED: %s\n", p.done, p.total, elapsed, p.job->name.c_str(),
                    p.error.c_str());
      } else {
        const json& r = *p.result;
        std::printf(
            "[%d/%d %.0fs] %-36s %5ld/%-5ld steps, %ld failed, %ld gains>1J, lost %ld, "
            "%.1f s%s%s\n",
            p.done, p.total, elapsed, p.job->name.c_str(), r["steps_done"].get<long>(),
            r["steps_planned"].get<long>(), r["failed_solves"].get<long>(),
            r["energy_gains_over_1J"].get<long>(), r["bodies_lost"].get<long>(),
            r["wall_seconds"].get<double>(), p.skipped ? " (done earlier)" : "",
            r["ended_early"].is_string()
                ? (", ended early: " + r["ended_early"].get<std::string>()).c_str()
                : "");
      }
      std::fflush(stdout);
    });
  // The table from the files, so that a resumed campaign reports what an uninterrupted one does.
  std::vector<json> results;
  for (const SweepJob& j : jobs)
    if (auto r = read_sweep_result(so.dir, j)) results.push_back(std::move(*r));
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double run_wall = 0;
  for (const json& r : results) run_wall += r["wall_seconds"].get<double>();
  const std::string table = stress_table(results);
  char head[512];
  std::snprintf(head, sizeof head,
                "# Stress campaign%s\n\n%zu of %zu runs have results (this invocation ran %d, "
                "kept %d, %d threw); wall time of this invocation %.0f s, sum of the runs' wall "
                "times %.0f s. Limits: step budget %.0f s, LCP size %d, run budget %s.\n\n",
                a.penetration_sweep ? " (--penetration-sweep)"
                : a.quick           ? " (--quick)"
                                    : "",
                results.size(), jobs.size(), outcome.ran, outcome.skipped, outcome.failed, wall,
                run_wall, a.limits.step_budget_seconds, a.limits.max_lcp,
                a.limits.run_budget_seconds > 0
                    ? (std::to_string(static_cast<int>(a.limits.run_budget_seconds)) + " s").c_str()
                    : "none");
  const std::string report = std::string(head) + table;
  {
    std::ofstream f(out + "/stress.md");
    if (!f) throw InputError(out + "/stress.md: cannot write");
    f << report;
  }
  std::printf("\n%s\nwritten: %s/stress.md, %s/*.json\n", report.c_str(), out.c_str(),
              so.dir.c_str());
  for (const std::string& e : outcome.errors) std::fprintf(stderr, "run threw: %s\n", e.c_str());
  return outcome.failed ? 1 : 0;
}

}  // namespace

Action register_stress(CLI::App& app) {
  auto a = std::make_shared<StressArgs>();
  CLI::App* sub = app.add_subcommand(
      "stress",
      "Stress campaign: pours, stacks, structures and inclines, PEG and standard "
      "(docs/robustness.md). The full campaign is 1,264 runs and takes well over an hour on 2 "
      "cores (the pyramid and the standard model's stack and tower take 3 to over 35 min each); "
      "--quick is the CI subset");
  sub->add_flag("--quick", a->quick,
                "The CI subset, under 30 s on 2 cores: 50 of the campaign's runs, "
                "unchanged: the random and ball pours at seeds 1-3 and PEG's hull pours at seed 1 "
                "(5 s each), the inclines, PEG's stack and tower");
  sub->add_flag("--penetration-sweep", a->penetration_sweep,
                "Instead of the campaign: PEG on the random 2D and 3D pours at h = 0.001 ... 0.05 "
                "(docs/penetration.md \"The penetration sweep\")");
  sub->add_option("--seeds", a->seeds, "Seeds 1..N of the penetration sweep (default 100)")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--hull-seeds", a->hull_seeds,
                  "Run the hull pours at seeds 1..N (default 5; --quick 1): with --only hull-pour, "
                  "a larger sample of their failures")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--out", a->out,
                  "Output folder (default results/stress or results/stress-quick): stress.md, "
                  "runs/*.json; an interrupted campaign resumes from it");
  sub->add_option("--jobs", a->jobs, "Parallel runs (default: the number of cores)")
      ->check(at_least(0, "(0 = one per core)"));
  sub->add_option("--only", a->only, "Only the runs whose name contains this text");
  sub->add_flag("--report-only", a->report_only,
                "Run nothing: write the table of the results already in --out (e.g. of a "
                "campaign still running or stopped)");
  sub->add_option("--step-budget", a->limits.step_budget_seconds,
                  "Runaway: end a run after a step using more CPU time than this (s, default 30)");
  sub->add_option("--max-lcp", a->limits.max_lcp,
                  "Runaway: end a run after a step whose LCP has more unknowns (default 2000; "
                  "not the structures, whose LCP does not grow)");
  sub->add_option("--run-budget", a->limits.run_budget_seconds,
                  "End a run once it has used this much CPU time (s, default 0: no limit)");
  add_memory_budget_option(sub, a->memory_budget);
  return [a] { return stress(*a); };
}

}  // namespace exactsim::cli
