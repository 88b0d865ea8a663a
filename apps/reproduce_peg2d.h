// `exactsim reproduce peg2d`: the PEG paper's 2D pouring experiment (docs/peg2d-experiment.md):
// the sweep file data/sweeps/peg2d.json (every model × h ∈ {1, …, 16} ms × archived set a…j) on
// the sweep engine, in parallel and resumably, then pooled statistics (results.csv, results.md)
// for scripts/plot_peg2d.py.
#pragma once

#include <string>
#include <vector>

namespace exactsim::cli {

struct Peg2dSweepOptions {
  std::string out_dir;  // runs go to out_dir/results (a sweep folder), tables to out_dir
  bool quick = false;   // sets a, b; h ∈ {5, 16} ms; 2 s of simulated time
  std::vector<std::string> models = {"peg", "standard", "corrective"};
  int jobs = 0;  // worker threads; 0 = all cores
};

// Returns the process exit status (non-zero when a run threw).
int reproduce_peg2d(const Peg2dSweepOptions& options);

}  // namespace exactsim::cli
