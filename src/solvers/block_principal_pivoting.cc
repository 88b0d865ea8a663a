// Block principal pivoting on the body-space MLCP (docs/solvers.md "Large islands: the sparse
// path"; Júdice & Pires 1994; for an LCP it is the min-map semismooth Newton of Hüeber, Stadler &
// Wohlmuth 2008): guess the basic set B (z_i > 0, w_i = 0), solve the basis system for (ν, z_B)
// with z_N = 0, and move every index whose sign is wrong (z_i < 0 in B, w_i < 0 out of it) to the
// other side, while that count falls; then one index at a time. The answer is certified on the
// whole problem.
#include <algorithm>
#include <cmath>

#include "exactsim/solvers/sparse_mlcp.h"
#include "solvers/sparse_lu.h"

namespace exactsim {
namespace {

// Single flips after the count stopped falling for this many iterations.
constexpr int kStallWindow = 3;

// Iterative refinement of the regularised solve towards the unregularised system (proximal
// point: each step solves K_δ e = rhs − K₀ x; Golub & Van Loan §3.5.3).
constexpr int kRefinements = 2;

// The basis system of the basic set (s.basic): K₀ x = [c; −r_B] with x = (ν, z_B), factorised as
// K_δ, whose z block's diagonal carries +δ (ν eliminated: (N_BB + δI) z_B = −b_B, so a
// rank-deficient normal Jacobian leaves z_B bounded), and refined towards K₀ x = rhs
// (docs/solvers.md "Large islands: the sparse path").
bool solve_basis(const SparseMlcp& p, Real delta, SparseMlcpScratch& s) {
  const int nv = p.M.size(), nb = static_cast<int>(s.basic.size());
  auto& t = s.triplets;
  t.clear();
  p.M.append_triplets(t);
  s.rhs.resize(nv + nb);
  s.rhs.head(nv) = p.c;
  for (int q = 0; q < nb; ++q) {
    const int j = s.basic[q], row = nv + q;
    for (int e = p.g.begin[j]; e < p.g.begin[j + 1]; ++e) {
      const int k = p.g.block[e], o = p.M.offsets[k];
      for (Eigen::Index a = 0; a < p.M.blocks[k].rows(); ++a)
        if (p.g.values[e][a] != 0) t.emplace_back(o + a, row, -p.g.values[e][a]);
    }
    for (int e = p.h.begin[j]; e < p.h.begin[j + 1]; ++e) {
      const int k = p.h.block[e], o = p.M.offsets[k];
      for (Eigen::Index a = 0; a < p.M.blocks[k].rows(); ++a)
        if (p.h.values[e][a] != 0) t.emplace_back(row, o + a, p.h.values[e][a]);
    }
    for (SparseRowMatX::InnerIterator d(p.D, j); d; ++d)
      if (const int col = s.slot[d.col()]; col >= 0) t.emplace_back(row, nv + col, d.value());
    t.emplace_back(row, row, delta);
    s.rhs[row] = -p.r[j];
  }
  if (!s.lu) s.lu = std::make_shared<SparseBasisLu>();
  SparseBasisLu& lu = *s.lu;
  lu.matrix.resize(nv + nb, nv + nb);
  lu.matrix.setFromTriplets(t.begin(), t.end());
  if (!lu.factor(SparseLuBackend::kAuto, false, 0)) return false;
  s.x = s.rhs;
  lu.solve(s.x);
  for (int k = 0; k < kRefinements && s.x.allFinite(); ++k) {
    VecX residual = s.rhs - lu.matrix * s.x;  // rhs − K₀ x = rhs − K_δ x + δ [0; z_B]
    residual.tail(nb) += delta * s.x.tail(nb);
    lu.solve(residual);
    s.x += residual;
  }
  return s.x.allFinite();
}

}  // namespace

bool block_pivoting(const SparseMlcp& p, Real tol, Real delta, int max_iterations,
                    SparseMlcpScratch& s, MlcpSolution& out, int& iterations) {
  const int m = p.size(), nv = p.M.size();
  int best_count = m + 1, stall = 0;
  for (int it = 0; it < max_iterations; ++it) {
    ++iterations;
    s.basic.clear();
    s.slot.assign(m, -1);
    for (int i = 0; i < m; ++i)
      if (s.active[i]) {
        s.slot[i] = static_cast<int>(s.basic.size());
        s.basic.push_back(i);
      }
    if (!solve_basis(p, delta, s)) return false;
    out.nu = s.x.head(nv);
    out.z.setZero(m);
    for (std::size_t q = 0; q < s.basic.size(); ++q) out.z[s.basic[q]] = s.x[nv + q];
    sparse_rows(p, out.nu, out.z, out.w);
    // Sign violations: basic z below −tol, nonbasic w below −tol.
    int count = 0, worst = -1;
    Real worst_value = 0;
    for (int i = 0; i < m; ++i) {
      const Real v = s.active[i] ? out.z[i] : out.w[i];
      if (!(v < -tol)) continue;
      ++count;
      if (v < worst_value) worst_value = v, worst = i;
    }
    if (count == 0) return true;
    if (count < best_count) {
      best_count = count;
      stall = 0;
    } else if (++stall > 2 * kStallWindow) {
      return false;
    }
    if (stall < kStallWindow) {
      for (int i = 0; i < m; ++i) {
        const Real v = s.active[i] ? out.z[i] : out.w[i];
        if (v < -tol) s.active[i] = !s.active[i];
      }
    } else {
      s.active[worst] = !s.active[worst];
    }
  }
  return false;
}

}  // namespace exactsim
