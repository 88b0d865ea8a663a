// LCP solver cost against size: lexicographic Lemke, one dense LDLᵀ factorisation of the same
// matrix (the floor any direct method pays), and Fischer–Burmeister Newton from a cold start.
// Problems: PSD Delassus matrices N = GᵀWG of random planar contacts (≈ n/3 bodies, the
// contact Jacobian columns of docs/collision.md) with a planted solution (about half the contacts
// active), as in a resting pile.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/lcp_io.h"
#include "exactsim/solvers/mlcp.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {
namespace {

Lcp delassus_problem(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1), unit(0, 1);
  const int bodies = std::max(1, n / 3), nv = 3 * bodies;
  std::vector<Vec2> x(bodies);
  MatX w = MatX::Zero(nv, nv);
  for (int b = 0; b < bodies; ++b) {
    x[b] = Vec2(u(rng), u(rng));
    const Real m = 0.5 + 2 * unit(rng), j = 0.05 + 0.2 * unit(rng);
    w.block(3 * b, 3 * b, 3, 3) = Vec3(1 / m, 1 / m, 1 / j).asDiagonal();
  }
  MatX g = MatX::Zero(nv, n);
  for (int c = 0; c < n; ++c) {
    // Body a against body b (or the ground when a == b), contact Jacobian columns.
    const int a = static_cast<int>(rng() % bodies), b = static_cast<int>(rng() % bodies);
    const Real angle = M_PI / 2 + 0.8 * u(rng);
    const Vec2 nrm(std::cos(angle), std::sin(angle)), p(u(rng), u(rng));
    g.block<2, 1>(3 * b, c) += nrm;
    g(3 * b + 2, c) += cross2(p - x[b], nrm);
    if (a != b) {
      g.block<2, 1>(3 * a, c) -= nrm;
      g(3 * a + 2, c) += cross2(p - x[a], -nrm);
    }
  }
  Lcp lcp{g.transpose() * w * g, VecX(n)};
  VecX z = VecX::Zero(n), s = VecX::Zero(n);
  for (int i = 0; i < n; ++i) (unit(rng) < 0.5 ? z(i) : s(i)) = unit(rng);
  lcp.q = s - lcp.M * z;
  return lcp;
}

// Lemke in the dense form, and in the revised form (docs/solvers.md "Revised Lemke").
void lemke(benchmark::State& state, bool revised) {
  const Lcp lcp = delassus_problem(static_cast<int>(state.range(0)), 1);
  SolverOptions o;
  o.fallback = false;
  o.diagnostics.revised_min_size = revised ? 1 : 0;
  LcpScratch scratch;
  LcpSolution out;
  for (auto _ : state) {
    solve_lemke(lcp, o, scratch, out);
    benchmark::DoNotOptimize(out.z.data());
  }
  state.counters["pivots"] = out.certificate.pivots;
  state.counters["solved"] = out.certificate.ok();
}
void BM_Lemke(benchmark::State& state) { lemke(state, false); }
void BM_LemkeRevised(benchmark::State& state) { lemke(state, true); }

void BM_LdltFactorisation(benchmark::State& state) {
  const Lcp lcp = delassus_problem(static_cast<int>(state.range(0)), 1);
  Eigen::LDLT<MatX> ldlt(lcp.M.rows());
  for (auto _ : state) {
    ldlt.compute(lcp.M);
    benchmark::DoNotOptimize(ldlt.vectorD().data());
  }
}

void BM_FischerBurmeister(benchmark::State& state) {
  const Lcp lcp = delassus_problem(static_cast<int>(state.range(0)), 1);
  LcpScratch scratch;
  LcpSolution out;
  const VecX z0 = VecX::Zero(lcp.q.size());
  for (auto _ : state) {
    solve_fischer_burmeister(lcp, z0, {}, scratch, out);
    benchmark::DoNotOptimize(out.z.data());
  }
  state.counters["iterations"] = out.certificate.iterations;
  state.counters["solved"] = out.certificate.ok();
}

void BM_SolveLcpStack(benchmark::State& state) {
  const Lcp lcp = delassus_problem(static_cast<int>(state.range(0)), 1);
  LcpScratch scratch;
  LcpSolution out;
  for (auto _ : state) {
    solve_lcp(lcp, {}, scratch, out);
    benchmark::DoNotOptimize(out.z.data());
  }
  state.counters["solved"] = out.certificate.ok();
}

// Consecutive reduced LCPs of a resting pile (tests/solvers/data/sequence/, dumped with
// EXACTSIM_DUMP_LCP_ALL=1). Warm: each LCP starts from the previous solution's active set when
// the size is unchanged (a stand-in for the stepper's mapping by contact identity); cold: Lemke.
struct Sequence {
  std::vector<Lcp> lcps;
  std::vector<Real> scales;
};

const Sequence& pile_sequence() {
  static const Sequence seq = [] {
    Sequence s;
    namespace fs = std::filesystem;
    // EXACTSIM_LCP_SEQUENCE=dir overrides (e.g. a frictional stack dumped to /tmp).
    const char* env = std::getenv("EXACTSIM_LCP_SEQUENCE");
    const fs::path dir =
        env ? fs::path(env) : fs::path(EXACTSIM_DATA_DIR) / "../tests/solvers/data/sequence";
    std::vector<fs::path> files;
    if (fs::exists(dir))
      for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".lcp") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      LcpFileInfo info;
      s.lcps.push_back(read_lcp(f.string(), &info));
      s.scales.push_back(info.impulse_scale);
    }
    return s;
  }();
  return seq;
}

void run_sequence(benchmark::State& state, bool warm) {
  const Sequence& seq = pile_sequence();
  if (seq.lcps.empty()) {
    state.SkipWithError("no sequence under tests/solvers/data/sequence");
    return;
  }
  LcpScratch scratch;
  LcpSolution out;
  std::vector<bool> guess;
  long pivots = 0, solved = 0, warm_hits = 0;
  for (auto _ : state) {
    pivots = solved = warm_hits = 0;
    guess.clear();
    for (std::size_t k = 0; k < seq.lcps.size(); ++k) {
      SolverOptions o;
      o.impulse_scale = seq.scales[k];
      const bool use = warm && guess.size() == static_cast<std::size_t>(seq.lcps[k].q.size());
      solve_lcp(seq.lcps[k], o, scratch, out, use ? &guess : nullptr);
      pivots += out.certificate.pivots;
      solved += out.certificate.ok();
      warm_hits += out.certificate.method == SolveMethod::kWarmStart;
      if (warm) guess = scratch.active;  // the final basis of this solve
    }
    benchmark::DoNotOptimize(out.z.data());
  }
  const double count = static_cast<double>(seq.lcps.size());
  state.counters["lcps"] = count;
  state.counters["pivots_per_lcp"] = static_cast<double>(pivots) / count;
  state.counters["solved"] = static_cast<double>(solved);
  state.counters["warm_hits"] = static_cast<double>(warm_hits);
  state.counters["s_per_lcp"] = benchmark::Counter(
      count, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_PileSequenceCold(benchmark::State& state) { run_sequence(state, false); }
void BM_PileSequenceWarm(benchmark::State& state) { run_sequence(state, true); }
BENCHMARK(BM_PileSequenceCold)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PileSequenceWarm)->Unit(benchmark::kMillisecond);

void sizes(benchmark::internal::Benchmark* b) {
  for (int n : {10, 20, 40, 80, 160}) b->Arg(n);
  b->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_Lemke)->Apply(sizes)->Arg(320)->Arg(640);
BENCHMARK(BM_LemkeRevised)->Apply(sizes)->Arg(320)->Arg(640);
BENCHMARK(BM_LdltFactorisation)->Apply(sizes);
BENCHMARK(BM_FischerBurmeister)->Apply(sizes);
BENCHMARK(BM_SolveLcpStack)->Apply(sizes);

}  // namespace
}  // namespace exactsim

BENCHMARK_MAIN();
