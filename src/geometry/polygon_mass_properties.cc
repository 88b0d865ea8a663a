// Exact area, centroid and polar moment of a uniform convex polygon (triangle fan about a
// vertex; the classic closed forms, see docs/geometry2d.md) and re-centring on the centroid.
#include <cmath>
#include <sstream>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {

Real polygon_area(std::span<const Vec2> vertices) {
  const std::size_t n = vertices.size();
  if (n < 3) return 0;
  // Fan about the first vertex: the terms are products of differences, so the round-off
  // scales with the polygon's size, not with its distance from the origin.
  const Vec2 o = vertices[0];
  Real twice = 0;
  for (std::size_t i = 1; i + 1 < n; ++i) twice += cross2(vertices[i] - o, vertices[i + 1] - o);
  return 0.5 * twice;
}

PolygonMassProperties polygon_mass_properties(const ConvexPolygon& polygon, Real density) {
  if (!(density > 0) || !std::isfinite(density)) {
    std::ostringstream s;
    s << "polygon_mass_properties: density must be positive and finite, got " << density;
    throw InputError(s.str());
  }
  // Triangles (o, v_i, v_{i+1}) with d_i = v_i − o: area a_i = cross(d_i, d_{i+1})/2, first
  // moment a_i (d_i + d_{i+1})/3, polar second moment about o
  // a_i (|d_i|² + d_i·d_{i+1} + |d_{i+1}|²)/6.
  const std::vector<Vec2>& v = polygon.vertices;
  const int n = polygon.size();
  const Vec2 o = v[0];
  Real area = 0, polar_o = 0;
  Vec2 first = Vec2::Zero();
  for (int i = 1; i + 1 < n; ++i) {
    const Vec2 p = v[i] - o, q = v[i + 1] - o;
    const Real a = 0.5 * cross2(p, q);
    area += a;
    first += a * (p + q) / 3;
    polar_o += a * (p.squaredNorm() + p.dot(q) + q.squaredNorm()) / 6;
  }
  const Vec2 c = first / area;  // centroid relative to o
  // Parallel-axis theorem moves the polar moment from o to the centroid.
  const Real polar_c = polar_o - area * c.squaredNorm();
  return {area, density * area, o + c, density * polar_c};
}

ConvexPolygon translated(const ConvexPolygon& polygon, const Vec2& offset) {
  std::vector<Vec2> moved = polygon.vertices;
  for (Vec2& v : moved) v += offset;
  return polygon_from_points(moved);
}

ConvexPolygon recentred(const ConvexPolygon& polygon) {
  return translated(polygon, -polygon_mass_properties(polygon, 1.0).centroid);
}

}  // namespace exactsim
