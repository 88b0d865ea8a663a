// peer_metrics: the peer benchmark's metric (trajectory_metrics.h) of results folders written by a
// peer driver (peer.json) or by `exactsim run --out` (summary.json), as one JSON array
// (docs/peers.md "The metric").
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "peer_main.h"
#include "trajectory_metrics.h"

namespace exactsim::peers {
namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": not JSON (" + e.what() + ")");
  }
}

template <class T>
T field(const nlohmann::json& j, const char* name, const std::string& file) {
  if (!j.contains(name)) throw InputError(file + ": " + name + ": missing");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(file + ": " + name + ": not of the expected type");
  }
}

// Who ran the folder and the wall time of its stepping: peer.json (a driver; the median of its
// repetitions of the stepping loop) or summary.json (`exactsim run`: the whole run).
nlohmann::json run_info(const std::string& dir, const RunResults& r) {
  const std::string peer_file = dir + "/peer.json", summary_file = dir + "/summary.json";
  nlohmann::json out;
  if (const nlohmann::json peer = read_json(peer_file); !peer.is_null()) {
    out["engine"] = field<std::string>(peer, "engine", peer_file);
    out["version"] = field<std::string>(peer, "version", peer_file);
    out["steps_planned"] = field<long>(peer, "steps_planned", peer_file);
    out["steps_done"] = field<long>(peer, "steps_done", peer_file);
    out["stopped"] = field<std::string>(peer, "stopped", peer_file);
    out["wall_seconds"] = field<double>(peer, "step_seconds_median", peer_file);
    out["wall_source"] = "peer.json step_seconds_median";
    if (peer.contains("engine_warnings")) out["engine_warnings"] = peer["engine_warnings"];
  } else if (!r.summary.is_null()) {
    out["engine"] = "exactsim";
    out["version"] = r.summary.value("model", "");
    out["steps_planned"] = field<long>(r.summary, "steps_planned", summary_file);
    out["steps_done"] = field<long>(r.summary, "steps_done", summary_file);
    out["stopped"] = r.summary.value("failure", "");
    // Runs of the same scene without output files, timed (bench/peers/run_table.sh), when given.
    const std::string walls_file = dir + "/wall_seconds.json";
    if (const nlohmann::json walls = read_json(walls_file); !walls.is_null()) {
      const auto seconds = field<std::vector<Real>>(walls, "wall_seconds", walls_file);
      if (seconds.empty()) throw InputError(walls_file + ": wall_seconds: empty");
      out["wall_seconds"] = median(seconds);
      out["wall_source"] = "wall_seconds.json median";
    } else {
      out["wall_seconds"] = field<double>(r.summary, "wall_seconds", summary_file);
      out["wall_source"] = "summary.json wall_seconds";
    }
  } else {
    throw InputError(dir + ": neither peer.json nor summary.json: who ran it is unknown");
  }
  return out;
}

}  // namespace
}  // namespace exactsim::peers

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
      const RunResults r = read_results(dir);
      nlohmann::json j = {{"dir", dir},
                          {"scene", r.scene.name},
                          {"dimension", r.scene.world.dimension},
                          {"step", r.scene.step}};
      j.update(run_info(dir, r));
      const TrajectoryMetrics m = trajectory_metrics(r, options);
      j.update(to_json(m));
      j["complete"] = j["steps_done"].get<long>() == j["steps_planned"].get<long>();
      j["ms_per_simulated_second"] =
          m.simulated_seconds > 0 ? 1e3 * j["wall_seconds"].get<double>() / m.simulated_seconds
                                  : 0.0;
      all.push_back(j);
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
