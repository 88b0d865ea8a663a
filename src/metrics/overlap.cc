// Overlap metric (docs/peg2d-experiment.md "Metric", docs/peg3d-experiment.md): candidate pairs
// from a sort-and-sweep over the bodies' boxes, then summed in (i, j) order so that the total is
// bitwise the all-pairs loop's.
#include "exactsim/metrics/overlap.h"

#include <utility>

namespace exactsim {
namespace {

struct PairScratch {
  BoxSweepScratch sweep;
  std::vector<std::pair<int, int>> pairs;
};

// Thread-local: the metric's signature has no workspace, and sweeps run in parallel (sweep.h).
PairScratch& pair_scratch() {
  thread_local PairScratch s;
  return s;
}

template <class Box>
const std::vector<std::pair<int, int>>& overlapping_pairs(std::span<const Box> boxes,
                                                          std::span<const std::uint8_t> is_static,
                                                          std::span<const std::uint8_t> present) {
  PairScratch& s = pair_scratch();
  s.pairs.clear();
  for_each_overlapping_box_pair(boxes, is_static, present, s.sweep, [&](int i, int j) {
    s.pairs.emplace_back(i, j);
    return true;
  });
  std::sort(s.pairs.begin(), s.pairs.end());
  return s.pairs;
}

}  // namespace

Real total_overlap_area(std::span<const WorldPolygon> polygons,
                        std::span<const std::uint8_t> is_static,
                        std::span<const std::uint8_t> present) {
  // The boxes are copied out of the polygons into thread-local storage (no allocation once
  // warmed up).
  thread_local std::vector<Aabb2> boxes;
  boxes.resize(polygons.size());
  for (std::size_t i = 0; i < polygons.size(); ++i) boxes[i] = polygons[i].aabb;
  Real total = 0;
  for (const auto& [i, j] : overlapping_pairs<Aabb2>(boxes, is_static, present))
    total += polygon_intersection_area(polygons[i].vertices, polygons[j].vertices);
  return total;
}

Real total_overlap_volume(std::span<const ConvexPolyhedron* const> shapes,
                          std::span<const Pose3> poses, std::span<const Aabb3> boxes,
                          std::span<const std::uint8_t> is_static,
                          std::span<const std::uint8_t> present, IntersectionScratch* scratch) {
  Real total = 0;
  for (const auto& [i, j] :
       overlapping_pairs<Aabb3>(boxes.first(shapes.size()), is_static, present))
    total += polyhedron_intersection_volume(*shapes[i], poses[i], *shapes[j], poses[j], nullptr,
                                            scratch);
  return total;
}

}  // namespace exactsim
