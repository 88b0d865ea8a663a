// Exact penetration depth (metrics/penetration_depth.h, docs/penetration.md): cost per pair for
// two 14-vertex hulls (overlapping, and separated for the early out), the exhaustive edge-pair
// variant for comparison, 14-vertex polygons in 2D, the exact overlap volume of the same pairs
// for scale, and the scene watchdog on 40 overlapping-prone hulls. Counters: allocations per
// call after warm-up, and the fraction of pairs whose minimum is an edge × edge direction.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/metrics/penetration_depth.h"
#include "malloc_counter.h"

namespace exactsim {
namespace {

Quat random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<Real> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

// Hull of 14 points on a sphere of diameter 1: all 14 are vertices (24 faces, 36 edges).
ConvexPolyhedron fourteen_vertex_hull(std::mt19937_64& rng) {
  std::normal_distribution<Real> g;
  for (;;) {
    std::vector<Vec3> p;
    for (int i = 0; i < 14; ++i) p.push_back(0.5 * Vec3(g(rng), g(rng), g(rng)).normalized());
    ConvexPolyhedron h = polyhedron_from_points(p);
    if (h.num_vertices() == 14) return h;
  }
}

struct Pair3 {
  ConvexPolyhedron sa, sb;
  Pose3 pa, pb;
  WorldPolyhedron a, b;
};

// Centres `distance` apart in random directions (0.25: overlapping; 1.2: separated, AABBs may
// still overlap).
std::vector<Pair3> pairs3(int count, Real distance, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Pair3> pairs(count);
  for (Pair3& p : pairs) {
    p.sa = fourteen_vertex_hull(rng);
    p.sb = fourteen_vertex_hull(rng);
    p.pa = Pose3{Vec3::Zero(), random_rotation(rng)};
    p.pb = Pose3{random_rotation(rng) * Vec3(distance, 0, 0), random_rotation(rng)};
    place(p.sa, p.pa, p.a);
    place(p.sb, p.pb, p.b);
  }
  return pairs;
}

void run3(benchmark::State& state, Real distance, bool all_edge_pairs) {
  const std::vector<Pair3> pairs = pairs3(64, distance, 3);
  PenetrationScratch scratch;
  PenetrationOptions options;
  options.all_edge_pairs = all_edge_pairs;
  for (const Pair3& p : pairs) penetration_depth(p.sa, p.a, p.sb, p.b, scratch, options);  // warm
  std::size_t i = 0;
  long edge_edge = 0, calls = 0;
  const long before = malloc_calls;
  for (auto _ : state) {
    const Pair3& p = pairs[i++ % pairs.size()];
    const PenetrationResult r = penetration_depth(p.sa, p.a, p.sb, p.b, scratch, options);
    edge_edge += r.feature == PenetrationFeature::kEdgeEdge && r.overlapping;
    ++calls;
    benchmark::DoNotOptimize(r.depth);
  }
  state.counters["allocs_per_call"] = static_cast<double>(malloc_calls - before) / calls;
  state.counters["edge_edge_fraction"] = static_cast<double>(edge_edge) / calls;
}

void BM_Penetration3d_14v_Overlapping(benchmark::State& state) { run3(state, 0.25, false); }
void BM_Penetration3d_14v_Overlapping_AllEdgePairs(benchmark::State& state) {
  run3(state, 0.25, true);
}
void BM_Penetration3d_14v_Separated(benchmark::State& state) { run3(state, 1.2, false); }

// For scale: the exact overlap volume of the same overlapping pairs (the step's overlap metric).
void BM_OverlapVolume3d_14v_Overlapping(benchmark::State& state) {
  const std::vector<Pair3> pairs = pairs3(64, 0.25, 3);
  IntersectionScratch scratch;
  std::size_t i = 0;
  for (auto _ : state) {
    const Pair3& p = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(
        polyhedron_intersection_volume(p.sa, p.pa, p.sb, p.pb, nullptr, &scratch));
  }
}

void BM_Penetration2d_14v_Overlapping(benchmark::State& state) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<Real> u(0, 2 * 3.141592653589793);
  std::vector<std::pair<WorldPolygon, WorldPolygon>> pairs(64);
  for (auto& [a, b] : pairs) {
    place(make_regular_polygon(14, 0.5, u(rng)), Pose2{Vec2::Zero(), 0}, a);
    place(make_regular_polygon(14, 0.5, u(rng)),
          Pose2{0.25 * Vec2(std::cos(u(rng)), std::sin(u(rng))), 0}, b);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(penetration_depth(a, b).depth);
  }
}

// The watchdog over a scene: 40 hulls (14 vertices, diameter 1) in a 3 × 3 × 2 m region over a
// static floor; time per call, with the number of pairs past the AABB test as a counter.
void BM_ScenePenetration3d_40Hulls(benchmark::State& state) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<Real> u(0, 1);
  const int n = 41;
  std::vector<ConvexPolyhedron> shapes;
  for (int i = 0; i < n - 1; ++i) shapes.push_back(fourteen_vertex_hull(rng));
  shapes.push_back(make_box(Vec3(4, 4, 1)));
  std::vector<const ConvexPolyhedron*> ptrs;
  for (const auto& s : shapes) ptrs.push_back(&s);
  std::vector<Pose3> poses(n);
  std::vector<WorldPolyhedron> placed(n);
  for (int i = 0; i < n - 1; ++i)
    poses[i] = Pose3{Vec3(3 * u(rng), 3 * u(rng), 2 * u(rng)), random_rotation(rng)};
  poses[n - 1] = Pose3{Vec3(1.5, 1.5, -0.5), Quat::Identity()};
  for (int i = 0; i < n; ++i) place(*ptrs[i], poses[i], placed[i]);
  std::vector<std::uint8_t> is_static(n, 0), present(n, 1);
  is_static[n - 1] = 1;
  PenetrationScratch scratch;
  ScenePenetration out;
  scene_penetration(ptrs, placed, poses, is_static, present, 0.001, scratch, out);  // warm
  long calls = 0, allocations = 0;
  for (auto _ : state) {
    const long before = malloc_calls;
    scene_penetration(ptrs, placed, poses, is_static, present, 0.001, scratch, out);
    allocations += malloc_calls - before;
    ++calls;
    benchmark::DoNotOptimize(out.max_depth);
  }
  state.counters["pairs_checked"] = out.pairs_checked;
  state.counters["deep_pairs"] = static_cast<double>(out.deep_pairs.size());
  state.counters["allocs_per_call"] = static_cast<double>(allocations) / calls;
}

BENCHMARK(BM_Penetration3d_14v_Overlapping)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Penetration3d_14v_Overlapping_AllEdgePairs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Penetration3d_14v_Separated)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OverlapVolume3d_14v_Overlapping)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Penetration2d_14v_Overlapping)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScenePenetration3d_40Hulls)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
