// A primal–dual interior-point method on the body-space MLCP (docs/solvers.md "Large islands: the
// sparse path"; Mehrotra's predictor–corrector for the LCP, Wright 1997 ch. 8): iterates (ν, z, w)
// with z, w > 0 towards M ν = G z + c, w = Hᵀ ν + D z + r, z∘w = 0. Each iteration eliminates z and
// w through the blocks of D + Z⁻¹W (D couples only the rows of one contact's cone or one PEG group,
// so they are small) and solves the body-space system
//
//   S Δν = …,   S = M + G (D + Z⁻¹W)⁻¹ Hᵀ   (n_v × n_v, the pattern of the body graph)
//
// with one sparse LU, analysed once per solve: by blocks of bodies (block_lu.h), symmetric problems
// too (SparseMlcpScratch::symmetric: the position projection's QP), else KLU's, or a sparse
// Cholesky factorisation where the problem is symmetric. It needs no basis and is
// indifferent to degenerate rows (coplanar contacts of a patch); where it ends is certified on the
// whole problem.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <Eigen/Dense>

#include "exactsim/solvers/sparse_mlcp.h"
#include "solvers/block_lu.h"
#include "solvers/cone_inverse.h"
#include "solvers/sparse_lu.h"
#include "solvers/union_find.h"

namespace exactsim {
namespace {

// The neighbourhood of the central path the iterates keep (Wright 1997, algorithm IPF): every
// z_i w_i >= γ μ, and the residual relative to its start at most β μ/μ₀. γ = 10⁻⁵ rather than
// 10⁻⁴ took 0.80–0.89 of the solve time on the 3D piles of 100 hulls (docs/solvers.md "Large
// islands: the sparse path").
constexpr Real kCentrality = 1e-5;
constexpr Real kInfeasibility = 10;
// It stops where the certificate holds with this margin (its answer is certified again on the
// whole problem). Stopping at 1/2 of the certificate's bounds instead of 1/5 took 0.88–0.94 of
// the solve time on the 3D piles of 100 hulls (docs/solvers.md "Interior point").
constexpr Real kMargin = 0.5;
// Where the predictor–corrector's step is shorter than this, a run with `recentre` takes the
// centring direction (σ = 1, no second-order term) instead. On the non-monotone LCPs of friction
// the corrector can point out of the orthant near its boundary, and the steps then shrink to
// 10⁻³–10⁻¹⁰ for the rest of the run; but at a fold of the central path the centring direction
// holds the run there (docs/solvers.md "Interior point").
constexpr Real kRecentreBelow = 0.1;
// A Newton direction is refined unless the first solve's residual of the unreduced equations is
// already below this fraction of the stopping bounds.
constexpr Real kRefineAbove = 0.01;
// A run has stalled where neither μ nor the residual fell below this fraction of its value
// kIpStallWindow iterations before. On the friction LCPs of a pile a few cones can hold the step
// length to 10⁻²–10⁻⁵ while μ stays where it is (their Newton system is near singular:
// Stewart–Trinkle matrices are not P₀); the run then ends there instead of at its iteration cap
// (docs/solvers.md "Interior point").
constexpr int kIpStallWindow = 12;
constexpr Real kStallFactor = 0.5;
// A run whose best iterate so far lies within kBestWithin of the stopping bounds (products and
// rows; momentum within its own: 3/4 of the certificate's bounds) ends there once μ has not halved
// in kBestStallWindow iterations, and a run that stalls or runs out of iterations ends there too
// instead of at its last iterate (SparseMlcpScratch::best_iterate). On the piles' friction LCPs a
// run can pass within the certificate's bounds and then drift for dozens of iterations, a few
// products held above them (docs/solvers.md "Interior point": 1.5 against 2, the certificate's
// own bounds, 0.981 and 1.092 of the step on the 2D pour of 300 polygons).
constexpr Real kBestWithin = 1.5;
constexpr int kBestStallWindow = 4;
// Arc-length continuation (arc_length; docs/solvers.md "Arc-length continuation"): the first step
// and the longest, in the metric of (log z, log t) that weighs log z by 1/m; the growth after a
// step whose corrector took at most two solves; at most this many corrector solves before the
// step halves; and the corrector's band, F's rows within this fraction of t rd₀ (on the 2D pour
// of 100 polygons' stalled sets, 208 factorisations a set on average; with 0.1, 227).
constexpr Real kArcFirstStep = 0.5;
constexpr Real kArcLongestStep = 30;
constexpr Real kArcGrowth = 2;
constexpr int kArcCorrections = 6;
constexpr Real kArcCentring = 0.3;

}  // namespace

void couple_rows(const SparseMlcp& p, CoupledRows& out) {
  const int m = p.size();
  std::vector<int> parent(m);
  std::iota(parent.begin(), parent.end(), 0);
  for (int i = 0; i < m; ++i)
    for (SparseRowMatX::InnerIterator e(p.D, i); e; ++e)
      union_join(parent, i, static_cast<int>(e.col()));
  out.group_of.assign(m, -1);
  out.begin.clear();
  out.rows.clear();
  std::vector<int> root_group(m, -1), count;
  for (int i = 0; i < m; ++i) {
    const int root = union_root(parent, i);
    if (root_group[root] < 0) {
      root_group[root] = static_cast<int>(count.size());
      count.push_back(0);
    }
    out.group_of[i] = root_group[root];
    ++count[root_group[root]];
  }
  out.begin.assign(count.size() + 1, 0);
  for (std::size_t g = 0; g < count.size(); ++g) out.begin[g + 1] = out.begin[g] + count[g];
  out.rows.resize(m);
  std::vector<int> fill(out.begin.begin(), out.begin.end() - 1);
  for (int i = 0; i < m; ++i) out.rows[fill[out.group_of[i]]++] = i;
  // Each group's bodies: the blocks its columns of G and H touch.
  out.block_begin.assign(count.size() + 1, 0);
  out.blocks.clear();
  std::vector<int> seen;
  for (std::size_t g = 0; g < count.size(); ++g) {
    seen.clear();
    for (int q = out.begin[g]; q < out.begin[g + 1]; ++q) {
      const int j = out.rows[q];
      for (const BlockColumns* a : {&p.g, &p.h})
        for (int e = a->begin[j]; e < a->begin[j + 1]; ++e)
          if (std::find(seen.begin(), seen.end(), a->block[e]) == seen.end())
            seen.push_back(a->block[e]);
    }
    std::sort(seen.begin(), seen.end());
    out.blocks.insert(out.blocks.end(), seen.begin(), seen.end());
    out.block_begin[g + 1] = static_cast<int>(out.blocks.size());
  }
}

namespace {

// A group's G_g and H_g (n × nq, its columns on its bodies' local rows) and K⁻¹ (nq × nq) are
// kept column-major one after the other in Ipm::store, every group's in turn: the products of an
// iteration read them group by group, in the order they lie in memory. H_g is not kept where it
// equals G_g (7 of 8 groups on the 3D pours of 100 hulls).
struct Group {
  int n = 0, nq = 0;    // local velocities, rows
  std::size_t at = 0;   // where G_g begins in Ipm::store (H_g, unless h_is_g, and K⁻¹ follow)
  bool h_is_g = false;  // H_g = G_g
  MatX d;               // D_gg, the same at every iteration
  MatX k;               // K = D_gg + Λ_g (a group has a few rows: one cone or one PEG group)
  bool cone = false;    // D_gg has a cone's shape: K⁻¹ in closed form (cone_inverse.h)
  std::size_t columns() const { return static_cast<std::size_t>(n) * nq; }
  std::size_t size() const {
    return (h_is_g ? 1 : 2) * columns() + static_cast<std::size_t>(nq) * nq;
  }
};

struct Ipm {
  std::vector<Group> groups;
  std::vector<Real> store;  // each group's G_g, H_g, K⁻¹ (Group)
  Real* g_of(const Group& grp) { return store.data() + grp.at; }
  Real* h_of(const Group& grp) { return grp.h_is_g ? g_of(grp) : g_of(grp) + grp.columns(); }
  Real* kinv_of(const Group& grp) { return g_of(grp) + grp.size() - grp.nq * grp.nq; }
  // Where each entry of S goes in the factorised matrix's values, in the order `factor` adds
  // them (M's blocks, then each group's contribution; pattern_of_s): S keeps one pattern within a
  // solve, laid out once from the body graph.
  std::vector<int> slot;
  // Where each entry goes in s.block_lu's values (empty: S is not factorised by blocks).
  std::vector<int> block_slot;
  bool blocked = false;      // the last factor is s.block_lu's (else s.lu's)
  bool lu_analysed = false;  // s.lu holds an analysis of this run's S
  // Each group's velocities: the indices in ν of its local rows (its bodies' blocks stacked),
  // velocity[velocity_begin[g] ..].
  std::vector<int> velocity, velocity_begin;
  std::vector<Real> contribution;   // one group's G_g K⁻¹ H_gᵀ (column-major)
  MatX inverse;                     // one group's K⁻¹ as Gauss–Jordan leaves it (dynamic sizes)
  VecX local, local_out;            // one group's rows
  VecX htdnu;                       // Hᵀ Δν of the last solve_direction
  Real refine_p = 0, refine_r = 0;  // momentum and row residuals of a direction left unrefined
  VecX rp, rd, rc, t, dnu, dz, dw, dz_aff, dw_aff, dnu_aff, y, lambda;
};

// Local rows of a group: its bodies' blocks stacked.
int local_size(const SparseMlcp& p, const CoupledRows& c, int g, std::vector<int>& local) {
  local.clear();
  int n = 0;
  for (int q = c.block_begin[g]; q < c.block_begin[g + 1]; ++q) {
    local.push_back(n);
    n += static_cast<int>(p.M.blocks[c.blocks[q]].rows());
  }
  return n;
}

void gather_columns(const SparseMlcp& p, const CoupledRows& c, int g, const BlockColumns& a,
                    MatX& out) {
  std::vector<int> local;
  const int n = local_size(p, c, g, local);
  const int q0 = c.begin[g], nq = c.begin[g + 1] - q0;
  out.setZero(n, nq);
  for (int q = 0; q < nq; ++q) {
    const int j = c.rows[q0 + q];
    for (int e = a.begin[j]; e < a.begin[j + 1]; ++e) {
      const int k = a.block[e];
      int slot = 0;
      while (c.blocks[c.block_begin[g] + slot] != k) ++slot;
      const int nb = static_cast<int>(p.M.blocks[k].rows());
      out.col(q).segment(local[slot], nb) = a.values[e].head(nb);
    }
  }
}

// D_gg: the entries of D among group g's rows.
void gather_coupling(const SparseMlcp& p, const CoupledRows& c, int g, MatX& out) {
  const int q0 = c.begin[g], nq = c.begin[g + 1] - q0;
  out.setZero(nq, nq);
  for (int a = 0; a < nq; ++a)
    for (SparseRowMatX::InnerIterator e(p.D, c.rows[q0 + a]); e; ++e) {
      int b = 0;
      while (c.rows[q0 + b] != e.col()) ++b;
      out(a, b) = e.value();
    }
}

// inv = a⁻¹ by Gauss–Jordan elimination with partial pivoting (a is the K of a group that is not a
// cone, a PEG group: a few rows, where a blocked LU and its triangular solves cost more than the
// arithmetic). a is overwritten; a singular a gives non-finite entries.
template <class Matrix>
void invert(Matrix& a, Matrix& inv) {
  const Eigen::Index n = a.rows();
  inv.setIdentity(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    Eigen::Index p = j;
    for (Eigen::Index i = j + 1; i < n; ++i)
      if (std::abs(a(i, j)) > std::abs(a(p, j))) p = i;
    if (p != j) {
      a.row(p).swap(a.row(j));
      inv.row(p).swap(inv.row(j));
    }
    const Real pivot = 1 / a(j, j);
    a.row(j) *= pivot;
    inv.row(j) *= pivot;
    for (Eigen::Index i = 0; i < n; ++i) {
      const Real f = a(i, j);
      if (i == j || f == 0) continue;
      a.row(i) -= f * a.row(j);
      inv.row(i) -= f * inv.row(j);
    }
  }
}

// contribution = G_g K⁻¹ H_gᵀ for a group of NQ rows on N local velocities (g and h are N × NQ),
// and K⁻¹ from grp.k where it is not there already (a cone's is, in closed form). The usual
// groups, one cone on one or two bodies, have fixed sizes: there the products are
// coefficient-based, without the blocked kernel's packing (docs/solvers.md "Interior point").
template <int NQ, int N>
void group_product(Ipm& ipm, Group& grp, Real* contribution) {
  if constexpr (NQ == Eigen::Dynamic) {
    const Eigen::Map<const MatX> g(ipm.g_of(grp), grp.n, grp.nq), h(ipm.h_of(grp), grp.n, grp.nq);
    Eigen::Map<MatX> kinv(ipm.kinv_of(grp), grp.nq, grp.nq);
    if (!grp.cone) {
      invert(grp.k, ipm.inverse);
      kinv = ipm.inverse;
    }
    Eigen::Map<MatX>(contribution, grp.n, grp.n).noalias() =
        g.lazyProduct(kinv.lazyProduct(h.transpose()));
  } else {
    using Square = Eigen::Matrix<Real, NQ, NQ>;
    using Columns = Eigen::Matrix<Real, N, NQ>;
    Square inv;
    if (grp.cone) {
      inv = Eigen::Map<const Square>(ipm.kinv_of(grp));
    } else {
      Square a = Eigen::Map<const Square>(grp.k.data());
      invert(a, inv);
      Eigen::Map<Square>(ipm.kinv_of(grp)) = inv;
    }
    const Eigen::Map<const Columns> gm(ipm.g_of(grp)), hm(ipm.h_of(grp));
    Eigen::Map<Eigen::Matrix<Real, N, N>> out(contribution);
    if constexpr (NQ == 1) {
      out.noalias() = (inv(0, 0) * gm) * hm.transpose();
    } else {
      const Eigen::Matrix<Real, NQ, N> kinv_ht = inv.lazyProduct(hm.transpose());
      out.noalias() = gm.lazyProduct(kinv_ht);
    }
  }
}

// Calls f.template operator()<NQ, N>() for a group of nq rows on n local velocities: fixed sizes
// for the usual groups (one cone on one or two bodies, 3D and 2D), else Eigen::Dynamic.
template <class F>
void by_size(int nq, int n, F&& f) {
  if (nq == 6 && n == 12)
    f.template operator()<6, 12>();
  else if (nq == 6 && n == 6)
    f.template operator()<6, 6>();
  else if (nq == 7 && n == 12)
    f.template operator()<7, 12>();
  else if (nq == 7 && n == 6)
    f.template operator()<7, 6>();
  else if (nq == 8 && n == 12)
    f.template operator()<8, 12>();
  else if (nq == 5 && n == 6)
    f.template operator()<5, 6>();
  else if (nq == 4 && n == 6)
    f.template operator()<4, 6>();
  else if (nq == 4 && n == 3)
    f.template operator()<4, 3>();
  else if (nq == 1 && n == 12)
    f.template operator()<1, 12>();
  else if (nq == 1 && n == 6)
    f.template operator()<1, 6>();
  else if (nq == 1 && n == 3)
    f.template operator()<1, 3>();
  else
    f.template operator()<Eigen::Dynamic, Eigen::Dynamic>();
}

// y += G x, group by group: G_g x_g (its dense columns, Ipm::g_of) added on its velocities.
// The groups hold every row once, so this is G x with each group's product in fixed sizes.
void multiply_g(const CoupledRows& c, Ipm& ipm, const VecX& x, VecX& y) {
  for (int g = 0; g + 1 < static_cast<int>(c.begin.size()); ++g) {
    const Group& grp = ipm.groups[g];
    const int* rows = c.rows.data() + c.begin[g];
    const int* velocity = ipm.velocity.data() + ipm.velocity_begin[g];
    const int nq = grp.nq, n = grp.n;
    const Real* gg = ipm.g_of(grp);
    by_size(nq, n, [&]<int NQ, int N>() {
      using Local = Eigen::Matrix<Real, NQ, 1>;
      using Out = Eigen::Matrix<Real, N, 1>;
      if constexpr (NQ == Eigen::Dynamic) {
        ipm.local.resize(nq);
        for (int a = 0; a < nq; ++a) ipm.local[a] = x[rows[a]];
        ipm.local_out.noalias() = Eigen::Map<const MatX>(gg, n, nq) * ipm.local;
        for (int a = 0; a < n; ++a) y[velocity[a]] += ipm.local_out[a];
      } else {
        Local local;
        for (int a = 0; a < NQ; ++a) local[a] = x[rows[a]];
        const Out out = Eigen::Map<const Eigen::Matrix<Real, N, NQ>>(gg) * local;
        for (int a = 0; a < N; ++a) y[velocity[a]] += out[a];
      }
    });
  }
}

// y = Hᵀ v (m rows), group by group: H_gᵀ v_g from the group's velocities.
void multiply_ht(const CoupledRows& c, Ipm& ipm, const VecX& v, VecX& y) {
  y.resize(static_cast<Eigen::Index>(c.rows.size()));
  for (int g = 0; g + 1 < static_cast<int>(c.begin.size()); ++g) {
    const Group& grp = ipm.groups[g];
    const int* rows = c.rows.data() + c.begin[g];
    const int* velocity = ipm.velocity.data() + ipm.velocity_begin[g];
    const int nq = grp.nq, n = grp.n;
    const Real* h = ipm.h_of(grp);
    by_size(nq, n, [&]<int NQ, int N>() {
      using Local = Eigen::Matrix<Real, N, 1>;
      using Out = Eigen::Matrix<Real, NQ, 1>;
      if constexpr (NQ == Eigen::Dynamic) {
        ipm.local.resize(n);
        for (int a = 0; a < n; ++a) ipm.local[a] = v[velocity[a]];
        ipm.local_out.noalias() = Eigen::Map<const MatX>(h, n, nq).transpose() * ipm.local;
        for (int a = 0; a < nq; ++a) y[rows[a]] = ipm.local_out[a];
      } else {
        Local local;
        for (int a = 0; a < N; ++a) local[a] = v[velocity[a]];
        const Out out = Eigen::Map<const Eigen::Matrix<Real, N, NQ>>(h).transpose() * local;
        for (int a = 0; a < NQ; ++a) y[rows[a]] = out[a];
      }
    });
  }
}

// The rows' values w = Hᵀ ν + D z + r (sparse_rows, through the groups).
void group_rows(const SparseMlcp& p, const CoupledRows& c, Ipm& ipm, const VecX& nu, const VecX& z,
                VecX& w) {
  multiply_ht(c, ipm, nu, w);
  w += p.r;
  w.noalias() += p.D * z;
}

// S's pattern from the body graph: M's blocks, and for each group a dense block for every pair of
// its bodies; each column's rows ascending. `slot` receives where each entry `factor` adds lands in
// S's values, in its order: M's blocks by columns, then each group's G K⁻¹ Hᵀ by rows.
void pattern_of_s(const SparseMlcp& p, const CoupledRows& c, Eigen::SparseMatrix<Real>& S,
                  std::vector<int>& slot) {
  const BlockDiagonal& M = p.M;
  const int bodies = static_cast<int>(M.blocks.size()), nv = M.size();
  const auto rows_of = [&](int k) { return static_cast<int>(M.blocks[k].rows()); };
  // The nonzero blocks (column body, row body), by columns, rows ascending.
  std::vector<std::pair<int, int>> pairs;
  for (int k = 0; k < bodies; ++k) pairs.emplace_back(k, k);
  for (int g = 0; g + 1 < static_cast<int>(c.block_begin.size()); ++g)
    for (int q = c.block_begin[g]; q < c.block_begin[g + 1]; ++q)
      for (int r = c.block_begin[g]; r < c.block_begin[g + 1]; ++r)
        pairs.emplace_back(c.blocks[q], c.blocks[r]);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::vector<int> column_begin(bodies + 1, 0), above(pairs.size());  // rows above each block
  std::vector<int> height(bodies, 0);  // rows of a body's columns
  for (std::size_t e = 0; e < pairs.size(); ++e) {
    const int l = pairs[e].first;
    ++column_begin[l + 1];
    above[e] = height[l];
    height[l] += rows_of(pairs[e].second);
  }
  for (int l = 0; l < bodies; ++l) column_begin[l + 1] += column_begin[l];
  long nonzeros = 0;
  for (int l = 0; l < bodies; ++l) nonzeros += static_cast<long>(height[l]) * rows_of(l);
  S.resize(nv, nv);
  S.resizeNonZeros(static_cast<Eigen::Index>(nonzeros));
  int* outer = S.outerIndexPtr();
  int* inner = S.innerIndexPtr();
  int at = 0;
  for (int l = 0; l < bodies; ++l)
    for (int b = 0; b < rows_of(l); ++b) {
      outer[M.offsets[l] + b] = at;
      for (int e = column_begin[l]; e < column_begin[l + 1]; ++e)
        for (int a = 0, k = pairs[e].second; a < rows_of(k); ++a) inner[at++] = M.offsets[k] + a;
    }
  outer[nv] = at;
  // Where row a of body k, column b of body l lands.
  const auto block = [&](int l, int k) {
    return static_cast<int>(std::lower_bound(pairs.begin() + column_begin[l],
                                             pairs.begin() + column_begin[l + 1],
                                             std::make_pair(l, k)) -
                            pairs.begin());
  };
  slot.clear();
  for (int k = 0; k < bodies; ++k) {
    const int e = block(k, k);
    for (int b = 0; b < rows_of(k); ++b)
      for (int a = 0; a < rows_of(k); ++a) slot.push_back(outer[M.offsets[k] + b] + above[e] + a);
  }
  // Each local row's body (its index among the group's), its row there, and for each pair of the
  // group's bodies where its block's rows begin within a column.
  std::vector<int> local_body, row, pair_above;
  for (int g = 0; g + 1 < static_cast<int>(c.block_begin.size()); ++g) {
    const int q0 = c.block_begin[g], count = c.block_begin[g + 1] - q0;
    local_body.clear();
    row.clear();
    for (int q = 0; q < count; ++q)
      for (int a = 0; a < rows_of(c.blocks[q0 + q]); ++a) {
        local_body.push_back(q);
        row.push_back(a);
      }
    pair_above.resize(static_cast<std::size_t>(count) * count);
    for (int qa = 0; qa < count; ++qa)
      for (int qb = 0; qb < count; ++qb)
        pair_above[qa * count + qb] = above[block(c.blocks[q0 + qb], c.blocks[q0 + qa])];
    const int n = static_cast<int>(row.size());
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        slot.push_back(outer[M.offsets[c.blocks[q0 + local_body[b]]] + row[b]] +
                       pair_above[local_body[a] * count + local_body[b]] + row[a]);
  }
}

// Adds the n × n column-major `a` into S's values, its entries' slots from slot[next] on (row by
// row: pattern_of_s's order) or, for M's blocks, column by column (`by_columns`). Where S is
// factorised by blocks of `b` rows (b > 0) each b × b block of `a` goes whole: BlockLu keeps a
// block's values column-major and contiguous from the slot of its first entry.
void add_into(const Real* a, int n, bool by_columns, Real* values, const std::vector<int>& slot,
              std::size_t& next, int b) {
  const auto at = [&](int row, int col) {
    return slot[next + (by_columns ? row + col * n : row * n + col)];
  };
  if (b > 0) {
    for (int cb = 0; cb < n; cb += b)
      for (int rb = 0; rb < n; rb += b) {
        Real* out = values + at(rb, cb);
        for (int col = 0; col < b; ++col)
          for (int row = 0; row < b; ++row) out[row + col * b] += a[rb + row + (cb + col) * n];
      }
  } else {
    for (int row = 0; row < n; ++row)
      for (int col = 0; col < n; ++col) values[at(row, col)] += a[row + col * n];
  }
  next += static_cast<std::size_t>(n) * n;
}

// Sums S = M + Σ_g G_g K_g⁻¹ H_gᵀ into `values` through `slot` (in the order pattern_of_s lays
// out: M's blocks, then each group's; blocks of `block` rows as add_into), with each group's K⁻¹
// from K = D_gg + diag(w/z).
void assemble_s(const SparseMlcp& p, const CoupledRows& c, const VecX& z, const VecX& w, Ipm& ipm,
                Real* values, const std::vector<int>& slot, int block) {
  std::size_t next = 0;
  for (const MatX& m : p.M.blocks)
    add_into(m.data(), static_cast<int>(m.rows()), true, values, slot, next, block);
  Real* contribution = ipm.contribution.data();
  for (int g = 0; g + 1 < static_cast<int>(c.begin.size()); ++g) {
    Group& grp = ipm.groups[g];
    const int q0 = c.begin[g], nq = c.begin[g + 1] - q0;
    if (grp.cone) {
      cone_inverse(grp.d, z.data(), w.data(), c.rows.data() + q0, ipm.kinv_of(grp));
    } else {
      grp.k = grp.d;
      for (int a = 0; a < nq; ++a) {
        const int i = c.rows[q0 + a];
        grp.k(a, a) += w[i] / z[i];
      }
    }
    const int n = grp.n;
    by_size(nq, n, [&]<int NQ, int N>() { group_product<NQ, N>(ipm, grp, contribution); });
    add_into(contribution, n, false, values, slot, next, block);
  }
}

// Factorises S. The first iteration lays out S's pattern (zeros too: it is the analysis's at every
// iteration). Where every body has 3 or 6 velocities S is summed into blocks of bodies and
// factorised by them (block_lu.h), a symmetric S too: on the position projection's QPs of the 3D
// pours of 300 and 1,000 hulls that took 0.78 and 0.54 of CHOLMOD's integrate time
// (docs/solvers.md "Interior point"). Where that declines, or s.by_blocks is off, S is summed
// into s.lu->matrix and factorised by KLU (pivoting across bodies) or, symmetric, by CHOLMOD.
bool factor(const SparseMlcp& p, const CoupledRows& c, const VecX& z, const VecX& w, Ipm& ipm,
            SparseMlcpScratch& s, bool analyse) {
  if (!s.lu) s.lu = std::make_shared<SparseBasisLu>();
  Eigen::SparseMatrix<Real>& S = s.lu->matrix;
  if (analyse) {
    pattern_of_s(p, c, S, ipm.slot);
    ipm.lu_analysed = false;
    ipm.block_slot.clear();
    const int size = p.M.blocks.empty() ? 0 : static_cast<int>(p.M.blocks[0].rows());
    bool uniform = s.by_blocks;
    for (const MatX& b : p.M.blocks) uniform = uniform && b.rows() == size;
    if (uniform && !s.block_lu) s.block_lu = std::make_shared<BlockLu>();
    if (uniform && s.block_lu->analyse(S, size)) {
      ipm.block_slot.resize(ipm.slot.size());
      for (std::size_t q = 0; q < ipm.slot.size(); ++q)
        ipm.block_slot[q] = s.block_lu->slot[ipm.slot[q]];
    }
  }
  ipm.blocked = false;
  if (!ipm.block_slot.empty()) {
    BlockLu& f = *s.block_lu;
    std::fill(f.values.begin(), f.values.end(), Real(0));
    assemble_s(p, c, z, w, ipm, f.values.data(), ipm.block_slot, f.size);
    ipm.blocked = f.factor();
    if (ipm.blocked) return true;
  }
  Real* values = S.valuePtr();
  std::fill(values, values + S.nonZeros(), Real(0));
  assemble_s(p, c, z, w, ipm, values, ipm.slot, 0);
  if (s.symmetric) return s.lu->factor_spd(!analyse, 0);
  const bool same_pattern = ipm.lu_analysed;
  ipm.lu_analysed = true;
  return s.lu->factor(SparseLuBackend::kAuto, same_pattern, 0, false);
}

// y_g = K_g⁻¹ v_g for a group of NQ rows, in a fixed size for the usual groups (one cone in 2D or
// 3D); for these sizes the product adds in the dynamic-size kernel's order.
template <int NQ>
void solve_group(const Real* kinv, const int* rows, const VecX& v, VecX& y) {
  Eigen::Matrix<Real, NQ, 1> local, out;
  for (int a = 0; a < NQ; ++a) local[a] = v[rows[a]];
  out.noalias() = Eigen::Map<const Eigen::Matrix<Real, NQ, NQ>>(kinv) * local;
  for (int a = 0; a < NQ; ++a) y[rows[a]] = out[a];
}

// Per group: y_g = K_g⁻¹ v_g.
void solve_groups(const CoupledRows& c, Ipm& ipm, const VecX& v, VecX& y) {
  y.resize(v.size());
  for (int g = 0; g + 1 < static_cast<int>(c.begin.size()); ++g) {
    const int q0 = c.begin[g], nq = c.begin[g + 1] - q0;
    const int* rows = c.rows.data() + q0;
    const Real* kinv = ipm.kinv_of(ipm.groups[g]);
    if (nq == 6) {
      solve_group<6>(kinv, rows, v, y);
    } else if (nq == 4) {
      solve_group<4>(kinv, rows, v, y);
    } else if (nq == 1) {
      y[rows[0]] = kinv[0] * v[rows[0]];
    } else {
      ipm.local.resize(nq);
      for (int a = 0; a < nq; ++a) ipm.local[a] = v[rows[a]];
      ipm.local_out.noalias() = Eigen::Map<const MatX>(kinv, nq, nq) * ipm.local;
      for (int a = 0; a < nq; ++a) y[rows[a]] = ipm.local_out[a];
    }
  }
}

// The Newton direction of the linearised equations
//   M Δν − G Δz = −rp,  −Hᵀ Δν − D Δz + Δw = −rd,  W Δz + Z Δw = rc,
// through K = D + Z⁻¹W: Δz = K⁻¹ (rd + Z⁻¹ rc − Hᵀ Δν), S Δν = −rp + G K⁻¹ (rd + Z⁻¹ rc),
// Δw = Z⁻¹ (rc − W Δz); then one step of iterative refinement on the unreduced equations (S is
// ill-conditioned once z_i/w_i spans many orders of magnitude) where their residual is not already
// far below the stopping bounds.
bool solve_direction(const CoupledRows& c, const VecX& z, const VecX& w, Ipm& ipm,
                     SparseMlcpScratch& s, const VecX& rp, const VecX& rd, const VecX& rc,
                     VecX& dnu, VecX& dz, VecX& dw) {
  ipm.t = rd + rc.cwiseQuotient(z);
  solve_groups(c, ipm, ipm.t, ipm.y);
  VecX rhs = -rp;
  multiply_g(c, ipm, ipm.y, rhs);
  if (ipm.blocked)
    s.block_lu->solve(rhs);
  else
    s.lu->solve(rhs);
  dnu.swap(rhs);
  if (!dnu.allFinite()) return false;
  multiply_ht(c, ipm, dnu, ipm.htdnu);
  solve_groups(c, ipm, ipm.t - ipm.htdnu, dz);
  dw = (rc - w.cwiseProduct(dz)).cwiseQuotient(z);
  return dz.allFinite() && dw.allFinite();
}

bool direction(const SparseMlcp& p, const CoupledRows& c, const VecX& z, const VecX& w, Ipm& ipm,
               SparseMlcpScratch& s, const VecX& rc, VecX& dnu, VecX& dz, VecX& dw) {
  if (!solve_direction(c, z, w, ipm, s, ipm.rp, ipm.rd, rc, dnu, dz, dw)) return false;
  // Residual of the unreduced equations: e1 = M Δν − G Δz + rp, e2 = −Hᵀ Δν − D Δz + Δw + rd.
  VecX e1, gdz = VecX::Zero(p.M.size());
  p.M.apply(dnu, e1);
  multiply_g(c, ipm, dz, gdz);
  e1 += ipm.rp - gdz;
  VecX e2 = dw + ipm.rd - ipm.htdnu - p.D * dz;
  if (e1.lpNorm<Eigen::Infinity>() <= ipm.refine_p && e2.lpNorm<Eigen::Infinity>() <= ipm.refine_r)
    return true;
  VecX cnu, cz, cw;
  if (!solve_direction(c, z, w, ipm, s, e1, e2, VecX::Zero(z.size()), cnu, cz, cw)) return false;
  dnu += cnu;
  dz += cz;
  dw += cw;
  return true;
}

Real step_to_boundary(const VecX& x, const VecX& dx) {
  Real alpha = 1;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (dx[i] < 0) alpha = std::min(alpha, -x[i] / dx[i]);
  return alpha;
}

// The rows' coupling groups and their constant parts (G_g, H_g, D_gg).
void prepare_groups(const SparseMlcp& p, CoupledRows& c, Ipm& ipm) {
  couple_rows(p, c);
  const int n_groups = static_cast<int>(c.begin.size()) - 1;
  ipm.groups.resize(n_groups);
  ipm.store.clear();
  MatX columns_g, columns_h;
  ipm.velocity.clear();
  ipm.velocity_begin.assign(1, 0);
  std::size_t largest = 0;
  for (int g = 0; g < n_groups; ++g) {
    for (int q = c.block_begin[g]; q < c.block_begin[g + 1]; ++q) {
      const int k = c.blocks[q], nb = static_cast<int>(p.M.blocks[k].rows());
      for (int a = 0; a < nb; ++a) ipm.velocity.push_back(p.M.offsets[k] + a);
    }
    ipm.velocity_begin.push_back(static_cast<int>(ipm.velocity.size()));
    Group& grp = ipm.groups[g];
    gather_columns(p, c, g, p.g, columns_g);
    gather_columns(p, c, g, p.h, columns_h);
    gather_coupling(p, c, g, grp.d);
    grp.cone = is_cone(grp.d);
    grp.n = static_cast<int>(columns_g.rows());
    grp.nq = static_cast<int>(columns_g.cols());
    grp.h_is_g = columns_h == columns_g;
    grp.at = ipm.store.size();
    ipm.store.resize(grp.at + grp.size());
    std::copy_n(columns_g.data(), columns_g.size(), ipm.g_of(grp));
    if (!grp.h_is_g) std::copy_n(columns_h.data(), columns_h.size(), ipm.h_of(grp));
    largest = std::max<std::size_t>(largest, static_cast<std::size_t>(grp.n) * grp.n);
  }
  ipm.contribution.resize(largest);
}

// The cold start's z_i and w_i: w a velocity V (the free rows' scale), z `start` × the impulse
// that makes it on the most mobile row.
void start_scales(const SparseMlcpScratch& s, Real start, Real& z_start, Real& w_start) {
  const Real v_scale = std::max<Real>(s.b.lpNorm<Eigen::Infinity>(), 1e-3);
  const Real mobility = std::max<Real>(s.n_diag.cwiseAbs().maxCoeff(), 1e-12);
  z_start = start * v_scale / mobility;
  w_start = start * v_scale;
}

// Every z_i = z_start, w_i = w_start, and ν = W (c + G z).
void cold_start(const SparseMlcp& p, const SparseMlcpScratch& s, Real z_start, Real w_start,
                VecX& nu, VecX& z, VecX& w) {
  const int m = p.size(), nv = p.M.size();
  z.setConstant(m, z_start);
  w.setConstant(m, w_start);
  nu = s.Wc;
  VecX gz = VecX::Zero(nv);
  p.g.multiply_add(p.M, z, gz);
  VecX wgz;
  s.W.apply(gz, wgz);
  nu += wgz;
}

// Where interior_point and arc_length stop: the certificate's bounds (tolerance tol, impulse scale
// Z) times kMargin, on z∘w (tol Z), the rows (tol) and the momentum (tol max(1, Z)). Each Newton
// direction is refined above kRefineAbove of the row and momentum bounds.
struct StopBounds {
  Real comp, rows, momentum;
  StopBounds(Real tol, Real scale, Ipm& ipm)
      : comp(kMargin * tol * scale),
        rows(kMargin * tol),
        momentum(kMargin * tol * std::max<Real>(1, scale)) {
    ipm.refine_p = kRefineAbove * momentum;
    ipm.refine_r = kRefineAbove * rows;
  }
  // At z with the rows' true values `w_true` and the momentum residual rp.
  bool met(const VecX& z, const VecX& w_true, const VecX& rp) const {
    return met(z, w_true) && rp.lpNorm<Eigen::Infinity>() <= momentum;
  }
  // At z with the rows' values at a ν that balances momentum exactly.
  bool met(const VecX& z, const VecX& w_true) const {
    return z.cwiseProduct(w_true).cwiseAbs().maxCoeff() <= comp && w_true.minCoeff() >= -rows;
  }
  // The larger of z∘w and −w against these bounds (met: <= 1), where the momentum residual
  // is within its own (elsewhere +∞).
  Real excess(const VecX& z, const VecX& w_true, const VecX& rp) const {
    if (!(rp.lpNorm<Eigen::Infinity>() <= momentum)) return std::numeric_limits<Real>::infinity();
    return std::max(z.cwiseProduct(w_true).cwiseAbs().maxCoeff() / comp, -w_true.minCoeff() / rows);
  }
};

}  // namespace

bool interior_point(const SparseMlcp& p, Real tol, Real scale, int max_iterations,
                    SparseMlcpScratch& s, VecX& nu, VecX& z, VecX& w, int& iterations, Real start,
                    const MlcpSolution* near, bool recentre) {
  const int m = p.size(), nv = p.M.size();
  CoupledRows& c = s.coupled;
  Ipm ipm;
  prepare_groups(p, c, ipm);
  // Start: w a velocity V, z `start` × the impulse that makes it and ν free; or `near`'s ν and
  // z with its rows, each z_i and w_i at least those.
  Real z_start, w_start;
  start_scales(s, start, z_start, w_start);
  if (near != nullptr) {
    nu = near->nu;
    z = near->z.cwiseMax(z_start);
    sparse_rows(p, nu, z, w);
    w = w.cwiseMax(w_start);
  } else {
    cold_start(p, s, z_start, w_start, nu, z, w);
  }
  const StopBounds stop(tol, scale, ipm);
  if (s.symmetric) ipm.refine_p = 0;
  Real mu0 = 1, residual0 = 1;
  std::vector<Real> mus, residuals;  // at each iteration
  // With s.best_iterate: the best iterate within kBestWithin of the stopping bounds by
  // StopBounds::excess (none: +∞), and the last iterate's measure.
  Real best = std::numeric_limits<Real>::infinity(), last = best;
  VecX best_nu, best_z, best_w, best_z_previous, best_w_previous;
  // Where the run ends uncertified: at that best iterate instead of its last.
  const auto give_up = [&] {
    if (best <= kBestWithin && best < last) {
      nu.swap(best_nu);
      z.swap(best_z);
      w.swap(best_w);
      s.z_previous.swap(best_z_previous);
      s.w_previous.swap(best_w_previous);
    }
    return false;
  };
  for (int it = 0; it < max_iterations; ++it, ++iterations) {
    // Residuals.
    VecX gz = VecX::Zero(nv), mnu;
    multiply_g(c, ipm, z, gz);
    p.M.apply(nu, mnu);
    ipm.rp = mnu - gz - p.c;
    VecX wt;
    group_rows(p, c, ipm, nu, z, wt);
    ipm.rd = w - wt;
    const Real mu = z.dot(w) / m;
    const Real residual = std::max(ipm.rp.lpNorm<Eigen::Infinity>() / stop.momentum,
                                   ipm.rd.lpNorm<Eigen::Infinity>() / stop.rows);
    if (it == 0) mu0 = mu, residual0 = std::max<Real>(residual, 1);
    // The certificate's quantities at this iterate: w − rd is the true row value.
    if (s.symmetric) {
      // A QP's answer is its multipliers z, certified at ν̂ = W (c + G z) (the position
      // projection's judge_qp_point): a momentum residual rp within its bound moves the rows by
      // Hᵀ W rp, beyond their bound where W is large (light bodies, long lever arms), so the run
      // stops on the rows at ν̂, and refines every direction (refine_p = 0 above).
      s.W.apply(gz, mnu);
      mnu += s.Wc;
      group_rows(p, c, ipm, mnu, z, wt);
      if (stop.met(z, wt)) {
        nu = mnu;
        w = wt;
        return true;
      }
    } else if (stop.met(z, wt, ipm.rp)) {
      return true;
    } else if (s.best_iterate) {
      last = stop.excess(z, wt, ipm.rp);
      if (last < best && last <= kBestWithin) {
        best = last;
        best_nu = nu;
        best_z = z;
        best_w = w;
        best_z_previous = s.z_previous;
        best_w_previous = s.w_previous;
      }
    }
    mus.push_back(mu);
    residuals.push_back(residual);
    if (it >= kIpStallWindow && mu > kStallFactor * mus[it - kIpStallWindow] &&
        residual > kStallFactor * residuals[it - kIpStallWindow])
      return give_up();
    if (best <= kBestWithin && it >= kBestStallWindow &&
        mu > kStallFactor * mus[it - kBestStallWindow])
      return give_up();
    if (!factor(p, c, z, w, ipm, s, it == 0)) return false;
    // Predictor.
    VecX rc = -z.cwiseProduct(w);
    if (!direction(p, c, z, w, ipm, s, rc, ipm.dnu_aff, ipm.dz_aff, ipm.dw_aff)) return false;
    const Real a_aff = std::min(step_to_boundary(z, ipm.dz_aff), step_to_boundary(w, ipm.dw_aff));
    const Real mu_aff = (z + a_aff * ipm.dz_aff).dot(w + a_aff * ipm.dw_aff) / m;
    const Real sigma = std::pow(std::clamp<Real>(mu_aff / mu, 0, 1), 3);
    // Corrector.
    rc = -z.cwiseProduct(w) - ipm.dz_aff.cwiseProduct(ipm.dw_aff);
    rc.array() += sigma * mu;
    if (!direction(p, c, z, w, ipm, s, rc, ipm.dnu, ipm.dz, ipm.dw)) return false;
    // Step: the largest α (from 0.995 of the boundary) that keeps every product z_i w_i above
    // γ μ(α) and the residual within β μ(α)/μ₀ of where it started (Wright 1997, algorithm IPF:
    // the residual may not outlive the complementarity).
    const auto step_length = [&] {
      Real a = std::min<Real>(
          1, 0.995 * std::min(step_to_boundary(z, ipm.dz), step_to_boundary(w, ipm.dw)));
      // μ(α) = (z + α Δz)ᵀ(w + α Δw)/m from three products; the smallest z_i w_i(α) row by row.
      const Real zw = z.dot(w), cross = z.dot(ipm.dw) + ipm.dz.dot(w), dd = ipm.dz.dot(ipm.dw);
      const auto smallest_product = [&](Real at) {
        Real low = std::numeric_limits<Real>::infinity();
        for (int i = 0; i < m; ++i)
          low = std::min(low, (z[i] + at * ipm.dz[i]) * (w[i] + at * ipm.dw[i]));
        return low;
      };
      for (; a > 1e-10; a *= 0.8) {
        const Real mu_t = (zw + a * cross + a * a * dd) / m;
        if ((1 - a) * residual > kInfeasibility * mu_t / mu0 * residual0) continue;
        if (smallest_product(a) < kCentrality * mu_t) continue;
        break;
      }
      return a;
    };
    Real alpha = step_length();
    if (recentre && alpha < kRecentreBelow) {  // the centring direction instead
      rc = -z.cwiseProduct(w);
      rc.array() += mu;
      if (!direction(p, c, z, w, ipm, s, rc, ipm.dnu, ipm.dz, ipm.dw)) return false;
      alpha = step_length();
    }
    s.z_previous = z;
    s.w_previous = w;
    nu += alpha * ipm.dnu;
    z += alpha * ipm.dz;
    w += alpha * ipm.dw;
    z = z.cwiseMax(std::numeric_limits<Real>::min());
    w = w.cwiseMax(std::numeric_limits<Real>::min());
  }
  return give_up();
}

bool arc_length(const SparseMlcp& p, Real tol, Real scale, int max_solves, SparseMlcpScratch& s,
                VecX& nu, VecX& z, VecX& w, int& iterations) {
  const int m = p.size(), nv = p.M.size();
  CoupledRows& c = s.coupled;
  Ipm ipm;
  prepare_groups(p, c, ipm);
  Real z_start, w_start;
  start_scales(s, 1, z_start, w_start);
  cold_start(p, s, z_start, w_start, nu, z, w);
  const Real log_mu0 = std::log(z_start * w_start);
  const StopBounds stop(tol, scale, ipm);
  // F = (M ν − G z − c − t rp₀, w − (Hᵀν + D z + r) − t rd₀) in f1, f2, the rows in `rows`.
  VecX rows, gz, mnu, f1, f2;
  const auto residual = [&](const VecX& nu_, const VecX& z_, const VecX& w_, Real t,
                            const VecX* rp0, const VecX* rd0) {
    gz.setZero(nv);
    multiply_g(c, ipm, z_, gz);
    p.M.apply(nu_, mnu);
    f1 = mnu - gz - p.c;
    group_rows(p, c, ipm, nu_, z_, rows);
    f2 = w_ - rows;
    if (rp0 != nullptr) f1 -= t * *rp0;
    if (rd0 != nullptr) f2 -= t * *rd0;
  };
  residual(nu, z, w, 0, nullptr, nullptr);
  const VecX rp0 = f1, rd0 = f2;
  // The corrector's bounds on the rows' and the momentum residual at t (the momentum one in the
  // units of the rows' times the largest mass), never below the stop's; the rows' floor is a
  // fraction of the free rows' scale (w_start: the start's w at scale 1).
  const Real rd0_max = rd0.lpNorm<Eigen::Infinity>();
  Real mass_max = 0;
  for (const MatX& b : p.M.blocks)
    mass_max = std::max(mass_max, b.diagonal().cwiseAbs().maxCoeff());
  // The point: ν, log z, log t; z and w from the logarithms.
  VecX lz = z.array().log().matrix();
  Real lt = 0;
  const auto exponentials = [&](const VecX& lz_, Real lt_, VecX& z_, VecX& w_) {
    z_ = lz_.array().exp().matrix();
    w_ = (log_mu0 + lt_ - lz_.array()).exp().matrix();
    return z_.allFinite() && w_.allFinite() && z_.minCoeff() > 0 && w_.minCoeff() > 0;
  };
  // The bordered system at (z, w, t), factorised anew:
  //   A [dν; dz] + col dlt = a,  wz τ_zᵀ (dz / z) + τ_t dlt = ρ,
  // A [dν; dz] = [M dν − G dz; −Hᵀ dν − (D + Z⁻¹W) dz] (the interior point's Newton matrix),
  // col = [−t rp₀; w − t rd₀] (F's derivative in log t), by block elimination: x1 = A⁻¹ a,
  // x2 = A⁻¹ col, dlt from the border row. dlz = dz / z.
  bool analyse = true;
  int solves = 0;
  VecX x1nu, x1z, x1w, x2nu, x2z, x2w;
  const VecX no_rc = VecX::Zero(m);
  const auto bordered = [&](const VecX& z_, const VecX& w_, Real t, const VecX& a1, const VecX& a2,
                            const VecX& border_z, Real border_t, Real rho, VecX& dnu, VecX& dlz,
                            Real& dlt) {
    ++solves;
    ++iterations;
    if (!factor(p, c, z_, w_, ipm, s, analyse)) return false;
    analyse = false;
    ipm.rp = -a1;
    ipm.rd = -a2;
    if (!direction(p, c, z_, w_, ipm, s, no_rc, x1nu, x1z, x1w)) return false;
    ipm.rp = t * rp0;
    ipm.rd = t * rd0 - w_;
    if (!direction(p, c, z_, w_, ipm, s, no_rc, x2nu, x2z, x2w)) return false;
    dlt = (rho - border_z.dot(x1z.cwiseQuotient(z_))) /
          (border_t - border_z.dot(x2z.cwiseQuotient(z_)));
    if (!std::isfinite(dlt)) return false;
    dnu = x1nu - dlt * x2nu;
    dlz = (x1z - dlt * x2z).cwiseQuotient(z_);
    return dnu.allFinite() && dlz.allFinite();
  };
  // The arc length's metric: wz ‖dlz‖² + dlt², so that t moves by a step's order whatever m.
  const Real wz = Real(1) / m;
  VecX tau_nu = VecX::Zero(nv), tau_z = VecX::Zero(m);
  Real tau_t = -1;  // (t falls first)
  Real step = kArcFirstStep;
  VecX dnu, dlz, nu_c, lz_c, z_c, w_c, nu_p, lz_p, nu_last, lz_last;
  Real lt_last = 0;
  bool have_last = false;
  while (solves < max_solves) {
    // The tangent: from [J; wz τ_prevᵀ] τ = e at the first point, then the secant through the
    // last two points (no solve).
    Real dlt = 0;
    if (have_last) {
      dnu = nu - nu_last;
      dlz = lz - lz_last;
      dlt = lt - lt_last;
    } else if (!bordered(z, w, std::exp(lt), VecX::Zero(nv), no_rc, wz * tau_z, tau_t, 1, dnu, dlz,
                         dlt)) {
      return false;
    }
    const Real norm = std::sqrt(wz * dlz.squaredNorm() + dlt * dlt);
    if (!(norm > 0)) return false;
    const Real sign = (wz * dlz.dot(tau_z) + dlt * tau_t) < 0 ? -1 : 1;
    tau_nu = (sign / norm) * dnu;
    tau_z = (sign / norm) * dlz;
    tau_t = sign * dlt / norm;
    // A predictor along it and Newton's corrector on [F; border] = 0 (orthogonal to it); the step
    // halves where that does not converge.
    bool converged = false;
    int k = 0;
    Real lt_c = 0;
    while (!converged) {
      nu_p = nu + step * tau_nu;
      lz_p = lz + step * tau_z;
      const Real lt_p = lt + step * tau_t;
      nu_c = nu_p;
      lz_c = lz_p;
      lt_c = lt_p;
      for (k = 0; k < kArcCorrections && solves < max_solves; ++k) {
        if (!exponentials(lz_c, lt_c, z_c, w_c)) break;
        const Real t = std::exp(lt_c);
        residual(nu_c, z_c, w_c, t, &rp0, &rd0);
        const Real band = kArcCentring * t * rd0_max;
        if (k > 0 && f2.lpNorm<Eigen::Infinity>() <= band + 1e-13 * w_start &&
            f1.lpNorm<Eigen::Infinity>() <= std::max(0.1 * stop.momentum, band * mass_max)) {
          converged = true;
          break;
        }
        const Real rho = -(wz * tau_z.dot(lz_c - lz_p) + tau_t * (lt_c - lt_p));
        Real d_t = 0;
        if (!bordered(z_c, w_c, t, -f1, -f2, wz * tau_z, tau_t, rho, dnu, dlz, d_t)) break;
        if (dlz.lpNorm<Eigen::Infinity>() > 2) break;  // z_i changing by more than e²: too far
        nu_c += dnu;
        lz_c += dlz;
        lt_c += d_t;
      }
      if (converged) break;
      step *= 0.5;
      if (step < 1e-8 || solves >= max_solves) return false;
    }
    s.z_previous = z;
    s.w_previous = w;
    nu_last = nu;
    lz_last = lz;
    lt_last = lt;
    have_last = true;
    nu.swap(nu_c);
    lz.swap(lz_c);
    lt = lt_c;
    z = z_c;
    w = w_c;
    if (k <= 2) step = std::min(kArcGrowth * step, kArcLongestStep);
    // interior_point's stop, on the rows at this point.
    residual(nu, z, w, 0, nullptr, nullptr);
    if (stop.met(z, rows, f1)) return true;
  }
  return false;
}

}  // namespace exactsim
