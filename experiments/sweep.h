// Parameter sweeps: a parallel, incremental, resumable executor of independent runs, and the
// summary statistics of the papers' error plots (docs/peg2d-experiment.md "Statistics").
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/math/types.h"

namespace exactsim {

// One independent run of a sweep. Its result goes to <dir>/<name>.json as
// {"params": params, "result": run(), "complete": true}; a file whose params differ from the
// job's (e.g. an earlier sweep with another duration) does not count as done.
struct SweepJob {
  std::string name;  // file stem, unique within the sweep
  nlohmann::json params;
  std::function<nlohmann::json()> run;  // must not touch shared mutable state
  double cost = 0;  // relative cost estimate: costlier jobs start first (0: unknown)
  // Wall time after which the run is ended without a result (0: no bound). `run` checks it
  // itself where it can (after each step, a peer driver killed); the MPI runner also kills the
  // run's process at it (docs/sweeps.md "Runs that hang").
  double timeout_seconds = 0;  // s
};

// The error of a run ended by its timeout.
std::string run_timeout_error(double timeout_seconds);

// Thrown out of a job's `run` when its timeout passed: the run has no result (the next
// invocation runs it again), as when its process crashed.
struct RunTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A run's wall-time bound: check() throws RunTimeout(run_timeout_error) once `timeout_seconds`
// (0: never) have passed since it was made.
class RunDeadline {
 public:
  explicit RunDeadline(double timeout_seconds);
  bool passed() const;
  void check() const;

 private:
  double seconds_;
  std::chrono::steady_clock::time_point start_;
};

struct SweepOptions {
  std::string dir;  // created if missing
  int jobs = 0;     // worker threads; 0 = std::thread::hardware_concurrency()
  // The MPI runner: a worker not heard from for this long (it says it is alive every second
  // while it runs a job) is lost, and its job is reported without a result.
  double rank_timeout_seconds = 60;  // s
};

// What the executor tells the caller after each job (called under a lock, one at a time).
struct SweepProgress {
  int done = 0, total = 0;  // jobs finished so far (including skipped), all jobs
  const SweepJob* job = nullptr;
  const nlohmann::json* result = nullptr;  // the job's result (null when it threw)
  bool skipped = false;                    // its file already existed and was complete
  double wall_seconds = 0;                 // this run's wall time (0 when skipped)
  std::string error;                       // the exception message when it threw
};

struct SweepOutcome {
  int ran = 0, skipped = 0, failed = 0;
  std::vector<std::string> errors;  // "<name>: <message>" for every job that threw
};

std::string sweep_file(const std::string& dir, const std::string& name);

// The result stored for `job` in `dir`, or nullopt when the file is missing, unreadable,
// incomplete or was written for other params.
std::optional<nlohmann::json> read_sweep_result(const std::string& dir, const SweepJob& job);

// What every runner does around the runs themselves: checks the job names, reports the jobs whose
// files are complete (first, so that the progress count starts where it stopped), orders the
// others costliest first (stable), publishes each result atomically and counts.
class SweepLedger {
 public:
  SweepLedger(const std::vector<SweepJob>& jobs, const SweepOptions& options,
              const std::function<void(const SweepProgress&)>& on_done);
  // The jobs still to run, in the order to start them.
  const std::vector<const SweepJob*>& todo() const { return todo_; }
  // A job's end: writes its result file (when it has a result; a write failure becomes its
  // error) and reports. Thread-safe.
  void finish(const SweepJob& job, const nlohmann::json* result, std::string error,
              double wall_seconds);
  SweepOutcome outcome() const;

 private:
  std::string dir_;
  std::function<void(const SweepProgress&)> on_done_;
  std::vector<const SweepJob*> todo_;
  mutable std::mutex lock_;  // guards outcome_, done_ and on_done_
  SweepOutcome outcome_;
  int done_ = 0, total_ = 0;
};

// The threads run_sweep uses for `todo` jobs: options.jobs (0: one per core), at most one per
// job, at least 1.
int sweep_threads(const SweepOptions& options, std::size_t todo);

// Runs every job without a complete file, `options.jobs` at a time. Each result is written to a
// temporary name and renamed into place as soon as it finishes, so an interrupted sweep resumes
// where it stopped. A job that throws writes nothing and is reported; the others go on.
SweepOutcome run_sweep(const std::vector<SweepJob>& jobs, const SweepOptions& options,
                       const std::function<void(const SweepProgress&)>& on_done = {});

// Median and first/third quartiles of a sample.
struct Quartiles {
  Real q1 = 0, median = 0, q3 = 0;
};

// The authors' definition (PEG paper Fig. 21): q1 = median of the values strictly below
// the median, q3 = median of the values strictly above it (each = the median when none is).
Quartiles quartiles_median_of_halves(std::vector<Real> values);

// True quartiles: linear interpolation between order statistics at p·(n − 1) (Hyndman–Fan
// type 7, numpy's default).
Quartiles quartiles_interpolated(std::vector<Real> values);

// The p-quantile (0 ≤ p ≤ 1) by the same rule as quartiles_interpolated.
Real quantile(std::vector<Real> values, Real p);

}  // namespace exactsim
