// bench_safeguards: what the nothing-passes-through safeguards cost, on the scenes of
// the penetration sweep (`exactsim stress --penetration-sweep`: PEG on the random 2D and 3D
// pours, docs/penetration.md "The penetration sweep"), every scene stepped three ways in the same
// run, one after the other:
//
//   split     advance(): the penetration watchdog after every step, and the step split into
//             halves (down to 2^max_step_splits sub-steps) when it finds a new pair deeper than ε
//             (the default of `exactsim run` and of the sweep);
//   watchdog  step(): the watchdog reports depths, nothing is split;
//   none      step() with StepOptions::watch_penetration off: neither.
//
// The overlap metric stays on in all three (the library's default), and the safeguards that are
// always on (the exit-edge / exit-face contact of a vertex deeper than ε, the overlap cover of
// docs/peg.md and docs/peg3d.md "Algorithm" step 7) are in all three. Time is the CPU time of this
// single thread, so the table does not depend on the machine's load; runs are serial.
//
// A scenario program, not a Google Benchmark: it prints a Markdown table (docs/penetration.md
// "What the safeguards cost").
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "exactsim/stepping/adaptive_step.h"
#include "experiments/stress.h"

namespace exactsim::bench {
namespace {

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

enum class Mode { kSplit, kWatchdog, kNone };
constexpr Mode kModes[] = {Mode::kSplit, Mode::kWatchdog, Mode::kNone};
const char* to_string(Mode m) {
  return m == Mode::kSplit ? "split" : m == Mode::kWatchdog ? "watchdog" : "none";
}

struct Totals {
  long steps = 0, substeps = 0, deep_steps = 0;
  int runs = 0, deep_runs = 0;
  double cpu_seconds = 0;
  Real max_depth = 0;
};

void run_one(const StressRun& job, Mode mode, Totals& t) {
  Scene scene = build_stress_scene(job);
  scene.world.stepping.watch_penetration = mode != Mode::kNone;
  State state = scene.initial;
  Workspace ws;
  long deep = 0;
  const double start = thread_cpu_seconds();
  for (long k = 0; k < scene.step_count(); ++k) {
    const StepReport r = mode == Mode::kSplit ? advance(scene.world, state, ws, scene.step, k)
                                              : step(scene.world, state, ws, scene.step, k);
    t.substeps += r.substeps;
    t.max_depth = std::max(t.max_depth, r.max_penetration);
    deep += r.status == StepStatus::kDeepPenetration;
  }
  t.cpu_seconds += thread_cpu_seconds() - start;
  t.steps += scene.step_count();
  t.deep_steps += deep;
  t.deep_runs += deep > 0;
  ++t.runs;
}

}  // namespace
}  // namespace exactsim::bench

int main(int argc, char** argv) {
  using namespace exactsim;
  using namespace exactsim::bench;
  CLI::App app{"The cost of the nothing-passes-through safeguards (docs/penetration.md)"};
  int seeds = 20;
  std::string only;
  app.add_option("--seeds", seeds, "Seeds 1..N of the penetration sweep's scenes")
      ->check(CLI::Range(1, 100000));
  app.add_option("--only", only, "Only the families / step sizes whose run names contain this");
  CLI11_PARSE(app, argc, argv);

  // Cells in the sweep's order: (family, h) → per mode totals.
  struct Cell {
    std::string family;
    Real step;
    Real epsilon;
    Totals modes[3];
  };
  std::vector<Cell> cells;
  const std::vector<StressRun> jobs = penetration_sweep_job_list(seeds);
  int done = 0;
  for (const StressRun& job : jobs) {
    if (!only.empty() && job.name().find(only) == std::string::npos) continue;
    auto it = std::find_if(cells.begin(), cells.end(), [&](const Cell& c) {
      return c.family == job.family && c.step == job.step;
    });
    if (it == cells.end()) {
      const Scene s = build_stress_scene(job);
      cells.push_back({job.family, job.step, contact_epsilon(s.world, s.step), {}});
      it = cells.end() - 1;
    }
    for (int m = 0; m < 3; ++m) run_one(job, kModes[m], it->modes[m]);
    std::fprintf(stderr, "\r%d runs × 3 modes", ++done);
  }
  std::fprintf(stderr, "\n");

  std::printf(
      "| family | h (s) | ε (m) | mode | runs | steps | sub-steps | CPU ms / step | × none | max "
      "depth (m) | runs deeper than ε | steps deeper than ε |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Cell& c : cells) {
    const double none_ms = 1e3 * c.modes[2].cpu_seconds / static_cast<double>(c.modes[2].steps);
    for (int m = 0; m < 3; ++m) {
      const Totals& t = c.modes[m];
      const double ms = 1e3 * t.cpu_seconds / static_cast<double>(t.steps);
      const bool watched = kModes[m] != Mode::kNone;
      char depth[32] = "–", deep_runs[32] = "–", deep_steps[32] = "–";
      if (watched) {
        std::snprintf(depth, sizeof depth, "%.3g", t.max_depth);
        std::snprintf(deep_runs, sizeof deep_runs, "%d", t.deep_runs);
        std::snprintf(deep_steps, sizeof deep_steps, "%ld", t.deep_steps);
      }
      std::printf("| %s | %g | %.3g | %s | %d | %ld | %ld | %.3f | %.2f | %s | %s | %s |\n",
                  c.family.c_str(), c.step, c.epsilon, to_string(kModes[m]), t.runs, t.steps,
                  t.substeps, ms, ms / none_ms, depth, deep_runs, deep_steps);
    }
  }
  return 0;
}
