// Running a scene to the end: the step loop, incremental output and the run summary.
#pragma once

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "exactsim/stepping/step.h"

namespace exactsim {

struct RunOptions {
  std::string out_dir;       // empty: write nothing
  int trajectory_every = 1;  // write the trajectory every N steps (and the last step)
  bool progress = true;      // a progress line on stderr every ~2 s of wall time
  // The per-step overlaps kept for RunSummary::median_overlap: at most this many (2^24 values,
  // 128 MiB); a longer run keeps every 2nd, 4th, ... step's (RunSummary::median_overlap_every).
  long overlap_record_cap = 1L << 24;
};

struct RunSummary {
  std::string scene;
  std::string model;
  int dimension = 2;
  Real step = 0;
  long steps_planned = 0, steps_done = 0;
  long solver_calls = 0, fallback_solves = 0;
  long solver_failures = 0;  // failed solves, energy-check failures included
  long energy_failures = 0;  // of them, solves that verified but failed the energy balance
  Real max_energy_gain = 0;  // J, max over steps of T(ν⁺) − T(ν*): beyond gravity's work
  // Split stabilisation: steps whose position LCP ran, of them those that relaxed contradictory
  // push-outs (StepReport::projection_relaxed_rows), those scaled down to the move bound
  // (projection_scale) and those left unsolved (no push-out).
  long projection_steps = 0, projection_relaxed = 0, projection_scaled = 0, projection_failures = 0;
  long deep_penetration_steps = 0;  // steps the penetration watchdog flagged
  Real max_penetration = 0;         // m, the largest exact penetration depth of any step
  int bodies_lost = 0;              // dynamic bodies whose centre ever left the scene's bounds
  long max_pivots = 0;
  Real max_complementarity = 0;
  double wall_seconds = 0, solver_seconds = 0;
  Real max_overlap = 0, median_overlap = 0;  // over the steps (m² or m³)
  // The median is over the steps k with k % median_overlap_every == 0: 1 unless the run had more
  // steps than RunOptions::overlap_record_cap (then a power of two).
  long median_overlap_every = 1;
  Real mean_contacts = 0;
  int max_contacts = 0;
  long peg_changed_steps = 0;  // steps where PEG's constraints differ from the standard model's
  double peak_memory_mb = 0;   // peak resident memory of the whole process so far (getrusage)
  Real kinetic_energy = 0, potential_energy = 0;  // at the end
  int bodies_asleep = 0;  // at the end (StepOptions::sleep, docs/stepping.md "Sleeping")
  bool failed = false;  // ended early: a failed solve or deep penetration (not continued), or
                        // a numerical failure
  std::string failure;  // why
};

nlohmann::json summary_to_json(const RunSummary& s);
nlohmann::json report_to_json(const StepReport& r);

// Writes DIR/trajectory.csv, DIR/steps.jsonl (one StepReport per line) and DIR/summary.json,
// each flushed as it goes so that a killed run keeps what it finished.
class RunRecorder {
 public:
  RunRecorder(const std::string& out_dir, const Scene& scene, int trajectory_every);
  void record(const State& state, const StepReport& report, bool last);
  void finish(const RunSummary& summary);

 private:
  std::string dir_;
  int dimension_;
  int every_;
  std::vector<std::string> names_;
  std::ofstream trajectory_, steps_;
};

// Runs scene.step_count() steps from scene.initial. Stops after a failed solve unless
// world.stepping.continue_on_solver_failure. `on_step` (optional) sees every report.
RunSummary run_scene(const Scene& scene, const RunOptions& options,
                     const std::function<void(const State&, const StepReport&)>& on_step = {});

// One line saying why step r ended the run (solver, energy balance or divergence).
std::string describe_failure(const Scene& scene, const StepReport& r);

// Median of a sample (copied).
Real median(std::vector<Real> values);

// Peak resident memory of this process so far, MiB (0 if the OS does not say).
double peak_memory_mb();

}  // namespace exactsim
