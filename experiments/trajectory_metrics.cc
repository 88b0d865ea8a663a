#include "experiments/trajectory_metrics.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <vector>

#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/step.h"

namespace exactsim::peers {
namespace {

// The container of "left the container", and the axis and sign gravity points along.
struct Container {
  bool any = false;
  Aabb3 box{Vec3::Constant(std::numeric_limits<Real>::infinity()),
            Vec3::Constant(-std::numeric_limits<Real>::infinity())};
  int up = 2;      // the axis gravity is (mostly) along
  Real down = -1;  // the sign of gravity's component on it
};

Container container(const Scene& scene, Workspace& ws) {
  const World& w = scene.world;
  const int d = w.dimension;
  Container c;
  c.up = d - 1;
  for (int a = 0; a < d; ++a)
    if (std::abs(w.gravity[a]) > std::abs(w.gravity[c.up])) c.up = a;
  c.down = w.gravity[c.up] > 0 ? 1 : -1;
  State s = scene.initial;
  for (int i = 0; i < w.body_count(); ++i) s.present[i] = is_fixed(w.bodies[i]);
  measure_state(w, s, ws);  // places the shapes (their boxes are what is needed)
  for (int i = 0; i < w.body_count(); ++i) {
    if (!s.present[i]) continue;
    c.any = true;
    const Aabb3 b = d == 3 ? ws.polyhedra[i].aabb
                           : Aabb3{Vec3(ws.polygons[i].aabb.lo.x(), ws.polygons[i].aabb.lo.y(), 0),
                                   Vec3(ws.polygons[i].aabb.hi.x(), ws.polygons[i].aabb.hi.y(), 0)};
    c.box.lo = c.box.lo.cwiseMin(b.lo);
    c.box.hi = c.box.hi.cwiseMax(b.hi);
  }
  return c;
}

bool outside(const Container& c, const Vec3& x, int d) {
  for (int a = 0; a < d; ++a) {
    if (a == c.up) {
      // Open on the side opposite gravity: only below the floor (along gravity) is out.
      if (c.down < 0 ? x[a] < c.box.lo[a] : x[a] > c.box.hi[a]) return true;
    } else if (x[a] < c.box.lo[a] || x[a] > c.box.hi[a]) {
      return true;
    }
  }
  return false;
}

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
// repetitions of the stepping loop) or summary.json (exactsim).
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
    // The stepping alone, timed by whoever ran the folder (an engine sweep), when given.
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

TrajectoryMetrics trajectory_metrics(const RunResults& results, const MetricOptions& options) {
  const Scene& scene = results.scene;
  const World& w = scene.world;
  const int d = w.dimension;
  const int cs = config_size(d);
  Workspace ws;
  const Container box = container(scene, ws);
  TrajectoryMetrics m;
  std::vector<Real> overlaps;
  std::vector<std::uint8_t> left(w.body_count(), 0);
  State state = scene.initial;
  state.v.setZero();
  const ReplayFrame* previous = nullptr;
  for (const ReplayFrame& f : results.frames) {
    for (int i = 0; i < w.body_count() && !m.blew_up; ++i) {
      if (!f.present[i] || w.bodies[i].is_static) continue;
      const auto q = f.q.segment(i * cs, cs);
      std::string why;
      if (!q.allFinite()) {
        why = "non-finite pose";
      } else if (previous && previous->present[i] && f.time > previous->time) {
        const Real speed =
            (q.head(d) - previous->q.segment(i * cs, d)).norm() / (f.time - previous->time);
        if (speed > options.speed_bound)
          why = "moved at " + std::to_string(speed) + " m/s, over the bound of " +
                std::to_string(options.speed_bound);
      }
      if (!why.empty()) {
        m.blew_up = true;
        m.blow_up_step = f.step;
        m.blow_up =
            "body '" + w.bodies[i].name + "' at step " + std::to_string(f.step) + ": " + why;
      }
    }
    previous = &f;
    if (f.step < 0) continue;
    state.q = f.q;
    state.present = f.present;
    state.time = f.time;
    const StateMetrics s = measure_state(w, state, ws);
    overlaps.push_back(s.overlap);
    m.max_penetration = std::max(m.max_penetration, s.max_penetration);
    if (box.any)
      for (int i = 0; i < w.body_count(); ++i)
        if (f.present[i] && !w.bodies[i].is_static && outside(box, body_position(state, i), d))
          left[i] = 1;
  }
  m.frames = static_cast<long>(overlaps.size());
  if (!results.frames.empty())
    m.simulated_seconds = results.frames.back().time - results.frames.front().time;
  m.bodies_left = static_cast<int>(std::count(left.begin(), left.end(), 1));
  if (!overlaps.empty()) {
    std::sort(overlaps.begin(), overlaps.end());
    const std::size_t n = overlaps.size();
    m.overlap_median = median(overlaps);  // exactsim run's summary's median (io/run.h)
    m.overlap_q3 = overlaps[static_cast<std::size_t>(std::ceil(0.75 * n)) - 1];
    m.overlap_max = overlaps.back();
  }
  return m;
}

nlohmann::json to_json(const TrajectoryMetrics& m) {
  return {{"frames", m.frames},
          {"simulated_seconds", m.simulated_seconds},
          {"overlap_median", m.overlap_median},
          {"overlap_q3", m.overlap_q3},
          {"overlap_max", m.overlap_max},
          {"max_penetration", m.max_penetration},
          {"bodies_left", m.bodies_left},
          {"blew_up", m.blew_up},
          {"blow_up_step", m.blow_up_step},
          {"blow_up", m.blow_up}};
}

nlohmann::json score_run_folder(const std::string& dir, const MetricOptions& options) {
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
      m.simulated_seconds > 0 ? 1e3 * j["wall_seconds"].get<double>() / m.simulated_seconds : 0.0;
  return j;
}

}  // namespace exactsim::peers
