// bench_scaling: step time against the number of bodies N on a pour of random
// convex hulls (scaling_scene.h), exactsim against Bullet on the very same scenes, in one run.
//
// Every (engine, N) runs in a forked child: its peak memory is the child's ru_maxrss (wait4),
// and a child still running `--kill-after` seconds after it started is killed (SIGKILL) and
// reported as timed out, so the program always finishes even when one exactsim step takes
// minutes. Inside the child, a run stops once its summed step time exceeds `--budget-seconds`.
//
// exactsim is stepped as `exactsim run` steps a scene (advance(): step splitting on new deep
// penetrations), with the library's defaults except: overlap measurement off (a pure metric,
// StepOptions::measure_overlap) and continue_on_solver_failure on (failed solves are counted,
// not fatal). The penetration watchdog stays on (advance() needs it to decide splits; off with
// --no-watchdog); its time is the "metrics" stage, shown separately. "integrate" includes the split
// stabilisation's position projection (a second, frictionless LCP).
//
// With --out, the results file is rewritten as the runs go: after each (engine, N), and every 10 s
// with the running one's steps so far (its stop "running"), each time whole or not at all (written
// beside it, then renamed). A killed bench_scaling keeps what it had measured, and --resume takes
// the (engine, N) runs that file holds as finished, by the same build with the same settings,
// instead of running them again. The running exactsim run saves its state (the stepper's, as a
// checkpoint does, and its samples) beside the file every --state-every seconds, and --resume
// goes on from there, bit for bit as it would have gone on; a Bullet run starts again.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exactsim/api/validate.h"
#include "exactsim/io/checkpoint.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/stepping/adaptive_step.h"
#include "scaling_run.h"
#include "scaling_scene.h"

namespace exactsim::bench {

#ifndef EXACTSIM_HAVE_BULLET
bool bullet_available() { return false; }
const char* bullet_precision() { return "none"; }
void run_bullet(const Scene&, int, double, double, bool, const StepCallback&, EndSample&) {
  throw std::runtime_error("this bench_scaling was built without Bullet");
}
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::vector<int> n = {10, 30, 100, 300, 1000, 3000};
  std::vector<int> dims = {3};
  int steps = 100;
  std::uint64_t seed = 1;
  double budget = 60;      // s of summed step time per (engine, N)
  double kill_after = -1;  // s of wall time per child; −1: 2 budget + 30
  bool bullet = true;
  bool watchdog = true;       // StepOptions::watch_penetration (and so advance()'s step splitting)
  bool sleep = false;         // StepOptions::sleep, and Bullet's deactivation with its thresholds
  int threads = 1;            // StepOptions::threads (Bullet: its one thread)
  double max_memory_gib = 8;  // RLIMIT_AS of each child (this machine is shared)
  int friction_on_demand = -1;  // StepOptions::friction_on_demand_min_unknowns; −1: the default
  int revised_min_size = -1;    // SolverOptions::diagnostics.revised_min_size; −1: the default
  double bullet_margin = 0.001;
  std::string out;
  bool resume = false;       // reuse the finished runs of `out` (same build and settings)
  std::string write_scenes;  // folder: write each scene as scene-file JSON (exactsim run --scene)
  double state_every = 10;   // s of wall time between saves of the running exactsim run's state
};

// ---- A step's sample as JSON (the results file's step_samples, and the running run's state) ----

nlohmann::json sample_json(const StepSample& x) {
  return {{"wall", x.wall},
          {"detect", x.stages.detect},
          {"constraints", x.stages.constraints},
          {"assemble", x.stages.assemble},
          {"solve", x.stages.solve},
          {"integrate", x.stages.integrate},
          {"metrics", x.stages.metrics},
          {"contacts", x.contacts},
          {"lcp", x.lcp},
          {"solved", x.solved},
          {"failed_solve", x.failed_solve},
          {"islands_flown_free", x.flown_free},
          {"substeps", x.substeps},
          {"halves_from_start", x.halves_from_start},
          {"status", x.status},
          {"pivots", x.pivots},
          {"fallback", x.fallback},
          {"extended_precision", x.extended_precision}};
}

StepSample sample_from_json(const nlohmann::json& x) {
  StepSample t;
  t.wall = x.at("wall").get<double>();
  t.stages.detect = x.at("detect").get<double>();
  t.stages.constraints = x.at("constraints").get<double>();
  t.stages.assemble = x.at("assemble").get<double>();
  t.stages.solve = x.at("solve").get<double>();
  t.stages.integrate = x.at("integrate").get<double>();
  t.stages.metrics = x.at("metrics").get<double>();
  t.contacts = x.at("contacts").get<int>();
  t.lcp = x.at("lcp").get<int>();
  t.solved = x.at("solved").get<int>();
  t.failed_solve = x.at("failed_solve").get<bool>();
  t.flown_free = x.at("islands_flown_free").get<int>();
  t.substeps = x.at("substeps").get<int>();
  t.halves_from_start = x.at("halves_from_start").get<bool>();
  t.status = x.at("status").get<int>();
  t.pivots = x.at("pivots").get<int>();
  t.fallback = x.at("fallback").get<bool>();
  t.extended_precision = x.at("extended_precision").get<bool>();
  return t;
}

// This program's build: a hash (FNV-1a) of its executable, so that --resume never takes the runs
// of another build.
std::string build_hash() {
  static const std::string hash = [] {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    std::uint64_t h = 0xcbf29ce484222325ull;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      for (std::streamsize i = 0; i < in.gcount(); ++i)
        h = (h ^ static_cast<unsigned char>(buf[i])) * 0x100000001b3ull;
      if (!in) break;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return std::string(text);
  }();
  return hash;
}

// The settings a results file's runs depend on (--resume reuses them only where all agree).
nlohmann::json settings_json(const Options& o) {
  return {{"build", build_hash()},
          {"seed", o.seed},
          {"steps", o.steps},
          {"budget_seconds", o.budget},
          {"bullet_precision", bullet_precision()},
          {"bullet_margin", o.bullet_margin},
          {"sleep", o.sleep},
          {"threads", o.threads},
          {"watchdog", o.watchdog},
          {"friction_on_demand", o.friction_on_demand},
          {"revised_min_size", o.revised_min_size}};
}

// Where the settings a results or state file names differ from this run's: "field "F" is X, this
// run's is Y", or "" where they agree.
std::string settings_mismatch(const nlohmann::json& j, const Options& o) {
  const nlohmann::json settings = settings_json(o);
  for (const auto& [key, value] : settings.items())
    if (!j.contains(key) || j[key] != value)
      return "field \"" + key + "\" is " + (j.contains(key) ? j[key].dump() : "missing") +
             ", this run's is " + value.dump();
  return "";
}

// ---- The running run's state (--resume in the middle of a run) ----------------------------------

// What an exactsim run had done when it last saved: its samples and, in the checkpoint's
// encoding (exactsim/io/checkpoint.h), its State and the stepper's memory after them. Written by
// the child to `<out>.state` every --state-every seconds (through a file beside it and a rename),
// so that --resume goes on from there, bit for bit as the run would have gone on.
struct RunState {
  std::string engine;
  int dims = 0, n = 0;
  double setup = 0, elapsed = 0, peak_mib = 0;  // as RunResult's, so far
  std::vector<StepSample> samples;
  std::string state;  // encode_state(State, samples.size(), StepperMemory)
};

constexpr char kStateMagic[] = "bench_scaling-state\n";

void write_run_state(const RunState& rs, const Options& o, const std::string& path) {
  nlohmann::json head = settings_json(o);
  head["engine"] = rs.engine;
  head["dimension"] = rs.dims;
  head["bodies"] = rs.n;
  head["setup_seconds"] = rs.setup;
  head["elapsed_seconds"] = rs.elapsed;
  head["peak_rss_mib"] = rs.peak_mib;
  head["step_samples"] = nlohmann::json::array();
  for (const StepSample& x : rs.samples) head["step_samples"].push_back(sample_json(x));
  const std::string text = head.dump() + "\n";
  const std::string part = path + ".part";
  {
    std::ofstream out(part, std::ios::binary);
    out << kStateMagic << text << rs.state;
    if (!out) throw std::runtime_error(part + ": cannot write");
  }
  std::filesystem::rename(part, path);
}

// The state file at `path` for --resume: an error naming the file and the field where it is not
// one of this build and these settings.
RunState read_run_state(const std::string& path, const Options& o) {
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error(path + ": " + why + " (--resume)");
  };
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string magic = kStateMagic;
  const std::size_t eol = bytes.find('\n', magic.size());
  if (bytes.compare(0, magic.size(), magic) != 0 || eol == std::string::npos)
    fail("not a bench_scaling state file");
  nlohmann::json head;
  try {
    head = nlohmann::json::parse(bytes.substr(magic.size(), eol - magic.size()));
  } catch (const std::exception& e) {
    fail(std::string("not JSON: ") + e.what());
  }
  if (const std::string why = settings_mismatch(head, o); !why.empty()) fail(why);
  RunState rs;
  try {
    rs.engine = head.at("engine").get<std::string>();
    rs.dims = head.at("dimension").get<int>();
    rs.n = head.at("bodies").get<int>();
    rs.setup = head.at("setup_seconds").get<double>();
    rs.elapsed = head.at("elapsed_seconds").get<double>();
    rs.peak_mib = head.at("peak_rss_mib").get<double>();
    for (const nlohmann::json& x : head.at("step_samples"))
      rs.samples.push_back(sample_from_json(x));
  } catch (const std::exception& e) {
    fail(e.what());
  }
  rs.state = bytes.substr(eol + 1);
  return rs;
}

// ---- The child --------------------------------------------------------------------------------

void emit(int fd, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void emit(int fd, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  const int len = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  const char* p = buf;
  std::size_t left = static_cast<std::size_t>(std::clamp(len, 0, static_cast<int>(sizeof buf) - 1));
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(3);  // the parent is gone
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

void emit_step(int fd, const StepSample& s) {
  emit(fd, "S %.9g %.9g %.9g %.9g %.9g %.9g %.9g %d %d %d %d %d %d %d %d %d %d %d\n", s.wall,
       s.stages.detect, s.stages.constraints, s.stages.assemble, s.stages.solve, s.stages.integrate,
       s.stages.metrics, s.contacts, s.lcp, s.solved, s.failed_solve ? 1 : 0, s.substeps, s.status,
       s.pivots, s.fallback ? 1 : 0, s.extended_precision ? 1 : 0, s.halves_from_start ? 1 : 0,
       s.flown_free);
}

EndSample exactsim_end(const Scene& scene, const State& state) {
  const World& w = scene.world;
  const int d = w.dimension, up = d == 3 ? 2 : 1;
  const Aabb3 box = container_bounds(scene);
  const Vec3 lo = box.lo, hi = box.hi;
  EndSample e;
  int n = 0;
  for (int i = 0; i < w.body_count(); ++i) {
    if (w.bodies[i].is_static) continue;
    const Vec3 c = body_position(state, i);
    e.mean_height += c[up];
    ++n;
    e.max_speed = std::max<double>(e.max_speed, state.v_of(i).head(d).norm());
    bool out = !c.allFinite();
    for (int a = 0; a < d; ++a) out |= c[a] < lo[a] - 0.5 || c[a] > hi[a] + 0.5;
    e.escaped += out;
  }
  if (n) e.mean_height /= n;
  return e;
}

// Runs one (engine, N) and reports on fd: "R setup", "S ..." per step, "E ..." at the end, then
// "X reason". An exactsim run goes on from `from` where given (its steps are not reported
// again), and saves its state to `state_path` (when not empty) every o.state_every seconds.
void child_main(int fd, const std::string& engine, int dims, int n, const Options& o,
                const RunState* from, const std::string& state_path) {
  const auto t0 = Clock::now();
  ScalingSceneOptions so;
  so.dimension = dims;
  so.bodies = n;
  so.seed = o.seed;
  Scene scene = scaling_scene(so);
  World& w = scene.world;
  w.stepping.measure_overlap = false;
  w.stepping.continue_on_solver_failure = true;
  w.stepping.watch_penetration = o.watchdog;  // off: no watchdog, so advance() never splits
  if (o.friction_on_demand >= 0) w.stepping.friction_on_demand_min_unknowns = o.friction_on_demand;
  if (o.revised_min_size >= 0) w.solver.diagnostics.revised_min_size = o.revised_min_size;
  w.stepping.sleep = o.sleep;
  w.stepping.threads = o.threads;
  double spent = 0;
  std::string reason = "completed";
  int done = 0;
  const auto on_step = [&](const StepSample& s) {
    emit_step(fd, s);
    spent += s.wall;
    ++done;
    if (spent > o.budget && done < o.steps) {
      reason = "budget";
      return false;
    }
    return true;
  };
  EndSample end;
  if (engine == "exactsim") {
    State state = scene.initial;
    Workspace ws;
    RunState saved;
    saved.engine = engine;
    saved.dims = dims;
    saved.n = n;
    saved.setup = std::chrono::duration<double>(Clock::now() - t0).count();
    long first = 0;
    if (from) {
      StepperMemory memory;
      try {
        decode_state(from->state, state, first, memory);
        validate_state(w, state);
      } catch (const std::exception& e) {
        throw std::runtime_error(state_path + ": " + e.what() + " (--resume)");
      }
      if (first != static_cast<long>(from->samples.size()) || first > o.steps)
        throw std::runtime_error(state_path + ": its state is after step " + std::to_string(first) +
                                 ", its samples " + std::to_string(from->samples.size()) +
                                 " (--resume)");
      restore(memory, ws);
      saved.setup = from->setup;
      saved.samples = from->samples;
      for (const StepSample& x : saved.samples) spent += x.wall;
      done = static_cast<int>(first);
    }
    emit(fd, "R %.9g\n", saved.setup);
    auto last_save = Clock::now();
    const auto save = [&](long steps) {
      rusage ru{};
      ::getrusage(RUSAGE_SELF, &ru);
      saved.elapsed =
          (from ? from->elapsed : 0) + std::chrono::duration<double>(Clock::now() - t0).count();
      saved.peak_mib = std::max(from ? from->peak_mib : 0.0, ru.ru_maxrss / 1024.0);
      saved.state = encode_state(state, steps, capture(ws));
      write_run_state(saved, o, state_path);
      last_save = Clock::now();
    };
    for (long k = first; k < o.steps; ++k) {
      const auto s0 = Clock::now();
      const StepReport r = advance(w, state, ws, scene.step, k);
      StepSample s;
      s.wall = std::chrono::duration<double>(Clock::now() - s0).count();
      s.stages = r.seconds;
      s.contacts = r.potential_contacts;
      s.lcp = r.lcp_size;
      s.solved = r.solved_unknowns;
      s.failed_solve = is_failed_solve(r.status);
      s.flown_free = r.islands_flown_free;
      s.substeps = r.substeps;
      s.halves_from_start = r.halves_from_start;
      s.status = static_cast<int>(r.status);
      if (r.solver_called) {
        s.pivots = r.solver.pivots;
        s.fallback = r.solver.method == SolveMethod::kFischerBurmeister;
        s.extended_precision = r.solver.extended_precision;
      }
      const bool go_on = on_step(s);
      saved.samples.push_back(s);
      if (!state_path.empty() &&
          std::chrono::duration<double>(Clock::now() - last_save).count() >= o.state_every)
        save(k + 1);
      if (r.status == StepStatus::kDiverged) {
        reason = "diverged";
        break;
      }
      if (!go_on) break;
    }
    end = exactsim_end(scene, state);
  } else {
    emit(fd, "R %.9g\n", std::chrono::duration<double>(Clock::now() - t0).count());
    run_bullet(scene, o.steps, o.bullet_margin, so.thickness, o.sleep, on_step, end);
  }
  emit(fd, "E %.9g %.9g %d\n", end.mean_height, end.max_speed, end.escaped);
  emit(fd, "X %s\n", reason.c_str());
}

// ---- The parent -------------------------------------------------------------------------------

struct RunResult {
  std::string engine;
  int dims = 3, n = 0, steps_planned = 0;
  std::vector<StepSample> steps;
  double setup = -1;  // s, building the scene (and the engine's world)
  bool have_end = false;
  EndSample end;
  std::string stop;     // completed | budget | diverged | timed out | crashed | error: …
  double elapsed = 0;   // s of wall time, fork to exit
  double peak_mib = 0;  // ru_maxrss of the child
};

void parse_line(const std::string& line, RunResult& r) {
  if (line.size() < 2) return;
  std::istringstream in(line.substr(2));
  switch (line[0]) {
    case 'R':
      in >> r.setup;  // a resumed run's child reports the setup of its first
      break;
    case 'S': {
      StepSample s;
      int failed = 0, fallback = 0, extended = 0, halves = 0;
      in >> s.wall >> s.stages.detect >> s.stages.constraints >> s.stages.assemble >>
          s.stages.solve >> s.stages.integrate >> s.stages.metrics >> s.contacts >> s.lcp >>
          s.solved >> failed >> s.substeps >> s.status >> s.pivots >> fallback >> extended >>
          halves >> s.flown_free;
      s.failed_solve = failed != 0;
      s.halves_from_start = halves != 0;
      s.fallback = fallback != 0;
      s.extended_precision = extended != 0;
      if (in) r.steps.push_back(s);
      break;
    }
    case 'E':
      in >> r.end.mean_height >> r.end.max_speed >> r.end.escaped;
      r.have_end = static_cast<bool>(in);
      break;
    case 'X':
      r.stop = line.substr(2);
      break;
  }
}

// `progress` is called every 10 s with the steps so far (the results file's running run). The
// child goes on from `from` where given (its steps, setup, wall time and peak memory count as this
// run's) and saves its state to `state_path` (see child_main).
RunResult run_child(const std::string& engine, int dims, int n, const Options& o,
                    const std::function<void(const RunResult&)>& progress, const RunState* from,
                    const std::string& state_path) {
  RunResult r;
  r.engine = engine;
  r.dims = dims;
  r.n = n;
  r.steps_planned = o.steps;
  const double before = from ? from->elapsed : 0;  // s of wall time of the run before this child
  if (from) {
    r.steps = from->samples;
    r.setup = from->setup;
  }
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  std::fflush(stderr);
  const auto start = Clock::now();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    // A killed bench_scaling takes its child with it (otherwise a child inside a step of minutes
    // runs on until its next report meets the closed pipe).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);
    if (o.max_memory_gib > 0) {
      const auto bytes = static_cast<rlim_t>(o.max_memory_gib * 1024 * 1024 * 1024);
      const rlimit lim{bytes, bytes};
      ::setrlimit(RLIMIT_AS, &lim);  // an allocation beyond it throws: "error: std::bad_alloc"
    }
    int code = 0;
    try {
      child_main(fds[1], engine, dims, n, o, from, state_path);
    } catch (const std::exception& e) {
      std::string msg = e.what();
      std::replace(msg.begin(), msg.end(), '\n', ' ');
      emit(fds[1], "X error: %s\n", msg.c_str());
      code = 1;
    }
    ::close(fds[1]);
    _exit(code);
  }
  ::close(fds[1]);
  const double kill_after = o.kill_after > 0 ? o.kill_after : 2 * o.budget + 30;
  std::string pending;
  bool eof = false, killed = false;
  auto last_note = start;
  while (!eof) {
    const double left =
        kill_after - before - std::chrono::duration<double>(Clock::now() - start).count();
    if (left <= 0) {
      ::kill(pid, SIGKILL);
      killed = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min(left, 1.0) * 1000) + 1);
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      char buf[4096];
      const ssize_t got = ::read(fds[0], buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        eof = true;
      } else {
        pending.append(buf, static_cast<std::size_t>(got));
        std::size_t nl;
        while ((nl = pending.find('\n')) != std::string::npos) {
          parse_line(pending.substr(0, nl), r);
          pending.erase(0, nl + 1);
        }
      }
    }
    if (Clock::now() - last_note > std::chrono::seconds(10)) {
      last_note = Clock::now();
      std::fprintf(stderr, "  %s %dD N=%d: %zu steps, %.0f s\n", engine.c_str(), dims, n,
                   r.steps.size(), std::chrono::duration<double>(last_note - start).count());
      RunResult so_far = r;
      so_far.stop = "running";
      so_far.elapsed = before + std::chrono::duration<double>(last_note - start).count();
      progress(so_far);
    }
  }
  ::close(fds[0]);
  int status = 0;
  rusage ru{};
  while (::wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  r.elapsed = before + std::chrono::duration<double>(Clock::now() - start).count();
  r.peak_mib = std::max(from ? from->peak_mib : 0.0,
                        static_cast<double>(ru.ru_maxrss) / 1024.0);  // KiB on Linux
  char why[128];
  if (killed) {
    std::snprintf(why, sizeof why, "timed out after %.0f s (killed in step %zu)", r.elapsed,
                  r.steps.size() + 1);
    r.stop = why;
  } else if (WIFSIGNALED(status) && r.stop.empty()) {
    std::snprintf(why, sizeof why, "crashed (signal %d) in step %zu", WTERMSIG(status),
                  r.steps.size() + 1);
    r.stop = why;
  } else if (r.stop.empty()) {
    r.stop = "ended without a report";
  }
  return r;
}

// ---- Statistics and the table ---------------------------------------------------------------

struct Stat {
  double mean = 0, max = 0;
};

template <class F>
Stat stat(const std::vector<StepSample>& v, F f, std::size_t count = SIZE_MAX) {
  Stat s;
  const std::size_t n = std::min(count, v.size());
  if (n == 0) return s;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = f(v[i]);
    s.mean += x;
    s.max = std::max(s.max, x);
  }
  s.mean /= static_cast<double>(n);
  return s;
}

struct Summary {
  Stat wall, detect, constraints, assemble, solve, integrate, metrics, other, contacts, lcp, solved,
      pivots;
  int failed = 0, flown_free = 0, split = 0, halves = 0, deep = 0, odd_substeps = 0, fallback = 0,
      extended = 0;
};

Summary summarise(const RunResult& r) {
  Summary s;
  const auto& v = r.steps;
  const double n = r.n;
  s.wall = stat(v, [](const StepSample& x) { return x.wall; });
  s.detect = stat(v, [](const StepSample& x) { return x.stages.detect; });
  s.constraints = stat(v, [](const StepSample& x) { return x.stages.constraints; });
  s.assemble = stat(v, [](const StepSample& x) { return x.stages.assemble; });
  s.solve = stat(v, [](const StepSample& x) { return x.stages.solve; });
  s.integrate = stat(v, [](const StepSample& x) { return x.stages.integrate; });
  s.metrics = stat(v, [](const StepSample& x) { return x.stages.metrics; });
  // advance() reports the stages of the sub-steps it kept: a split step's discarded first
  // attempt(s), and its state copies, are wall time outside every stage.
  s.other = stat(v, [](const StepSample& x) { return std::max(0.0, x.wall - x.stages.total()); });
  s.contacts = stat(v, [n](const StepSample& x) { return x.contacts / n; });
  s.lcp = stat(v, [n](const StepSample& x) { return x.lcp / n; });
  s.solved = stat(v, [n](const StepSample& x) { return x.solved / n; });
  s.pivots = stat(v, [](const StepSample& x) { return x.pivots; });
  for (const StepSample& x : v) {
    s.failed += x.failed_solve;
    s.flown_free += x.flown_free;
    // A step taken as halves from its start is not split (though one of its halves may be).
    s.split += x.substeps > 1 && !x.halves_from_start;
    s.halves += x.halves_from_start;
    s.deep += x.status == static_cast<int>(StepStatus::kDeepPenetration);
    s.odd_substeps += x.substeps != 1;
    s.fallback += x.fallback;
    s.extended += x.extended_precision;
  }
  return s;
}

std::string ms(double seconds) {
  char b[32];
  const double m = 1e3 * seconds;
  if (m == 0)
    std::snprintf(b, sizeof b, "0");
  else if (m >= 100)
    std::snprintf(b, sizeof b, "%.0f", m);
  else
    std::snprintf(b, sizeof b, "%.3g", m);
  return b;
}

std::string num(double x, const char* fmt = "%.2f") {
  char b[32];
  std::snprintf(b, sizeof b, fmt, x);
  return b;
}

std::string steps_text(const RunResult& r) {
  return std::to_string(r.steps.size()) + "/" + std::to_string(r.steps_planned) + " (" + r.stop +
         ")";
}

// Mean step time of r over its first k steps.
double mean_first(const RunResult& r, std::size_t k) {
  return stat(
             r.steps, [](const StepSample& x) { return x.wall; }, k)
      .mean;
}

// exactsim / Bullet over the steps both ran ("" when either ran none).
std::string ratio_text(const RunResult& ex, const RunResult* bu, std::size_t* over = nullptr) {
  if (!bu || ex.steps.empty() || bu->steps.empty()) return "n/a";
  const std::size_t k = std::min(ex.steps.size(), bu->steps.size());
  if (over) *over = k;
  const double b = mean_first(*bu, k);
  if (b <= 0) return "n/a";
  char t[32];
  const double q = mean_first(ex, k) / b;
  std::snprintf(t, sizeof t, q >= 100 ? "%.0f" : "%.3g", q);
  return t;
}

void print_block(const RunResult& ex, const RunResult* bu) {
  const ScalingGrid g = scaling_grid(ex.dims, ex.n);
  std::printf("\n== %dD, N = %d (grid %d%s x %d layers)\n", ex.dims, ex.n, g.side,
              ex.dims == 3 ? ("x" + std::to_string(g.side)).c_str() : "", g.layers);
  const Summary s = summarise(ex);
  std::printf("exactsim: %s, setup %.2f s, peak RSS %.0f MiB\n", steps_text(ex).c_str(), ex.setup,
              ex.peak_mib);
  std::printf("  %-34s %10s %10s\n", "stage (ms per step)", "mean", "max");
  const auto row = [](const char* name, const Stat& st) {
    std::printf("  %-34s %10s %10s\n", name, ms(st.mean).c_str(), ms(st.max).c_str());
  };
  row("detect", s.detect);
  row("constraints", s.constraints);
  row("assemble", s.assemble);
  row("solve", s.solve);
  row("integrate (+ position projection)", s.integrate);
  row("metrics (penetration watchdog)", s.metrics);
  row("other (discarded split attempts)", s.other);
  row("step, wall (advance())", s.wall);
  std::printf(
      "  potential contacts / body: mean %s, max %s; LCP size / body: mean %s, max %s; solved "
      "(working sets) / body: mean %s, max %s\n",
      num(s.contacts.mean).c_str(), num(s.contacts.max).c_str(), num(s.lcp.mean).c_str(),
      num(s.lcp.max).c_str(), num(s.solved.mean).c_str(), num(s.solved.max).c_str());
  std::printf(
      "  Lemke pivots per solve: mean %.0f, max %.0f; answers from Fischer–Burmeister %d, "
      "from the long-double retry %d\n",
      s.pivots.mean, s.pivots.max, s.fallback, s.extended);
  std::printf(
      "  failed solves %d (islands flown free %d), split steps %d, steps taken as halves from "
      "their start %d, steps still deep after splitting %d",
      s.failed, s.flown_free, s.split, s.halves, s.deep);
  if (ex.have_end)
    std::printf("; at the end: mean height %.3f m, max speed %.2f m/s, escaped %d",
                ex.end.mean_height, ex.end.max_speed, ex.end.escaped);
  std::printf("\n");
  if (!bu) return;
  const Summary b = summarise(*bu);
  std::printf("Bullet 3.24 (%s): %s, setup %.2f s, peak RSS %.0f MiB\n", bullet_precision(),
              steps_text(*bu).c_str(), bu->setup, bu->peak_mib);
  std::printf(
      "  step, wall (stepSimulation): mean %s ms, max %s ms; contact points / body: mean "
      "%s, max %s",
      ms(b.wall.mean).c_str(), ms(b.wall.max).c_str(), num(b.contacts.mean).c_str(),
      num(b.contacts.max).c_str());
  if (b.odd_substeps) std::printf("; %d steps with != 1 internal step", b.odd_substeps);
  if (bu->have_end)
    std::printf("\n  at the end: mean height %.3f m, max speed %.2f m/s, escaped %d",
                bu->end.mean_height, bu->end.max_speed, bu->end.escaped);
  std::size_t k = 0;
  const std::string q = ratio_text(ex, bu, &k);
  std::printf("\nratio exactsim / Bullet, mean step over the first %zu steps: %s\n", k, q.c_str());
}

// Least-squares slope of log(mean step) on log N. window 0: over the runs that completed every
// step, each over all its steps; window k > 0: over the runs that ran at least k steps, each over
// its first k steps (a common window: the same stretch of the pour for every N).
bool fit_exponent(const std::vector<const RunResult*>& runs, std::size_t window, double& slope,
                  int& points) {
  std::vector<double> x, y;
  for (const RunResult* r : runs) {
    if (r->steps.empty()) continue;
    if (window == 0 ? r->stop != "completed" : r->steps.size() < window) continue;
    const double mean = mean_first(*r, window == 0 ? SIZE_MAX : window);
    if (!(mean > 0)) continue;
    x.push_back(std::log(static_cast<double>(r->n)));
    y.push_back(std::log(mean));
  }
  points = static_cast<int>(x.size());
  if (points < 2) return false;
  double mx = 0, my = 0;
  for (int i = 0; i < points; ++i) mx += x[i] / points, my += y[i] / points;
  double sxy = 0, sxx = 0;
  for (int i = 0; i < points; ++i)
    sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  if (sxx <= 0) return false;
  slope = sxy / sxx;
  return true;
}

void print_summary(const std::vector<RunResult>& all, const Options& o) {
  std::printf("\n## Summary (markdown)\n\n");
  std::printf(
      "| D | N | engine | steps | mean step (ms) | max step (ms) | detect | constraints | assemble "
      "| solve | integrate | watchdog | other | contacts/body | LCP/body | solved/body | failed "
      "solves | split steps | halves from start | peak RSS (MiB) | exactsim / Bullet |\n");
  std::printf(
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const RunResult& r : all) {
    const Summary s = summarise(r);
    const RunResult* bu = nullptr;
    if (r.engine == "exactsim")
      for (const RunResult& b : all)
        if (b.engine == "bullet" && b.dims == r.dims && b.n == r.n) bu = &b;
    const bool ex = r.engine == "exactsim";
    std::printf(
        "| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
        "| %s | %s | %s | %.0f | %s |\n",
        r.dims, r.n, ex ? "exactsim" : (std::string("Bullet (") + bullet_precision() + ")").c_str(),
        steps_text(r).c_str(), ms(s.wall.mean).c_str(), ms(s.wall.max).c_str(),
        ex ? ms(s.detect.mean).c_str() : "", ex ? ms(s.constraints.mean).c_str() : "",
        ex ? ms(s.assemble.mean).c_str() : "", ex ? ms(s.solve.mean).c_str() : "",
        ex ? ms(s.integrate.mean).c_str() : "", ex ? ms(s.metrics.mean).c_str() : "",
        ex ? ms(s.other.mean).c_str() : "", num(s.contacts.mean).c_str(),
        ex ? num(s.lcp.mean).c_str() : "", ex ? num(s.solved.mean).c_str() : "",
        ex ? std::to_string(s.failed).c_str() : "", ex ? std::to_string(s.split).c_str() : "",
        ex ? std::to_string(s.halves).c_str() : "", r.peak_mib,
        ex ? ratio_text(r, bu).c_str() : "");
  }
  std::printf(
      "\nStage columns: mean ms per step; other = wall − stages (the discarded first "
      "attempts of split steps). split steps: steps retaken as halves after a failed solve or a "
      "deep pair; halves from start: steps taken as halves from their start after a failed whole "
      "step. contacts/body: exactsim's potential contacts, Bullet's "
      "contact-manifold points. exactsim / Bullet: mean step over the steps both ran.\n");
  for (int d : o.dims)
    for (const char* engine : {"exactsim", "bullet"}) {
      std::vector<const RunResult*> runs;
      for (const RunResult& r : all)
        if (r.dims == d && r.engine == engine) runs.push_back(&r);
      if (runs.empty()) continue;
      double slope = 0;
      int points = 0;
      if (fit_exponent(runs, 0, slope, points))
        std::printf("%dD %s: mean step time ~ N^%.2f (least squares on log-log, %d completed N)\n",
                    d, engine, slope, points);
      else
        std::printf("%dD %s: fewer than two N completed: no exponent\n", d, engine);
      // The common window: the fewest steps any N ran (at least 1).
      std::size_t window = SIZE_MAX;
      for (const RunResult* r : runs)
        if (!r->steps.empty()) window = std::min(window, r->steps.size());
      if (window != SIZE_MAX && fit_exponent(runs, window, slope, points))
        std::printf(
            "%dD %s: over the first %zu steps (the fewest any N ran): mean step time ~ "
            "N^%.2f (%d N)\n",
            d, engine, window, slope, points);
    }
}

nlohmann::json to_json(const RunResult& r) {
  const Summary s = summarise(r);
  const auto st = [](const Stat& x) { return nlohmann::json{{"mean", x.mean}, {"max", x.max}}; };
  nlohmann::json j = {{"engine", r.engine},
                      {"dimension", r.dims},
                      {"bodies", r.n},
                      {"steps_planned", r.steps_planned},
                      {"steps_done", r.steps.size()},
                      {"stop", r.stop},
                      {"setup_seconds", r.setup},
                      {"elapsed_seconds", r.elapsed},
                      {"peak_rss_mib", r.peak_mib},
                      {"step_seconds", st(s.wall)},
                      {"step_seconds_each", nlohmann::json::array()},
                      {"contacts_per_body", st(s.contacts)}};
  if (r.engine == "exactsim") {
    j["stage_seconds"] = {{"detect", st(s.detect)},       {"constraints", st(s.constraints)},
                          {"assemble", st(s.assemble)},   {"solve", st(s.solve)},
                          {"integrate", st(s.integrate)}, {"metrics", st(s.metrics)},
                          {"other", st(s.other)}};
    j["lcp_size_per_body"] = st(s.lcp);
    j["solved_unknowns_per_body"] = st(s.solved);
    j["failed_solves"] = s.failed;
    j["islands_flown_free"] = s.flown_free;
    j["split_steps"] = s.split;
    j["halves_from_start_steps"] = s.halves;
    j["deep_penetration_steps"] = s.deep;
    j["lemke_pivots"] = st(s.pivots);
    j["fischer_burmeister_answers"] = s.fallback;
    j["long_double_answers"] = s.extended;
  } else {
    j["precision"] = bullet_precision();
  }
  for (const StepSample& x : r.steps) j["step_seconds_each"].push_back(x.wall);
  j["step_samples"] = nlohmann::json::array();  // every step as the child reported it (--resume)
  for (const StepSample& x : r.steps) j["step_samples"].push_back(sample_json(x));
  if (r.have_end)
    j["end"] = {{"mean_height", r.end.mean_height},
                {"max_speed", r.end.max_speed},
                {"escaped", r.end.escaped}};
  return j;
}

// A finished run of a results file, as to_json wrote it (json's own errors name the field).
RunResult from_json(const nlohmann::json& j) {
  RunResult r;
  r.engine = j.at("engine").get<std::string>();
  r.dims = j.at("dimension").get<int>();
  r.n = j.at("bodies").get<int>();
  r.steps_planned = j.at("steps_planned").get<int>();
  r.stop = j.at("stop").get<std::string>();
  r.setup = j.at("setup_seconds").get<double>();
  r.elapsed = j.at("elapsed_seconds").get<double>();
  r.peak_mib = j.at("peak_rss_mib").get<double>();
  for (const nlohmann::json& x : j.at("step_samples")) r.steps.push_back(sample_from_json(x));
  if (j.contains("end")) {
    r.end.mean_height = j["end"].at("mean_height").get<double>();
    r.end.max_speed = j["end"].at("max_speed").get<double>();
    r.end.escaped = j["end"].at("escaped").get<int>();
    r.have_end = true;
  }
  return r;
}

// The finished runs of o.out for --resume; none when the file does not exist. A file that is not
// a results file of these settings is an error naming the file, the field and the reason.
std::vector<RunResult> finished_runs(const Options& o) {
  std::vector<RunResult> runs;
  if (!std::filesystem::exists(o.out)) return runs;
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error(o.out + ": " + why + " (--resume)");
  };
  std::ifstream in(o.out);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    fail(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("runs")) fail("no \"runs\": not a bench_scaling results file");
  if (const std::string why = settings_mismatch(j, o); !why.empty()) fail(why);
  for (const nlohmann::json& r : j["runs"]) {
    if (r.value("stop", "") == "running") continue;  // started again from its first step
    try {
      runs.push_back(from_json(r));
    } catch (const std::exception& e) {
      fail(std::string("a run: ") + e.what());
    }
  }
  return runs;
}

bool csv_out(const Options& o) {
  return o.out.size() >= 4 && o.out.compare(o.out.size() - 4, 4, ".csv") == 0;
}

void write_to(const std::vector<RunResult>& all, const Options& o, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write");
  if (csv_out(o)) {
    out << "dimension,bodies,engine,steps_planned,steps_done,stop,mean_step_s,max_step_s,"
           "detect_s,constraints_s,assemble_s,solve_s,integrate_s,metrics_s,other_s,"
           "contacts_per_body,lcp_per_body,solved_per_body,failed_solves,split_steps,"
           "halves_from_start_steps,peak_rss_mib\n";
    for (const RunResult& r : all) {
      const Summary s = summarise(r);
      std::string stop = r.stop;
      std::replace(stop.begin(), stop.end(), ',', ';');
      out << r.dims << ',' << r.n << ',' << r.engine << ',' << r.steps_planned << ','
          << r.steps.size() << ',' << stop << ',' << s.wall.mean << ',' << s.wall.max << ','
          << s.detect.mean << ',' << s.constraints.mean << ',' << s.assemble.mean << ','
          << s.solve.mean << ',' << s.integrate.mean << ',' << s.metrics.mean << ',' << s.other.mean
          << ',' << s.contacts.mean << ',' << s.lcp.mean << ',' << s.solved.mean << ',' << s.failed
          << ',' << s.split << ',' << s.halves << ',' << r.peak_mib << '\n';
    }
    return;
  }
  nlohmann::json j = settings_json(o);
  j["runs"] = nlohmann::json::array();
  for (const RunResult& r : all) j["runs"].push_back(to_json(r));
  out << j.dump(2) << '\n';
}

// Rewrites o.out with `all`: written beside it, then renamed, so the file is always whole.
void write_out(const std::vector<RunResult>& all, const Options& o) {
  const std::string part = o.out + ".part";
  write_to(all, o, part);
  std::filesystem::rename(part, o.out);
}

}  // namespace
}  // namespace exactsim::bench

int main(int argc, char** argv) {
  using namespace exactsim::bench;
  Options o;
  CLI::App app{
      "bench_scaling: step time against N on a pour of random convex hulls, exactsim "
      "and Bullet on the same scenes"};
  app.add_option("--n", o.n, "numbers of bodies")->delimiter(',')->check(CLI::PositiveNumber);
  app.add_option("--dims", o.dims, "dimensions, 2 and/or 3")
      ->delimiter(',')
      ->check(CLI::IsMember({2, 3}));
  app.add_option("--steps", o.steps, "steps per run (h = 0.01 s)")->check(CLI::PositiveNumber);
  app.add_option("--seed", o.seed, "scene seed");
  app.add_option("--budget-seconds", o.budget,
                 "per (engine, N): stop once the summed step time exceeds this")
      ->check(CLI::PositiveNumber);
  app.add_option("--kill-after", o.kill_after,
                 "per (engine, N): kill the child after this many wall seconds (default 2 budget "
                 "+ 30)");
  app.add_flag("!--no-bullet", o.bullet, "skip Bullet");
  app.add_flag("--sleep", o.sleep,
               "both engines let bodies at rest sleep: exactsim's stepping.sleep (docs/stepping.md "
               "\"Sleeping\"), Bullet's deactivation at the same speed and time");
  app.add_option("--threads", o.threads,
                 "exactsim: threads solving a step's islands (StepOptions::threads; 0 = one per "
                 "core); Bullet stays on one")
      ->check(CLI::Range(0, 1024));
  app.add_flag("!--no-watchdog", o.watchdog,
               "exactsim: penetration watchdog off (then advance() never splits a step)");
  app.add_option("--friction-on-demand", o.friction_on_demand,
                 "exactsim: islands with at least this many unknowns solve the loaded cones' "
                 "friction only (0: never; default: the library's, 200)");
  app.add_option("--revised-min-size", o.revised_min_size,
                 "exactsim: LCPs with at least this many unknowns pivot in Lemke's revised form "
                 "(0: never; default: the library's)");
  app.add_option("--max-memory-gib", o.max_memory_gib,
                 "address-space limit of each child (0: none); beyond it the run ends as an error");
  app.add_option("--bullet-margin", o.bullet_margin, "Bullet's hull collision margin, m");
  app.add_option("--out", o.out,
                 "write the results as JSON (or CSV if the name ends in .csv), rewritten after "
                 "each (engine, N) and every 10 s while one runs");
  app.add_flag("--resume", o.resume,
               "take the finished (engine, N) runs of the --out JSON file, measured by this build "
               "with the same settings, instead of running them again, and go on with the running "
               "exactsim run from its last saved state (<out>.state)");
  app.add_option("--state-every", o.state_every,
                 "with a JSON --out: seconds of wall time between saves of the running exactsim "
                 "run's state to <out>.state, from which --resume goes on (0: after every step)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--write-scenes", o.write_scenes,
                 "also write every scene to this folder as a scene file (for exactsim run/view)");
  CLI11_PARSE(app, argc, argv);

  const bool bullet = o.bullet && bullet_available();
  std::printf(
      "bench_scaling: seed %llu, %d steps of h = 0.01 s, budget %.0f s per (engine, N), "
      "kill after %.0f s; exactsim watchdog %s, friction on demand from %d unknowns, revised "
      "Lemke from %d; sleeping %s; exactsim threads %d; Bullet: %s\n",
      static_cast<unsigned long long>(o.seed), o.steps, o.budget,
      o.kill_after > 0 ? o.kill_after : 2 * o.budget + 30, o.watchdog ? "on" : "off",
      o.friction_on_demand >= 0 ? o.friction_on_demand
                                : exactsim::StepOptions{}.friction_on_demand_min_unknowns,
      o.revised_min_size >= 0 ? o.revised_min_size
                              : exactsim::SolverOptions{}.diagnostics.revised_min_size,
      o.sleep ? "on" : "off", o.threads,
      bullet ? (std::string("3.24, ") + bullet_precision()).c_str()
             : (o.bullet ? "not built in" : "off"));
  std::vector<RunResult> all;
  try {
    const bool csv = csv_out(o);
    // The running exactsim run's state, beside a JSON results file.
    const std::string state_path = o.out.empty() || csv ? "" : o.out + ".state";
    std::vector<RunResult> done;
    std::optional<RunState> running;
    if (o.resume) {
      if (o.out.empty()) throw std::runtime_error("--resume needs --out, the results file");
      if (csv) throw std::runtime_error(o.out + ": --resume reads a JSON results file, not CSV");
      done = finished_runs(o);
      if (std::filesystem::exists(state_path)) running = read_run_state(state_path, o);
    } else if (!state_path.empty()) {
      std::filesystem::remove(state_path);  // another run's
    }
    // The finished run of (engine, d, n) from the results file, or a new one (going on from
    // the saved state of its steps where there is one).
    const auto run = [&](const std::string& engine, int d, int n) {
      for (const RunResult& r : done)
        if (r.engine == engine && r.dims == d && r.n == n) {
          std::fprintf(stderr, "%dD N=%d: %s: finished in %s, not run again\n", d, n,
                       engine.c_str(), o.out.c_str());
          return r;
        }
      const RunState* from = nullptr;
      if (running && running->engine == engine && running->dims == d && running->n == n) {
        from = &*running;
        std::fprintf(stderr, "%dD N=%d: %s: going on after step %zu, saved in %s\n", d, n,
                     engine.c_str(), from->samples.size(), state_path.c_str());
      } else {
        std::fprintf(stderr, "%dD N=%d: %s\n", d, n, engine.c_str());
      }
      RunResult r = run_child(
          engine, d, n, o,
          [&](const RunResult& so_far) {
            if (o.out.empty()) return;
            std::vector<RunResult> with = all;
            with.push_back(so_far);
            write_out(with, o);
          },
          from, engine == "exactsim" ? state_path : "");
      return r;
    };
    const auto record = [&](RunResult r) {
      all.push_back(std::move(r));
      if (o.out.empty()) return;
      write_out(all, o);
      if (all.back().engine == "exactsim") std::filesystem::remove(state_path);  // in o.out now
    };
    for (int d : o.dims)
      for (int n : o.n) {
        if (!o.write_scenes.empty()) {
          ScalingSceneOptions so;
          so.dimension = d;
          so.bodies = n;
          so.seed = o.seed;
          const exactsim::Scene scene = scaling_scene(so);
          std::filesystem::create_directories(o.write_scenes);
          exactsim::write_scene_file(scene, o.write_scenes + "/" + scene.name + ".json");
        }
        record(run("exactsim", d, n));
        const RunResult* bu = nullptr;
        if (bullet) {
          record(run("bullet", d, n));
          bu = &all.back();
        }
        print_block(all[all.size() - (bu ? 2 : 1)], bu);
        std::fflush(stdout);
      }
    print_summary(all, o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_scaling: %s\n", e.what());
    return 1;
  }
  return 0;
}
