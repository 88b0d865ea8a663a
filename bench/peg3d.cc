// Time per step of PEG vs the standard model on the same settled 3D pouring states (spec peg.md
// §5.2), split by stage, with the number of potential contacts, constraint groups and the size of
// the reduced LCP (the paper: PEG's solver time ≈ 2× the baseline's, MLCP sizes 38–54 vs 22–27).
#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "exactsim/io/scenarios.h"
#include "exactsim/stepping/step.h"

namespace exactsim {
namespace {

// The pour of `protocol` (0: the archived icosahedra, k > 0: random polyhedra of seed k) run to
// t with PEG (t = 5 s: all ten bodies in the container, most of them resting). Built once per key.
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

// epsilon: the detection distance of the measured step (NaN: the scene's 0.1 m, the authors'
// value, at which the standard model's LCP is usually infeasible on a pile; 0.005 m: the
// default max(h/2, 0.8 mm), where it usually solves).
void BM_Pour3dStep(benchmark::State& bench, ContactModel model, int protocol, Real h, Real epsilon,
                   Real t = 5.0) {
  const auto& [scene, settled] = settled_pour3d(protocol, h, t);
  World world = scene.world;
  world.contact.model = model;
  world.stepping.measure_overlap = false;
  if (!std::isnan(epsilon)) world.contact.epsilon = epsilon;
  Workspace ws;
  StepTimings sum;
  long contacts = 0, lcp = 0, u = 0, i = 0, failures = 0;
  const long k = std::lround(t / h);
  for (auto _ : bench) {
    State s = settled;
    const StepReport r = step(world, s, ws, h, k);
    sum.detect += r.seconds.detect;
    sum.constraints += r.seconds.constraints;
    sum.assemble += r.seconds.assemble;
    sum.solve += r.seconds.solve;
    sum.integrate += r.seconds.integrate;
    contacts = r.potential_contacts;
    lcp = r.lcp_size;
    u = r.unilateral;
    i = r.intercontact;
    failures += r.status != StepStatus::kOk;
  }
  const double n = static_cast<double>(bench.iterations());
  bench.counters["contacts"] = static_cast<double>(contacts);
  bench.counters["U"] = static_cast<double>(u);
  bench.counters["I"] = static_cast<double>(i);
  bench.counters["lcp_size"] = static_cast<double>(lcp);
  bench.counters["failed"] = static_cast<double>(failures) / n;
  bench.counters["detect_us"] = 1e6 * sum.detect / n;
  bench.counters["constraints_us"] = 1e6 * sum.constraints / n;
  bench.counters["assemble_us"] = 1e6 * sum.assemble / n;
  bench.counters["solve_us"] = 1e6 * sum.solve / n;
}

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
