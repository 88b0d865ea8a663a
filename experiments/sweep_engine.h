// Sweeps over engines (docs/peers.md "The benchmark as a sweep"): the reserved sweep paths
// `engine` (which engine runs the scene: exactsim itself or a peer driver, bench/peers/) and
// `repeat` (how many times the stepping loop is timed), and the run of one point of such a sweep:
// the engine's results folder scored by the peer benchmark's metric
// (experiments/trajectory_metrics.h), the same code for every engine.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/sweep_file.h"

namespace exactsim {

// The engines an `engine` value may name, in the order of reports.
inline constexpr const char* kSweepEngines[] = {"exactsim", "bullet", "ode", "mujoco"};

// `engine` or `repeat`: a path that chooses how a run is made, not a field of the scene.
bool is_engine_option_path(const std::string& path);

// Why `value` cannot be given to `path` (an engine option path), or "" when it can.
std::string engine_option_problem(const std::string& path, const nlohmann::json& value);

// Whether the sweep names an engine (an `engine` axis or an `engine` in `set`).
bool is_engine_sweep(const SweepSpec& spec);

// The fields an engine sweep can record, with values of their types (the recordable ones are the
// numbers and booleans), and the ones it records by default.
nlohmann::json engine_record_example();
std::vector<std::string> engine_record_default();

// The program that runs `engine` ("bullet": peers_dir/peer_bullet).
std::string peer_driver_path(const std::string& peers_dir, const std::string& engine);

// The default folder of the peer drivers for the command at `exe` (build/apps/exactsim):
// build/bench/peers when it exists, else "".
std::string default_peers_dir(const std::string& exe);

// Checks that every peer engine the sweep names has its driver in spec.peers_dir; InputError
// "FILE: axes[i]: engine 'bullet': no driver ... (where it looked)" otherwise.
void check_engine_drivers(const SweepSpec& spec);

// Runs one point of an engine sweep in `run_dir` and returns what the sweep records:
// {"summary": {the recorded fields of score_run_folder, "failed", "failure"}}, or
// {"error": "why"} when the scene could not be built, the driver failed or crashed, or the folder
// could not be scored. The run's trajectory is removed after scoring unless record.trajectory.
nlohmann::json run_engine_point(const SweepSpec& spec, const SweepPoint& point,
                                const std::string& run_dir);

}  // namespace exactsim
