// The papers' accuracy metric: total exact overlap area (2D) or volume (3D) between bodies
// (docs/peg2d-experiment.md "Metric", docs/peg3d-experiment.md "Metric and statistics"), with a
// sort-and-sweep broad phase so that its cost grows with the number of overlapping boxes, not with
// the square of the body count.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// Sum over pairs (i < j), both present, not both static, with overlapping AABBs, of the area
// of their convex intersection (includes body–wall overlap, as the paper's metric does). The
// pairs are summed in (i, j) order, so the result is bitwise the all-pairs sum. Scratch is
// thread-local and kept: no allocation once warmed up.
Real total_overlap_area(std::span<const WorldPolygon> polygons,
                        std::span<const std::uint8_t> is_static,
                        std::span<const std::uint8_t> present);

// The same for volumes; shapes in body frames with their poses.
Real total_overlap_volume(std::span<const ConvexPolyhedron* const> shapes,
                          std::span<const Pose3> poses, std::span<const Aabb3> boxes,
                          std::span<const std::uint8_t> is_static,
                          std::span<const std::uint8_t> present, IntersectionScratch* scratch);

// Working memory of for_each_overlapping_box_pair (reused: no allocation once warmed up).
struct BoxSweepScratch {
  std::vector<int> order;     // eligible boxes sorted by (lo[axis], index)
  std::vector<int> next_dyn;  // position in `order` of the next non-static box at or after k
};

// Sort-and-sweep: calls visit(i, j), i < j, for every pair of boxes that overlap as closed
// boxes (Aabb::overlaps), are both present and not both static, in no particular order; stops
// as soon as visit returns false (then returns false). is_static / present: one flag per box,
// or empty (none static / all present). A box with a NaN bound overlaps nothing (as
// Aabb::overlaps says) and is left out. The sweep runs along the axis on which the box centres
// spread most; a static box is swept against non-static boxes only.
template <class Box, class Visit>
bool for_each_overlapping_box_pair(std::span<const Box> boxes,
                                   std::span<const std::uint8_t> is_static,
                                   std::span<const std::uint8_t> present, BoxSweepScratch& s,
                                   Visit&& visit) {
  const int n = static_cast<int>(boxes.size());
  auto stat = [&](int i) { return !is_static.empty() && is_static[i] != 0; };
  auto eligible = [&](int i) {
    return (present.empty() || present[i]) && !boxes[i].lo.hasNaN() && !boxes[i].hi.hasNaN();
  };
  // The box around every non-static box: a static box outside it pairs with nothing, so a
  // scene of many static bodies costs one pass over them, not a sort.
  Box reach;
  bool any_dynamic = false;
  for (int i = 0; i < n; ++i) {
    if (stat(i) || !eligible(i)) continue;
    if (!any_dynamic) {
      reach = boxes[i];
      any_dynamic = true;
    } else {
      reach.lo = reach.lo.cwiseMin(boxes[i].lo);
      reach.hi = reach.hi.cwiseMax(boxes[i].hi);
    }
  }
  if (!any_dynamic) return true;
  s.order.clear();
  constexpr int dims = static_cast<int>(decltype(Box::lo)::RowsAtCompileTime);
  decltype(Box::lo) lo_c, hi_c;  // range of the centres (axis choice)
  for (int i = 0; i < n; ++i) {
    if (!eligible(i) || (stat(i) && !reach.overlaps(boxes[i]))) continue;
    s.order.push_back(i);
    const auto c = (0.5 * boxes[i].lo + 0.5 * boxes[i].hi).eval();
    if (s.order.size() == 1) {
      lo_c = c;
      hi_c = c;
    } else {
      lo_c = lo_c.cwiseMin(c);
      hi_c = hi_c.cwiseMax(c);
    }
  }
  if (s.order.size() < 2) return true;
  int axis = 0;
  for (int d = 1; d < dims; ++d) {
    const double spread = hi_c[d] - lo_c[d], best = hi_c[axis] - lo_c[axis];
    if (spread > best || (std::isnan(best) && !std::isnan(spread))) axis = d;
  }
  std::sort(s.order.begin(), s.order.end(), [&](int a, int b) {
    const double la = boxes[a].lo[axis], lb = boxes[b].lo[axis];
    return la < lb || (la == lb && a < b);
  });
  const int m = static_cast<int>(s.order.size());
  s.next_dyn.resize(m + 1);
  s.next_dyn[m] = m;
  for (int k = m - 1; k >= 0; --k) s.next_dyn[k] = stat(s.order[k]) ? s.next_dyn[k + 1] : k;
  for (int k = 0; k < m; ++k) {
    const int a = s.order[k];
    const Box& ba = boxes[a];
    const double end = ba.hi[axis];
    const bool a_static = stat(a);
    for (int t = a_static ? s.next_dyn[k + 1] : k + 1; t < m;
         t = a_static ? s.next_dyn[t + 1] : t + 1) {
      const int b = s.order[t];
      if (!(boxes[b].lo[axis] <= end)) break;
      if (a_static && stat(b)) continue;
      if (!ba.overlaps(boxes[b])) continue;
      if (!visit(std::min(a, b), std::max(a, b))) return false;
    }
  }
  return true;
}

}  // namespace exactsim
