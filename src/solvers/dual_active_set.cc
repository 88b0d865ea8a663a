// Goldfarb and Idnani's dual active-set method (Math. Programming 27, 1983) for
//   min ½ νᵀ M ν − cᵀ ν   subject to   Gᵀ ν + r >= 0
// (docs/solvers.md "Dual active set"). It starts at the unconstrained minimum ν = M⁻¹ c and adds
// the most violated row at a time, keeping the multipliers of the active rows non-negative and
// the active rows satisfied with equality; a row whose multiplier would turn negative is dropped.
// The active rows' factor is kept in one of two forms (GramForm, OrthogonalForm below).
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

// u = W g for a sparse column g of G (only the blocks it touches).
void mobility(const BlockDiagonal& W, const std::vector<int>& block_of, const SparseColMatX& g,
              Eigen::Index col, VecX& u) {
  u.setZero(W.size());
  for (SparseColMatX::InnerIterator e(g, col); e; ++e) {
    const int k = block_of[e.row()];
    const Eigen::Index o = W.offsets[k], b = W.blocks[k].rows();
    u.segment(o, b) += e.value() * W.blocks[k].col(e.row() - o);
  }
}

// The Gram form: the Cholesky factor L Lᵀ = C of the active rows' Gram matrix C = G_Aᵀ W G_A
// (W = M⁻¹), appended to and downdated row by row. For a new row n with u = W n and a = G_Aᵀ u,
// the active multipliers change by C⁻¹ a per unit of its own, n's part independent of the active
// rows is e = n − G_A C⁻¹ a, and the primal step is W e. A row's column touches at most two
// bodies' blocks, so u, a and G_A C⁻¹ a are sparse, and an addition or a drop costs O(q²) on q
// active rows; C's condition number is the square of the rows'.
class GramForm {
 public:
  GramForm(const SparseColMatX& G, DualActiveSetScratch& s) : G_(G), s_(s) {}

  // W = M⁻¹ block by block and the unconstrained minimum x = W c; false where M is not SPD.
  bool start(const BlockDiagonal& M, const VecX& c) {
    const Eigen::Index n = M.size();
    BlockDiagonal& W = s_.inverse;
    W.offsets = M.offsets;
    W.blocks.resize(M.blocks.size());
    s_.block_of.resize(n);
    for (std::size_t k = 0; k < M.blocks.size(); ++k) {
      const Eigen::Index b = M.blocks[k].rows();
      const Eigen::LLT<MatX> llt(M.blocks[k]);
      if (llt.info() != Eigen::Success) return false;
      W.blocks[k] = llt.solve(MatX::Identity(b, b));
      for (Eigen::Index i = 0; i < b; ++i) s_.block_of[M.offsets[k] + i] = static_cast<int>(k);
    }
    W.apply(c, s_.x);
    // L grows with the active set (at most min(n, m) rows); only the lower triangle of its first
    // q rows is read, always written first.
    rank_ = std::min(n, G_.cols());
    const Eigen::Index first = std::min<Eigen::Index>(rank_, 64);
    if (s_.L.rows() == 0) s_.L.resize(first, first);
    s_.downdate.resize(n);
    s_.a.resize(n);
    return true;
  }

  // u = W n_p, and ‖n_p‖ in the M⁻¹ metric.
  void begin_row(Eigen::Index p) {
    mobility(s_.inverse, s_.block_of, G_, p, s_.w_np);
    length_ = std::sqrt(G_.col(p).dot(s_.w_np));
  }
  Real length() const { return length_; }

  // s.dual = C⁻¹ a and s.step = W e per unit of u_p; returns ‖e‖ in the M⁻¹ metric (from e,
  // where nᵀu − ‖l‖² would cancel to √ε).
  Real directions(Eigen::Index p, Eigen::Index q) {
    const Eigen::Index n = s_.x.size();
    for (Eigen::Index j = 0; j < q; ++j) s_.a[j] = G_.col(s_.active[j]).dot(s_.w_np);
    const auto lower = s_.L.topLeftCorner(q, q).triangularView<Eigen::Lower>();
    s_.l = lower.solve(s_.a.head(q));
    s_.dual = lower.transpose().solve(s_.l);
    s_.e.setZero(n);
    for (SparseColMatX::InnerIterator e(G_, p); e; ++e) s_.e[e.row()] = e.value();
    for (Eigen::Index j = 0; j < q; ++j)
      for (SparseColMatX::InnerIterator e(G_, s_.active[j]); e; ++e)
        s_.e[e.row()] -= s_.dual[j] * e.value();
    s_.inverse.apply(s_.e, s_.step);
    return std::sqrt(std::max<Real>(0, s_.e.dot(s_.step)));
  }

  // Row p joins as the q-th active row: L gains the row [lᵀ tail].
  void add(Eigen::Index q, Real tail) {
    if (q == s_.L.rows()) {
      const Eigen::Index grown = std::min(rank_, 2 * q);
      s_.L.conservativeResize(grown, grown);
    }
    s_.L.row(q).head(q) = s_.l.transpose();
    s_.L(q, q) = tail;
  }

  // The k-th of q active rows leaves: L loses row and column k, and the trailing block absorbs
  // the dropped column's part below the diagonal, L₂₂ L₂₂ᵀ + v vᵀ, by Givens rotations (a
  // rank-one Cholesky update).
  void drop(Eigen::Index k, Eigen::Index q) {
    MatX& L = s_.L;
    VecX& v = s_.downdate;
    for (Eigen::Index i = k + 1; i < q; ++i) v[i - k - 1] = L(i, k);
    // Rows below k move up by one, columns after k left by one: column by column, since L is
    // column-major (row by row, every copy is a cache miss once q passes a few hundred).
    for (Eigen::Index j = 0; j < k; ++j)
      for (Eigen::Index i = k + 1; i < q; ++i) L(i - 1, j) = L(i, j);
    for (Eigen::Index j = k + 1; j < q; ++j)
      for (Eigen::Index i = j; i < q; ++i) L(i - 1, j - 1) = L(i, j);
    const Eigen::Index len = q - 1 - k;
    for (Eigen::Index j = 0; j < len; ++j) {
      Real& ljj = L(k + j, k + j);
      const Real h = std::hypot(ljj, v[j]);
      const Real cs = h / ljj, sn = v[j] / ljj;
      ljj = h;
      for (Eigen::Index i = j + 1; i < len; ++i) {
        Real& lij = L(k + i, k + j);
        lij = (lij + sn * v[i]) / cs;
        v[i] = cs * v[i] - sn * lij;
      }
    }
  }

 private:
  const SparseColMatX& G_;
  DualActiveSetScratch& s_;
  Eigen::Index rank_ = 0;
  Real length_ = 0;
};

// The orthogonal form (Goldfarb and Idnani's own): with M = L_M L_Mᵀ it keeps J = L_M⁻ᵀ Q and R
// with Jᵀ G_A = [R; 0] (Q orthogonal, updated by Givens rotations). For a new row n, d = Jᵀ n:
// the change of the active multipliers is R⁻¹ d₁, the primal step J₂ d₂ (the columns of J past
// the active count), and the independent part's length ‖d₂‖, computed without squaring the rows'
// condition number. O(n_v²) per row added or dropped.
class OrthogonalForm {
 public:
  OrthogonalForm(const SparseColMatX& G, DualActiveSetScratch& s) : G_(G), s_(s) {}

  // J = L_M⁻ᵀ block by block and the unconstrained minimum x = M⁻¹ c = J Jᵀ c.
  bool start(const BlockDiagonal& M, const VecX& c) {
    const Eigen::Index n = M.size();
    s_.J.setZero(n, n);
    for (std::size_t k = 0; k < M.blocks.size(); ++k) {
      const Eigen::Index o = M.offsets[k], b = M.blocks[k].rows();
      const Eigen::LLT<MatX> llt(M.blocks[k]);
      if (llt.info() != Eigen::Success) return false;
      s_.J.block(o, o, b, b) = llt.matrixU().solve(MatX::Identity(b, b));
    }
    s_.x.noalias() = s_.J * (s_.J.transpose() * c);
    s_.R.setZero(n, n);
    return true;
  }

  void begin_row(Eigen::Index) {}
  Real length() const { return s_.d.norm(); }

  Real directions(Eigen::Index p, Eigen::Index q) {
    const Eigen::Index n = s_.x.size();
    s_.d.noalias() = s_.J.transpose() * G_.col(p);
    s_.dual = s_.R.topLeftCorner(q, q).triangularView<Eigen::Upper>().solve(s_.d.head(q));
    s_.step.noalias() = s_.J.rightCols(n - q) * s_.d.tail(n - q);
    return s_.d.tail(n - q).norm();
  }

  // Row p (d = Jᵀ n_p) joins as the q-th active row: d's tail is rotated into d_q.
  void add(Eigen::Index q, Real) {
    for (Eigen::Index i = s_.d.size() - 1; i > q; --i) {
      const Real h = std::hypot(s_.d[i - 1], s_.d[i]);
      if (h == 0) continue;
      const Real cs = s_.d[i - 1] / h, sn = s_.d[i] / h;
      s_.d[i - 1] = h;  // the rotated pair, exactly
      s_.d[i] = 0;
      rotate_columns(cs, sn, i - 1, i);
    }
    s_.R.col(q).head(q + 1) = s_.d.head(q + 1);
  }

  // The k-th of q active rows leaves: R loses column k, and rotations of rows (i, i+1) restore
  // its triangle, applied to J's columns i, i+1 as well.
  void drop(Eigen::Index k, Eigen::Index q) {
    MatX& R = s_.R;
    for (Eigen::Index col = k; col + 1 < q; ++col)
      R.col(col).head(col + 2) = R.col(col + 1).head(col + 2);
    for (Eigen::Index i = k; i + 1 < q; ++i) {
      const Real h = std::hypot(R(i, i), R(i + 1, i));
      if (h == 0) continue;
      const Real cs = R(i, i) / h, sn = R(i + 1, i) / h;
      for (Eigen::Index col = i; col + 1 < q; ++col) rotate(cs, sn, R(i, col), R(i + 1, col));
      R(i + 1, i) = 0;
      rotate_columns(cs, sn, i, i + 1);
    }
  }

 private:
  // The rotation on columns a and b of J: keeps Jᵀ n consistent with the rotated d or R.
  void rotate_columns(Real cs, Real sn, Eigen::Index a, Eigen::Index b) {
    for (Eigen::Index i = 0; i < s_.J.rows(); ++i) rotate(cs, sn, s_.J(i, a), s_.J(i, b));
  }

  const SparseColMatX& G_;
  DualActiveSetScratch& s_;
};

// The method on one connected program (every block reached through the rows), its active rows'
// factor in `Form`.
template <class Form>
DualActiveSetResult solve_connected(const BlockDiagonal& M, const SparseColMatX& G, const VecX& c,
                                    const VecX& r, Real tolerance, Real independence,
                                    int max_iterations, DualActiveSetScratch& s, VecX& nu,
                                    VecX& z) {
  const Eigen::Index n = M.size(), m = G.cols();
  DualActiveSetResult result;
  Form form(G, s);
  if (!form.start(M, c)) return result;  // kNumerical: M not positive definite
  s.u.setZero(n);
  s.active.clear();
  s.is_active.assign(m, 0);
  Eigen::Index q = 0;

  while (true) {
    // The most violated inactive row.
    s.s.noalias() = G.transpose() * s.x;
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
    form.begin_row(p);
    while (true) {
      if (++result.iterations > max_iterations) {
        result.status = SolveStatus::kMaxIterations;
        return result;
      }
      // The change of the active multipliers (s.dual) and the primal step (s.step, taken with
      // every partial step, so that M ν = c + G z stays exact) per unit of u_p, and the length
      // of n_p's part independent of the active rows.
      const Real tail = form.directions(p, q);
      Real t1 = kInfinity;
      Eigen::Index k = -1;
      for (Eigen::Index j = 0; j < q; ++j)
        if (s.dual[j] > 0 && s.u[j] / s.dual[j] < t1) {
          t1 = s.u[j] / s.dual[j];
          k = j;
        }
      const bool dependent = q == n || !(tail > independence * form.length());
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
      // in the factor would be below `independence`), only make room by partial steps. A partial
      // step of a dependent row may carry row p past equality (s_p > 0): then it joins at once
      // (t2 = 0).
      const Real t2 =
          dependent ? kInfinity : std::max<Real>(0, -(G.col(p).dot(s.x) + r[p]) / (tail * tail));
      const Real t = std::min(t1, t2);
      s.x += t * s.step;
      s.u.head(q) -= t * s.dual;
      u_p += t;
      if (t2 <= t1) {  // full step: row p holds with equality and joins
        form.add(q, tail);
        s.active.push_back(static_cast<int>(p));
        s.is_active[p] = 1;
        s.u[q++] = u_p;
        break;
      }
      s.is_active[s.active[k]] = 0;  // partial step: row k's multiplier reached 0
      form.drop(k, q);
      for (Eigen::Index j = k; j + 1 < q; ++j) {
        s.u[j] = s.u[j + 1];
        s.active[j] = s.active[j + 1];
      }
      s.active.pop_back();
      --q;
    }
  }
  nu = s.x;
  z.setZero(m);
  for (Eigen::Index j = 0; j < q; ++j) z[s.active[j]] = std::max<Real>(0, s.u[j]);
  result.status = SolveStatus::kSolved;
  return result;
}

DualActiveSetResult solve_connected(DualActiveSetForm form, const BlockDiagonal& M,
                                    const SparseColMatX& G, const VecX& c, const VecX& r,
                                    Real tolerance, Real independence, int max_iterations,
                                    DualActiveSetScratch& s, VecX& nu, VecX& z) {
  return form == DualActiveSetForm::kOrthogonal
             ? solve_connected<OrthogonalForm>(M, G, c, r, tolerance, independence, max_iterations,
                                               s, nu, z)
             : solve_connected<GramForm>(M, G, c, r, tolerance, independence, max_iterations, s, nu,
                                         z);
}

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

DualActiveSetResult solve_dual_active_set(const BlockDiagonal& M, const SparseColMatX& G,
                                          const VecX& c, const VecX& r, Real tolerance,
                                          Real independence, int max_iterations,
                                          DualActiveSetScratch& s, VecX& nu, VecX& z,
                                          DualActiveSetForm form) {
  const Eigen::Index n = M.size(), m = G.cols();
  if (max_iterations <= 0) max_iterations = static_cast<int>(10 * (n + m) + 100);
  // The program separates over the components of the graph of M's blocks joined by the rows
  // (a row touches the blocks of its column's nonzeros): each is solved on its own, with a factor
  // of its own size, and a block that no row touches rests at its unconstrained minimum M_k⁻¹ c_k.
  // A pile's push-outs touch few bodies each; solved whole, the orthogonal form's J alone is
  // n_v × n_v.
  const int nb = static_cast<int>(M.blocks.size());
  std::vector<int>& parent = s.component;
  parent.resize(nb);
  for (int k = 0; k < nb; ++k) parent[k] = k;
  std::vector<int>& block_of = s.velocity_block;
  block_of.resize(n);
  for (int k = 0; k < nb; ++k)
    for (Eigen::Index i = 0; i < M.blocks[k].rows(); ++i) block_of[M.offsets[k] + i] = k;
  std::vector<int>& first_block = s.row_block;  // per row: a block it touches (−1: none)
  first_block.assign(m, -1);
  for (Eigen::Index i = 0; i < m; ++i)
    for (SparseColMatX::InnerIterator e(G, i); e; ++e) {
      if (e.value() == 0) continue;
      const int k = block_of[e.row()];
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
    return solve_connected(form, M, G, c, r, tolerance, independence, max_iterations, s, nu, z);

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
    s.sub_c.resize(sn);
    s.sub_r.resize(sm);
    for (const int k : blocks) {
      const Eigen::Index b = M.blocks[k].rows();
      s.sub_c.segment(local[k], b) = c.segment(M.offsets[k], b);
    }
    s.sub_g.resize(sn, sm);
    s.sub_g.setZero();
    for (int q = 0; q < sm; ++q) {
      s.sub_r[q] = r[rows[q]];
      s.sub_g.startVec(q);
      for (SparseColMatX::InnerIterator e(G, rows[q]); e; ++e) {
        if (e.value() == 0) continue;
        const int k = block_of[e.row()];
        s.sub_g.insertBack(local[k] + (e.row() - M.offsets[k]), q) = e.value();
      }
    }
    s.sub_g.finalize();
    const DualActiveSetResult part =
        solve_connected(form, sub, s.sub_g, s.sub_c, s.sub_r, tolerance, independence,
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

DualActiveSetResult solve_dual_active_set(const BlockDiagonal& M, const MatX& G, const VecX& c,
                                          const VecX& r, Real tolerance, Real independence,
                                          int max_iterations, DualActiveSetScratch& s, VecX& nu,
                                          VecX& z, DualActiveSetForm form) {
  s.dense_g = G.sparseView(1, 0);  // exact zeros left out
  return solve_dual_active_set(M, s.dense_g, c, r, tolerance, independence, max_iterations, s, nu,
                               z, form);
}

}  // namespace exactsim
