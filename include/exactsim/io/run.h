// Running a scene to the end: the step loop, incremental output and the run summary.
#pragma once

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "exactsim/stepping/step_report.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

struct Workspace;

// Stop rules (docs/sweeps.md "Stop rules"): after a step that breaks one the run ends there,
// recorded as stopped (RunSummary::stopped, stopped_at), not as failed. A rule left at its
// default does not apply; they are checked in this order, the first broken one named.
struct StopRules {
  long max_solver_failures = -1;  // more failed solves than this (RunSummary::solver_failures)
  long max_lcp_unknowns = -1;     // a step with more LCP unknowns than this (StepReport::lcp_size)
  // J/kg: the kinetic energy over the mass of the present dynamic bodies above this, or not
  // finite. A whole-pile bound, below StepOptions::max_speed's per-body numerical failure.
  Real max_kinetic_energy_per_kg = std::numeric_limits<Real>::infinity();
  double wall_seconds = std::numeric_limits<double>::infinity();  // the run's wall time above this
};

struct RunOptions {
  std::string out_dir;       // empty: write nothing
  int trajectory_every = 1;  // write the trajectory every N steps (and the last step)
  bool progress = true;      // a progress line on stderr every ~2 s of wall time
  // The per-step overlaps kept for RunSummary::median_overlap: at most this many (2^24 values,
  // 128 MiB); a longer run keeps every 2nd, 4th, ... step's (RunSummary::median_overlap_every).
  long overlap_record_cap = 1L << 24;
  // Set to a signal's number by the caller's signal handler (which does nothing else): the run
  // stops after the step in progress, with failure "interrupted" and, with out_dir, a checkpoint
  // to resume from (docs/robustness.md "Interrupted runs"). Null: the run is not interrupted.
  const volatile std::sig_atomic_t* interrupt = nullptr;
  // Continue the run whose checkpoint is in out_dir (checkpoint.h) instead of starting one; the
  // scene must be the folder's scene.json. trajectory_every is the checkpoint's.
  bool resume = false;
  // With out_dir: wall seconds between checkpoints, and at least 50 times the last one's cost, so
  // that writing them takes at most 2 % of the run.
  double checkpoint_seconds = 2;
  // Per-contact data in steps.jsonl, as "contact_list" (report_contacts_json; the replay page
  // draws it): 1 always, 0 never, −1 (default) when the scene has at most kContactListMaxBodies
  // bodies, since the list grows with the contacts of every step.
  int contact_list = -1;
  StopRules stop;
};
inline constexpr int kContactListMaxBodies = 32;

struct RunSummary {
  std::string scene;
  std::string model;
  int dimension = 2;
  Real step = 0;
  long steps_planned = 0, steps_done = 0;
  long solver_calls = 0, fallback_solves = 0;
  long solver_failures = 0;  // failed solves, energy-check failures included
  long energy_failures = 0;  // of them, solves that verified but failed the energy balance
  // failed solves of (sub-)steps that advance() then took as halves (StepReport::
  // retaken_failed_solves): not failures of the run unless a half failed too
  long retaken_failed_solves = 0;
  // islands of failed solves that the run went on past without an answer, not even the
  // regularised one (StepReport::islands_flown_free): their bodies flew free for that step
  long islands_flown_free = 0;
  // J, max over steps of the kinetic + potential energy the step added beyond its stabilisation
  // and projection budgets (EnergyBalance::total_excess; <= 0 when every step dissipates)
  Real max_energy_gain = 0;
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
  // Located impacts (ImpactModel::kPlus, docs/impacts.md): resolved, those PLUS did not finish
  // (stepped inelastically), the steps that reached the per-step cap, and the resolved ones'
  // total kinetic energy change (J, ≤ 0 when every one certified).
  long impacts = 0, impact_fallbacks = 0, impact_capped_steps = 0;
  Real impact_energy_change = 0;
  double peak_memory_mb = 0;  // peak resident memory of the whole process so far (getrusage)
  Real kinetic_energy = 0, potential_energy = 0;  // at the end
  int bodies_asleep = 0;  // at the end (StepOptions::sleep, docs/stepping.md "Sleeping")
  // At the end: dynamic bodies whose spawn time has not come, and present dynamic bodies moving
  // along gravity faster than half of what gravity adds in one step (|g| h / 2), i.e. still
  // falling rather than at rest on something (the run may be too short to settle).
  int bodies_not_spawned = 0, bodies_falling = 0;
  bool failed = false;       // ended early: a failed solve or deep penetration (not continued), a
                             // numerical failure, an error, or an interrupt
  std::string failure;       // why ("interrupted" after RunOptions::interrupt)
  bool interrupted = false;  // by RunOptions::interrupt: a checkpoint lets the run resume
  // The stop rule that ended the run (RunOptions::stop: "max_solver_failures",
  // "max_lcp_unknowns", "max_kinetic_energy_per_kg", "wall_seconds"; "" when none did), and the
  // simulated time it ended at (s, the end of its last step).
  std::string stopped;
  Real stopped_at = 0;
};

// What a run carries from step to step besides the simulation: the summary's counts and maxima
// so far and the records its mean, median and lost bodies come from. Plain data: a checkpoint
// saves it, so that a resumed run's summary is the uninterrupted run's.
struct RunTally {
  RunSummary summary;          // the counts and maxima (not yet the fields set at the end)
  std::vector<Real> overlaps;  // the overlap record for the median (RunOptions::overlap_record_cap)
  long overlap_every = 1;      // ... of every overlap_every-th step
  long contact_sum = 0;        // potential contacts summed over the steps
  std::vector<std::uint8_t> lost;  // (n_bodies) the body's centre ever left the scene's bounds
  double wall_seconds = 0;  // of the run up to its last checkpoint (a resumed run adds its own)
};

// The tally of a run of `scene` before its first step.
RunTally start_tally(const Scene& scene);

// Adds step report r (the step of index r.step) to the tally.
void tally_step(const StepReport& r, std::size_t overlap_cap, RunTally& tally);

nlohmann::json summary_to_json(const RunSummary& s);
// A field of the step report that every step has, holding a number, a boolean or a string (the
// first level of its line of steps.jsonl without the nested records): what a sweep's series
// records.
struct ReportScalar {
  const char* name;
  nlohmann::json (*get)(const StepReport&);
};
std::span<const ReportScalar> report_scalars();
const ReportScalar* find_report_scalar(std::string_view name);  // null: no such field
nlohmann::json report_to_json(const StepReport& r);
// The contacts of the step just taken in ws (the last sub-step's, when it was split), one object
// each: "a", "b" (body indices; the normal points from a to b), "point" (on a, world frame, at the
// start of the step), "normal" (unit) and "impulse" (the vector applied to b over the step, N·s:
// normal part plus friction; zero where the island's solve failed and was not recovered). 2 or 3
// components by dimension, 6 significant digits.
nlohmann::json report_contacts_json(const Workspace& ws, int dimension);

// The files a run writes into its folder, the viewer's included (docs/viewer.md): a new run
// removes those of an earlier run before its first step.
inline constexpr const char* kRunFiles[] = {"scene.json",   "trajectory.csv", "steps.jsonl",
                                            "summary.json", "checkpoint.bin", "replay.html",
                                            "final.svg"};
// Of them, those written when the run ends: a resumed run removes them before its first step.
inline constexpr const char* kEndFiles[] = {"summary.json", "replay.html", "final.svg"};

struct Checkpoint;

// Writes DIR/trajectory.csv (the initial state as step −1, then the state after each step),
// DIR/steps.jsonl (one StepReport per line), DIR/summary.json and DIR/checkpoint.bin, each
// flushed as it goes so that a killed run keeps what it finished.
class RunRecorder {
 public:
  // A new run: removes an earlier run's files (kRunFiles), writes scene.json, the headers and the
  // rows of `initial` (its present bodies and those that join at the first step).
  RunRecorder(const std::string& out_dir, const Scene& scene, int trajectory_every,
              const State& initial);
  // The run of checkpoint c, resumed: trajectory.csv and steps.jsonl are cut back to the
  // checkpoint's step, the summary and the viewer's files of the interrupted part removed.
  RunRecorder(const std::string& out_dir, const Scene& scene, const Checkpoint& c);
  // One step's line of steps.jsonl and its trajectory rows; with ws, the line carries the step's
  // contacts (report_contacts_json) as "contact_list".
  void record(const State& state, const StepReport& report, bool last,
              const Workspace* ws = nullptr);
  // Flushes the files and writes c (completed with the scene's hash, the files' lengths and
  // trajectory_every) as DIR/checkpoint.bin, atomically.
  void save_checkpoint(Checkpoint& c);
  // Writes summary.json, and removes the checkpoint unless keep_checkpoint (the run can go on:
  // it was interrupted, or an error ended it).
  void finish(const RunSummary& summary, bool keep_checkpoint);

 private:
  void open_files(std::ios::openmode mode);

  std::string dir_;
  int dimension_;
  int every_;
  std::uint64_t scene_hash_ = 0;
  std::vector<std::string> names_;
  std::ofstream trajectory_, steps_;
};

// Runs scene.step_count() steps from scene.initial, or with options.resume the rest of the run
// checkpointed in options.out_dir. Stops after a failed solve unless
// world.stepping.continue_on_solver_failure, and after the step in progress when
// options.interrupt is set. `on_step` (optional) sees every report.
RunSummary run_scene(const Scene& scene, const RunOptions& options,
                     const std::function<void(const State&, const StepReport&)>& on_step = {});

// The progress line of a run (without the leading carriage return): step `step` of `planned`
// done at simulated time `time` with `contacts` contacts, `elapsed` wall seconds after this
// invocation's first step, which was step `first_step` (0, or where a resumed run continued),
// and an estimate of the time left at this invocation's mean rate.
std::string progress_line(const std::string& scene, long step, long planned, Real time,
                          int contacts, double elapsed, long first_step);

// A duration for people: "42 s", "3 min 05 s", "2 h 07 min".
std::string format_duration(double seconds);

// One line saying why step r ended the run (solver, energy balance or divergence).
std::string describe_failure(const Scene& scene, const StepReport& r);

// Median of a sample (copied).
Real median(std::vector<Real> values);

// Peak resident memory of this process so far, MiB (0 if the OS does not say).
double peak_memory_mb();

}  // namespace exactsim
