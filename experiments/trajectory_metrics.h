// The peer benchmark's metric (docs/peers.md "The metric"): one trajectory in exactsim's format and
// its scene, scored by exactsim's exact geometry, the same code for every engine and for exactsim's
// own runs (stepping/step.h measure_state: the step's end-of-step overlap and penetration depth).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "exactsim/viewer/results.h"

namespace exactsim::peers {

struct MetricOptions {
  // A run blows up when a present dynamic body moves faster than this between two recorded
  // states (m/s, from the positions: the engine's velocities are not trusted), or has a
  // non-finite coordinate.
  Real speed_bound = 50;
};

struct TrajectoryMetrics {
  long frames = 0;             // recorded states after a step (the initial state not counted)
  Real simulated_seconds = 0;  // time of the last recorded state less the initial time
  // Total exact overlap of the recorded states (m² / m³): median, third quartile (nearest rank:
  // the ⌈0.75 n⌉-th smallest), largest.
  Real overlap_median = 0, overlap_q3 = 0, overlap_max = 0;
  Real max_penetration = 0;  // m, largest exact penetration depth of any pair in any state
  // Dynamic bodies whose centre ever left the container: the box around the fixed static bodies
  // of the scene's initial state, open on the side gravity points away from. 0 without statics.
  int bodies_left = 0;
  bool blew_up = false;
  long blow_up_step = -1;  // the first state's step (−1: none)
  std::string blow_up;     // which body and why
};

// The metric of a results folder read back (read_results, every frame: max_frames 0).
TrajectoryMetrics trajectory_metrics(const RunResults& results, const MetricOptions& options);

nlohmann::json to_json(const TrajectoryMetrics& m);

// The peer benchmark's score of one results folder, written by a peer driver (peer.json) or by
// exactsim (summary.json): where and who ran it ("dir", "scene", "dimension", "step", "engine",
// "version", "steps_planned", "steps_done", "stopped", "wall_seconds", "wall_source"), the
// trajectory's metrics (to_json), "complete" and "ms_per_simulated_second" (docs/peers.md "The
// metric"). The wall time of an exactsim folder is the median of DIR/wall_seconds.json's
// "wall_seconds" list when it has one, else summary.json's. InputError naming the file and the
// reason for a folder without a trajectory or without peer.json and summary.json.
nlohmann::json score_run_folder(const std::string& dir, const MetricOptions& options);

}  // namespace exactsim::peers
