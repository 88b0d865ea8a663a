// Time per step of the pouring scenes, split by stage, on the same mid-run states for every
// model (so ratios such as PEG / standard are measured in one run, on identical inputs), and the
// heap allocations a warmed-up step makes ("allocs": 0 once the contact set repeats).
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "exactsim/io/scenarios.h"
#include "exactsim/stepping/step.h"
#include "malloc_counter.h"

namespace exactsim {
namespace {

// The 2D pour (archived set b) run to t with the standard model: a pile of polygons with
// many contacts. Built once per (h, t).
const std::pair<Scene, State>& settled_pour2d(Real h, Real t) {
  static std::map<std::pair<Real, Real>, std::pair<Scene, State>> cache;
  auto it = cache.find({h, t});
  if (it != cache.end()) return it->second;
  Pour2dOptions o;
  o.step = h;
  Scene scene = pour2d_archived(EXACTSIM_DATA_DIR "/peg2d_pouring_body_sets.json", 'b', o);
  scene.world.stepping.continue_on_solver_failure = true;
  State s = scene.initial;
  Workspace ws;
  for (long k = 0; k < std::lround(t / h); ++k) step(scene.world, s, ws, h, k);
  return cache.emplace(std::make_pair(h, t), std::make_pair(scene, s)).first->second;
}

// The 3D pour (archived icosahedron drop) run to t with the standard model (before t ≈ 1.78 s,
// where its SM traps start to blow the pile up: see docs/stepping.md).
const std::pair<Scene, State>& settled_pour3d(Real h, Real t) {
  static std::map<std::pair<Real, Real>, std::pair<Scene, State>> cache;
  auto it = cache.find({h, t});
  if (it != cache.end()) return it->second;
  Pour3dOptions o;
  o.step = h;
  Scene scene = pour3d_icosahedra(o);
  scene.world.stepping.continue_on_solver_failure = true;
  State s = scene.initial;
  Workspace ws;
  for (long k = 0; k < std::lround(t / h); ++k) step(scene.world, s, ws, h, k);
  return cache.emplace(std::make_pair(h, t), std::make_pair(scene, s)).first->second;
}

// One step from the same settled state, repeated; stage times and sizes as counters.
void bench_step(benchmark::State& bench, const std::pair<Scene, State>& settled_scene,
                ContactModel model, Real h, Real t) {
  const auto& [scene, settled] = settled_scene;
  World world = scene.world;
  world.contact.model = model;
  world.stepping.measure_overlap = false;
  Workspace ws;
  StepTimings sum;
  long contacts = 0, lcp = 0, failures = 0, allocations = 0;
  const long k = std::lround(t / h);
  State s = settled;
  for (auto _ : bench) {
    bench.PauseTiming();
    s = settled;  // (same sizes: no allocation)
    bench.ResumeTiming();
    const long before = malloc_calls;
    const StepReport r = step(world, s, ws, h, k);
    allocations = malloc_calls - before;  // the last step's: the first ones warm the scratch up
    sum.detect += r.seconds.detect;
    sum.constraints += r.seconds.constraints;
    sum.assemble += r.seconds.assemble;
    sum.solve += r.seconds.solve;
    sum.integrate += r.seconds.integrate;
    contacts = r.potential_contacts;
    lcp = r.lcp_size;
    failures += r.status != StepStatus::kOk;
  }
  const double n = static_cast<double>(bench.iterations());
  bench.counters["contacts"] = static_cast<double>(contacts);
  bench.counters["lcp_size"] = static_cast<double>(lcp);
  bench.counters["failed"] = static_cast<double>(failures) / n;
  bench.counters["allocs"] = static_cast<double>(allocations);
  bench.counters["detect_us"] = 1e6 * sum.detect / n;
  bench.counters["constr_us"] = 1e6 * sum.constraints / n;
  bench.counters["assemble_us"] = 1e6 * sum.assemble / n;
  bench.counters["solve_us"] = 1e6 * sum.solve / n;
  bench.counters["integrate_us"] = 1e6 * sum.integrate / n;
}

void BM_Pour2dStep(benchmark::State& bench, ContactModel model, Real h) {
  bench_step(bench, settled_pour2d(h, 4.0), model, h, 4.0);
}

void BM_Pour3dStep(benchmark::State& bench, ContactModel model, Real h) {
  bench_step(bench, settled_pour3d(h, 1.7), model, h, 1.7);
}

BENCHMARK_CAPTURE(BM_Pour2dStep, standard_h0005, ContactModel::kStandard, 0.005)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour2dStep, peg_h0005, ContactModel::kPeg, 0.005)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour2dStep, standard_h0016, ContactModel::kStandard, 0.016)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour2dStep, peg_h0016, ContactModel::kPeg, 0.016)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, standard_h0005, ContactModel::kStandard, 0.005)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
