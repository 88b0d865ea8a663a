#include "exactsim/viewer/pair_overlaps.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "exactsim/metrics/overlap.h"

namespace exactsim {

Real body_size(const World& world, int i) {
  const Body& b = world.bodies[i];
  if (world.dimension == 2) return std::abs(polygon_area(world.polygons[b.shape].vertices));
  return polyhedron_mass_properties(world.polyhedra[b.shape], 1.0).volume;
}

std::vector<PairOverlap> pair_overlaps(const World& world, const ReplayFrame& f) {
  std::vector<PairOverlap> out;
  const int n = world.body_count();
  // Candidate pairs (i < j, both present, not both static, boxes overlapping), sorted: the
  // metric's sort-and-sweep (metrics/overlap.h), not all n² pairs (a 100,000-body frame).
  std::vector<std::uint8_t> is_static(n);
  for (int i = 0; i < n; ++i) is_static[i] = world.bodies[i].is_static;
  const std::span<const std::uint8_t> present(f.present);
  BoxPairScratch sweep;
  std::vector<std::pair<int, int>> pairs;
  if (world.dimension == 2) {
    std::vector<WorldPolygon> placed(n);
    std::vector<Aabb2> boxes(n);
    for (int i = 0; i < n; ++i)
      if (f.present[i]) {
        place(world.polygons[world.bodies[i].shape], frame_pose2(f, i), placed[i]);
        boxes[i] = placed[i].aabb;
      }
    overlapping_box_pairs<Aabb2>(boxes, is_static, present, sweep, pairs);
    for (const auto& [i, j] : pairs) {
      const Real a = polygon_intersection_area(placed[i].vertices, placed[j].vertices);
      if (a > 0) out.push_back({i, j, a});
    }
    return out;
  }
  std::vector<Pose3> poses(n);
  std::vector<Aabb3> boxes(n);
  for (int i = 0; i < n; ++i) {
    if (!f.present[i]) continue;
    poses[i] = frame_pose3(f, i);
    const ConvexPolyhedron& s = world.polyhedra[world.bodies[i].shape];
    boxes[i] = {poses[i].apply(s.vertices[0]), poses[i].apply(s.vertices[0])};
    for (const Vec3& v : s.vertices) {
      const Vec3 p = poses[i].apply(v);
      boxes[i].lo = boxes[i].lo.cwiseMin(p);
      boxes[i].hi = boxes[i].hi.cwiseMax(p);
    }
  }
  IntersectionScratch scratch;
  overlapping_box_pairs<Aabb3>(boxes, is_static, present, sweep, pairs);
  for (const auto& [i, j] : pairs) {
    const Real v = polyhedron_intersection_volume(world.polyhedra[world.bodies[i].shape], poses[i],
                                                  world.polyhedra[world.bodies[j].shape], poses[j],
                                                  nullptr, &scratch);
    if (v > 0) out.push_back({i, j, v});
  }
  return out;
}

}  // namespace exactsim
