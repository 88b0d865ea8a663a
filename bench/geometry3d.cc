// 3D geometry kernels on the pouring scene's scale (docs/peg3d-experiment.md "Protocol"): the
// qhull-based hull behind random_convex_polyhedron, the overlap metric's exact intersection volume,
// placement.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "exactsim/geometry/polyhedron.h"

namespace exactsim {
namespace {

// Random hulls of diameter 1 with exactly 12 vertices.
std::vector<ConvexPolyhedron> twelve_vertex_hulls(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  RandomPolyhedronOptions options;
  options.points = 14;
  std::vector<ConvexPolyhedron> hulls;
  while (static_cast<int>(hulls.size()) < count) {
    ConvexPolyhedron p = random_convex_polyhedron(rng, options);
    if (p.num_vertices() == 12) hulls.push_back(std::move(p));
  }
  return hulls;
}

Quat random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<Real> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

struct Pair {
  ConvexPolyhedron a, b;
  Pose3 pa, pb;
};

// Overlapping pairs: centres 0.25 apart (a quarter of the diameter) in random directions.
std::vector<Pair> overlapping_pairs(int count) {
  const std::vector<ConvexPolyhedron> hulls = twelve_vertex_hulls(2 * count, 5);
  std::mt19937_64 rng(6);
  std::vector<Pair> pairs;
  for (int i = 0; i < count; ++i) {
    const Vec3 d = random_rotation(rng) * Vec3(0.25, 0, 0);
    pairs.push_back({hulls[2 * i], hulls[2 * i + 1], Pose3{Vec3::Zero(), random_rotation(rng)},
                     Pose3{d, random_rotation(rng)}});
  }
  return pairs;
}

// Hull of 12 uniform random points in the unit cube, cycling through pre-drawn clouds.
void BM_PolyhedronHull12Points(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<Real> u(0, 1);
  std::vector<std::vector<Vec3>> clouds(64, std::vector<Vec3>(12));
  for (auto& c : clouds)
    for (Vec3& p : c) p = Vec3(u(rng), u(rng), u(rng));
  size_t i = 0;
  for (auto _ : state) {
    ConvexPolyhedron p = polyhedron_from_points(clouds[i++ % clouds.size()]);
    benchmark::DoNotOptimize(p.vertices.data());
  }
}
BENCHMARK(BM_PolyhedronHull12Points)->Unit(benchmark::kMicrosecond);

// Exact intersection volume of two overlapping 12-vertex hulls, caller-owned scratch.
void BM_PolyhedronIntersectionVolume12(benchmark::State& state) {
  const std::vector<Pair> pairs = overlapping_pairs(64);
  IntersectionScratch scratch;
  size_t i = 0;
  Real total = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    total += polyhedron_intersection_volume(p.a, p.pa, p.b, p.pb, nullptr, &scratch);
  }
  benchmark::DoNotOptimize(total);
}
BENCHMARK(BM_PolyhedronIntersectionVolume12)->Unit(benchmark::kMicrosecond);

// The same without scratch (allocates per call).
void BM_PolyhedronIntersectionVolume12NoScratch(benchmark::State& state) {
  const std::vector<Pair> pairs = overlapping_pairs(64);
  size_t i = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(polyhedron_intersection_volume(p.a, p.pa, p.b, p.pb));
  }
}
BENCHMARK(BM_PolyhedronIntersectionVolume12NoScratch)->Unit(benchmark::kMicrosecond);

// Resting contact: B on top of A, face to face (AABBs overlap; a face plane separates).
void BM_PolyhedronIntersectionTouchingBoxes(benchmark::State& state) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 0.5));
  const Quat q(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  const Pose3 pa{Vec3::Zero(), q}, pb{q * Vec3(0.2, 0.1, 0.5), q};
  IntersectionScratch scratch;
  for (auto _ : state)
    benchmark::DoNotOptimize(polyhedron_intersection_volume(box, pa, box, pb, nullptr, &scratch));
}
BENCHMARK(BM_PolyhedronIntersectionTouchingBoxes)->Unit(benchmark::kMicrosecond);

// World placement of a 12-vertex hull (storage reused).
void BM_PolyhedronPlace12(benchmark::State& state) {
  const ConvexPolyhedron p = twelve_vertex_hulls(1, 9)[0];
  const Pose3 pose{Vec3(1, 2, 3), Quat(Eigen::AngleAxisd(0.4, Vec3::UnitY()))};
  WorldPolyhedron w;
  for (auto _ : state) {
    place(p, pose, w);
    benchmark::DoNotOptimize(w.vertices.data());
  }
}
BENCHMARK(BM_PolyhedronPlace12)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
