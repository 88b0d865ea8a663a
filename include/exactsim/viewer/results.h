// A run's results folder read back for viewing: the scene's shapes, the trajectory frames
// (trajectory.csv), the step report of each frame (steps.jsonl) and summary.json (docs/viewer.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/stepping/world.h"

namespace exactsim {

// One row group of trajectory.csv: the state after step `step` (−1: the initial state).
struct ReplayFrame {
  long step = 0;
  Real time = 0;                      // s
  std::vector<std::uint8_t> present;  // (n_bodies) 1 if the body has a row in this step
  VecX q;                             // (n_bodies × config_size), scene body order; 0 if absent
  nlohmann::json report;              // this step's line of steps.jsonl, null if missing
};

// One quantity of steps.jsonl over the run, as the page plots it: points (time, value) in step
// order. A run of more than kSeriesGroups steps is cut into at most kSeriesGroups runs of
// consecutive steps, each giving its smallest and its largest value (in step order), so that no
// spike is lost at the page's resolution.
struct StepSeries {
  std::vector<double> time, value;
};
inline constexpr int kSeriesGroups = 2000;

// The plotted quantities, by their name on the page, and where each comes from in a step report.
inline constexpr const char* kSeriesNames[] = {"overlap",        "max_penetration",
                                               "kinetic_energy", "potential_energy",
                                               "contacts",       "solve_seconds"};

struct RunResults {
  std::string dir;         // the results folder
  std::string scene_file;  // where the shapes came from ("" if given as a Scene)
  Scene scene;
  nlohmann::json summary;           // summary.json, null if the folder has none (run interrupted)
  long frames_in_file = 0;          // trajectory frames before subsampling
  std::vector<ReplayFrame> frames;  // subsampled evenly, first and last always kept
  // Every line of steps.jsonl (not only the kept frames' steps), by kSeriesNames: "overlap",
  // "max_penetration", "kinetic_energy", "potential_energy", "contacts" (potential contacts) and
  // "solve_seconds" (the report's seconds.solve). A field missing from a line is left out.
  std::map<std::string, StepSeries> series;
  long series_steps = 0;  // lines of steps.jsonl
  long series_group = 1;  // consecutive steps per group (1: every step is a point)
};

// Reads DIR/trajectory.csv, DIR/steps.jsonl (optional) and DIR/summary.json (optional). The
// shapes come from `scene` if non-null, else from `scene_file` if non-empty, else from
// DIR/scene.json. Keeps at most `max_frames` frames (0 = all; kAutoFrames = at most 2000 and at
// most about 2 million pose numbers), evenly spaced. InputError naming
// the file and the reason for a missing folder or trajectory, a malformed line, a trajectory
// whose dimension or body names do not match the scene, or no scene to be found.
inline constexpr int kAutoFrames = -1;
RunResults read_results(const std::string& dir, const std::string& scene_file = "",
                        const Scene* scene = nullptr, int max_frames = 0);

// Body i's pose in frame f as a placement: 2D (x, y, θ), 3D position and unit quaternion.
Pose2 frame_pose2(const ReplayFrame& f, int i);
Pose3 frame_pose3(const ReplayFrame& f, int i);

}  // namespace exactsim
