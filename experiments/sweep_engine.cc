#include "experiments/sweep_engine.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "experiments/sweep.h"
#include "experiments/trajectory_metrics.h"

extern char** environ;

namespace exactsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kMaxRepeat = 100;

bool is_peer(const std::string& engine) { return engine != "exactsim"; }

// The value of an engine option path for `point`: from its axis, else from "set", else `fallback`.
json option_value(const SweepSpec& spec, const SweepPoint& point, const std::string& path,
                  const json& fallback) {
  for (std::size_t i = 0; i < spec.axes.size(); ++i)
    if (spec.axes[i].path == path) return point.values[i];
  return spec.fixed.contains(path) ? spec.fixed[path] : fallback;
}

// The last non-empty line of a file (a driver's error message), at most 300 characters.
std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last.size() > 300 ? last.substr(0, 300) + "…" : last;
}

// Runs `argv` with stdout and stderr into `log`; "" on exit status 0, else why not. A program
// still running after `timeout_seconds` (0: no bound) is killed, and RunTimeout thrown.
std::string run_program(const std::vector<std::string>& argv, const std::string& log,
                        double timeout_seconds) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  const std::string name = fs::path(argv[0]).filename().string();
  if (err != 0) return "cannot start " + argv[0] + ": " + std::strerror(err);
  int status = 0;
  const RunDeadline deadline(timeout_seconds);
  const int flags = timeout_seconds > 0 ? WNOHANG : 0;
  while (true) {
    const pid_t ended = waitpid(pid, &status, flags);
    if (ended == pid) break;
    if (ended < 0 && errno != EINTR) return name + ": waitpid failed: " + std::strerror(errno);
    if (ended == 0 && deadline.passed()) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      throw RunTimeout(name + ": " + run_timeout_error(timeout_seconds) + "; killed");
    }
    if (ended == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  const std::string said = last_line(log);
  const std::string tail = said.empty() ? "" : ": " + said;
  if (WIFSIGNALED(status))
    return name + " crashed (signal " + std::to_string(WTERMSIG(status)) + ": " +
           strsignal(WTERMSIG(status)) + ")" + tail;
  return name + " exited with status " + std::to_string(WEXITSTATUS(status)) + tail;
}

void write_json(const std::string& path, const json& j) {
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw InputError(path + ": write failed");
}

// exactsim's run of the point: once with its folder (the trajectory the metric scores), then
// `repeat` − 1 times without; each timed as the sum of its steps' stage times (writing the
// folder excluded, as a driver's step_seconds excludes its trajectory), into wall_seconds.json.
void run_exactsim(const Scene& scene, int repeat, const std::string& run_dir,
                  double timeout_seconds) {
  const RunDeadline deadline(timeout_seconds);
  json walls = json::array();
  for (int k = 0; k < repeat; ++k) {
    RunOptions o;
    o.progress = false;
    if (k == 0) o.out_dir = run_dir;
    double seconds = 0;
    run_scene(scene, o, [&](const State&, const StepReport& r) {
      deadline.check();
      seconds += r.seconds.total();
    });
    walls.push_back(seconds);
  }
  write_json(run_dir + "/wall_seconds.json", {{"wall_seconds", walls}});
}

}  // namespace

bool is_engine_option_path(const std::string& path) { return path == "engine" || path == "repeat"; }

std::string engine_option_problem(const std::string& path, const json& value) {
  if (path == "repeat") {
    if (!value.is_number_integer() || value.get<long>() < 1 || value.get<long>() > kMaxRepeat)
      return "repeat: expected a whole number from 1 to " + std::to_string(kMaxRepeat) + ", got " +
             value.dump();
    return "";
  }
  std::string known;
  for (const char* e : kSweepEngines) known += (known.empty() ? "" : ", ") + std::string(e);
  if (!value.is_string()) return "engine: expected a string (" + known + "), got " + value.dump();
  for (const char* e : kSweepEngines)
    if (value.get<std::string>() == e) return "";
  return "unknown engine '" + value.get<std::string>() + "' (expected " + known + ")";
}

bool is_engine_sweep(const SweepSpec& spec) {
  if (spec.fixed.contains("engine")) return true;
  return std::any_of(spec.axes.begin(), spec.axes.end(),
                     [](const SweepAxis& a) { return a.path == "engine"; });
}

json engine_record_example() {
  json j = peers::to_json(peers::TrajectoryMetrics{});
  for (const char* f : {"steps_planned", "steps_done"}) j[f] = 0L;
  j["wall_seconds"] = 0.0;
  j["ms_per_simulated_second"] = 0.0;
  j["complete"] = true;
  return j;
}

std::vector<std::string> engine_record_default() {
  return {"overlap_median", "overlap_q3", "overlap_max", "max_penetration",
          "bodies_left",    "blew_up",    "steps_done",  "ms_per_simulated_second"};
}

std::string peer_driver_path(const std::string& peers_dir, const std::string& engine) {
  return (fs::path(peers_dir) / ("peer_" + engine)).string();
}

std::string default_peers_dir(const std::string& exe) {
  std::error_code ec;
  const fs::path dir = fs::path(exe).parent_path().parent_path() / "bench" / "peers";
  return fs::is_directory(dir, ec) ? dir.string() : "";
}

void check_engine_drivers(const SweepSpec& spec) {
  auto check = [&](const std::string& where, const json& value) {
    const std::string engine = value.get<std::string>();
    if (!is_peer(engine)) return;
    if (spec.peers_dir.empty())
      throw InputError(spec.origin + ": " + where + ": engine '" + engine +
                       "': no folder of peer drivers (none beside the exactsim command: give "
                       "--peers DIR, the folder that holds peer_" +
                       engine + ", docs/peers.md)");
    const std::string driver = peer_driver_path(spec.peers_dir, engine);
    if (access(driver.c_str(), X_OK) != 0)
      throw InputError(spec.origin + ": " + where + ": engine '" + engine + "': no driver " +
                       driver + " (build the target peer_" + engine +
                       ", which needs its engine's Debian package, or give --peers DIR; "
                       "docs/peers.md \"Building\")");
  };
  if (spec.fixed.contains("engine")) check("set.engine", spec.fixed["engine"]);
  for (std::size_t i = 0; i < spec.axes.size(); ++i)
    if (spec.axes[i].path == "engine")
      for (const json& v : spec.axes[i].values) check("axes[" + std::to_string(i) + "]", v);
}

json run_engine_point(const SweepSpec& spec, const SweepPoint& point, const std::string& run_dir) {
  try {
    const std::string engine = option_value(spec, point, "engine", "exactsim").get<std::string>();
    const int repeat = option_value(spec, point, "repeat", 1).get<int>();
    const Scene scene = sweep_scene(spec, point);
    fs::remove_all(run_dir);
    fs::create_directories(run_dir);
    if (is_peer(engine)) {
      const std::string input = run_dir + "/input-scene.json";
      write_scene_file(scene, input);
      const std::string why = run_program({peer_driver_path(spec.peers_dir, engine), input, "--out",
                                           run_dir, "--repeat", std::to_string(repeat)},
                                          run_dir + "/driver.log", spec.run_timeout_seconds);
      if (!why.empty()) return {{"error", why}};
    } else {
      run_exactsim(scene, repeat, run_dir, spec.run_timeout_seconds);
    }
    const json score = peers::score_run_folder(run_dir, peers::MetricOptions{});
    if (!spec.record.trajectory) fs::remove(run_dir + "/trajectory.csv");
    json summary = json::object();
    for (const std::string& f : spec.record.summary) summary[f] = score[f];
    const std::string stopped = score.value("stopped", "");
    summary["failed"] = !stopped.empty() || !score.value("complete", false);
    summary["failure"] =
        stopped.empty() && !score.value("complete", false) ? "ended early" : stopped;
    return {{"summary", summary}};
  } catch (const RunTimeout&) {
    throw;
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
}

}  // namespace exactsim
