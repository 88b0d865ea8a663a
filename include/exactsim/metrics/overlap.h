// The papers' accuracy metric: total exact overlap area (2D) or volume (3D) between bodies
// (docs/peg2d-experiment.md "Metric", docs/peg3d-experiment.md "Metric and statistics"), with a
// sort-and-sweep broad phase so that its cost grows with the number of overlapping boxes, not with
// the square of the body count.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
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

// The same sums over pairs found by the caller (overlapping_box_pairs), summed in the order
// given: with those sorted pairs, bitwise the functions above. This is how the step shares one
// broad phase between the overlap metric and the penetration watchdog (docs/stepping.md).
Real total_overlap_area(std::span<const WorldPolygon> polygons,
                        std::span<const std::pair<int, int>> pairs);
// With `placed` given, a collider with shapes[i] null is a sphere of radius[i] placed in
// placed[i] (geometry/placed_collider.h, metrics/collider_pair.h).
Real total_overlap_volume(std::span<const ConvexPolyhedron* const> shapes,
                          std::span<const Pose3> poses, std::span<const std::pair<int, int>> pairs,
                          IntersectionScratch* scratch,
                          std::span<const WorldPolyhedron> placed = {},
                          std::span<const Real> radius = {});

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

// Working memory of overlapping_box_pairs (reused: no allocation once warmed up).
struct BoxPairScratch {
  BoxSweepScratch sweep;
  std::vector<int> escaped;              // bodies whose box is not inside their cover box
  std::vector<std::uint8_t> is_escaped;  // (n boxes) flag of `escaped`
};

// Every pair of for_each_overlapping_box_pair (i < j: boxes overlap as closed boxes, both
// present, not both static, no NaN bound), sorted, into `out` (cleared first).
template <class Box>
void overlapping_box_pairs(std::span<const Box> boxes, std::span<const std::uint8_t> is_static,
                           std::span<const std::uint8_t> present, BoxPairScratch& s,
                           std::vector<std::pair<int, int>>& out) {
  out.clear();
  for_each_overlapping_box_pair(boxes, is_static, present, s.sweep, [&](int i, int j) {
    out.emplace_back(i, j);
    return true;
  });
  std::sort(out.begin(), out.end());
}

// The same pairs, sorted, found from a coarser broad phase that has already run: cover[i] is a
// box of body i (e.g. the step's detection box: its start-of-step box grown by the contact
// distance and its motion), and cover_pairs lists, each at most once, every pair (i < j; members
// .a, .b) of present bodies, not both static, whose cover boxes overlap (e.g. sweep_and_prune's
// output on the same is_static and present flags); extra pairs are harmless. Exact whatever the
// covers are: a pair of bodies whose boxes both lie inside their cover boxes overlaps only if
// their covers do, so it is taken from cover_pairs after the box test; every pair with a body
// whose box escapes its cover box (or whose cover has a NaN bound) is found by a sweep of the
// escaped boxes against all boxes; when that would touch more than about 8 pairs per box, the
// full sweep (the function above) runs instead. Cost: O(n + |cover_pairs|) when nothing
// escapes, against the full sweep's sort and its O(n · boxes per sweep interval) pass.
// Returns false when it fell back to the full sweep. s.escaped: the escaped bodies.
template <class Box, class CoverPair>
bool overlapping_box_pairs(std::span<const Box> boxes, std::span<const std::uint8_t> is_static,
                           std::span<const std::uint8_t> present, std::span<const Box> cover,
                           std::span<const CoverPair> cover_pairs, BoxPairScratch& s,
                           std::vector<std::pair<int, int>>& out) {
  const int n = static_cast<int>(boxes.size());
  auto stat = [&](int i) { return !is_static.empty() && is_static[i] != 0; };
  auto eligible = [&](int i) {
    return (present.empty() || present[i]) && !boxes[i].lo.hasNaN() && !boxes[i].hi.hasNaN();
  };
  auto inside_cover = [&](int i) {
    return (cover[i].lo.array() <= boxes[i].lo.array()).all() &&
           (boxes[i].hi.array() <= cover[i].hi.array()).all();
  };
  s.escaped.clear();
  s.is_escaped.assign(n, 0);
  for (int i = 0; i < n; ++i)
    if (eligible(i) && !inside_cover(i)) {
      s.escaped.push_back(i);
      s.is_escaped[i] = 1;
    }
  out.clear();
  // Pairs of two covered bodies: the cover pairs whose boxes overlap.
  auto from_cover = [&] {
    for (const CoverPair& p : cover_pairs) {
      const int a = p.a, b = p.b;
      if (s.is_escaped[a] || s.is_escaped[b] || !eligible(a) || !eligible(b)) continue;
      if (stat(a) && stat(b)) continue;
      if (boxes[a].overlaps(boxes[b])) out.emplace_back(a, b);
    }
  };
  if (s.escaped.empty()) {
    from_cover();
    if (!std::is_sorted(out.begin(), out.end())) std::sort(out.begin(), out.end());
    return true;
  }
  // Pairs with an escaped body: the escaped boxes sorted by lo along the axis on which their
  // centres spread most; box j can only meet those whose lo lies in [j.lo − widest, j.hi].
  constexpr int dims = static_cast<int>(decltype(Box::lo)::RowsAtCompileTime);
  decltype(Box::lo) lo_c = 0.5 * (boxes[s.escaped[0]].lo + boxes[s.escaped[0]].hi), hi_c = lo_c;
  for (int e : s.escaped) {
    const auto c = (0.5 * boxes[e].lo + 0.5 * boxes[e].hi).eval();
    lo_c = lo_c.cwiseMin(c);
    hi_c = hi_c.cwiseMax(c);
  }
  int axis = 0;
  for (int d = 1; d < dims; ++d)
    if (hi_c[d] - lo_c[d] > hi_c[axis] - lo_c[axis]) axis = d;
  std::sort(s.escaped.begin(), s.escaped.end(), [&](int a, int b) {
    const double la = boxes[a].lo[axis], lb = boxes[b].lo[axis];
    return la < lb || (la == lb && a < b);
  });
  double widest = 0;
  for (int e : s.escaped) widest = std::max(widest, boxes[e].hi[axis] - boxes[e].lo[axis]);
  const auto range = [&](int j) {
    const auto first =
        std::lower_bound(s.escaped.begin(), s.escaped.end(), boxes[j].lo[axis] - widest,
                         [&](int e, double v) { return boxes[e].lo[axis] < v; });
    const auto last = std::upper_bound(first, s.escaped.end(), boxes[j].hi[axis],
                                       [&](double v, int e) { return v < boxes[e].lo[axis]; });
    return std::pair(first, last);
  };
  long work = 0;
  for (int j = 0; j < n; ++j) {
    if (!eligible(j)) continue;
    const auto [first, last] = range(j);
    work += last - first;
  }
  if (work > 8L * n + 4096) {  // the escaped boxes are many or large: sweep everything
    overlapping_box_pairs(boxes, is_static, present, s, out);
    return false;
  }
  from_cover();
  for (int j = 0; j < n; ++j) {
    if (!eligible(j)) continue;
    const auto [first, last] = range(j);
    for (auto it = first; it != last; ++it) {
      const int e = *it;
      // A pair of two escaped bodies is met twice (once from each): kept when e < j.
      if (e == j || (s.is_escaped[j] && e > j) || (stat(e) && stat(j))) continue;
      if (boxes[e].overlaps(boxes[j])) out.emplace_back(std::min(e, j), std::max(e, j));
    }
  }
  std::sort(out.begin(), out.end());
  return true;
}

}  // namespace exactsim
