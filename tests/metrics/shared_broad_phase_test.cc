// The end-of-step metrics share one broad phase (overlapping_box_pairs, metrics/overlap.h): the
// overlap metric and the penetration watchdog evaluated over its pairs equal the brute-force
// all-pairs definitions bitwise, on random 2D and 3D scenes with static and absent bodies,
// overlapping pairs and exactly touching boxes; also when the pairs come from a coarser "cover"
// broad phase (the step's detection boxes), whether every body stays inside its cover box, some
// leave it, or all do (the full-sweep fallback), and with extra cover pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/metrics/overlap.h"
#include "exactsim/metrics/penetration_depth.h"

namespace exactsim {
namespace {

using Pairs = std::vector<std::pair<int, int>>;

struct CoverPair {  // the shape of the collision layer's BodyPair
  int a = 0, b = 0;
};

// What the scene functions must reproduce, computed pair by pair over all pairs in (i, j) order.
struct Expected {
  Pairs pairs;  // present, not both static, closed boxes overlap
  Real overlap = 0;
  ScenePenetration pen;
};

template <class Box>
Pairs all_overlapping_pairs(std::span<const Box> boxes, std::span<const std::uint8_t> is_static,
                            std::span<const std::uint8_t> present) {
  Pairs out;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j)
      if (present[i] && present[j] && !(is_static[i] && is_static[j]) &&
          boxes[i].overlaps(boxes[j]))
        out.emplace_back(i, j);
  return out;
}

// The watchdog's result by its definition (docs/penetration.md "Scene watchdog").
template <class Depth, class Inside>
ScenePenetration brute_penetration(const Pairs& pairs, std::span<const std::uint8_t> is_static,
                                   Real threshold, Depth&& depth, Inside&& inside) {
  ScenePenetration p;
  for (const auto& [i, j] : pairs) {
    const PenetrationResult r = depth(i, j);
    ++p.pairs_checked;
    if (r.depth > p.max_depth) {  // first pair in (i, j) order attaining the maximum
      p.max_depth = r.depth;
      p.max_a = i;
      p.max_b = j;
      p.max_result = r;
    }
    if (r.depth > threshold) p.deep_pairs.push_back({i, j, r});
    if (is_static[i] != is_static[j]) {
      const int body = is_static[i] ? j : i, wall = is_static[i] ? i : j;
      const Real d = inside(wall, body);
      if (d > 0) p.centres_inside.push_back({body, wall, d});
    }
  }
  std::sort(p.centres_inside.begin(), p.centres_inside.end(), [](const auto& x, const auto& y) {
    return std::pair(x.body, x.static_body) < std::pair(y.body, y.static_body);
  });
  return p;
}

void expect_same(const ScenePenetration& got, const ScenePenetration& want, const char* what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(got.pairs_checked, want.pairs_checked);
  EXPECT_EQ(got.max_depth, want.max_depth);
  EXPECT_EQ(got.max_a, want.max_a);
  EXPECT_EQ(got.max_b, want.max_b);
  EXPECT_EQ(got.max_result.direction, want.max_result.direction);
  ASSERT_EQ(got.deep_pairs.size(), want.deep_pairs.size());
  for (std::size_t k = 0; k < want.deep_pairs.size(); ++k) {
    EXPECT_EQ(got.deep_pairs[k].body_a, want.deep_pairs[k].body_a);
    EXPECT_EQ(got.deep_pairs[k].body_b, want.deep_pairs[k].body_b);
    EXPECT_EQ(got.deep_pairs[k].result.depth, want.deep_pairs[k].result.depth);
  }
  ASSERT_EQ(got.centres_inside.size(), want.centres_inside.size());
  for (std::size_t k = 0; k < want.centres_inside.size(); ++k) {
    EXPECT_EQ(got.centres_inside[k].body, want.centres_inside[k].body);
    EXPECT_EQ(got.centres_inside[k].static_body, want.centres_inside[k].static_body);
    EXPECT_EQ(got.centres_inside[k].depth, want.centres_inside[k].depth);
  }
}

// The cover variants every test runs: boxes grown (nothing escapes), some covers moved away
// (those bodies escape), every cover moved away (the full-sweep fallback), and every pair listed.
enum class Cover { kGrown, kSomeEscape, kAllEscape, kEveryPair };

// Returns how many calls fell back to the full sweep.
template <class Box>
int check_covers(std::span<const Box> boxes, std::span<const std::uint8_t> is_static,
                 std::span<const std::uint8_t> present, const Pairs& expected,
                 std::mt19937_64& rng) {
  int fallbacks = 0;
  std::uniform_real_distribution<Real> u(0, 1);
  const int n = static_cast<int>(boxes.size());
  BoxPairScratch scratch;
  Pairs got;
  for (Cover kind : {Cover::kGrown, Cover::kSomeEscape, Cover::kAllEscape, Cover::kEveryPair}) {
    SCOPED_TRACE(static_cast<int>(kind));
    std::vector<Box> cover(boxes.begin(), boxes.end());
    int moved = 0;
    for (int i = 0; i < n; ++i) {
      const bool move = kind == Cover::kAllEscape || (kind == Cover::kSomeEscape && u(rng) < 0.15);
      if (move && present[i]) {  // the box shifted: the body is not inside it
        const Real shift = 0.05 + 0.5 * u(rng);
        cover[i].lo.array() += shift;
        cover[i].hi.array() += shift;
        ++moved;
      } else {
        cover[i] = cover[i].inflated(0.3 * u(rng));
      }
    }
    std::vector<CoverPair> cover_pairs;
    if (kind == Cover::kEveryPair) {
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) cover_pairs.push_back({i, j});
    } else {
      for (const auto& [i, j] : all_overlapping_pairs<Box>(cover, is_static, present))
        cover_pairs.push_back({i, j});
    }
    const bool cover_served = overlapping_box_pairs<Box, CoverPair>(
        boxes, is_static, present, cover, cover_pairs, scratch, got);
    fallbacks += !cover_served;
    EXPECT_EQ(got, expected);
    EXPECT_EQ(static_cast<int>(scratch.escaped.size()), moved);
    if (kind == Cover::kGrown || kind == Cover::kEveryPair) {
      EXPECT_TRUE(cover_served);
    }
    if (kind == Cover::kSomeEscape) {
      EXPECT_GT(moved, 0);
    }
  }
  return fallbacks;
}

// Random convex polygons around a small area (many overlaps) and unit squares on integer
// positions (touching edges and corners exactly: their boxes overlap, their area and depth are 0).
TEST(SharedBroadPhase, PairsOverlapAndWatchdogEqualAllPairs2d) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<Real> u(0, 1);
  RandomPolygonOptions opt;
  opt.scale = 0.6;
  const ConvexPolygon square = make_box(Vec2(1, 1));
  int fallbacks = 0;
  for (int scene = 0; scene < 25; ++scene) {
    const int n = 20 + 10 * (scene % 5) + (scene == 24 ? 200 : 0);
    std::vector<WorldPolygon> polys(n);
    std::vector<Vec2> centres(n);
    std::vector<Aabb2> boxes(n);
    std::vector<std::uint8_t> is_static(n), present(n);
    for (int i = 0; i < n; ++i) {
      if (i % 3 == 0) {
        centres[i] = Vec2(std::floor(6 * u(rng)), std::floor(3 * u(rng)));
        place(square, Pose2{centres[i], 0}, polys[i]);
      } else {
        centres[i] = Vec2(6 * u(rng), 3 * u(rng));
        place(random_convex_polygon(rng, opt), Pose2{centres[i], 6 * u(rng)}, polys[i]);
      }
      boxes[i] = polys[i].aabb;
      is_static[i] = u(rng) < 0.25;
      present[i] = u(rng) < 0.9;
    }
    const Real threshold = 0.05;
    Expected want;
    want.pairs = all_overlapping_pairs<Aabb2>(boxes, is_static, present);
    for (const auto& [i, j] : want.pairs)
      want.overlap += polygon_intersection_area(polys[i].vertices, polys[j].vertices);
    want.pen = brute_penetration(
        want.pairs, is_static, threshold,
        [&](int i, int j) { return penetration_depth(polys[i], polys[j]); },
        [&](int wall, int body) { return interior_depth(polys[wall], centres[body]); });
    ASSERT_GT(want.overlap, 0);

    BoxPairScratch scratch;
    Pairs pairs;
    overlapping_box_pairs<Aabb2>(boxes, is_static, present, scratch, pairs);
    EXPECT_EQ(pairs, want.pairs) << "scene " << scene;
    EXPECT_EQ(total_overlap_area(polys, pairs), want.overlap);
    EXPECT_EQ(total_overlap_area(polys, is_static, present), want.overlap);
    ScenePenetration pen;
    scene_penetration(polys, centres, is_static, pairs, threshold, pen);
    expect_same(pen, want.pen, "over the shared pairs");
    PenetrationScratch ps;
    scene_penetration(polys, centres, is_static, present, threshold, ps, pen);
    expect_same(pen, want.pen, "over present flags");
    fallbacks += check_covers<Aabb2>(boxes, is_static, present, want.pairs, rng);
  }
  EXPECT_GT(fallbacks, 0);  // the last, crowded scene: every body escaping costs a full sweep
}

TEST(SharedBroadPhase, PairsOverlapAndWatchdogEqualAllPairs3d) {
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<Real> u(0, 1);
  RandomPolyhedronOptions opt;
  opt.points = 12;
  opt.diameter = 0.9;
  std::vector<ConvexPolyhedron> shapes;
  for (int k = 0; k < 8; ++k) shapes.push_back(random_convex_polyhedron(rng, opt));
  shapes.push_back(make_box(Vec3(1, 1, 1)));  // unit cubes on integer positions: touching faces
  for (int scene = 0; scene < 8; ++scene) {
    const int n = 16 + 4 * scene;
    std::vector<const ConvexPolyhedron*> ptrs(n);
    std::vector<Pose3> poses(n);
    std::vector<WorldPolyhedron> placed(n);
    std::vector<Aabb3> boxes(n);
    std::vector<std::uint8_t> is_static(n), present(n);
    for (int i = 0; i < n; ++i) {
      if (i % 3 == 0) {
        ptrs[i] = &shapes.back();
        poses[i] = Pose3{Vec3(std::floor(3 * u(rng)), std::floor(2 * u(rng)), 0), Quat::Identity()};
      } else {
        ptrs[i] = &shapes[i % 8];
        poses[i] = Pose3{Vec3(3 * u(rng), 2 * u(rng), u(rng)),
                         Quat(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5).normalized()};
      }
      place(*ptrs[i], poses[i], placed[i]);
      boxes[i] = placed[i].aabb;
      is_static[i] = u(rng) < 0.25;
      present[i] = u(rng) < 0.9;
    }
    const Real threshold = 0.05;
    IntersectionScratch is;
    PenetrationScratch ps;
    Expected want;
    want.pairs = all_overlapping_pairs<Aabb3>(boxes, is_static, present);
    for (const auto& [i, j] : want.pairs)
      want.overlap +=
          polyhedron_intersection_volume(*ptrs[i], poses[i], *ptrs[j], poses[j], nullptr, &is);
    want.pen = brute_penetration(
        want.pairs, is_static, threshold,
        [&](int i, int j) {
          return penetration_depth(*ptrs[i], placed[i], *ptrs[j], placed[j], ps);
        },
        [&](int wall, int body) { return interior_depth(placed[wall], poses[body].position); });
    ASSERT_GT(want.overlap, 0);

    BoxPairScratch scratch;
    Pairs pairs;
    overlapping_box_pairs<Aabb3>(boxes, is_static, present, scratch, pairs);
    EXPECT_EQ(pairs, want.pairs) << "scene " << scene;
    EXPECT_EQ(total_overlap_volume(ptrs, poses, pairs, &is), want.overlap);
    EXPECT_EQ(total_overlap_volume(ptrs, poses, boxes, is_static, present, &is), want.overlap);
    ScenePenetration pen;
    scene_penetration(ptrs, placed, poses, is_static, pairs, threshold, ps, pen);
    expect_same(pen, want.pen, "over the shared pairs");
    scene_penetration(ptrs, placed, poses, is_static, present, threshold, ps, pen);
    expect_same(pen, want.pen, "over present flags");
    check_covers<Aabb3>(boxes, is_static, present, want.pairs, rng);
  }
}

// A box equal to its cover is inside it (closed boxes); a box outside its cover, or with a NaN
// cover, is swept on its own and its pairs are found although no cover pair lists them.
TEST(SharedBroadPhase, EscapedBoxesAreSweptOnTheirOwn) {
  std::vector<Aabb2> boxes = {
      {Vec2(0, 0), Vec2(1, 1)}, {Vec2(1, 0), Vec2(2, 1)}, {Vec2(3, 0), Vec2(4, 1)}};
  std::vector<std::uint8_t> is_static = {1, 0, 0}, present = {1, 1, 1};
  std::vector<CoverPair> cover_pairs = {{0, 1}};
  BoxPairScratch s;
  Pairs got;
  overlapping_box_pairs<Aabb2, CoverPair>(boxes, is_static, present, boxes, cover_pairs, s, got);
  EXPECT_TRUE(s.escaped.empty());
  EXPECT_EQ(got, (Pairs{{0, 1}}));
  // Body 2 moves onto body 1's box, outside its cover.
  boxes[2] = {Vec2(1.5, 0.5), Vec2(2.5, 1.5)};
  const std::vector<Aabb2> cover = {
      {Vec2(0, 0), Vec2(1, 1)}, {Vec2(1, 0), Vec2(2, 1)}, {Vec2(3, 0), Vec2(4, 1)}};
  overlapping_box_pairs<Aabb2, CoverPair>(boxes, is_static, present, cover, cover_pairs, s, got);
  EXPECT_EQ(s.escaped, std::vector<int>{2});
  EXPECT_EQ(got, (Pairs{{0, 1}, {1, 2}}));
  // Body 2's cover has a NaN bound: the body is swept on its own.
  boxes[2] = {Vec2(3, 0), Vec2(4, 1)};
  std::vector<Aabb2> nan_cover = cover;
  nan_cover[2].lo.x() = std::numeric_limits<Real>::quiet_NaN();
  overlapping_box_pairs<Aabb2, CoverPair>(boxes, is_static, present, nan_cover, cover_pairs, s,
                                          got);
  EXPECT_EQ(s.escaped, std::vector<int>{2});
  EXPECT_EQ(got, (Pairs{{0, 1}}));
  boxes[2] = {Vec2(1.5, 0.5), Vec2(2.5, 1.5)};
  overlapping_box_pairs<Aabb2, CoverPair>(boxes, is_static, present, nan_cover, cover_pairs, s,
                                          got);
  EXPECT_EQ(got, (Pairs{{0, 1}, {1, 2}}));
}

}  // namespace
}  // namespace exactsim
