#include "peer_driver.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/io/trajectory_csv.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/step.h"
#include "peer_main.h"

namespace exactsim::peers {
namespace {

using Clock = std::chrono::steady_clock;

struct DriverOptions {
  std::string scene_file, out_dir;
  double dt = 0, duration = -1, thickness = 0.1;
  int repeat = 1;
};

struct RunResult {
  double seconds = 0;  // wall time of add_body and step calls
  long steps_done = 0;
  std::string stopped;   // why the run ended early ("" when it did not)
  std::string warnings;  // PeerEngine::warnings() at the end
};

// One run of the scene; with `out`, the trajectory rows of every step. `stop_after`: the steps of
// the first run when it was stopped (later repetitions stop there too).
RunResult run_once(const Scene& scene, const PeerScene& mapped, const PeerEngineInfo& info,
                   const std::vector<std::string>& names, std::ofstream* out, long stop_after) {
  const World& w = scene.world;
  const Real h = scene.step;
  const long steps = stop_after >= 0 ? stop_after : scene.step_count();
  std::unique_ptr<PeerEngine> engine = info.build(mapped, h);
  std::vector<std::uint8_t> added(w.body_count(), 0);
  State state = scene.initial;
  RunResult r;
  for (long k = 0; k < steps; ++k) {
    const Real start = scene.initial.time + static_cast<Real>(k) * h;
    const auto t0 = Clock::now();
    for (int i = 0; i < w.body_count(); ++i)
      if (!added[i] && has_spawned(w.bodies[i], start, h)) {
        engine->add_body(i);
        added[i] = 1;
      }
    engine->step();
    r.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    r.steps_done = k + 1;
    if (!out) continue;
    state.present = added;
    for (int i = 0; i < w.body_count(); ++i) {
      if (!added[i] || w.bodies[i].is_static) continue;
      const BodyMotion m = engine->motion(i);
      set_body_state(mapped, i, m.position, m.orientation, m.velocity, m.angular_velocity, state);
    }
    write_trajectory_rows(*out, k, start + h, state, state.present, names);
    const int bad = first_diverged_body(w, state);
    if (bad >= 0) {
      r.stopped = "body '" + w.bodies[bad].name + "' diverged at step " + std::to_string(k) +
                  " (non-finite state or speed over the scene's divergence bounds)";
      break;
    }
  }
  r.warnings = engine->warnings();
  return r;
}

int drive(const DriverOptions& o, const PeerEngineInfo& info) {
  Scene scene = read_scene_file(o.scene_file);
  if (o.dt > 0) scene.step = o.dt;
  if (o.duration >= 0) scene.duration = o.duration;
  const PeerScene mapped = map_scene(scene, o.thickness);
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(o.out_dir, ec);
  if (ec) throw InputError(o.out_dir + ": cannot create the output folder (" + ec.message() + ")");
  write_scene_file(scene, o.out_dir + "/scene.json");
  const std::string trajectory = o.out_dir + "/trajectory.csv";
  std::ofstream out(trajectory);
  if (!out) throw InputError(trajectory + ": cannot write it");
  write_trajectory_header(out, scene.world.dimension);
  std::vector<std::string> names;
  for (const Body& b : scene.world.bodies) names.push_back(b.name);
  write_trajectory_rows(out, -1, scene.initial.time, scene.initial,
                        initially_present(scene, scene.initial), names);
  std::vector<Real> seconds;
  RunResult first;
  for (int r = 0; r < o.repeat; ++r) {
    const RunResult run = run_once(scene, mapped, info, names, r == 0 ? &out : nullptr,
                                   r == 0 ? -1 : first.steps_done);
    if (r == 0) {
      first = run;
      out.flush();
      if (!out) throw std::runtime_error(trajectory + ": write failed");
    }
    seconds.push_back(run.seconds);
  }
  const Real simulated = static_cast<Real>(first.steps_done) * scene.step;
  nlohmann::json j = {
      {"engine", info.engine},
      {"version", info.version},
      {"settings", info.settings},
      {"scene", scene.name},
      {"dimension", scene.world.dimension},
      {"step", scene.step},
      {"steps_planned", scene.step_count()},
      {"steps_done", first.steps_done},
      {"stopped", first.stopped},
      {"engine_warnings", first.warnings},
      {"step_seconds", seconds},
      {"step_seconds_median", median(seconds)},
      {"ms_per_simulated_second", simulated > 0 ? 1e3 * median(seconds) / simulated : 0.0}};
  if (scene.world.dimension == 2) j["thickness"] = o.thickness;
  const std::string peer_file = o.out_dir + "/peer.json";
  std::ofstream pj(peer_file);
  pj << j.dump(2) << "\n";
  if (!pj) throw std::runtime_error(peer_file + ": write failed");
  if (!first.stopped.empty())
    std::fprintf(stderr, "peer_%s: %s\n", info.engine.c_str(), first.stopped.c_str());
  return 0;
}

}  // namespace

int run_driver(int argc, char** argv, const PeerEngineInfo& info) {
  CLI::App app("Runs an exactsim scene file in " + info.engine + " " + info.version +
                   " and writes its trajectory in exactsim's format (docs/peers.md)",
               "peer_" + info.engine);
  DriverOptions o;
  app.add_option("scene", o.scene_file, "exactsim scene file (docs/scene-format.md)")->required();
  app.add_option("--out", o.out_dir, "Output folder: scene.json, trajectory.csv, peer.json")
      ->required();
  app.add_option("--dt", o.dt, "Time step h (s), replacing the scene's time.step")
      ->check(number_above(0));
  app.add_option("--duration", o.duration, "Simulated time (s), replacing time.duration")
      ->check(number_above(0, true));
  app.add_option("--repeat", o.repeat,
                 "Runs of the stepping loop timed (the trajectory is the first's); peer.json "
                 "has each and their median")
      ->check(CLI::Range(1, 1000));
  app.add_option("--thickness", o.thickness, "2D scenes: depth of the prisms (m)")
      ->check(number_above(0));
  return run_program(app, argc, argv, [&] { return drive(o, info); });
}

}  // namespace exactsim::peers
