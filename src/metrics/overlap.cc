#include "exactsim/metrics/overlap.h"

namespace exactsim {
namespace {

bool skip(std::span<const std::uint8_t> is_static, std::span<const std::uint8_t> present, int i,
          int j) {
  return !present[i] || !present[j] || (is_static[i] && is_static[j]);
}

}  // namespace

Real total_overlap_area(std::span<const WorldPolygon> polygons,
                        std::span<const std::uint8_t> is_static,
                        std::span<const std::uint8_t> present) {
  Real total = 0;
  const int n = static_cast<int>(polygons.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (skip(is_static, present, i, j) || !polygons[i].aabb.overlaps(polygons[j].aabb)) continue;
      total += polygon_intersection_area(polygons[i].vertices, polygons[j].vertices);
    }
  return total;
}

Real total_overlap_volume(std::span<const ConvexPolyhedron* const> shapes,
                          std::span<const Pose3> poses, std::span<const Aabb3> boxes,
                          std::span<const std::uint8_t> is_static,
                          std::span<const std::uint8_t> present, IntersectionScratch* scratch) {
  Real total = 0;
  const int n = static_cast<int>(shapes.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (skip(is_static, present, i, j) || !boxes[i].overlaps(boxes[j])) continue;
      total += polyhedron_intersection_volume(*shapes[i], poses[i], *shapes[j], poses[j], nullptr,
                                              scratch);
    }
  return total;
}

}  // namespace exactsim
