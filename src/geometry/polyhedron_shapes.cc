// Convenience polyhedra: boxes, the regular icosahedron of the 3D pouring scene
// (docs/peg3d-experiment.md "Protocol") and the random convex hulls used there for varied initial
// conditions.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

// Uniform in [0, 1) from the top 53 bits: the same sequence on every standard library.
Real unit_uniform(std::mt19937_64& rng) { return static_cast<Real>(rng() >> 11) * 0x1.0p-53; }

ConvexPolyhedron scaled(const ConvexPolyhedron& p, Real k) {
  std::vector<Vec3> vertices = p.vertices;
  for (Vec3& v : vertices) v *= k;
  std::vector<std::vector<int>> loops;
  for (const PolyhedronFace& f : p.faces) loops.push_back(f.vertices);
  // Scaling keeps the hull's planarity; the validation margin matches polyhedron_from_points.
  return polyhedron_from_faces(std::move(vertices), loops, kFlatEdgeThreshold,
                               4 * kPolyhedronRelativeTolerance);
}

// Largest interior angle (degrees) over all face corners.
Real max_face_angle_deg(const ConvexPolyhedron& p) {
  Real worst = 0;
  for (const PolyhedronFace& f : p.faces) {
    const size_t n = f.vertices.size();
    for (size_t i = 0; i < n; ++i) {
      const Vec3& v = p.vertices[f.vertices[i]];
      const Vec3 a = p.vertices[f.vertices[(i + n - 1) % n]] - v;
      const Vec3 b = p.vertices[f.vertices[(i + 1) % n]] - v;
      worst = std::max(worst, std::atan2(a.cross(b).norm(), a.dot(b)) * 180 / std::numbers::pi);
    }
  }
  return worst;
}

}  // namespace

ConvexPolyhedron make_box(const Vec3& size) {
  if (!(size.allFinite() && (size.array() > 0).all()))
    throw InputError("make_box: every side length must be positive and finite");
  const Vec3 h = size / 2;
  std::vector<Vec3> corners;
  for (int k = 0; k < 8; ++k)
    corners.emplace_back(k & 1 ? h.x() : -h.x(), k & 2 ? h.y() : -h.y(), k & 4 ? h.z() : -h.z());
  return polyhedron_from_points(corners);
}

ConvexPolyhedron make_icosahedron(Real circumradius) {
  if (!(std::isfinite(circumradius) && circumradius > 0))
    throw InputError("make_icosahedron: circumradius must be positive and finite");
  const Real phi = std::numbers::phi;
  const Real k = circumradius / std::sqrt(1 + phi * phi);  // |(0, 1, φ)| = √(1 + φ²)
  std::vector<Vec3> points;
  for (Real s1 : {-1.0, 1.0})
    for (Real s2 : {-1.0, 1.0}) {
      points.emplace_back(0, s1 * k, s2 * phi * k);
      points.emplace_back(s1 * k, s2 * phi * k, 0);
      points.emplace_back(s2 * phi * k, 0, s1 * k);
    }
  return polyhedron_from_points(points);
}

ConvexPolyhedron random_convex_polyhedron(std::mt19937_64& rng,
                                          const RandomPolyhedronOptions& options) {
  const auto bad = [](const std::string& what) {
    throw InputError("random_convex_polyhedron: " + what);
  };
  if (options.points < 4) bad("points must be at least 4");
  if (!(std::isfinite(options.diameter) && options.diameter > 0))
    bad("diameter must be positive and finite");
  if (!(std::isfinite(options.min_edge_length) && options.min_edge_length >= 0))
    bad("min_edge_length must be non-negative and finite");
  if (!(options.max_face_angle_deg > 0 && options.max_face_angle_deg <= 180))
    bad("max_face_angle_deg must be in (0, 180]");
  if (options.max_attempts < 1) bad("max_attempts must be at least 1");

  std::vector<Vec3> points(options.points);
  for (int attempt = 0; attempt < options.max_attempts; ++attempt) {
    for (Vec3& p : points) {
      const Real x = unit_uniform(rng), y = unit_uniform(rng), z = unit_uniform(rng);
      p = Vec3(x, y, z);
    }
    ConvexPolyhedron hull;
    try {
      hull = recentred(polyhedron_from_points(points));
    } catch (const InputError&) {
      continue;  // a degenerate (e.g. coplanar) draw: redraw
    }
    Real diameter = 0;
    for (const Vec3& a : hull.vertices)
      for (const Vec3& b : hull.vertices) diameter = std::max(diameter, (a - b).norm());
    hull = scaled(hull, options.diameter / diameter);
    Real shortest = options.diameter;
    for (int e = 0; e < hull.num_edges(); ++e)
      shortest = std::min(shortest, hull.edge_vector(e).norm());
    if (shortest < options.min_edge_length) continue;
    if (max_face_angle_deg(hull) > options.max_face_angle_deg) continue;
    return hull;
  }
  bad("no draw out of " + std::to_string(options.max_attempts) +
      " met min_edge_length and max_face_angle_deg");
  return {};  // unreachable
}

}  // namespace exactsim
