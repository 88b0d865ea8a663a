// The same impact two ways: the compliant Hertz / Hunt–Crossley / Stribeck model integrated by
// RK-Merson (a = 1e-5, first touch to separation; docs/compliant.md "The examples") against PLUS
// (building the impact problem from the world + solving it, log off). Example 1 at 10 GPa for the
// three μ; each compliant benchmark also times PLUS on the same impact in the same run and reports
// the ratio (goal: ≥ 100×). Also Example 2 and the compliant cradle.
#include <benchmark/benchmark.h>

#include <time.h>
#include <algorithm>
#include <vector>

#include "exactsim/events/sphere_contacts.h"
#include "exactsim/impact/plus.h"
#include "experiments/compliant_examples.h"
#include "experiments/plus_examples.h"

namespace exactsim {
namespace {

double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// CPU seconds per PLUS impact on `sim` (contacts, Delassus operator, solve), median of 5
// batches.
double plus_seconds(const EventSimulation& sim, ImpactOptions options) {
  options.record_log = false;
  PlusWorkspace ws;
  ImpactResult result;
  std::vector<double> batches;
  for (int b = 0; b < 5; ++b) {
    const int reps = 500;
    const double t0 = cpu_now();
    for (int i = 0; i < reps; ++i) {
      const auto contacts = find_contacts(sim.world, sim.state, 1e-9);
      const ImpactProblem p = contact_impact_problem(sim.world, sim.state, contacts, options);
      solve_plus(p, ws, result);
      benchmark::DoNotOptimize(result.impulse.data());
    }
    batches.push_back((cpu_now() - t0) / reps);
  }
  std::sort(batches.begin(), batches.end());
  return batches[2];
}

void run_compliant(benchmark::State& state, const CompliantScene& scene,
                   const EventSimulation& world, const ImpactOptions& plus_options,
                   bool stop_at_separation = true) {
  CompliantImpactOptions o;
  o.integrator.accuracy = 1e-5;
  o.stop_at_separation = stop_at_separation;
  o.max_duration = stop_at_separation ? 0.05 : 2e-3;
  CompliantImpactResult r;
  for (auto _ : state) {
    r = run_compliant_impact(scene, o);
    benchmark::DoNotOptimize(r.state_after.v.data());
  }
  const double plus = plus_seconds(world, plus_options);
  state.counters["steps"] = r.stats.accepted;
  state.counters["f_evals"] = r.stats.evaluations;
  state.counters["plus_us"] = 1e6 * plus;
  // compliant seconds per impact / PLUS seconds per impact
  // (plus · iterations / time)⁻¹ = time per iteration / PLUS time
  state.counters["ratio"] = benchmark::Counter(
      plus, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Args: μ × 1000, PLUS θ_max × 1000 (0.01: Figs. 8–9; 0.25: Fig. 10's coarsest).
void BM_Example1Compliant(benchmark::State& state) {
  const Real mu = state.range(0) / 1000.0;
  ImpactOptions po;
  po.theta_max = state.range(1) / 1000.0;
  run_compliant(state, example1_compliant(mu, 1e10), example1_simulation(mu, 0.0), po);
}
BENCHMARK(BM_Example1Compliant)
    ->Args({125, 10})
    ->Args({225, 10})
    ->Args({325, 10})
    ->Args({325, 250})
    ->Unit(benchmark::kMicrosecond);

void BM_Example2Compliant(benchmark::State& state) {
  run_compliant(state, example2_compliant(example2_orientation()),
                example2_plus_simulation(example2_orientation()), ImpactOptions{});
}
BENCHMARK(BM_Example2Compliant)->Unit(benchmark::kMicrosecond);

void BM_Example3Compliant(benchmark::State& state) {
  run_compliant(state, example3_compliant(), example3_simulation(0.0), ImpactOptions{}, false);
}
BENCHMARK(BM_Example3Compliant)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
