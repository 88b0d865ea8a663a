// Time per step of the 2D and 3D pouring scenes, split by stage, on the same mid-run states for
// every model (so ratios such as PEG / standard are measured in one run, on identical inputs),
// with the constraint counts, the reduced LCP's size (PEG paper §6: PEG's solver time ≈ 2×
// the baseline's, MLCP sizes 38–54 vs 22–27) and the heap allocations of a warmed-up step
// ("allocs": 0 once the contact set repeats).
#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "exactsim/stepping/step.h"
#include "experiments/scenarios.h"
#include "experiments/stress_scenes.h"
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

// The 3D pour of `protocol` (0: the archived icosahedra, k > 0: random polyhedra of seed k) run
// to t with PEG (at t = 5 s all ten bodies are in the container, most of them resting; the
// standard model itself blows the pile apart from t ≈ 1.78 s, docs/stepping.md).
const std::pair<Scene, State>& settled_pour3d(int protocol, Real h, Real t) {
  static std::map<std::tuple<int, Real, Real>, std::pair<Scene, State>> cache;
  const auto key = std::make_tuple(protocol, h, t);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Pour3dOptions o;
  o.step = h;
  o.duration = t;
  o.model = ContactModel::kPeg;
  Scene scene = protocol == 0 ? pour3d_icosahedra(o) : pour3d_random(protocol, o);
  scene.world.stepping.continue_on_solver_failure = true;
  scene.world.stepping.measure_overlap = false;
  State s = scene.initial;
  Workspace ws;
  for (long k = 0; k < std::lround(t / h); ++k) step(scene.world, s, ws, h, k);
  return cache.emplace(key, std::make_pair(scene, s)).first->second;
}

// The stress campaign's 10-box tower or 15-box pyramid (stress_scenes.h) run to t with sleeping
// on or off (docs/stepping.md "Sleeping"): at rest, and with sleeping on asleep by then.
const std::pair<Scene, State>& at_rest(bool pyramid, Real h, Real t, bool sleep) {
  static std::map<std::tuple<bool, Real, Real, bool>, std::pair<Scene, State>> cache;
  const auto key = std::make_tuple(pyramid, h, t, sleep);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  StackOptions o;
  o.step = h;
  Scene scene = pyramid ? box_pyramid3d(o) : box_tower3d(o);
  scene.world.stepping.sleep = sleep;
  State s = scene.initial;
  Workspace ws;
  for (long k = 0; k < std::lround(t / h); ++k) step(scene.world, s, ws, h, k);
  return cache.emplace(key, std::make_pair(scene, s)).first->second;
}

// One step from the same settled state, repeated; stage times and sizes as counters.
// epsilon: NaN keeps the scene's detection distance.
void bench_step(benchmark::State& bench, const std::pair<Scene, State>& settled_scene,
                ContactModel model, Real h, Real t, Real epsilon = NAN) {
  const auto& [scene, settled] = settled_scene;
  World world = scene.world;
  world.contact.model = model;
  world.stepping.measure_overlap = false;
  if (!std::isnan(epsilon)) world.contact.epsilon = epsilon;
  Workspace ws;
  StepTimings sum;
  long contacts = 0, lcp = 0, u = 0, i = 0, asleep = 0, failures = 0, allocations = 0;
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
    u = r.unilateral;
    i = r.intercontact;
    asleep = r.bodies_asleep;
    failures += r.status != StepStatus::kOk;
  }
  const double n = static_cast<double>(bench.iterations());
  bench.counters["contacts"] = static_cast<double>(contacts);
  bench.counters["U"] = static_cast<double>(u);
  bench.counters["I"] = static_cast<double>(i);
  bench.counters["lcp_size"] = static_cast<double>(lcp);
  bench.counters["asleep"] = static_cast<double>(asleep);
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

// epsilon: NaN keeps the scene's 0.1 m (the authors' value, at which the standard model's LCP is
// usually infeasible on a pile); 0.005 m is the default max(h/2, 0.8 mm).
void BM_Pour3dStep(benchmark::State& bench, ContactModel model, int protocol, Real h, Real epsilon,
                   Real t = 5.0) {
  bench_step(bench, settled_pour3d(protocol, h, t), model, h, t, epsilon);
}

// Piles at rest, awake and asleep (docs/performance.md "Sleeping").
void BM_AtRestStep(benchmark::State& bench, bool pyramid, bool sleep) {
  bench_step(bench, at_rest(pyramid, 0.005, 2.0, sleep), ContactModel::kPeg, 0.005, 2.0);
}

BENCHMARK_CAPTURE(BM_AtRestStep, tower_awake, false, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_AtRestStep, tower_asleep, false, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_AtRestStep, pyramid_awake, true, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_AtRestStep, pyramid_asleep, true, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour2dStep, standard_h0005, ContactModel::kStandard, 0.005)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour2dStep, peg_h0005, ContactModel::kPeg, 0.005)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour2dStep, standard_h0016, ContactModel::kStandard, 0.016)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour2dStep, peg_h0016, ContactModel::kPeg, 0.016)
    ->Unit(benchmark::kMicrosecond);
// The h = 0.005 stage split: PEG on the settled pile, and both models early in the pour.
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_peg_h005, ContactModel::kPeg, 0, 0.005, NAN)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_standard_h005_t1_2, ContactModel::kStandard, 0, 0.005, NAN,
                  1.2)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_peg_h005_t1_2, ContactModel::kPeg, 0, 0.005, NAN, 1.2)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_standard_h010_eps100mm, ContactModel::kStandard, 0, 0.010, NAN)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_peg_h010_eps100mm, ContactModel::kPeg, 0, 0.010, NAN)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_corrective_h010_eps100mm, ContactModel::kCorrective, 0, 0.010,
                  NAN)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_standard_h010_eps5mm, ContactModel::kStandard, 0, 0.010, 0.005)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_peg_h010_eps5mm, ContactModel::kPeg, 0, 0.010, 0.005)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, seed1_standard_h010_eps100mm, ContactModel::kStandard, 1, 0.010,
                  NAN)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, seed1_peg_h010_eps100mm, ContactModel::kPeg, 1, 0.010, NAN)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, seed1_corrective_h010_eps100mm, ContactModel::kCorrective, 1,
                  0.010, NAN)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, seed1_standard_h010_eps5mm, ContactModel::kStandard, 1, 0.010,
                  0.005)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, seed1_peg_h010_eps5mm, ContactModel::kPeg, 1, 0.010, 0.005)
    ->Unit(benchmark::kMicrosecond);
// Early in the pour (t = 1.2 s: three bodies, the first ones landed): states on which the
// standard model's LCP is solvable, for a like-for-like time per step.
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_standard_h010_t1_2, ContactModel::kStandard, 0, 0.010, NAN,
                  1.2)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, ico_peg_h010_t1_2, ContactModel::kPeg, 0, 0.010, NAN, 1.2)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, seed1_standard_h010_t1_2, ContactModel::kStandard, 1, 0.010, NAN,
                  1.2)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pour3dStep, seed1_peg_h010_t1_2, ContactModel::kPeg, 1, 0.010, NAN, 1.2)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
