// 2D geometry kernels on the pouring scene's scale (docs/peg2d-experiment.md "Protocol"): the
// overlap metric's convex intersection, the hull behind random_convex_polygon, and world placement.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "exactsim/geometry/polygon.h"

namespace exactsim {
namespace {

std::vector<Vec2> octagon(const Pose2& pose) {
  WorldPolygon w;
  place(make_regular_polygon(8, 0.15, 0.1), pose, w);
  return w.vertices;
}

// Two 8-gons overlapping by about a third of their area.
void BM_PolygonIntersectionArea8gons(benchmark::State& state) {
  const std::vector<Vec2> a = octagon(Pose2{Vec2(0, 0), 0.0});
  const std::vector<Vec2> b = octagon(Pose2{Vec2(0.12, 0.05), 0.3});
  for (auto _ : state) benchmark::DoNotOptimize(polygon_intersection_area(a, b));
}
BENCHMARK(BM_PolygonIntersectionArea8gons);

// The same, also returning the intersection polygon (storage reused across calls).
void BM_PolygonIntersectionPolygon8gons(benchmark::State& state) {
  const std::vector<Vec2> a = octagon(Pose2{Vec2(0, 0), 0.0});
  const std::vector<Vec2> b = octagon(Pose2{Vec2(0.12, 0.05), 0.3});
  std::vector<Vec2> out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(polygon_intersection_area(a, b, &out));
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_PolygonIntersectionPolygon8gons);

// Resting contact: two 8-gons sharing an edge line (AABBs overlap; the exact separating-edge
// test returns 0 without clipping).
void BM_PolygonIntersectionTouching8gons(benchmark::State& state) {
  const std::vector<Vec2> a = octagon(Pose2{Vec2(0, 0), 0.0});
  std::vector<Vec2> b = a;
  for (Vec2& v : b)
    v = 2 * (0.5 * (a[0] + a[1])) - v;  // point reflection through edge 0's midpoint
  for (auto _ : state) benchmark::DoNotOptimize(polygon_intersection_area(a, b));
}
BENCHMARK(BM_PolygonIntersectionTouching8gons);

// Hull of 10 random points (the recipe's inner step), cycling through pre-drawn clouds.
void BM_PolygonHull10Points(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<Real> unit(0, 1);
  std::vector<std::vector<Vec2>> clouds(64, std::vector<Vec2>(10));
  for (auto& c : clouds) {
    for (Vec2& p : c) p = Vec2(unit(rng), unit(rng));
  }
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(polygon_from_points(clouds[k++ % clouds.size()]));
  }
}
BENCHMARK(BM_PolygonHull10Points);

void BM_PlaceOctagon(benchmark::State& state) {
  const ConvexPolygon p = make_regular_polygon(8, 0.15);
  WorldPolygon w;
  Pose2 pose{Vec2(0.3, 0.4), 0.0};
  for (auto _ : state) {
    pose.angle += 1e-3;
    place(p, pose, w);
    benchmark::DoNotOptimize(w.vertices.data());
  }
}
BENCHMARK(BM_PlaceOctagon);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
