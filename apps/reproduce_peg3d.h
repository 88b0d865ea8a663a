// `exactsim reproduce peg3d`: the PEG paper's 3D pouring experiment (docs/peg3d-experiment.md):
// the sweep files data/sweeps/peg3d-ico.json and peg3d-random.json (every model × h ∈ {1, …, 16}
// ms × protocol: the archived icosahedron drop and ten seeded sets of random convex polyhedra) on
// the sweep engine, in parallel and resumably, then per-protocol statistics (results.csv,
// results.md) for scripts/plot_peg3d.py.
#pragma once

#include <string>
#include <vector>

namespace exactsim::cli {

struct Peg3dSweepOptions {
  std::string out_dir;    // runs go to out_dir/results (a sweep folder), tables to out_dir
  bool quick = false;     // icosahedra + seed 1; h ∈ {10, 16} ms; 1.5 s; 20 s wall per run
  std::vector<int> h_ms;  // step sizes in ms; empty = 1…16 (quick: 10, 16)
  int seeds = 10;         // random sets 1…seeds (0 = icosahedra only)
  std::vector<std::string> models = {"peg", "standard", "corrective"};
  int jobs = 0;  // worker threads; 0 = all cores
};

// Returns the process exit status (non-zero when a run threw).
int reproduce_peg3d(const Peg3dSweepOptions& options);

}  // namespace exactsim::cli
