// Convex hull of a planar point set: Andrew's monotone chain with a size-relative collinearity
// tolerance, so hull vertices are strictly convex (docs/geometry2d.md "Convex hull and its
// tolerance"; docs/peg.md "Tricky cases" item 8).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

std::string describe(int index, const Vec2& p) {
  std::ostringstream s;
  s.precision(17);
  s << "point " << index << " (" << p.x() << ", " << p.y() << ")";
  return s.str();
}

// True when `mid` is not a strictly convex (left-turn) vertex between `from` and `to`: its
// distance from the chord from → to, on the outer side, is at most tol. Coincident points count
// as collinear. The cross product of differences keeps the round-off at O(ε·|chord|).
bool not_strictly_convex(const Vec2& from, const Vec2& mid, const Vec2& to, Real tol) {
  const Vec2 chord = to - from;
  return cross2(mid - from, chord) <= tol * chord.norm();
}

}  // namespace

ConvexPolygon polygon_from_points(std::span<const Vec2> points, HullInput mode) {
  const int n = static_cast<int>(points.size());
  if (n < 3) {
    throw InputError("polygon_from_points: a polygon needs at least 3 points, got " +
                     std::to_string(n));
  }
  for (int i = 0; i < n; ++i) {
    if (!points[i].allFinite()) {
      throw InputError("polygon_from_points: " + describe(i, points[i]) +
                       " has a non-finite coordinate");
    }
  }
  const Aabb2 box = bounding_box(points);
  const Real diagonal = (box.hi - box.lo).norm();
  if (diagonal == 0) {
    throw InputError("polygon_from_points: all " + std::to_string(n) +
                     " points coincide: a polygon needs 3 affinely independent points");
  }
  const Real scale =
      std::max({diagonal, box.lo.cwiseAbs().maxCoeff(), box.hi.cwiseAbs().maxCoeff()});
  const Real tol = kHullRelativeTolerance * scale;

  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    return points[i].x() < points[j].x() ||
           (points[i].x() == points[j].x() && points[i].y() < points[j].y());
  });

  // Monotone chain: lower hull left to right, then upper hull right to left, both CCW.
  std::vector<int> hull;
  hull.reserve(2 * n);
  auto add = [&](int idx, std::size_t floor) {
    while (hull.size() >= floor + 2 && not_strictly_convex(points[hull[hull.size() - 2]],
                                                           points[hull.back()], points[idx], tol)) {
      hull.pop_back();
    }
    hull.push_back(idx);
  };
  for (int k = 0; k < n; ++k) add(order[k], 0);
  const std::size_t lower_size = hull.size();
  for (int k = n - 2; k >= 0; --k) add(order[k], lower_size - 1);
  hull.pop_back();  // the first point closes the loop

  // The chain tests each vertex against its neighbours in the chain; the two ends (leftmost
  // and rightmost points) and near-duplicates are only checked against their cyclic
  // neighbours here.
  for (bool changed = true; changed && hull.size() >= 3;) {
    changed = false;
    for (std::size_t i = 0; i < hull.size() && hull.size() >= 3; ++i) {
      const std::size_t m = hull.size();
      const Vec2& prev = points[hull[(i + m - 1) % m]];
      const Vec2& next = points[hull[(i + 1) % m]];
      if (not_strictly_convex(prev, points[hull[i]], next, tol)) {
        hull.erase(hull.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
        --i;
      }
    }
  }
  if (hull.size() < 3) {
    throw InputError("polygon_from_points: all " + std::to_string(n) +
                     " points lie on one line (within the hull tolerance): a polygon needs 3 "
                     "affinely independent points");
  }

  ConvexPolygon polygon;
  polygon.vertices.reserve(hull.size());
  for (int idx : hull) polygon.vertices.push_back(points[idx]);
  polygon.edge_normals.resize(hull.size());
  for (int i = 0; i < polygon.size(); ++i)
    polygon.edge_normals[i] = outward_normal(polygon.edge(i));

  if (mode == HullInput::kRequireConvex) {
    std::vector<char> on_hull(n, 0);
    for (int idx : hull) on_hull[idx] = 1;
    for (int i = 0; i < n; ++i) {
      if (on_hull[i]) continue;
      // Depth below the boundary: the smallest distance to an edge line (≥ −tol: inside).
      Real depth = INFINITY;
      for (int e = 0; e < polygon.size(); ++e) {
        depth = std::min(depth, polygon.edge_normals[e].dot(polygon.vertices[e] - points[i]));
      }
      if (depth > tol) {
        throw InputError("polygon_from_points: " + describe(i, points[i]) +
                         " lies inside the hull: the polygon is not convex");
      }
    }
  }
  return polygon;
}

}  // namespace exactsim
