// The sparse solve of the body-space MLCP (docs/solvers.md "Large islands: the sparse path"): the
// guessed basis, else the interior-point method and the basis its answer lies on; every answer
// certified on the whole problem with sparse products.
#include <algorithm>

#include "exactsim/solvers/sparse_mlcp.h"

namespace exactsim {
namespace {

// Basis solves from a guessed basis (a basis that certifies ends in the first).
constexpr int kGuessIterations = 3;
// Interior-point iterations (the 100-hull pile's working sets take 20–50).
constexpr int kInteriorPointIterations = 100;
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

}  // namespace

void solve_sparse_mlcp(const SparseMlcp& p, const SolverOptions& options, SparseMlcpScratch& s,
                       MlcpSolution& out, const std::vector<bool>* guess) {
  const int m = p.size();
  prepare_sparse_mlcp(p, s);
  const Real tol =
      options.tolerance * std::max<Real>(1.0, s.b.size() > 0 ? s.b.lpNorm<Eigen::Infinity>() : 0.0);
  const Real scale =
      options.impulse_scale > 0 ? options.impulse_scale : sparse_mlcp_impulse_scale(p, s);
  // Before refinement w_B = −δ z_B: within the certificate's tolerances (δ z_i <= 1e-2 tol for
  // z_i <= Z) with room.
  const Real delta = 1e-2 * tol / scale;
  int iterations = 0;
  auto certify = [&](MlcpSolution& x, SolveMethod method) {
    x.certificate = verify_sparse_mlcp(p, x.nu, x.z, tol, scale, options, s, x.w);
    x.certificate.method = method;
    return x.certificate.ok();
  };
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
    certify(out, SolveMethod::kWarmStart);
    return finish(out);
  }
  // 1. The guessed basis (last step's, by contact).
  if (guess != nullptr && static_cast<int>(guess->size()) == m) {
    s.active = *guess;
    if (block_pivoting(p, tol, delta, kGuessIterations, s, out, iterations) &&
        certify(out, SolveMethod::kWarmStart))
      return finish(out);
  }
  // 2. The interior point, then the basis its answer lies on: exact where that basis
  // is regular and its solution certifies; otherwise the interior point's own answer.
  const int before = iterations;
  interior_point(p, tol, scale, kInteriorPointIterations, s, out.nu, out.z, out.w, iterations);
  const bool interior = certify(out, SolveMethod::kInteriorPoint);
  // The basis by Tapia's indicators (El-Bakry, Tapia & Zhang 1994): near the end z_i/z_i⁻ → 1
  // and w_i/w_i⁻ → 0 for a basic i, the reverse for a nonbasic one; free of z's and w's units,
  // which z_i > w_i is not.
  s.active.assign(m, false);
  const bool indicators = iterations > before && s.z_previous.size() == m;
  for (int i = 0; i < m; ++i)
    s.active[i] =
        indicators ? out.z[i] * s.w_previous[i] > out.w[i] * s.z_previous[i] : out.z[i] > out.w[i];
  decide_sigmas(p, out.w, s.active);
  MlcpSolution& basis = s.crossover;
  std::vector<bool> active = s.active;
  if (block_pivoting(p, tol, delta, kCrossoverIterations, s, basis, iterations) &&
      certify(basis, SolveMethod::kInteriorPoint))
    return finish(basis);
  s.active.swap(active);
  if (!interior) certify(out, SolveMethod::kInteriorPoint);
  finish(out);
}

}  // namespace exactsim
