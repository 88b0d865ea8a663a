// Goldfarb and Idnani's dual active-set method (Math. Programming 27, 1983) for
//   min ½ νᵀ M ν − cᵀ ν   subject to   Gᵀ ν + r >= 0
// (docs/solvers.md "Dual active set"). It starts at the unconstrained minimum ν = M⁻¹ c and adds
// the most violated row at a time, keeping the multipliers of the active rows non-negative and
// the active rows satisfied with equality; a row whose multiplier would turn negative is dropped.
// With M = L Lᵀ it keeps J = L⁻ᵀ Q and R with Jᵀ G_A = [R; 0] (Q orthogonal, updated by Givens
// rotations), so that for a new row n:  d = Jᵀ n,  the primal step is J₂ d₂ (the columns of J
// past the active count) and the change of the active multipliers is R⁻¹ d₁.
#include "exactsim/solvers/dual_active_set.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <span>

namespace exactsim {
namespace {

constexpr Real kInfinity = std::numeric_limits<Real>::infinity();

// The Givens rotation (cs, sn) = (x_a, x_b) / |(x_a, x_b)| on a pair: x_a ← cs x_a + sn x_b,
// x_b ← −sn x_a + cs x_b (so that (x_a, x_b) itself becomes (|·|, 0)).
void rotate(Real cs, Real sn, Real& xa, Real& xb) {
  const Real a = xa, b = xb;
  xa = cs * a + sn * b;
  xb = -sn * a + cs * b;
}

// The same rotation on columns a and b of J: keeps Jᵀ n consistent with the rotated d or R.
void rotate_columns(Real cs, Real sn, Eigen::Index a, Eigen::Index b, MatX& j) {
  for (Eigen::Index i = 0; i < j.rows(); ++i) rotate(cs, sn, j(i, a), j(i, b));
}

// Adds the row with column d = Jᵀ n as the q-th active one: rotates d's tail into d_q.
void add_row(Eigen::Index q, DualActiveSetScratch& s) {
  for (Eigen::Index i = s.d.size() - 1; i > q; --i) {
    const Real h = std::hypot(s.d[i - 1], s.d[i]);
    if (h == 0) continue;
    const Real cs = s.d[i - 1] / h, sn = s.d[i] / h;
    s.d[i - 1] = h;  // the rotated pair, exactly
    s.d[i] = 0;
    rotate_columns(cs, sn, i - 1, i, s.J);
  }
  s.R.col(q).head(q + 1) = s.d.head(q + 1);
}

// Drops the k-th of q active rows: R loses column k, and rotations of rows (i, i+1) restore its
// triangle, applied to J's columns i, i+1 as well.
void drop_row(Eigen::Index k, Eigen::Index q, DualActiveSetScratch& s) {
  for (Eigen::Index col = k; col + 1 < q; ++col) {
    s.R.col(col).head(col + 2) = s.R.col(col + 1).head(col + 2);
    s.u[col] = s.u[col + 1];
    s.active[col] = s.active[col + 1];
  }
  s.active.pop_back();
  for (Eigen::Index i = k; i + 1 < q; ++i) {
    const Real h = std::hypot(s.R(i, i), s.R(i + 1, i));
    if (h == 0) continue;
    const Real cs = s.R(i, i) / h, sn = s.R(i + 1, i) / h;
    for (Eigen::Index col = i; col + 1 < q; ++col) rotate(cs, sn, s.R(i, col), s.R(i + 1, col));
    s.R(i + 1, i) = 0;
    rotate_columns(cs, sn, i, i + 1, s.J);
  }
}

// The method on one connected program (every block reached through the rows).
DualActiveSetResult solve_connected(const BlockDiagonal& M, const MatX& G, const VecX& c,
                                    const VecX& r, Real tolerance, Real independence,
                                    int max_iterations, DualActiveSetScratch& s, VecX& nu,
                                    VecX& z) {
  const Eigen::Index n = M.size(), m = G.cols();
  DualActiveSetResult result;
  // J = L⁻ᵀ block by block; the unconstrained minimum x = M⁻¹ c = J Jᵀ c.
  s.J.setZero(n, n);
  for (std::size_t k = 0; k < M.blocks.size(); ++k) {
    const Eigen::Index o = M.offsets[k], b = M.blocks[k].rows();
    const Eigen::LLT<MatX> llt(M.blocks[k]);
    if (llt.info() != Eigen::Success) return result;  // kNumerical: M not positive definite
    s.J.block(o, o, b, b) = llt.matrixU().solve(MatX::Identity(b, b));
  }
  s.x.noalias() = s.J * (s.J.transpose() * c);
  s.sparse_g = G.sparseView();  // a contact row touches at most two bodies' blocks
  s.R.setZero(n, n);
  s.u.setZero(n);
  s.active.clear();
  s.is_active.assign(m, 0);
  Eigen::Index q = 0;

  while (true) {
    // The most violated inactive row.
    s.s.noalias() = s.sparse_g.transpose() * s.x;
    s.s += r;
    Eigen::Index p = -1;
    Real worst = -tolerance;
    for (Eigen::Index i = 0; i < m; ++i)
      if (!s.is_active[i] && s.s[i] < worst) {
        worst = s.s[i];
        p = i;
      }
    if (!s.x.allFinite() || !s.s.allFinite()) return result;
    if (p < 0) break;
    Real u_p = 0;  // the multiplier of row p while it is being added
    while (true) {
      if (++result.iterations > max_iterations) {
        result.status = SolveStatus::kMaxIterations;
        return result;
      }
      s.d.noalias() = s.J.transpose() * s.sparse_g.col(p);  // (row p has a few nonzeros)
      const Real tail = s.d.tail(n - q).norm();
      // Change of the active multipliers per unit of u_p: R⁻¹ d₁.
      s.dual = s.R.topLeftCorner(q, q).triangularView<Eigen::Upper>().solve(s.d.head(q));
      Real t1 = kInfinity;
      Eigen::Index k = -1;
      for (Eigen::Index j = 0; j < q; ++j)
        if (s.dual[j] > 0 && s.u[j] / s.dual[j] < t1) {
          t1 = s.u[j] / s.dual[j];
          k = j;
        }
      // The primal step per unit of u_p, M⁻¹ (n_p − G_A R⁻¹ d₁) = J₂ d₂. Taken with every
      // partial step, so that M ν = c + G z stays exact.
      s.step.noalias() = s.J.rightCols(n - q) * s.d.tail(n - q);
      const bool dependent = !(tail > independence * s.d.norm());
      if (t1 == kInfinity && dependent) {
        // No active multiplier falls, and row p depends on the active rows (to `independence`):
        // n_p ≈ Σ dual_j n_j with every dual_j <= 0, so y = e_p − Σ dual_j e_j.
        result.farkas.setZero(m);
        result.farkas[p] = 1;
        for (Eigen::Index j = 0; j < q; ++j) result.farkas[s.active[j]] = -s.dual[j];
        result.farkas /= result.farkas.maxCoeff();
        result.status = SolveStatus::kInfeasible;
        return result;
      }
      // The full step that makes row p hold with equality; a dependent row cannot join (its pivot
      // in R would be below `independence`), only make room by partial steps. A partial step of a
      // dependent row may carry row p past equality (s_p > 0): then it joins at once (t2 = 0).
      const Real t2 =
          dependent ? kInfinity : std::max<Real>(0, -(G.col(p).dot(s.x) + r[p]) / (tail * tail));
      const Real t = std::min(t1, t2);
      s.x += t * s.step;
      s.u.head(q) -= t * s.dual;
      u_p += t;
      if (t2 <= t1) {  // full step: row p holds with equality and joins
        add_row(q, s);
        s.active.push_back(static_cast<int>(p));
        s.is_active[p] = 1;
        s.u[q++] = u_p;
        break;
      }
      s.is_active[s.active[k]] = 0;  // partial step: row k's multiplier reached 0
      drop_row(k, q--, s);
    }
  }
  nu = s.x;
  z.setZero(m);
  for (Eigen::Index j = 0; j < q; ++j) z[s.active[j]] = std::max<Real>(0, s.u[j]);
  result.status = SolveStatus::kSolved;
  return result;
}

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

DualActiveSetResult solve_dual_active_set(const BlockDiagonal& M, const MatX& G, const VecX& c,
                                          const VecX& r, Real tolerance, Real independence,
                                          int max_iterations, DualActiveSetScratch& s, VecX& nu,
                                          VecX& z) {
  const Eigen::Index n = M.size(), m = G.cols();
  if (max_iterations <= 0) max_iterations = static_cast<int>(10 * (n + m) + 100);
  // The program separates over the components of the graph of M's blocks joined by the rows
  // (a row touches the blocks of its column's nonzeros): each is solved on its own, with J and R
  // of its own size, and a block that no row touches rests at its unconstrained minimum M_k⁻¹ c_k.
  // A pile's push-outs touch few bodies each; solved whole, J alone is n_v × n_v.
  const int nb = static_cast<int>(M.blocks.size());
  std::vector<int>& parent = s.component;
  parent.resize(nb);
  for (int k = 0; k < nb; ++k) parent[k] = k;
  std::vector<int>& first_block = s.row_block;  // per row: a block it touches (−1: none)
  first_block.assign(m, -1);
  for (Eigen::Index i = 0; i < m; ++i)
    for (int k = 0; k < nb; ++k) {
      if (G.col(i).segment(M.offsets[k], M.blocks[k].rows()).isZero(0)) continue;
      if (first_block[i] < 0) {
        first_block[i] = k;
      } else {
        const int a = find_root(parent, first_block[i]), b = find_root(parent, k);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
    }
  int roots = 0;
  for (int k = 0; k < nb; ++k) roots += find_root(parent, k) == k;
  if (roots <= 1)
    return solve_connected(M, G, c, r, tolerance, independence, max_iterations, s, nu, z);

  DualActiveSetResult result;
  nu.resize(n);
  z.setZero(m);
  // Blocks and rows bucketed by their component's root (ascending within each bucket).
  std::vector<int>& block_begin = s.component_block_begin;
  std::vector<int>& row_begin = s.component_row_begin;
  block_begin.assign(nb + 1, 0);
  row_begin.assign(nb + 1, 0);
  for (int k = 0; k < nb; ++k) ++block_begin[find_root(parent, k) + 1];
  for (Eigen::Index i = 0; i < m; ++i)
    if (first_block[i] >= 0) ++row_begin[find_root(parent, first_block[i]) + 1];
  for (int k = 0; k < nb; ++k) {
    block_begin[k + 1] += block_begin[k];
    row_begin[k + 1] += row_begin[k];
  }
  std::vector<int>& all_blocks = s.component_blocks;
  std::vector<int>& all_rows = s.component_rows;
  all_blocks.resize(nb);
  all_rows.resize(row_begin[nb]);
  std::vector<int>& fill = s.local_offset;  // (then each block's offset in its component)
  fill.assign(block_begin.begin(), block_begin.end() - 1);
  for (int k = 0; k < nb; ++k) all_blocks[fill[find_root(parent, k)]++] = k;
  fill.assign(row_begin.begin(), row_begin.end() - 1);
  for (Eigen::Index i = 0; i < m; ++i)
    if (first_block[i] >= 0)
      all_rows[fill[find_root(parent, first_block[i])]++] = static_cast<int>(i);
  std::vector<int>& local = s.local_offset;
  local.assign(nb, -1);
  s.all_active.clear();
  for (int root = 0; root < nb; ++root) {
    if (find_root(parent, root) != root) continue;
    const std::span<const int> blocks(all_blocks.data() + block_begin[root],
                                      block_begin[root + 1] - block_begin[root]);
    const std::span<const int> rows(all_rows.data() + row_begin[root],
                                    row_begin[root + 1] - row_begin[root]);
    BlockDiagonal& sub = s.sub_m;
    sub.offsets.clear();
    sub.blocks.clear();
    for (const int k : blocks) {
      local[k] = sub.size();
      sub.add_block(M.blocks[k]);
    }
    const int sn = sub.size(), sm = static_cast<int>(rows.size());
    s.sub_g.setZero(sn, sm);
    s.sub_c.resize(sn);
    s.sub_r.resize(sm);
    for (const int k : blocks) {
      const Eigen::Index b = M.blocks[k].rows();
      s.sub_c.segment(local[k], b) = c.segment(M.offsets[k], b);
      for (int q = 0; q < sm; ++q)
        s.sub_g.col(q).segment(local[k], b) = G.col(rows[q]).segment(M.offsets[k], b);
    }
    for (int q = 0; q < sm; ++q) s.sub_r[q] = r[rows[q]];
    const DualActiveSetResult part =
        solve_connected(sub, s.sub_g, s.sub_c, s.sub_r, tolerance, independence,
                        max_iterations - result.iterations, s, s.sub_nu, s.sub_z);
    result.iterations += part.iterations;
    if (part.status == SolveStatus::kInfeasible) {  // its Farkas vector is the whole program's
      result.farkas.setZero(m);
      for (int q = 0; q < sm; ++q) result.farkas[rows[q]] = part.farkas[q];
    }
    if (part.status != SolveStatus::kSolved) {
      result.status = part.status;
      return result;
    }
    for (const int k : blocks)
      nu.segment(M.offsets[k], M.blocks[k].rows()) = s.sub_nu.segment(local[k], M.blocks[k].rows());
    for (int q = 0; q < sm; ++q) z[rows[q]] = s.sub_z[q];
    for (const int j : s.active) s.all_active.push_back(rows[j]);
  }
  s.active.swap(s.all_active);
  result.status = SolveStatus::kSolved;
  return result;
}

}  // namespace exactsim
