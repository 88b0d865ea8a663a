// World placement of a body-frame polygon: v_w = x + R(θ) v (docs/geometry2d.md "Conventions"),
// rotated normals, and the AABB for the broad phase.
#include <cmath>
#include <limits>

#include "exactsim/geometry/polygon.h"

namespace exactsim {

void place(const ConvexPolygon& shape, const Pose2& pose, WorldPolygon& out) {
  const std::size_t n = shape.vertices.size();
  out.vertices.resize(n);  // keeps capacity: no allocation after the first placement
  out.edge_normals.resize(n);
  const Real c = std::cos(pose.angle), s = std::sin(pose.angle);
  auto rotate = [c, s](const Vec2& v) {
    return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
  };
  Aabb2 box{Vec2::Constant(INFINITY), Vec2::Constant(-INFINITY)};
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 w = pose.position + rotate(shape.vertices[i]);
    out.vertices[i] = w;
    out.edge_normals[i] = rotate(shape.edge_normals[i]);
    box.lo = box.lo.cwiseMin(w);
    box.hi = box.hi.cwiseMax(w);
  }
  out.aabb = box;
}

Real deepest_edge(const WorldPolygon& polygon, const Vec2& p, int& edge) {
  Real best = -std::numeric_limits<Real>::infinity();
  edge = -1;
  for (int j = 0; j < static_cast<int>(polygon.vertices.size()); ++j)
    if (const Real d = polygon.edge_normals[j].dot(p - polygon.vertices[j]); d > best)
      best = d, edge = j;
  return best;
}

}  // namespace exactsim
