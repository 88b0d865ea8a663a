// The replay page's data (docs/viewer.md): shapes in body frames, per-frame poses, the step
// reports and the overlapping pairs, as one JSON document inlined into the page template.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "exactsim/viewer/final_picture.h"
#include "exactsim/viewer/pair_overlaps.h"
#include "exactsim/viewer/replay.h"
#include "exactsim/viewer/view_camera.h"
#include "viewer/replay_page.h"

namespace exactsim {
namespace {

// 9 significant digits: 1e-9 relative, far below a pixel, and half the size of full precision.
double rounded(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return std::strtod(buf, nullptr);
}

nlohmann::json vec(const auto& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index k = 0; k < v.size(); ++k) a.push_back(rounded(v[k]));
  return a;
}

nlohmann::json bodies_json(const World& w) {
  nlohmann::json bodies = nlohmann::json::array();
  for (int i = 0; i < w.body_count(); ++i) {
    const Body& b = w.bodies[i];
    const auto c = body_colour(w, i);
    nlohmann::json j = {{"name", b.name},
                        {"static", b.is_static},
                        {"colour", {c[0], c[1], c[2]}},
                        {"size", body_size(w, i)}};
    // The parts' vertices one after the other; a compound 2D body lists each part's outline
    // (`loops`), a 3D body's faces index the whole list.
    nlohmann::json verts = nlohmann::json::array();
    nlohmann::json loops = nlohmann::json::array(), faces = nlohmann::json::array(),
                   normals = nlohmann::json::array();
    for (int k = 0; k < part_count(w, i); ++k) {
      const int first = static_cast<int>(verts.size());
      if (w.dimension == 2) {
        nlohmann::json loop = nlohmann::json::array();
        for (const Vec2& v : w.polygons[part_shape(w, i, k)].vertices) {
          loop.push_back(static_cast<int>(verts.size()));
          verts.push_back(vec(v));
        }
        loops.push_back(loop);
        continue;
      }
      const ConvexPolyhedron& s = drawn_polyhedron(w, i, k);
      for (const Vec3& v : s.vertices) verts.push_back(vec(v));
      for (const PolyhedronFace& f : s.faces) {
        nlohmann::json face = nlohmann::json::array();
        for (const int v : f.vertices) face.push_back(first + v);
        faces.push_back(face);
        normals.push_back(vec(f.normal));
      }
    }
    if (w.dimension == 3) {
      j["faces"] = faces;
      j["normals"] = normals;
    } else if (loops.size() > 1) {
      j["loops"] = loops;
    }
    j["vertices"] = verts;
    bodies.push_back(j);
  }
  return bodies;
}

nlohmann::json series_json(const RunResults& r) {
  nlohmann::json s = {{"steps", r.series_steps}, {"group", r.series_group}};
  for (const auto& [name, series] : r.series) {
    nlohmann::json t = nlohmann::json::array(), v = nlohmann::json::array();
    for (std::size_t i = 0; i < series.time.size(); ++i) {
      t.push_back(rounded(series.time[i]));
      v.push_back(rounded(series.value[i]));
    }
    s[name] = {{"t", t}, {"v", v}};
  }
  return s;
}

nlohmann::json run_json(const RunResults& r) {
  const World& w = r.scene.world;
  nlohmann::json d;
  d["dir"] = r.dir;
  d["scene"] = r.scene.name;
  d["dimension"] = w.dimension;
  d["gravity"] = vec(w.dimension == 2 ? Vec3(w.gravity.x(), w.gravity.y(), 0) : w.gravity);
  d["model"] = to_string(w.contact.model);
  d["step_size"] = r.scene.step;
  d["summary"] = r.summary;
  d["frames_in_run"] = r.frames_in_file;
  if (w.dimension == 3) {
    const ViewCamera c = default_camera(w);
    d["camera"] = {{"up", vec(c.up)},
                   {"horizontal", vec(c.horizontal)},
                   {"azimuth", kDefaultAzimuthDeg},
                   {"elevation", kDefaultElevationDeg}};
  }
  d["bodies"] = bodies_json(w);
  nlohmann::json steps = nlohmann::json::array(), times = nlohmann::json::array(),
                 present = nlohmann::json::array(), q = nlohmann::json::array(),
                 overlaps = nlohmann::json::array(), reports = nlohmann::json::array();
  for (const ReplayFrame& f : r.frames) {
    steps.push_back(f.step);
    times.push_back(f.time);
    std::string mask;
    for (std::uint8_t p : f.present) mask += p ? '1' : '0';
    present.push_back(mask);
    q.push_back(vec(f.q));
    nlohmann::json pairs = nlohmann::json::array();
    for (const PairOverlap& p : pair_overlaps(w, f)) pairs.push_back({p.a, p.b, p.overlap});
    overlaps.push_back(pairs);
    reports.push_back(f.report);
  }
  d["frames"] = {{"step", steps}, {"time", times},        {"present", present},
                 {"q", q},        {"overlaps", overlaps}, {"reports", reports}};
  d["series"] = series_json(r);
  return d;
}

}  // namespace

void write_replay_html(const std::vector<const RunResults*>& runs, const std::string& path) {
  if (runs.empty() || runs.size() > 2)
    throw InputError(path + ": the replay page shows one run or two, not " +
                     std::to_string(runs.size()));
  nlohmann::json d;
  d["format"] = "exactsim-replay";
  d["version"] = 2;
  d["overlap_threshold"] = kOverlapHighlightFraction;
  d["background"] = {kBackgroundColour[0], kBackgroundColour[1], kBackgroundColour[2]};
  d["runs"] = nlohmann::json::array();
  for (const RunResults* r : runs) {
    if (r->scene.world.dimension != runs[0]->scene.world.dimension)
      throw InputError(r->dir + ": a " + std::to_string(r->scene.world.dimension) +
                       "D run cannot be shown beside " + runs[0]->dir + ", a " +
                       std::to_string(runs[0]->scene.world.dimension) + "D run");
    d["runs"].push_back(run_json(*r));
  }

  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write the replay page");
  out << replay_page(d.dump());
  if (!out) throw InputError(path + ": cannot write the replay page");
}

void write_replay_html(const RunResults& r, const std::string& path) {
  write_replay_html(std::vector<const RunResults*>{&r}, path);
}

ReplayOutput write_replay(const std::string& dir, const ReplayOptions& o) {
  const int max_frames = o.max_frames > 0 ? o.max_frames : kAutoFrames;
  const RunResults r = read_results(dir, o.scene_file, o.scene, max_frames);
  ReplayOutput out;
  out.html = o.html.empty() ? (std::filesystem::path(dir) / "replay.html").string() : o.html;
  out.picture = (std::filesystem::path(dir) / "final.svg").string();
  out.frames_in_run = r.frames_in_file;
  out.frames_shown = static_cast<long>(r.frames.size());
  if (o.compare_dir.empty()) {
    write_replay_html(r, out.html);
  } else {
    const RunResults other = read_results(o.compare_dir, o.scene_file, nullptr, max_frames);
    out.compare_frames_in_run = other.frames_in_file;
    out.compare_frames_shown = static_cast<long>(other.frames.size());
    write_replay_html({&r, &other}, out.html);
  }
  write_final_picture(r, out.picture);
  return out;
}

}  // namespace exactsim
