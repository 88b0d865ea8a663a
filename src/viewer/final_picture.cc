#include "exactsim/viewer/final_picture.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "exactsim/math/error.h"
#include "exactsim/viewer/pair_overlaps.h"
#include "exactsim/viewer/view_camera.h"

namespace exactsim {
namespace {

std::string rgb(const std::array<int, 3>& c, Real shade = 1) {
  char buf[32];
  auto ch = [&](int v) { return std::clamp(static_cast<int>(std::lround(v * shade)), 0, 255); };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", ch(c[0]), ch(c[1]), ch(c[2]));
  return buf;
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

struct Shape2 {
  std::vector<Vec2> points;  // view plane, y up
  std::string fill, stroke;
  Real stroke_width = 1;
  Real fill_opacity = 1;
};

constexpr Real kStaticAlpha = 0.55;  // 3D static faces, as on the page: bodies show through

}  // namespace

std::array<int, 3> body_colour(const World& world, int i) {
  if (world.bodies[i].is_static) return {158, 158, 158};
  // HSL(h, 65 %, 50 %) with h stepping by the golden angle.
  const Real h = std::fmod(i * 137.508 + 200.0, 360.0) / 60.0;
  const Real s = 0.65, l = 0.5;
  const Real c = (1 - std::abs(2 * l - 1)) * s;
  const Real x = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  Real r = 0, g = 0, b = 0;
  if (h < 1)
    r = c, g = x;
  else if (h < 2)
    r = x, g = c;
  else if (h < 3)
    g = c, b = x;
  else if (h < 4)
    g = x, b = c;
  else if (h < 5)
    r = x, b = c;
  else
    r = c, b = x;
  const Real m = l - c / 2;
  auto to = [&](Real v) { return static_cast<int>(std::lround((v + m) * 255)); };
  return {to(r), to(g), to(b)};
}

void write_final_picture(const RunResults& results, const std::string& path) {
  if (results.frames.empty()) throw InputError(path + ": no frame to draw");
  const World& w = results.scene.world;
  const ReplayFrame& f = results.frames.back();
  const int n = w.body_count();
  const ViewCamera cam = default_camera(w);

  // Overlapping pairs above 0.1 % of the smaller body (the page's default threshold) in red.
  std::vector<std::uint8_t> red(n, 0);
  for (const PairOverlap& p : pair_overlaps(w, f))
    if (p.overlap > kOverlapHighlightFraction * std::min(body_size(w, p.a), body_size(w, p.b)))
      red[p.a] = red[p.b] = 1;

  std::vector<Shape2> shapes;
  std::vector<std::vector<Vec2>> dynamic_points, static_points;
  if (w.dimension == 2) {
    for (int i = 0; i < n; ++i) {
      if (!f.present[i]) continue;
      for (int k = 0; k < part_count(w, i); ++k) {
        WorldPolygon wp;
        place(w.polygons[part_shape(w, i, k)], frame_pose2(f, i), wp);
        (w.bodies[i].is_static ? static_points : dynamic_points).push_back(wp.vertices);
      }
    }
    // Static bodies first, then moving ones in body order (2D shapes of a valid run barely
    // overlap, so order matters only for the outline of red pairs).
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < n; ++i) {
        if (!f.present[i] || w.bodies[i].is_static != (pass == 0)) continue;
        for (int k = 0; k < part_count(w, i); ++k) {
          WorldPolygon wp;
          place(w.polygons[part_shape(w, i, k)], frame_pose2(f, i), wp);
          shapes.push_back({wp.vertices, rgb(body_colour(w, i)),
                            red[i] ? "#e00000" : rgb(body_colour(w, i), 0.6), red[i] ? 3.0 : 1.0});
        }
      }
  } else {
    struct Item {
      int body;
      bool is_static;
      Real depth;
    };
    std::vector<Item> order;
    for (int i = 0; i < n; ++i) {
      if (!f.present[i]) continue;
      const Pose3 pose = frame_pose3(f, i);
      order.push_back({i, w.bodies[i].is_static, cam.depth(pose.position)});
      std::vector<Vec2> pts;
      for (int k = 0; k < part_count(w, i); ++k)
        for (const Vec3& v : drawn_polyhedron(w, i, k).vertices)
          pts.push_back(cam.project(pose.apply(v)));
      (w.bodies[i].is_static ? static_points : dynamic_points).push_back(pts);
    }
    // Painter's order: static bodies first and translucent (floors and walls never hide a
    // body), then far to near.
    std::stable_sort(order.begin(), order.end(), [](const Item& a, const Item& b) {
      if (a.is_static != b.is_static) return a.is_static;
      return a.depth < b.depth;
    });
    for (const Item& it : order) {
      const Pose3 pose = frame_pose3(f, it.body);
      for (int k = 0; k < part_count(w, it.body); ++k) {
        const ConvexPolyhedron& s = drawn_polyhedron(w, it.body, k);
        for (const PolyhedronFace& face : s.faces) {
          const Vec3 nrm = pose.rotate(face.normal);
          if (nrm.dot(cam.toward_camera) <= 0) continue;  // back face of a convex body
          std::vector<Vec2> pts;
          for (int v : face.vertices) pts.push_back(cam.project(pose.apply(s.vertices[v])));
          const Real shade = cam.shade(nrm);
          shapes.push_back({pts, rgb(body_colour(w, it.body), shade),
                            red[it.body] ? "#e00000" : rgb(body_colour(w, it.body), 0.55 * shade),
                            red[it.body] ? 2.5 : 0.8, it.is_static ? kStaticAlpha : 1});
        }
      }
    }
  }
  // The moving bodies over the whole run frame the picture, as on the page: up to 200 frames.
  const long nf = static_cast<long>(results.frames.size());
  for (long s = 0, m = std::min(nf, 200L); s + 1 < m; ++s) {
    const ReplayFrame& g = results.frames[(s * (nf - 1)) / std::max(1L, m - 1)];
    for (int i = 0; i < n; ++i) {
      if (!g.present[i] || w.bodies[i].is_static) continue;
      std::vector<Vec2> pts;
      for (int k = 0; k < part_count(w, i); ++k)
        if (w.dimension == 2) {
          const Pose2 pose = frame_pose2(g, i);
          for (const Vec2& v : w.polygons[part_shape(w, i, k)].vertices)
            pts.push_back(pose.apply(v));
        } else {
          const Pose3 pose = frame_pose3(g, i);
          for (const Vec3& v : drawn_polyhedron(w, i, k).vertices)
            pts.push_back(cam.project(pose.apply(v)));
        }
      dynamic_points.push_back(std::move(pts));
    }
  }
  const ViewBox box = view_box(dynamic_points, static_points);
  const int width = 900;
  const int height = std::clamp(static_cast<int>(width * box.height() / box.width()), 300, 1200);
  const Real scale = std::min(width / box.width(), height / box.height());
  const Real ox = width / 2.0 - scale * box.centre().x();
  const Real oy = height / 2.0 + scale * box.centre().y();

  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write the picture");
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << "\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"" << rgb(kBackgroundColour) << "\"/>\n";
  char buf[64];
  for (const Shape2& s : shapes) {
    out << "<polygon points=\"";
    for (const Vec2& p : s.points) {
      std::snprintf(buf, sizeof buf, "%.2f,%.2f ", ox + scale * p.x(), oy - scale * p.y());
      out << buf;
    }
    out << "\" fill=\"" << s.fill << "\" stroke=\"" << s.stroke << "\" stroke-width=\""
        << s.stroke_width << "\" stroke-linejoin=\"round\"";
    if (s.fill_opacity < 1) out << " fill-opacity=\"" << s.fill_opacity << "\"";
    out << "/>\n";
  }
  std::string caption =
      results.scene.name + (f.step < 0 ? ", initial state" : ", step " + std::to_string(f.step));
  std::snprintf(buf, sizeof buf, ", t = %.4f s", f.time);
  caption += buf;
  if (f.report.is_object() && f.report.contains("overlap") && f.report["overlap"].is_number()) {
    std::snprintf(buf, sizeof buf, ", overlap %.3e %s", f.report["overlap"].get<double>(),
                  w.dimension == 2 ? "m²" : "m³");
    caption += buf;
  }
  out << "<text x=\"10\" y=\"22\" font-family=\"sans-serif\" font-size=\"15\" fill=\"#222\">"
      << xml_escape(caption) << "</text>\n</svg>\n";
  if (!out) throw InputError(path + ": cannot write the picture");
}

}  // namespace exactsim
