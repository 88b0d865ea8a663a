// `exactsim view`: a run's results folder as a replay page (replay.html) and a still picture
// (final.svg) of its last frame (docs/viewer.md).
#include <cstdio>

#include "commands.h"
#include "exactsim/viewer/replay.h"

namespace exactsim::cli {
namespace {

struct ViewArgs {
  std::string dir, scene_file;
  int max_frames = 0;
};

int view(const ViewArgs& a) {
  ReplayOptions o;
  o.scene_file = a.scene_file;
  o.max_frames = a.max_frames;
  const ReplayOutput out = write_replay(a.dir, o);
  std::printf("written: %s (%ld frames", out.html.c_str(), out.frames_shown);
  if (out.frames_shown < out.frames_in_run)
    std::printf(" of %ld, evenly spaced", out.frames_in_run);
  std::printf("), %s (the last frame)\n", out.picture.c_str());
  return 0;
}

}  // namespace

Action register_view(CLI::App& app) {
  auto a = std::make_shared<ViewArgs>();
  CLI::App* sub = app.add_subcommand(
      "view", "Write replay.html (open it in a browser) and final.svg into a results folder");
  sub->add_option("dir", a->dir, "Results folder written by exactsim run --out DIR")->required();
  sub->add_option("--scene", a->scene_file, "Scene file of the run (default: DIR/scene.json)");
  sub->add_option("--max-frames", a->max_frames,
                  "Frames on the page, evenly spaced (default: all up to 2000, fewer for many "
                  "bodies)")
      ->check(CLI::PositiveNumber);
  return [a] { return view(*a); };
}

}  // namespace exactsim::cli
