// The sparse solve of the body-space MLCP (docs/solvers.md "Large islands: the sparse path"): the
// guessed basis, else the interior-point method and the basis its answer lies on; every answer
// certified on the whole problem with sparse products.
#include <algorithm>
#include <cstdio>

#include "exactsim/solvers/lcp_io.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_mlcp.h"

namespace exactsim {
namespace {

// Basis solves from a guessed basis (a basis that certifies ends in the first).
constexpr int kGuessIterations = 3;
// Interior-point iterations (the 100-hull pile's working sets take 20–50).
constexpr int kInteriorPointIterations = 100;
// Its starts, one run after another while none certifies: the starting impulses relative to the
// free motion's scale, and whether the run takes the centring step where its steps grow short. On
// the non-monotone LCPs of friction a run can stall (interior_point.cc), and another start often
// avoids that (on the 3D piles of 100 hulls, seeds 1 and 2, the second and third starts
// certified 17 of 56 stalled runs, and the steps needing the sparse Lemke fell from 26 to 13 on
// seed 2). The centring step keeps a run whose steps a few cones hold short going, but holds one
// at a fold of the central path, so the later starts go without it (docs/solvers.md "Interior
// point": 0.84–0.92 of the step time on the 2D pours of 100 polygons, 0.91–0.98 on the 3D ones
// of 100 hulls).
struct InteriorPointStart {
  Real scale;
  bool recentre;
};
constexpr InteriorPointStart kInteriorPointStarts[] = {{1, true}, {0.1, false}, {10, false}};
// Factorisations of an arc-length continuation (interior_point.cc, arc_length): on the working
// sets of 5,000–8,000 rows of the 2D pour of 1,000 polygons those that certify take 190–400
// (docs/solvers.md "Arc-length continuation").
constexpr int kArcLengthSolves = 400;
// Where arc_length_min_rows is −1: the rows from which it runs on planar bodies (spatial: never).
// On the 2D pour of 1,000 polygons it took 0.72 of the time of three steps; on the 3D pours of 100
// and 300 hulls 1.157 and 1.061 of the step time (docs/solvers.md "Arc-length continuation").
constexpr int kArcLengthPlanarMinRows = 2000;
// From a point near the answer (`near`), the interior point starts with every z_i and row w_i at
// least this fraction of the cold start's (a point on the boundary takes steps of 10⁻³ and less),
// and runs at most kNearIterations before the cold starts. On the 3D piles of 100 hulls, whose
// working set's rounds start near the last round's answer, the solve took 0.67–0.99 of the time
// from cold starts (seeds 1–5); floors of 0.01, 0.3 and 1 took 0.95, 0.87 and 1.11 on seed 1. The
// near runs there take 9–24 iterations where they certify, and about one in ten does not; a cap
// of 60 iterations against 40 took 0.84–1.03 of the solve time (seeds 1–4), 25 took 1.05.
// (docs/solvers.md "The working set".)
constexpr Real kNearFloor = 0.1;
constexpr int kNearIterations = 60;
// Where every interior-point start stalled, the crossover still runs on sets of up to this many
// rows, where its basis solves are cheap: on the standard model's 2D pour (set a, h = 5 ms) it
// certified 52 of 312 such sets (24–67 rows; 259 failed solves with it, 316 without), and on the
// pours of bench_scaling 0 of 155 sets of 1,558–26,084 rows on average, 1.1 s each at the
// largest (docs/solvers.md "Interior point").
constexpr int kStalledCrossoverMaxRows = 1000;
// Basis solves of the crossover from the interior point's answer (its basis by Tapia's
// indicators can be off by a few degenerate pairs, which block pivoting moves).
constexpr int kCrossoverIterations = 5;

// A friction cone's σ basic in the crossover's basis needs a row that decides it: one of its β
// basic (then that β row holds with equality, w_β = Gᵀν + σ = 0, at β >= 0). At a contact that
// separates or stops loading, the interior point ends with σ > 0 and every β and w_σ near 0
// (σ's own row, μ p − Σ β, is then 0 whatever σ), and a basis with σ alone is singular. Adds the
// β whose row is smallest (the direction σ bounds: the largest backward tangential speed).
// A σ row is one with no column in G whose D entries reach rows that have one (its β rows).
void decide_sigmas(const SparseMlcp& p, const VecX& w, std::vector<bool>& active) {
  const int m = p.size();
  for (int i = 0; i < m; ++i) {
    if (!active[i] || p.g.begin[i + 1] != p.g.begin[i]) continue;
    int best = -1;
    bool decided = false;
    for (SparseRowMatX::InnerIterator e(p.D, i); e; ++e) {
      const int j = static_cast<int>(e.col());
      if (j == i || p.g.begin[j + 1] == p.g.begin[j] || p.D.coeff(j, i) == 0) continue;
      decided = decided || active[j];
      if (best < 0 || w[j] < w[best]) best = j;
    }
    if (!decided && best >= 0) active[best] = true;
  }
}

// Whether arc-length continuation follows where every start stalled
// (SolverOptions::Diagnostics::arc_length_min_rows; its −1 by the bodies' velocities).
bool arc_length_runs(const SparseMlcp& p, const SolverOptions& options) {
  int min_rows = options.diagnostics.arc_length_min_rows;
  if (min_rows < 0) min_rows = planar_bodies(p) ? kArcLengthPlanarMinRows : 0;
  return min_rows > 0 && p.size() >= min_rows;
}

// The certificate's tolerance, the impulse scale and the basis system's regularisation δ of p
// (after prepare_sparse_mlcp).
struct Scales {
  Real tol, scale, delta;
};
Scales scales_of(const SparseMlcp& p, const SolverOptions& options, SparseMlcpScratch& s) {
  Scales c;
  c.tol =
      options.tolerance * std::max<Real>(1.0, s.b.size() > 0 ? s.b.lpNorm<Eigen::Infinity>() : 0.0);
  c.scale = options.impulse_scale > 0 ? options.impulse_scale : sparse_mlcp_impulse_scale(p, s);
  // Before refinement w_B = −δ z_B: within the certificate's tolerances (δ z_i <= 1e-2 tol for
  // z_i <= Z) with room.
  c.delta = 1e-2 * c.tol / c.scale;
  return c;
}

bool certify(const SparseMlcp& p, const SolverOptions& options, const Scales& c,
             SparseMlcpScratch& s, MlcpSolution& x, SolveMethod method) {
  x.certificate = verify_sparse_mlcp(p, x.nu, x.z, c.tol, c.scale, options, s, x.w);
  x.certificate.method = method;
  return x.certificate.ok();
}

// The basis the interior point's answer `at` lies near (its iterate before in s.z_previous,
// s.w_previous; empty when it took no step): by Tapia's indicators (El-Bakry, Tapia & Zhang
// 1994: near the end z_i/z_i⁻ → 1 and w_i/w_i⁻ → 0 for a basic i, the reverse for a nonbasic
// one; free of z's and w's units, which z_i > w_i is not), in s.active.
void estimate_basis(const SparseMlcp& p, const MlcpSolution& at, SparseMlcpScratch& s) {
  const int m = p.size();
  s.active.assign(m, false);
  const bool indicators = s.z_previous.size() == m;
  for (int i = 0; i < m; ++i)
    s.active[i] =
        indicators ? at.z[i] * s.w_previous[i] > at.w[i] * s.z_previous[i] : at.z[i] > at.w[i];
  decide_sigmas(p, at.w, s.active);
}

// Islands up to this many rows are dumped when every interior-point start stalled (N is formed
// dense for the file).
constexpr int kStallDumpRows = 2000;

// With EXACTSIM_DUMP_LCP (lcp_io.h): the reduced LCP (N = Hᵀ W G + D, b) of a solve whose every
// interior-point start stalled, with the certificate's impulse scale and tolerance, for the dense
// model of its runs (bench/interior_point_model.py; docs/performance.md "The interior point's
// runs"). Only islands without free rows.
void dump_stalled(const SparseMlcp& p, const Scales& c) {
  if (lcp_dump_dir().empty() || p.bilateral > 0 || p.size() > kStallDumpRows) return;
  Mlcp dense;
  dense_of(p, dense);
  MlcpScratch scratch;
  reduce_mlcp(dense, scratch);
  LcpFileInfo info;
  info.impulse_scale = c.scale;
  char note[96];
  std::snprintf(note, sizeof note, "sparse interior point: every start stalled; tolerance %a",
                c.tol);
  info.note = note;
  dump_lcp(scratch.reduced, info, "stall");
}

// The crossover: that basis, its wrong signs moved by block pivoting. True with the certified
// basis answer in s.crossover and its basis in s.active; otherwise s.active is the estimate.
bool cross_over(const SparseMlcp& p, const SolverOptions& options, const Scales& c,
                const MlcpSolution& at, SparseMlcpScratch& s, int& iterations) {
  estimate_basis(p, at, s);
  std::vector<bool> estimate = s.active;
  if (block_pivoting(p, c.tol, c.delta, kCrossoverIterations, s, s.crossover, iterations) &&
      certify(p, options, c, s, s.crossover, SolveMethod::kInteriorPoint))
    return true;
  s.active.swap(estimate);
  return false;
}

}  // namespace

void solve_sparse_mlcp(const SparseMlcp& p, const SolverOptions& options, SparseMlcpScratch& s,
                       MlcpSolution& out, const std::vector<bool>* guess, bool crossover,
                       const MlcpSolution* near, const MlcpSolution* rescue) {
  const int m = p.size();
  prepare_sparse_mlcp(p, s);
  s.best_iterate = options.diagnostics.interior_point_best;
  const Scales c = scales_of(p, options, s);
  int iterations = 0;
  auto finish = [&](MlcpSolution& x) {
    s.basis_solved = &x != &out || x.certificate.method == SolveMethod::kWarmStart;
    x.certificate.iterations = iterations;
    if (&x != &out) {
      out.nu.swap(x.nu);
      out.z.swap(x.z);
      out.w.swap(x.w);
      out.certificate = x.certificate;
    }
  };
  if (m == 0) {  // the free motion
    out.nu = s.Wc;
    out.z.resize(0);
    s.active.clear();
    certify(p, options, c, s, out, SolveMethod::kWarmStart);
    return finish(out);
  }
  // 1. The guessed basis (last step's, by contact).
  if (guess != nullptr && static_cast<int>(guess->size()) == m) {
    s.active = *guess;
    if (block_pivoting(p, c.tol, c.delta, kGuessIterations, s, out, iterations) &&
        certify(p, options, c, s, out, SolveMethod::kWarmStart))
      return finish(out);
  }
  // 2. The interior point (from `near`, then from each start while none certifies), then the basis
  // its answer lies on: exact where that basis is regular and its solution certifies; otherwise the
  // interior point's own answer.
  const auto run = [&](InteriorPointStart start, int max_iterations, const MlcpSolution* from) {
    const int before = iterations;
    interior_point(p, c.tol, c.scale, max_iterations, s, out.nu, out.z, out.w, iterations,
                   start.scale, from, start.recentre);
    if (iterations == before) s.z_previous.resize(0);  // (no step: no indicators)
    return certify(p, options, c, s, out, SolveMethod::kInteriorPoint);
  };
  bool interior = near != nullptr && run({kNearFloor, true}, kNearIterations, near);
  for (const InteriorPointStart start : kInteriorPointStarts)
    if (!interior) interior = run(start, kInteriorPointIterations, nullptr);
  if (!interior && rescue != nullptr) interior = run({kNearFloor, true}, kNearIterations, rescue);
  // On a large set where every start stalled: arc-length continuation of the first start's path.
  if (!interior && arc_length_runs(p, options)) {
    arc_length(p, c.tol, c.scale, kArcLengthSolves, s, out.nu, out.z, out.w, iterations);
    interior = certify(p, options, c, s, out, SolveMethod::kInteriorPoint);
  }
  if (!interior) dump_stalled(p, c);
  // Without the crossover the interior point's answer is returned as it is: certified, or where
  // every start stalled on a set of more than kStalledCrossoverMaxRows rows (docs/solvers.md
  // "Interior point").
  if (!crossover && (interior || m > kStalledCrossoverMaxRows)) {
    estimate_basis(p, out, s);
    return finish(out);
  }
  if (cross_over(p, options, c, out, s, iterations)) return finish(s.crossover);
  if (!interior) certify(p, options, c, s, out, SolveMethod::kInteriorPoint);
  finish(out);
}

}  // namespace exactsim
