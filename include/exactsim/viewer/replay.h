// The replay of a run in the browser and its still picture (docs/viewer.md): one self-contained
// replay.html (no network: the page's script and data are inlined) and final.svg, written into
// the run's results folder. The page can show a second run beside the first (two models on one
// scene): both replays side by side, one clock, and both runs' step series on the same plots.
#pragma once

#include <string>
#include <vector>

#include "exactsim/viewer/results.h"

namespace exactsim {

struct ReplayOptions {
  std::string scene_file;        // shapes from this file; "" = DIR/scene.json (unless `scene`)
  const Scene* scene = nullptr;  // shapes from this scene (what `run` has in memory)
  int max_frames = 0;  // frames kept on the page; 0 = automatic (≤ 2000, and ≤ about 2 million
                       // pose numbers, so a long run gives a page of at most some 25 MB)
  // A second run shown beside the first, of the same dimension: its results folder ("" = none).
  // Its shapes come from compare_dir/scene.json, or from scene_file when that is given.
  std::string compare_dir;
  std::string html;  // where the page goes; "" = DIR/replay.html
};

struct ReplayOutput {
  std::string html, picture;  // paths written
  long frames_in_run = 0;     // trajectory frames in the folder
  long frames_shown = 0;      // frames on the page (fewer when subsampled)
  long compare_frames_in_run = 0, compare_frames_shown = 0;  // the same of the second run
};

// Writes the page of one or two already-read results folders to `path` (two: side by side).
void write_replay_html(const RunResults& results, const std::string& path);
void write_replay_html(const std::vector<const RunResults*>& runs, const std::string& path);

// Reads DIR (read_results), and options.compare_dir if given, and writes the page
// (options.html, default DIR/replay.html) and DIR/final.svg. InputError naming the file and the
// reason for a missing or malformed results folder or scene, or two runs of different dimension.
ReplayOutput write_replay(const std::string& results_dir, const ReplayOptions& options = {});

}  // namespace exactsim
