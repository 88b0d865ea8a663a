// Running a sweep file's runs (experiments/sweep_file.h) on the sweep executor
// (experiments/sweep.h): one job per point, its result the fields the sweep file records.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/sweep.h"
#include "experiments/sweep_file.h"

namespace exactsim {

// Runs one point and returns what the sweep file records:
//   {"summary": {the recorded fields, "failed", "failure"}, "series": {field: [per step]}}
// or {"error": "why"} when the scene could not be built or the run threw. A failed run is a
// result, not an exception. With record.trajectory the run's folder is `run_dir`.
nlohmann::json run_sweep_point(const SweepSpec& spec, const SweepPoint& point,
                               const std::string& run_dir);

// The results folder of a sweep's output folder (DIR/results: one JSON file per finished run)
// and the folder of one run's files (DIR/runs/NAME, with record.trajectory).
std::string sweep_results_dir(const std::string& out);
std::string sweep_run_dir(const std::string& out, const std::string& name);

// One job per point, results in sweep_results_dir(out), cost = the point's cost estimate.
std::vector<SweepJob> sweep_jobs(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                 const std::string& out);

// Why the run of this result failed: its error, or why it ended early ("" when it did not).
std::string sweep_result_failure(const nlohmann::json& result);

// The stop rule that ended the run of this result and when ("max_lcp_unknowns at 1.25 s"; ""
// when none did: docs/sweeps.md "Stop rules").
std::string sweep_result_stop(const nlohmann::json& result);

}  // namespace exactsim
