// Convenience shapes: boxes, regular polygons and the paper's seeded random convex polygons
// (docs/geometry2d.md "Random convex polygons") with sliver rejection.
#include <array>
#include <cmath>
#include <numbers>
#include <sstream>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

ConvexPolygon from_ccw_vertices(std::vector<Vec2> vertices) {
  ConvexPolygon p;
  p.vertices = std::move(vertices);
  p.edge_normals.resize(p.vertices.size());
  for (int i = 0; i < p.size(); ++i) p.edge_normals[i] = outward_normal(p.edge(i));
  return p;
}

// U[0, 1) from the top 53 bits: identical on every standard library, unlike
// std::uniform_real_distribution.
Real uniform01(std::mt19937_64& rng) { return static_cast<Real>(rng() >> 11) * 0x1.0p-53; }

// Sliver test (docs/peg.md "Tricky cases" item 8): an edge shorter than min_edge, or an interior
// angle above max_angle (radians), i.e. a turning angle below π − max_angle.
bool is_sliver(const ConvexPolygon& p, Real min_edge, Real max_angle) {
  const Real min_turn = std::numbers::pi - max_angle;
  for (int i = 0; i < p.size(); ++i) {
    const Vec2 in = p.edge(p.prev(i)), out = p.edge(i);
    if (out.norm() < min_edge) return true;
    if (std::atan2(cross2(in, out), in.dot(out)) < min_turn) return true;
  }
  return false;
}

}  // namespace

ConvexPolygon make_box(const Vec2& size) {
  if (!size.allFinite() || !(size.x() > 0) || !(size.y() > 0)) {
    std::ostringstream s;
    s << "make_box: side lengths must be positive and finite, got (" << size.x() << ", " << size.y()
      << ")";
    throw InputError(s.str());
  }
  const Vec2 h = 0.5 * size;
  return from_ccw_vertices({{-h.x(), -h.y()}, {h.x(), -h.y()}, {h.x(), h.y()}, {-h.x(), h.y()}});
}

ConvexPolygon make_regular_polygon(int sides, Real circumradius, Real phase) {
  if (sides < 3) {
    throw InputError("make_regular_polygon: a polygon needs at least 3 sides, got " +
                     std::to_string(sides));
  }
  if (!(circumradius > 0) || !std::isfinite(circumradius) || !std::isfinite(phase)) {
    std::ostringstream s;
    s << "make_regular_polygon: circumradius must be positive and finite (got " << circumradius
      << ") and phase finite (got " << phase << ")";
    throw InputError(s.str());
  }
  std::vector<Vec2> v(sides);
  for (int k = 0; k < sides; ++k) {
    const Real a = phase + 2 * std::numbers::pi * k / sides;
    v[k] = circumradius * Vec2(std::cos(a), std::sin(a));
  }
  return from_ccw_vertices(std::move(v));
}

ConvexPolygon random_convex_polygon(std::mt19937_64& rng, const RandomPolygonOptions& options) {
  const RandomPolygonOptions& o = options;
  if (o.points < 3 || !(o.scale > 0) || !std::isfinite(o.scale) || !(o.min_edge_length >= 0) ||
      !std::isfinite(o.min_edge_length) || !(o.max_interior_angle_deg > 0) ||
      !(o.max_interior_angle_deg <= 180) || o.max_attempts < 1) {
    std::ostringstream s;
    s << "random_convex_polygon: invalid options (need points >= 3, scale > 0, "
         "min_edge_length >= 0, 0 < max_interior_angle_deg <= 180, max_attempts >= 1; got points="
      << o.points << ", scale=" << o.scale << ", min_edge_length=" << o.min_edge_length
      << ", max_interior_angle_deg=" << o.max_interior_angle_deg
      << ", max_attempts=" << o.max_attempts << ")";
    throw InputError(s.str());
  }
  const Real max_angle = o.max_interior_angle_deg * std::numbers::pi / 180;
  std::vector<Vec2> cloud(o.points);
  for (int attempt = 0; attempt < o.max_attempts; ++attempt) {
    Vec2 mean = Vec2::Zero();
    for (Vec2& p : cloud) {
      p.x() = uniform01(rng);
      p.y() = uniform01(rng);
      mean += p;
    }
    mean /= o.points;
    for (Vec2& p : cloud) p -= mean;
    ConvexPolygon polygon;
    try {
      polygon = polygon_from_points(cloud);
    } catch (const InputError&) {
      continue;  // a degenerate (collinear) draw: redraw like any other reject
    }
    for (Vec2& v : polygon.vertices) v *= o.scale;  // normals are scale-invariant
    if (!is_sliver(polygon, o.min_edge_length, max_angle)) return polygon;
  }
  std::ostringstream s;
  s << "random_convex_polygon: no polygon met the sliver limits (min_edge_length "
    << o.min_edge_length << ", max_interior_angle_deg " << o.max_interior_angle_deg << ") in "
    << o.max_attempts << " attempts";
  throw InputError(s.str());
}

}  // namespace exactsim
