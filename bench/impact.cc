// Microseconds per impact: the PLUS paper's Examples 1–3 and a plate landing flat on n × n
// redundant contacts (n² = 4, 16, 64, 256), sliding and spinning. Scratch memory is reused and
// the log is off, as in a simulation's hot path.
#include <benchmark/benchmark.h>

#include <cmath>

#include "exactsim/impact/plus.h"
#include "experiments/plus_examples.h"

namespace exactsim {
namespace {

void run(benchmark::State& state, ImpactProblem problem) {
  problem.options.record_log = false;
  PlusWorkspace ws;
  ImpactResult result;
  for (auto _ : state) {
    solve_plus(problem, ws, result);
    benchmark::DoNotOptimize(result.impulse.data());
  }
  state.counters["intervals"] = result.intervals;
  state.counters["rounds"] = result.rounds;
}

void BM_Example1(benchmark::State& state) {
  const Real mu = state.range(0) / 1000.0, theta = state.range(1) / 1000.0;
  run(state, example1_problem(mu, theta));
}
BENCHMARK(BM_Example1)
    ->Args({125, 10})
    ->Args({225, 10})
    ->Args({325, 10})
    ->Args({325, 150})
    ->Args({325, 250})
    ->Unit(benchmark::kMicrosecond);

void BM_Example2(benchmark::State& state) { run(state, example2_problem()); }
BENCHMARK(BM_Example2)->Unit(benchmark::kMicrosecond);

void BM_Example3Rounds(benchmark::State& state) {
  run(state, example3_problem(InducedImpacts::kRounds));
}
BENCHMARK(BM_Example3Rounds)->Unit(benchmark::kMicrosecond);

void BM_Example3Simultaneous(benchmark::State& state) {
  run(state, example3_problem(InducedImpacts::kSimultaneous));
}
BENCHMARK(BM_Example3Simultaneous)->Unit(benchmark::kMicrosecond);

// A 1 m square plate (2 kg) with an n × n grid of contact points landing flat while sliding
// along x and spinning about z: μ = 0.3, Table A1 restitution, θ_max = 0.01.
ImpactProblem plate(int per_side) {
  ImpactProblem p;
  const int nc = per_side * per_side;
  MatX G = MatX::Zero(3 * nc, 6);
  for (int i = 0; i < per_side; ++i)
    for (int j = 0; j < per_side; ++j) {
      const int k = i * per_side + j;
      const Vec3 r(-0.5 + i / (per_side - 1.0), -0.5 + j / (per_side - 1.0), -0.05);
      for (int d = 0; d < 3; ++d) {
        G.block<1, 3>(3 * k + d, 0) = Vec3::Unit(d).transpose();
        G.block<1, 3>(3 * k + d, 3) = r.cross(Vec3::Unit(d)).transpose();
      }
      p.contacts.push_back(plus_table_a1_law(0.3, 0.4));
    }
  VecX minv(6);
  minv << 0.5, 0.5, 0.5, 6.0 / 1.01, 6.0 / 1.01, 3.0;
  p.delassus = G * minv.asDiagonal() * G.transpose();
  Vec6 u;
  u << -2.0, 0.0, -5.0, 0.0, 0.0, 1.0;
  p.velocity = G * u;
  return p;
}

void BM_Plate(benchmark::State& state) {
  run(state, plate(static_cast<int>(state.range(0))));
  state.counters["contacts"] = static_cast<double>(state.range(0) * state.range(0));
}
BENCHMARK(BM_Plate)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
