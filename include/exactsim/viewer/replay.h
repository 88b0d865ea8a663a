// The replay of a run in the browser and its still picture (docs/viewer.md): one self-contained
// replay.html (no network: the page's script and data are inlined) and final.svg, written into
// the run's results folder.
#pragma once

#include <string>

#include "exactsim/viewer/results.h"

namespace exactsim {

struct ReplayOptions {
  std::string scene_file;        // shapes from this file; "" = DIR/scene.json (unless `scene`)
  const Scene* scene = nullptr;  // shapes from this scene (what `run` has in memory)
  int max_frames = 0;  // frames kept on the page; 0 = automatic (≤ 2000, and ≤ about 2 million
                       // pose numbers, so a long run gives a page of at most some 25 MB)
};

struct ReplayOutput {
  std::string html, picture;  // paths written
  long frames_in_run = 0;     // trajectory frames in the folder
  long frames_shown = 0;      // frames on the page (fewer when subsampled)
};

// Writes the page of an already-read results folder to `path`.
void write_replay_html(const RunResults& results, const std::string& path);

// Reads DIR (read_results) and writes DIR/replay.html and DIR/final.svg. InputError naming the
// file and the reason for a missing or malformed results folder or scene.
ReplayOutput write_replay(const std::string& results_dir, const ReplayOptions& options = {});

}  // namespace exactsim
