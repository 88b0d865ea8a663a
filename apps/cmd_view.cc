// `exactsim view`: a run's results folder as a replay page (replay.html) and a still picture
// (final.svg) of its last frame; with a second folder, both runs on one page (docs/viewer.md).
#include <cstdio>

#include "commands.h"
#include "exactsim/viewer/replay.h"

namespace exactsim::cli {
namespace {

struct ViewArgs {
  std::string dir, compare_dir, scene_file, html;
  int max_frames = 0;
};

void print_frames(long shown, long in_run) {
  std::printf("%ld frames", shown);
  if (shown < in_run) std::printf(" of %ld, evenly spaced", in_run);
}

int view(const ViewArgs& a) {
  ReplayOptions o;
  o.scene_file = a.scene_file;
  o.max_frames = a.max_frames;
  o.compare_dir = a.compare_dir;
  o.html = a.html;
  const ReplayOutput out = write_replay(a.dir, o);
  std::printf("written: %s (", out.html.c_str());
  if (!a.compare_dir.empty()) std::printf("%s: ", a.dir.c_str());
  print_frames(out.frames_shown, out.frames_in_run);
  if (!a.compare_dir.empty()) {
    std::printf("; %s: ", a.compare_dir.c_str());
    print_frames(out.compare_frames_shown, out.compare_frames_in_run);
  }
  std::printf("), %s (the last frame)\n", out.picture.c_str());
  return 0;
}

}  // namespace

Action register_view(CLI::App& app) {
  auto a = std::make_shared<ViewArgs>();
  CLI::App* sub = app.add_subcommand(
      "view",
      "Write replay.html (open it in a browser) and final.svg into a results folder; with a "
      "second folder, one page showing both runs side by side");
  sub->add_option("dir", a->dir, "Results folder written by exactsim run --out DIR")->required();
  sub->add_option("dir2", a->compare_dir,
                  "A second results folder of the same dimension (e.g. the same scene with "
                  "another model): shown beside DIR, its step series on the same plots");
  sub->add_option("--scene", a->scene_file,
                  "Scene file of the run(s) (default: each folder's scene.json)");
  sub->add_option("--html", a->html, "Where to write the page (default: DIR/replay.html)");
  sub->add_option("--max-frames", a->max_frames,
                  "Frames on the page per run, evenly spaced (default: all up to 2000, fewer for "
                  "many bodies)")
      ->check(at_least(1, "(frames on the page)"));
  return [a] { return view(*a); };
}

}  // namespace exactsim::cli
