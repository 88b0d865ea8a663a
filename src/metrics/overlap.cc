// Overlap metric (docs/peg2d-experiment.md "Metric", docs/peg3d-experiment.md): candidate pairs
// from a sort-and-sweep over the bodies' boxes, then summed in (i, j) order so that the total is
// bitwise the all-pairs loop's.
#include "exactsim/metrics/overlap.h"

#include <utility>

#include "exactsim/metrics/collider_pair.h"

namespace exactsim {
namespace {

struct PairScratch {
  BoxPairScratch sweep;
  std::vector<std::pair<int, int>> pairs;
  std::vector<Aabb2> boxes;
};

// Thread-local: the metric's signature has no workspace, and sweeps run in parallel (sweep.h).
PairScratch& pair_scratch() {
  thread_local PairScratch s;
  return s;
}

}  // namespace

Real total_overlap_area(std::span<const WorldPolygon> polygons,
                        std::span<const std::pair<int, int>> pairs) {
  Real total = 0;
  for (const auto& [i, j] : pairs)
    total += polygon_intersection_area(polygons[i].vertices, polygons[j].vertices);
  return total;
}

Real total_overlap_volume(std::span<const ConvexPolyhedron* const> shapes,
                          std::span<const Pose3> poses, std::span<const std::pair<int, int>> pairs,
                          IntersectionScratch* scratch, std::span<const WorldPolyhedron> placed,
                          std::span<const Real> radius) {
  Real total = 0;
  auto collider = [&](int i) {
    return placed.empty() ? PlacedCollider3{shapes[i]}
                          : placed_collider(shapes[i], placed[i], radius.empty() ? 0 : radius[i]);
  };
  for (const auto& [i, j] : pairs)
    total += intersection_volume(collider(i), poses[i], collider(j), poses[j], scratch);
  return total;
}

Real total_overlap_area(std::span<const WorldPolygon> polygons,
                        std::span<const std::uint8_t> is_static,
                        std::span<const std::uint8_t> present) {
  // The boxes are copied out of the polygons into thread-local storage (no allocation once
  // warmed up).
  PairScratch& s = pair_scratch();
  s.boxes.resize(polygons.size());
  for (std::size_t i = 0; i < polygons.size(); ++i) s.boxes[i] = polygons[i].aabb;
  overlapping_box_pairs<Aabb2>(s.boxes, is_static, present, s.sweep, s.pairs);
  return total_overlap_area(polygons, s.pairs);
}

Real total_overlap_volume(std::span<const ConvexPolyhedron* const> shapes,
                          std::span<const Pose3> poses, std::span<const Aabb3> boxes,
                          std::span<const std::uint8_t> is_static,
                          std::span<const std::uint8_t> present, IntersectionScratch* scratch) {
  PairScratch& s = pair_scratch();
  overlapping_box_pairs<Aabb3>(boxes.first(shapes.size()), is_static, present, s.sweep, s.pairs);
  return total_overlap_volume(shapes, poses, s.pairs, scratch);
}

}  // namespace exactsim
