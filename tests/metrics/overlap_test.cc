// The overlap metric with its sort-and-sweep broad phase (metrics/overlap.h): bitwise the
// all-pairs sum, and its cost grows with the overlapping boxes, not with n².
#include "exactsim/metrics/overlap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace exactsim {
namespace {

// The definition: every pair (i < j), in order.
Real all_pairs_area(std::span<const WorldPolygon> p, std::span<const std::uint8_t> is_static,
                    std::span<const std::uint8_t> present) {
  Real total = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      if (!present[i] || !present[j] || (is_static[i] && is_static[j])) continue;
      if (!p[i].aabb.overlaps(p[j].aabb)) continue;
      total += polygon_intersection_area(p[i].vertices, p[j].vertices);
    }
  return total;
}

Real all_pairs_volume(std::span<const ConvexPolyhedron* const> shapes, std::span<const Pose3> poses,
                      std::span<const Aabb3> boxes, std::span<const std::uint8_t> is_static,
                      std::span<const std::uint8_t> present) {
  Real total = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (std::size_t j = i + 1; j < shapes.size(); ++j) {
      if (!present[i] || !present[j] || (is_static[i] && is_static[j])) continue;
      if (!boxes[i].overlaps(boxes[j])) continue;
      total += polyhedron_intersection_volume(*shapes[i], poses[i], *shapes[j], poses[j]);
    }
  return total;
}

TEST(OverlapMetric, BroadPhaseSumIsBitwiseTheAllPairsSum2d) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 60;
    std::vector<WorldPolygon> polys(n);
    std::vector<std::uint8_t> is_static(n), present(n);
    for (int i = 0; i < n; ++i) {
      const ConvexPolygon shape = make_box(Vec2(0.1 + 0.3 * u(rng), 0.1 + 0.3 * u(rng)));
      // A tall column in some trials (all x equal): the sweep axis must follow the spread.
      const Vec2 at(trial % 3 == 0 ? 0.0 : 2 * u(rng), 2 * u(rng));
      place(shape, Pose2{at, 6 * u(rng)}, polys[i]);
      is_static[i] = u(rng) < 0.3;
      present[i] = u(rng) < 0.9;
    }
    const Real expected = all_pairs_area(polys, is_static, present);
    EXPECT_GT(expected, 0);
    EXPECT_EQ(total_overlap_area(polys, is_static, present), expected) << "trial " << trial;
  }
}

TEST(OverlapMetric, BroadPhaseSumIsBitwiseTheAllPairsSum3d) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  const int n = 40;
  std::vector<ConvexPolyhedron> shapes;
  for (int i = 0; i < n; ++i) shapes.push_back(make_box(Vec3(0.2 + 0.3 * u(rng), 0.3, 0.2)));
  std::vector<const ConvexPolyhedron*> ptrs;
  for (const auto& s : shapes) ptrs.push_back(&s);
  std::vector<Pose3> poses(n);
  std::vector<Aabb3> boxes(n);
  std::vector<std::uint8_t> is_static(n), present(n, 1);
  WorldPolyhedron placed;
  for (int i = 0; i < n; ++i) {
    poses[i].position = Vec3(u(rng), u(rng), u(rng));
    poses[i].orientation = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    place(shapes[i], poses[i], placed);
    boxes[i] = placed.aabb;
    is_static[i] = i % 5 == 0;
  }
  IntersectionScratch scratch;
  const Real expected = all_pairs_volume(ptrs, poses, boxes, is_static, present);
  EXPECT_GT(expected, 0);
  EXPECT_EQ(total_overlap_volume(ptrs, poses, boxes, is_static, present, &scratch), expected);
}

// NaN boxes overlap nothing (as Aabb::overlaps says), infinite ones everything.
TEST(OverlapMetric, NonFiniteBoxesBehaveAsTheOverlapTestSays) {
  std::vector<Aabb2> boxes(4);
  for (int i = 0; i < 4; ++i) boxes[i] = Aabb2{Vec2(i, 0), Vec2(i + 0.5, 1)};
  boxes[1].lo.x() = std::numeric_limits<double>::quiet_NaN();
  boxes[3].lo.x() = -std::numeric_limits<double>::infinity();
  boxes[3].hi.x() = std::numeric_limits<double>::infinity();
  BoxSweepScratch s;
  std::vector<std::pair<int, int>> pairs;
  for_each_overlapping_box_pair<Aabb2>(boxes, {}, {}, s, [&](int a, int b) {
    pairs.emplace_back(a, b);
    return true;
  });
  std::sort(pairs.begin(), pairs.end());
  const std::vector<std::pair<int, int>> expected = {{0, 3}, {2, 3}};
  EXPECT_EQ(pairs, expected);
}

// 100,000 static boxes in a grid with 100 dynamic boxes among them: the sweep touches the
// dynamic boxes' neighbourhoods, not 5e9 pairs (the all-pairs loop took 10 s per step).
// (Its cost is measured by bench_metrics, docs/input-validation.md "Overlap metric at scale".)
TEST(OverlapMetric, HundredThousandStaticBoxesGiveTheExactArea) {
  const int side = 316;
  std::vector<WorldPolygon> polys;
  std::vector<std::uint8_t> is_static, present;
  const ConvexPolygon box = make_box(Vec2(0.9, 0.9));
  WorldPolygon w;
  for (int i = 0; i < side * side; ++i) {
    place(box, Pose2{Vec2(i % side, i / side), 0}, w);
    polys.push_back(w);
    is_static.push_back(1);
    present.push_back(1);
  }
  for (int i = 0; i < 100; ++i) {  // each overlaps one static box by 0.5 x 0.9
    place(box, Pose2{Vec2(3 * i + 0.5, 7), 0}, w);
    polys.push_back(w);
    is_static.push_back(0);
    present.push_back(1);
  }
  const Real area = total_overlap_area(polys, is_static, present);
  EXPECT_NEAR(area, 100 * 2 * 0.4 * 0.9, 1e-9);
}

}  // namespace
}  // namespace exactsim
