// Reading a results folder back (docs/viewer.md): two passes over trajectory.csv so that a long
// run is subsampled without holding every frame.
#include "exactsim/viewer/results.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

// The step number at the start of a trajectory row (−1: the initial state), or none.
std::optional<long> leading_step(const std::string& line) {
  long step = 0;
  const auto r = std::from_chars(line.data(), line.data() + line.size(), step);
  if (r.ec != std::errc() || step < -1) return std::nullopt;
  return step;
}

double parse_number(const std::string& cell, const std::string& where) {
  try {
    std::size_t used = 0;
    const double v = std::stod(cell, &used);
    if (used == cell.size()) return v;
  } catch (const std::exception&) {
  }
  throw InputError(where + ": '" + cell + "' is not a number");
}

// Indices 0…n−1 of the kept frames: all, or `max` evenly spaced including the first and last.
std::vector<long> kept_frames(long n, int max) {
  std::vector<long> keep;
  if (max <= 0 || n <= max) {
    for (long i = 0; i < n; ++i) keep.push_back(i);
    return keep;
  }
  if (max == 1) return {n - 1};
  for (int i = 0; i < max; ++i)
    keep.push_back(static_cast<long>((static_cast<double>(i) * (n - 1)) / (max - 1) + 0.5));
  return keep;
}

Scene load_scene(const std::string& dir, const std::string& scene_file, std::string& used) {
  std::string path = scene_file;
  if (path.empty()) {
    path = (fs::path(dir) / "scene.json").string();
    if (!fs::exists(path))
      throw InputError(dir +
                       ": the results folder has no scene.json, so the shapes are unknown; pass "
                       "--scene FILE (the scene file given to run, or one written by run "
                       "--write-scene)");
  }
  used = path;
  return read_scene_file(path);
}

// The report's value of series `name` (kSeriesNames), or none when the line lacks it.
std::optional<double> series_value(const nlohmann::json& j, const std::string& name) {
  const nlohmann::json* v = nullptr;
  if (name == "solve_seconds") {
    const auto s = j.find("seconds");
    if (s != j.end() && s->is_object() && s->contains("solve")) v = &(*s)["solve"];
  } else {
    const auto it = j.find(name);
    if (it != j.end()) v = &*it;
  }
  if (!v || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

// The series of a run, built one line at a time with at most kSeriesGroups groups: when a new
// group would exceed that, neighbouring groups are merged and the group length doubles.
class SeriesBuilder {
 public:
  SeriesBuilder() : groups_(std::size(kSeriesNames)) {}

  void add(const nlohmann::json& report) {
    long index = lines_ / length_;
    if (index >= kSeriesGroups) {
      for (auto& g : groups_) merge_pairs(g);
      length_ *= 2;
      index = lines_ / length_;
    }
    const long step = report["step"].get<long>();
    const double time = report.contains("time") && report["time"].is_number()
                            ? report["time"].get<double>()
                            : std::numeric_limits<double>::quiet_NaN();
    for (std::size_t s = 0; s < groups_.size(); ++s) {
      std::vector<Group>& g = groups_[s];
      if (static_cast<long>(g.size()) <= index) g.resize(index + 1);
      const std::optional<double> v = series_value(report, kSeriesNames[s]);
      if (!v || !std::isfinite(time)) continue;
      g[index].add(Point{step, time, *v});
    }
    ++lines_;
  }

  void finish(RunResults& r) const {
    r.series_steps = lines_;
    r.series_group = length_;
    for (std::size_t s = 0; s < groups_.size(); ++s) {
      StepSeries& out = r.series[kSeriesNames[s]];
      for (const Group& g : groups_[s]) {
        if (!g.any) continue;
        const bool low_first = g.low.step <= g.high.step;
        const Point& a = low_first ? g.low : g.high;
        const Point& b = low_first ? g.high : g.low;
        out.time.push_back(a.time);
        out.value.push_back(a.value);
        if (b.step != a.step) {
          out.time.push_back(b.time);
          out.value.push_back(b.value);
        }
      }
    }
  }

 private:
  struct Point {
    long step;
    double time, value;
  };
  struct Group {
    bool any = false;
    Point low{}, high{};
    void add(const Point& p) {
      if (!any || p.value < low.value) low = p;
      if (!any || p.value > high.value) high = p;
      any = true;
    }
  };
  static void merge_pairs(std::vector<Group>& g) {
    std::vector<Group> merged((g.size() + 1) / 2);
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (!g[i].any) continue;
      merged[i / 2].add(g[i].low);
      merged[i / 2].add(g[i].high);
    }
    g = std::move(merged);
  }

  long lines_ = 0, length_ = 1;
  std::vector<std::vector<Group>> groups_;
};

}  // namespace

Pose2 frame_pose2(const ReplayFrame& f, int i) {
  Pose2 p;
  p.position = Vec2(f.q[3 * i], f.q[3 * i + 1]);
  p.angle = f.q[3 * i + 2];
  return p;
}

Pose3 frame_pose3(const ReplayFrame& f, int i) {
  Pose3 p;
  p.position = Vec3(f.q[7 * i], f.q[7 * i + 1], f.q[7 * i + 2]);
  p.orientation = Quat(f.q[7 * i + 3], f.q[7 * i + 4], f.q[7 * i + 5], f.q[7 * i + 6]);
  if (p.orientation.norm() > 0) p.orientation.normalize();
  return p;
}

RunResults read_results(const std::string& dir, const std::string& scene_file, const Scene* scene,
                        int max_frames) {
  RunResults res;
  res.dir = dir;
  if (!fs::is_directory(dir))
    throw InputError(dir + ": no such results folder (write one with exactsim run ... --out " +
                     dir + ")");
  const std::string traj_path = (fs::path(dir) / "trajectory.csv").string();
  if (!fs::exists(traj_path))
    throw InputError(dir +
                     ": not a results folder: it has no trajectory.csv (write one with "
                     "exactsim run ... --out " +
                     dir + ")");
  if (fs::exists(fs::path(dir) / "impacts.jsonl"))
    throw InputError(dir +
                     ": an event-driven run (exactsim events); the viewer shows the "
                     "results of exactsim run only");
  if (scene) {
    res.scene = *scene;
  } else {
    res.scene = load_scene(dir, scene_file, res.scene_file);
  }
  const World& w = res.scene.world;
  const int nb = w.body_count();
  const int cs = config_size(w.dimension);
  std::map<std::string, int> index;
  for (int i = 0; i < nb; ++i) index[w.bodies[i].name] = i;
  const std::string origin = scene ? std::string("the scene") : res.scene_file;

  // Pass 1: the header and the distinct steps.
  std::ifstream in(traj_path);
  if (!in) throw InputError(traj_path + ": cannot read the file");
  std::string line;
  if (!std::getline(in, line)) throw InputError(traj_path + ": empty file (no header)");
  const std::vector<std::string> header = split_csv(line);
  const int dim = header.size() == 9 ? 2 : header.size() == 16 ? 3 : 0;
  if (dim == 0 || header[0] != "step" || header[1] != "time" || header[2] != "body")
    throw InputError(traj_path +
                     ": line 1: not a trajectory header (expected step,time,body,"
                     "then 6 columns in 2D or 13 in 3D)");
  if (dim != w.dimension)
    throw InputError(traj_path + ": a " + std::to_string(dim) + "D trajectory, but " + origin +
                     " is a " + std::to_string(w.dimension) + "D scene");
  long frames = 0, last = -1;
  long line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const std::optional<long> s = leading_step(line);
    if (!s)
      throw InputError(traj_path + ": line " + std::to_string(line_no) +
                       ": does not start with a step number");
    if (frames == 0 || *s != last) ++frames;
    last = *s;
  }
  if (frames == 0) throw InputError(traj_path + ": no rows (not even the initial state's)");
  res.frames_in_file = frames;
  if (max_frames == kAutoFrames)
    max_frames = static_cast<int>(std::clamp<long>(2'000'000L / std::max(1, nb * cs), 100, 2000));
  const std::vector<long> keep = kept_frames(frames, max_frames);

  // Pass 2: parse the kept frames.
  in.clear();
  in.seekg(0);
  std::getline(in, line);
  line_no = 1;
  long frame = -1;
  std::size_t next_keep = 0;
  ReplayFrame* cur = nullptr;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const long s = *leading_step(line);
    if (frame < 0 || s != last) {
      ++frame;
      last = s;
      cur = nullptr;
      if (next_keep < keep.size() && keep[next_keep] == frame) {
        ++next_keep;
        res.frames.emplace_back();
        cur = &res.frames.back();
        cur->step = s;
        cur->present.assign(nb, 0);
        cur->q = VecX::Zero(static_cast<Eigen::Index>(nb) * cs);
      }
    }
    if (!cur) continue;
    const std::string where = traj_path + ": line " + std::to_string(line_no);
    const std::vector<std::string> cells = split_csv(line);
    if (cells.size() != header.size())
      throw InputError(where + ": " + std::to_string(cells.size()) + " columns, the header has " +
                       std::to_string(header.size()));
    cur->time = parse_number(cells[1], where);
    const auto it = index.find(cells[2]);
    if (it == index.end())
      throw InputError(where + ": body '" + cells[2] + "' is not in " + origin +
                       " (is it the scene of this run?)");
    const int b = it->second;
    cur->present[b] = 1;
    for (int k = 0; k < cs; ++k) cur->q[b * cs + k] = parse_number(cells[3 + k], where);
  }

  // Step reports of the kept steps.
  std::set<long> wanted;
  for (const ReplayFrame& f : res.frames) wanted.insert(f.step);
  std::map<long, nlohmann::json> reports;
  const std::string steps_path = (fs::path(dir) / "steps.jsonl").string();
  std::ifstream steps(steps_path);
  SeriesBuilder series;
  line_no = 0;
  while (steps && std::getline(steps, line)) {
    ++line_no;
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("step") || !j["step"].is_number())
      throw InputError(steps_path + ": line " + std::to_string(line_no) +
                       ": not a step report (a JSON object with a \"step\" number)");
    series.add(j);
    const long s = j["step"].get<long>();
    if (wanted.count(s)) reports[s] = std::move(j);
  }
  series.finish(res);
  for (ReplayFrame& f : res.frames) {
    const auto it = reports.find(f.step);
    if (it != reports.end()) f.report = it->second;
  }

  const std::string summary_path = (fs::path(dir) / "summary.json").string();
  if (fs::exists(summary_path)) {
    std::ifstream s(summary_path);
    res.summary = nlohmann::json::parse(s, nullptr, false);
    if (res.summary.is_discarded()) throw InputError(summary_path + ": not valid JSON");
  }
  return res;
}

}  // namespace exactsim
