// peer_metrics: the peer benchmark's metric (trajectory_metrics.h) of results folders written by a
// peer driver (peer.json) or by `exactsim run --out` (summary.json), as one JSON array
// (docs/peers.md "The metric").
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "experiments/trajectory_metrics.h"
#include "peer_main.h"

int main(int argc, char** argv) {
  using namespace exactsim;
  using namespace exactsim::peers;
  CLI::App app(
      "Scores results folders (a peer driver's or exactsim run's) by exactsim's exact "
      "geometry: overlap, penetration depth, bodies that left the container, blow-up, "
      "wall time per simulated second (docs/peers.md)",
      "peer_metrics");
  std::vector<std::string> dirs;
  std::string out_file;
  MetricOptions options;
  app.add_option("dirs", dirs,
                 "Results folders (scene.json, trajectory.csv, and peer.json or "
                 "summary.json)")
      ->required();
  app.add_option("--speed-bound", options.speed_bound,
                 "Blow-up: a body faster than this between recorded states (m/s)")
      ->check(number_above(0));
  app.add_option("--out", out_file, "Write the JSON array here instead of standard output");
  return run_program(app, argc, argv, [&] {
    nlohmann::json all = nlohmann::json::array();
    for (const std::string& dir : dirs) {
      all.push_back(score_run_folder(dir, options));
    }
    if (out_file.empty()) {
      std::cout << all.dump(2) << "\n";
    } else {
      std::ofstream out(out_file);
      out << all.dump(2) << "\n";
      if (!out) throw std::runtime_error(out_file + ": write failed");
    }
    return 0;
  });
}
