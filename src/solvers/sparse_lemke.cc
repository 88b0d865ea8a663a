// Sparse Lemke (docs/solvers.md "Large islands: the sparse path"): lexicographic Lemke on LCP(N, b)
// with N = Hᵀ M⁻¹ G + D never formed, pivoting on the unreduced system
//
//   M ν − G z = c,   w − Hᵀ ν − D z − d z₀ = r
//
// (sparse_lemke.h). The basis is a sparse LU of B₀ (KLU, UMFPACK or Eigen's SparseLU) and the
// eta file E₁ … E_k of the pivots since (product form: B = B₀ E₁ ⋯ E_k, Dantzig & Orchard-Hays
// 1954). ν never leaves, so every eta column's pivot sits in a row of the m complementarity
// positions: only that part of the FTRANs, of the etas and of x_B is kept, and ν is recovered
// from z at the end (ν = W (G z + c)). The pivoting rules are the dense Lemke's (lemke.cc):
// the lexicographic ratio test with consistent tie tolerances (z₀ leaves on any tie), small
// pivots and rays decided again on a refined column and then on a fresh factorisation, cycle
// detection by basis fingerprints, and the Farkas test of a secondary ray.
#include "exactsim/solvers/sparse_lemke.h"
#include "solvers/lcp_scratch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "exactsim/math/error.h"
#include "solvers/sparse_lu.h"

namespace exactsim {

// The basis, its factorisations and the run's vectors. Variables are numbered as in the dense
// Lemke: w_i = i, z_j = m + j, z₀ = 2m; basis position q (0 … m−1) is row n_v + q of B.
struct SparseLemkeState {
  SparseBasisLu lu[2];  // the current factorisation and the spare a refactorisation fills
  int current = 0;
  Eigen::SparseMatrix<Real> d_columns;  // D by columns (the basic z's columns of B)
  VecX cover;                           // covering vector d (m)
  std::vector<int> basis;               // position → variable
  VecX x, y;                            // basic values and entering column, by position (m)
  VecX full, column, residual, correction, z_work, nu_work, impulse, row_best, row_next, v;
  VecX lex_column;  // a column of B⁻¹ at the positions (lexicographic)
  // Eta file: eta t has pivot position eta_row[t], pivot eta_pivot[t] and the other nonzeros
  // (eta_index, eta_value)[eta_begin[t] … eta_begin[t+1]).
  std::vector<int> eta_begin, eta_row, eta_index;
  std::vector<Real> eta_pivot, eta_value;
  std::vector<Eigen::Triplet<Real>> triplets;
  std::vector<int> candidates, support, lex_left;
  std::vector<bool> kept;           // a warm start's basis without its dependent unknowns
  std::vector<std::uint64_t> seen;  // basis fingerprints (cycle detection)
  std::size_t seen_used = 0;
};

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// A pivot below this fraction of the entering column's largest entry is decided again on a
// refined column, then on a fresh factorisation (lemke.cc, kSparseSmallPivot).
constexpr Real kSparseSmallPivot = 1e-8;
// With SolverOptions::diagnostics.extended_precision_retry, the warm run and the first cold run
// break ties only between near-exact ratios (1e-15 relative, the dense Lemke's first retry): on the
// settled 3D pile of 100 hulls the options' ties (1e-12) merge ratios that are not tied and the
// path cycles (docs/solvers.md "Why Lemke fails on frictional LCPs"; measured in
// docs/performance.md "The 100-hull pile as a scene file").
Real near_exact_ties(const SolverOptions& options) {
  return std::min(options.diagnostics.ratio_tie_tolerance, 1e-15);
}
// The cold runs in the order tried (without extended_precision_retry, 0 alone): 0 the options'
// ties, 1 near-exact ties, 2 those with pivot tolerance 1e-9, 3 and 4 near-exact ties with two
// covering vectors of distinct entries. A settled pile's free rows repeat (under gravity alone a
// resting body translates, so its contacts with one normal, a face–face patch's vertices, have
// equal b_i): with d = 1 its ratio tests tie from z₀'s first pivot on, and distinct d_i make
// those ratios distinct. On the 3D piles of 100 hulls the first cold run certified 25 of 36 times
// with covering vector 3 and 11 of 34 with 1, and the options' ties after near-exact ones 1 of
// 23 (docs/solvers.md "Sparse Lemke", docs/performance.md "The sparse Lemke's cold runs").
constexpr int kColdStrategies[] = {3, 1, 2, 4, 0};
// Refactorisation at least every this many pivots when SolverOptions::diagnostics.refactor_interval
// is 0 (the eta file's size, SparseLemkeScratch::eta_growth, usually decides first).
constexpr int kRefactorInterval = 200;
// Polish of the final basic solution: at most this many refinement steps.
constexpr int kSparsePolishSteps = 3;

// Basis fingerprints (lemke.cc, CycleDetector): the lexicographic rule never revisits a basis in
// exact arithmetic, so a repeated one proves that rounding broke it.
std::uint64_t sparse_variable_hash(int id) {
  std::uint64_t x = static_cast<std::uint64_t>(id) + 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool seen_before(std::vector<std::uint64_t>& table, std::size_t& used, std::uint64_t fp) {
  if (fp == 0) fp = 1;
  if (2 * used >= table.size()) return false;  // half full: stop recording
  const std::size_t mask = table.size() - 1;
  for (std::size_t k = fp & mask;; k = (k + 1) & mask) {
    if (table[k] == fp) return true;
    if (table[k] == 0) {
      table[k] = fp;
      ++used;
      return false;
    }
  }
}

struct SparseRunResult {
  SolveStatus status = SolveStatus::kNumerical;
  int pivots = 0;
  bool start_failed = false;  // the start basis is singular or its z₀ column not negative
  int entering = -1;          // at a ray: the entering variable
};

// One Lemke run on the state's basis.
struct Run {
  const SparseMlcp& p;
  const SolverOptions& o;
  SparseLemkeScratch& s;
  SparseLemkeState& st;
  const int nv, m, n, z0;
  const Real tie_rel;
  const Real tol;  // the certificate's tolerance (units of w)
  int interval = kRefactorInterval;

  Run(const SparseMlcp& problem, const SolverOptions& options, SparseLemkeScratch& scratch,
      Real tolerance)
      : p(problem),
        o(options),
        s(scratch),
        st(*scratch.state),
        nv(problem.M.size()),
        m(problem.size()),
        n(problem.M.size() + problem.size()),
        z0(2 * problem.size()),
        tie_rel(std::max<Real>(options.diagnostics.ratio_tie_tolerance,
                               64 * std::numeric_limits<Real>::epsilon())),
        tol(tolerance) {
    if (o.diagnostics.refactor_interval > 0) interval = o.diagnostics.refactor_interval;
  }

  SparseBasisLu& lu() { return st.lu[st.current]; }
  long eta_nonzeros() const { return static_cast<long>(st.eta_index.size() + st.eta_row.size()); }
  void clear_etas() {
    st.eta_begin.assign(1, 0);
    st.eta_row.clear();
    st.eta_pivot.clear();
    st.eta_index.clear();
    st.eta_value.clear();
  }

  // full (n) = the column of variable id in [A | −d]: e_i (w_i), (−G_j; −D_j) (z_j), (0; −d) (z₀).
  void column_of(int id, VecX& full) const {
    full.setZero(n);
    if (id < m) {
      full[nv + id] = 1;
    } else if (id < z0) {
      const int j = id - m;
      p.g.add_column(p.M, j, -1, full);
      for (Eigen::SparseMatrix<Real>::InnerIterator e(st.d_columns, j); e; ++e)
        full[nv + e.row()] -= e.value();
    } else {
      full.tail(m) = -st.cover;
    }
  }

  // y (m) = the complementarity positions of B⁻¹ full (full is overwritten): B₀⁻¹, then the etas
  // in order (E⁻¹ y: y_r ← y_r / η_r, y_i ← y_i − η_i y_r).
  void ftran(VecX& full, VecX& y) {
    lu().solve(full, false);
    y = full.tail(m);
    for (std::size_t t = 0; t < st.eta_row.size(); ++t) {
      const int r = st.eta_row[t];
      const Real yr = y[r] / st.eta_pivot[t];
      y[r] = yr;
      if (yr == 0) continue;
      for (int e = st.eta_begin[t]; e < st.eta_begin[t + 1]; ++e)
        y[st.eta_index[e]] -= st.eta_value[e] * yr;
    }
  }

  // row (m) = row `position` of B⁻¹ at the columns of the m complementarity rows (the
  // lexicographic order's columns): eᵀ E_k⁻¹ ⋯ E₁⁻¹ (only its pivot entry changes per eta, and
  // never a ν entry), then B₀ᵀ u = v.
  //
  // vᵀ is nonzero only at `position` and the etas' pivot rows, so each eta is read at those few
  // entries (its indices ascend: a binary search each), O(k² log m) for k etas instead of the
  // eta file's size.
  void btran_row(int position, VecX& row) {
    st.v.setZero(m);
    st.v[position] = 1;
    auto& support = st.support;
    support.assign(1, position);
    for (std::size_t t = st.eta_row.size(); t-- > 0;) {
      const int r = st.eta_row[t];
      Real sum = st.v[r];
      const auto first = st.eta_index.begin() + st.eta_begin[t];
      const auto last = st.eta_index.begin() + st.eta_begin[t + 1];
      for (int i : support) {
        if (i == r || st.v[i] == 0) continue;
        const auto at = std::lower_bound(first, last, i);
        if (at != last && *at == i) sum -= st.v[i] * st.eta_value[at - st.eta_index.begin()];
      }
      if (sum == 0 && st.v[r] == 0) continue;
      if (st.v[r] == 0 && std::find(support.begin(), support.end(), r) == support.end())
        support.push_back(r);
      st.v[r] = sum / st.eta_pivot[t];
    }
    st.full.setZero(n);
    st.full.tail(m) = st.v;
    lu().solve(st.full, true);
    row = st.full.tail(m);
    ++s.stats.lexicographic_rows;
  }

  // Assembles B from the basis, factorises it into the spare LU and, on success, makes it current
  // (the eta file emptied, x_B recomputed). False when B is numerically singular: the current
  // factorisation and eta file stay.
  bool refactor() {
    const auto start = Clock::now();
    auto& t = st.triplets;
    t.clear();
    p.M.append_triplets(t);
    for (int i = 0; i < m; ++i)
      for (int e = p.h.begin[i]; e < p.h.begin[i + 1]; ++e) {
        const int k = p.h.block[e], off = p.M.offsets[k];
        for (Eigen::Index a = 0; a < p.M.blocks[k].rows(); ++a)
          if (p.h.values[e][a] != 0) t.emplace_back(nv + i, off + a, -p.h.values[e][a]);
      }
    for (int q = 0; q < m; ++q) {
      const int id = st.basis[q], col = nv + q;
      if (id < m) {
        t.emplace_back(nv + id, col, 1.0);
      } else if (id < z0) {
        const int j = id - m;
        for (int e = p.g.begin[j]; e < p.g.begin[j + 1]; ++e) {
          const int k = p.g.block[e], off = p.M.offsets[k];
          for (Eigen::Index a = 0; a < p.M.blocks[k].rows(); ++a)
            if (p.g.values[e][a] != 0) t.emplace_back(off + a, col, -p.g.values[e][a]);
        }
        for (Eigen::SparseMatrix<Real>::InnerIterator e(st.d_columns, j); e; ++e)
          if (e.value() != 0) t.emplace_back(nv + e.row(), col, -e.value());
      } else {
        for (int i = 0; i < m; ++i)
          if (st.cover[i] != 0) t.emplace_back(nv + i, col, -st.cover[i]);
      }
    }
    SparseBasisLu& spare = st.lu[1 - st.current];
    spare.matrix.resize(n, n);
    spare.matrix.setFromTriplets(t.begin(), t.end());
    SparseLuBackend backend = s.backend;
    if (backend == SparseLuBackend::kAuto)
      backend = sparse_lu_available(SparseLuBackend::kKlu) ? SparseLuBackend::kKlu
                                                           : SparseLuBackend::kEigen;
    if (!sparse_lu_available(backend)) backend = SparseLuBackend::kEigen;
    // Unscaled, its pivot ratio checked as ever (docs/solvers.md "Sparse Lemke").
    const bool ok = spare.factor(backend, false, SparseBasisLu::kMinPivotRatio, false);
    s.stats.backend = spare.backend;
    s.stats.factor_seconds += seconds_since(start);
    if (!ok) {
      ++s.stats.failed_refactorisations;
      return false;
    }
    ++s.stats.refactorisations;
    s.stats.factor_nonzeros = spare.nonzeros;
    st.current = 1 - st.current;
    clear_etas();
    basic_solution();
    return st.x.allFinite();
  }

  // x_B = B⁻¹ (c; r) at the complementarity positions.
  void basic_solution() {
    st.full.resize(n);
    st.full.head(nv) = p.c;
    st.full.tail(m) = p.r;
    ftran(st.full, st.x);
  }

  // The entering column y = B⁻¹ a_id (st.column keeps a_id for refinement).
  void enter(int id) {
    column_of(id, st.column);
    st.full = st.column;
    ftran(st.full, st.y);
  }

  // One step of iterative refinement of v ≈ (B⁻¹ a)'s complementarity part: the ν part that
  // satisfies the momentum rows exactly, y_ν = W (a_ν + Σ_j G_j v_{z_j}), then the residual of
  // the m rows, res_i = a_i + H_iᵀ y_ν − v_{w_i} + Σ_j D_ij v_{z_j} + d_i v_{z₀}, and
  // v += B⁻¹ (0; res). Returns the correction's largest entry.
  Real refine(const VecX& a, VecX& v) {
    st.impulse = a.head(nv);
    st.z_work.setZero(m);
    Real z0_value = 0;
    for (int q = 0; q < m; ++q) {
      const int id = st.basis[q];
      if (id >= m && id < z0) {
        st.z_work[id - m] = v[q];
        p.g.add_column(p.M, id - m, v[q], st.impulse);
      } else if (id == z0) {
        z0_value = v[q];
      }
    }
    s.mlcp.W.apply(st.impulse, st.nu_work);
    st.residual = a.tail(m);
    st.residual.noalias() += p.D * st.z_work;
    st.residual += z0_value * st.cover;
    for (int i = 0; i < m; ++i) st.residual[i] += p.h.column_dot(p.M, i, st.nu_work);
    for (int q = 0; q < m; ++q)
      if (st.basis[q] < m) st.residual[st.basis[q]] -= v[q];
    st.full.setZero(n);
    st.full.tail(m) = st.residual;
    ftran(st.full, st.correction);
    v += st.correction;
    return st.correction.size() > 0 ? st.correction.cwiseAbs().maxCoeff() : 0.0;
  }

  // Lexicographic comparison of rows a and b of B⁻¹ divided by their pivots |d_a|, |d_b|
  // (lemke.cc's rule, a pair at a time): at each column an entry within tie · ‖row‖∞ counts as
  // 0, and the two tie when the larger would end within that band of the smaller's ratio.
  // −1: a is smaller, 1: b is smaller, 0: equal to the end.
  int compare_rows(const VecX& a, Real da, Real a_max, const VecX& b, Real db, Real b_max) const {
    const Real za = tie_rel * a_max, zb = tie_rel * b_max;
    for (int l = 0; l < m; ++l) {
      const Real va = std::abs(a[l]) <= za ? 0 : a[l], vb = std::abs(b[l]) <= zb ? 0 : b[l];
      if (va == 0 && vb == 0) continue;
      const Real ra = va / da, rb = vb / db;
      if (ra < rb) {
        if (vb - ra * db <= zb + tie_rel * std::abs(ra * db)) continue;
        return -1;
      }
      if (va - rb * da <= za + tie_rel * std::abs(rb * da)) continue;
      return 1;
    }
    return 0;
  }

  // The lexicographically smallest of the tied candidate positions (rows of B⁻¹ / |y|): first a
  // column of B⁻¹ at a time (one FTRAN each, all candidates' entries at once; an entry within
  // tie · the column's largest counts as 0), while the columns taken are fewer than half the
  // candidates left; the candidates still tied then by their rows (one BTRAN each). A settled
  // pile's ties hold tens of candidates (79 on average in steps 93–99 of the 100-hull pour, seed
  // 2), nearly all told apart by the first columns.
  int lexicographic(const std::vector<int>& candidates) {
    ++s.stats.lexicographic_ties;
    auto& left = st.lex_left;
    left = candidates;
    for (int l = 0; o.diagnostics.lexicographic_columns && l < m &&
                    2 * (l + 1) <= static_cast<int>(left.size());
         ++l) {
      st.full.setZero(n);
      st.full[nv + l] = 1;
      ftran(st.full, st.lex_column);
      ++s.stats.lexicographic_columns;
      const VecX& col = st.lex_column;
      const Real zero = tie_rel * col.cwiseAbs().maxCoeff();
      const auto entry = [&](int q) { return std::abs(col[q]) <= zero ? Real(0) : col[q]; };
      Real least = std::numeric_limits<Real>::infinity();
      for (int q : left) least = std::min(least, entry(q) / std::abs(st.y[q]));
      std::size_t kept = 0;
      for (int q : left) {
        const Real d = std::abs(st.y[q]);
        if (entry(q) - least * d <= zero + tie_rel * std::abs(least * d)) left[kept++] = q;
      }
      left.resize(kept);
    }
    return left.size() == 1 ? left.front() : lexicographic_rows(left);
  }

  // The same by the candidates' rows of B⁻¹ (btran_row), compared a pair at a time; on rows
  // equal up to rounding the largest pivot.
  int lexicographic_rows(const std::vector<int>& candidates) {
    int best = candidates.front();
    btran_row(best, st.row_best);
    Real best_max = st.row_best.cwiseAbs().maxCoeff();
    for (std::size_t k = 1; k < candidates.size(); ++k) {
      const int c = candidates[k];
      btran_row(c, st.row_next);
      const Real next_max = st.row_next.cwiseAbs().maxCoeff();
      const int order = compare_rows(st.row_best, std::abs(st.y[best]), best_max, st.row_next,
                                     std::abs(st.y[c]), next_max);
      if (order > 0 || (order == 0 && std::abs(st.y[c]) > std::abs(st.y[best]))) {
        best = c;
        best_max = next_max;
        st.row_best.swap(st.row_next);
      }
    }
    return best;
  }

  // Basic values within this band of 0 are rounding noise around an exact 0 (lemke.cc).
  Real x_zero() const { return tie_rel * std::max<Real>(1, st.x.cwiseAbs().maxCoeff()); }
  // Basic value q as the ratio test reads it: after z₀'s entry every basic value is >= 0 in exact
  // arithmetic, so one within the band or below it (drift between refactorisations) counts as 0.
  Real level0(int q, Real zero) const { return st.x[q] <= zero ? 0 : st.x[q]; }

  // Lexicographic ratio test (lemke.cc): candidates y_q > pivot tolerance; level 0 with basic
  // values within rounding of 0, or below 0, taken as 0 (the dense Lemke lets a drifted negative
  // value through as a negative step); z₀ leaves on any tie; then the rows of B⁻¹. −1: no
  // blocking row (a secondary ray).
  int ratio_test() {
    const VecX& y = st.y;
    const Real d_max = y.cwiseAbs().maxCoeff();
    const Real piv_tol = o.diagnostics.pivot_tolerance * std::max<Real>(1, d_max);
    auto& c = st.candidates;
    c.clear();
    for (int q = 0; q < m; ++q)
      if (y[q] > piv_tol) c.push_back(q);
    if (c.empty()) return -1;
    const Real zero = x_zero();
    Real min_ratio = std::numeric_limits<Real>::infinity();
    for (int q : c) min_ratio = std::min(min_ratio, level0(q, zero) / y[q]);
    std::size_t kept = 0;
    for (int q : c) {
      const Real v = level0(q, zero);
      if (v - min_ratio * y[q] <= zero + tie_rel * std::abs(min_ratio * y[q])) c[kept++] = q;
    }
    c.resize(kept);
    for (int q : c)
      if (st.basis[q] == z0) return q;
    return c.size() == 1 ? c.front() : lexicographic(c);
  }

  // Basic values, the entering column and the eta file after entering replaces position r.
  void pivot(int r, int entering) {
    const Real theta = st.x[r] / st.y[r];
    st.x.noalias() -= theta * st.y;
    st.x[r] = theta;
    for (int q = 0; q < m; ++q)
      if (q != r && st.y[q] != 0) {
        st.eta_index.push_back(q);
        st.eta_value.push_back(st.y[q]);
      }
    st.eta_row.push_back(r);
    st.eta_pivot.push_back(st.y[r]);
    st.eta_begin.push_back(static_cast<int>(st.eta_index.size()));
    s.stats.max_eta_nonzeros = std::max(s.stats.max_eta_nonzeros, eta_nonzeros());
    st.basis[r] = entering;
  }

  bool small_pivot(int r) const { return st.y[r] < kSparseSmallPivot * st.y.cwiseAbs().maxCoeff(); }

  // A nonsingular complementary basis from a guess whose own basis matrix is singular (redundant
  // contacts, a guess mapped from another step): from the cold basis, each guessed z_j replaces
  // w_j in turn (a pivot on the entering column's entry at w_j's position), and is left out when
  // that entry is below kDependent of the column: z_j's column then depends on the basis built
  // so far (the dense Lemke drops such unknowns by elimination on N_αα, keep_nonsingular_block;
  // here one FTRAN each, no N). `kept` receives the basis; false on a failed factorisation.
  bool independent_part(const std::vector<bool>& guess, std::vector<bool>& kept) {
    constexpr Real kDependent = 1e-9;
    for (int i = 0; i < m; ++i) st.basis[i] = i;
    st.cover.setOnes(m);
    clear_etas();
    if (!refactor()) return false;
    kept.assign(m, false);
    int since_refactor = 0;
    for (int j = 0; j < m; ++j) {
      if (!guess[j]) continue;
      if ((since_refactor >= interval || eta_nonzeros() > eta_budget()) && refactor())
        since_refactor = 0;
      enter(m + j);  // z_j, into position j (w_j's)
      if (!st.y.allFinite()) return false;
      if (!(std::abs(st.y[j]) > kDependent * st.y.cwiseAbs().maxCoeff())) {
        ++s.stats.warm_dropped;
        continue;
      }
      pivot(j, m + j);
      kept[j] = true;
      ++since_refactor;
    }
    return true;
  }

  // The eta file's budget: refactorise beyond it (SparseLemkeScratch::eta_growth).
  long eta_budget() {
    return static_cast<long>(s.eta_growth * static_cast<Real>(std::max<long>(lu().nonzeros, n)));
  }

  // The run from the basis in st.basis (covering vector st.cover), factorised (refactor) with x_B
  // current. start_failed when z₀'s column is not negative in basis coordinates.
  SparseRunResult run(long max_pivots) {
    SparseRunResult res;
    enter(z0);
    if (!st.y.allFinite() || !(st.y.maxCoeff() < 0)) {
      res.start_failed = true;
      return res;
    }
    // First pivot: z₀ enters and the row with the least x_i / |y_i| leaves; ties by the rows of
    // B⁻¹ / |y_i| (cold, B⁻¹'s rows are unit: the largest index, as the dense Lemke).
    Real x_min = std::numeric_limits<Real>::infinity();
    for (int q = 0; q < m; ++q) x_min = std::min(x_min, st.x[q] / -st.y[q]);
    const Real tie = tie_rel * std::max<Real>(1, std::abs(x_min));
    auto& c = st.candidates;
    c.clear();
    for (int q = 0; q < m; ++q)
      if (!(st.x[q] / -st.y[q] > x_min + tie)) c.push_back(q);
    int r = c.size() == 1 ? c.front() : lexicographic(c);
    int leaving = st.basis[r];
    pivot(r, z0);
    res.pivots = 1;
    int since_refactor = 1;
    std::uint64_t fingerprint = 0;
    for (int id : st.basis) fingerprint ^= sparse_variable_hash(id);
    const long check_from = 2 * static_cast<long>(m) + 10;
    bool checking = false;
    while (true) {
      if (res.pivots >= check_from) {
        if (!checking) {
          std::size_t size = 1024;
          while (size < 4 * static_cast<std::size_t>(std::max<long>(max_pivots - res.pivots, 1)) &&
                 size < (1u << 20))
            size *= 2;
          st.seen.assign(size, 0);
          st.seen_used = 0;
          checking = true;
        }
        if (seen_before(st.seen, st.seen_used, fingerprint)) {
          res.status = SolveStatus::kMaxIterations;
          return res;
        }
      }
      if (res.pivots >= max_pivots) {
        res.status = SolveStatus::kMaxIterations;
        return res;
      }
      if (since_refactor >= interval || eta_nonzeros() > eta_budget()) {
        // On a singular basis the eta file stays (the next interval retries), unless it has
        // grown far beyond its budget.
        if (refactor())
          since_refactor = 0;
        else if (eta_nonzeros() > 4 * eta_budget()) {
          res.status = SolveStatus::kNumerical;
          return res;
        } else {
          since_refactor = 0;
        }
      }
      const int entering = leaving < m ? leaving + m : leaving - m;
      enter(entering);
      if (!st.y.allFinite() || !st.x.allFinite()) {
        res.status = SolveStatus::kNumerical;
        return res;
      }
      r = ratio_test();
      if (r < 0 || small_pivot(r)) {
        // Decide again on a refined column and x_B; if that is a tiny pivot or a ray again,
        // once more from a fresh factorisation (lemke.cc, "Refinement of small pivots").
        ++s.stats.refined_decisions;
        const auto decide_refined = [&] {
          refine(st.column, st.y);
          st.full.resize(n);
          st.full.head(nv) = p.c;
          st.full.tail(m) = p.r;
          const VecX rhs = st.full;
          refine(rhs, st.x);
          return ratio_test();
        };
        r = decide_refined();
        if ((r < 0 || small_pivot(r)) && !st.eta_row.empty() && refactor()) {
          since_refactor = 0;
          enter(entering);
          r = decide_refined();
        }
      }
      if (r < 0) {
        res.status = SolveStatus::kRay;
        res.entering = entering;
        return res;
      }
      // The step is the ratio the test decided on: a basic value it took for 0 is 0. (A rounding
      // residue x_r ~ 1e-12 over a pivot of the same size is no step length.)
      st.x[r] = level0(r, x_zero());
      leaving = st.basis[r];
      pivot(r, entering);
      fingerprint ^= sparse_variable_hash(leaving) ^ sparse_variable_hash(entering);
      ++res.pivots;
      ++since_refactor;
      if (leaving == z0) {
        res.status = SolveStatus::kSolved;
        return res;
      }
    }
  }

  // x_B refined towards B⁻¹ (c; r) until a correction is at round-off (kSparsePolishSteps at most).
  void polish() {
    st.full.resize(n);
    st.full.head(nv) = p.c;
    st.full.tail(m) = p.r;
    const VecX rhs = st.full;
    for (int step = 0; step < kSparsePolishSteps; ++step) {
      const Real scale = std::max<Real>(1, st.x.cwiseAbs().maxCoeff());
      if (!(refine(rhs, st.x) > 4 * std::numeric_limits<Real>::epsilon() * scale)) break;
    }
  }

  // z from the basic values (z₀ and the w's left out), ν = W (G z + c).
  void point(VecX& z, VecX& nu) {
    z.setZero(m);
    for (int q = 0; q < m; ++q)
      if (st.basis[q] >= m && st.basis[q] < z0) z[st.basis[q] - m] = st.x[q];
    st.impulse = p.c;
    for (int j = 0; j < m; ++j)
      if (z[j] != 0) p.g.add_column(p.M, j, z[j], st.impulse);
    s.mlcp.W.apply(st.impulse, nu);
  }

  // The Farkas test of a secondary ray (lemke.cc, ray_status): its z-part y >= 0 with
  // Nᵀ y = Gᵀ W H y + Dᵀ y <= 0 and bᵀ y < −tol.
  SolveStatus ray_status(int entering) {
    VecX& y = st.z_work;
    y.setZero(m);
    for (int q = 0; q < m; ++q)
      if (st.basis[q] >= m && st.basis[q] < z0) y[st.basis[q] - m] = std::max<Real>(0, -st.y[q]);
    if (entering >= m && entering < z0) y[entering - m] += 1;
    const Real y_max = y.size() > 0 ? y.maxCoeff() : 0.0;
    if (!(y_max > 0)) return SolveStatus::kRay;
    y /= y_max;
    st.impulse.setZero(nv);
    for (int j = 0; j < m; ++j)
      if (y[j] != 0) p.h.add_column(p.M, j, y[j], st.impulse);
    s.mlcp.W.apply(st.impulse, st.nu_work);
    st.residual = p.D.transpose() * y;
    Real nty_max = -std::numeric_limits<Real>::infinity();
    for (int j = 0; j < m; ++j)
      nty_max = std::max(nty_max, st.residual[j] + p.g.column_dot(p.M, j, st.nu_work));
    Real n_scale = 1;
    if (s.mlcp.n_diag.size() > 0) n_scale = std::max(n_scale, s.mlcp.n_diag.cwiseAbs().maxCoeff());
    for (int k = 0; k < p.D.outerSize(); ++k)
      for (SparseRowMatX::InnerIterator e(p.D, k); e; ++e)
        n_scale = std::max(n_scale, std::abs(e.value()));
    if (nty_max <= o.diagnostics.farkas_tolerance * n_scale && s.mlcp.b.dot(y) < -tol)
      return SolveStatus::kInfeasible;
    return SolveStatus::kRay;
  }
};

void validate(const SparseMlcp& p) {
  const int nv = p.M.size(), m = p.size();
  const auto fail = [](const std::string& what) {
    throw InputError("solve_sparse_lemke: " + what);
  };
  if (p.c.size() != nv)
    fail("c has " + std::to_string(p.c.size()) + " entries, M is " + std::to_string(nv) +
         " square");
  if (p.D.rows() != m || p.D.cols() != m) fail("D is not m × m");
  if (static_cast<int>(p.g.begin.size()) != m + 1 || static_cast<int>(p.h.begin.size()) != m + 1)
    fail("G or H has not m columns");
  if (!p.c.allFinite() || !p.r.allFinite()) fail("c or r is not finite");
}

}  // namespace

void solve_sparse_lemke(const SparseMlcp& p, const SolverOptions& options, SparseLemkeScratch& s,
                        MlcpSolution& out, const std::vector<bool>* guess, int max_pivots) {
  const auto start_time = Clock::now();
  validate(p);
  s.stats = SparseLemkeStats{};
  prepare_sparse_mlcp(p, s.mlcp);
  const int nv = p.M.size(), m = p.size();
  const Real tol =
      options.tolerance *
      std::max<Real>(1.0, s.mlcp.b.size() > 0 ? s.mlcp.b.lpNorm<Eigen::Infinity>() : 0.0);
  const Real scale =
      options.impulse_scale > 0 ? options.impulse_scale : sparse_mlcp_impulse_scale(p, s.mlcp);
  const auto certify = [&](MlcpSolution& sol) {
    sol.certificate = verify_sparse_mlcp(p, sol.nu, sol.z, tol, scale, options, s.mlcp, sol.w);
  };
  int pivots = 0;
  const auto finish = [&] {
    SolveCertificate& cert = out.certificate;
    cert.primary_status = cert.status;
    cert.method = SolveMethod::kLemke;
    cert.pivots = pivots;
    cert.iterations = 0;
    s.stats.pivots = pivots;
    s.stats.seconds = seconds_since(start_time);
  };
  out.z.setZero(m);
  if (m == 0) {
    s.mlcp.W.apply(p.c, out.nu);
    certify(out);
    s.active.clear();
    finish();
    return;
  }
  if (!s.state) s.state = std::make_shared<SparseLemkeState>();
  SparseLemkeState& st = *s.state;
  st.d_columns = p.D;
  long budget = max_pivots;
  if (budget <= 0) {
    budget = static_cast<long>(options.max_pivots_per_unknown) * static_cast<long>(m) + 1;
    // The work cap: a pivot here is at least 4m operations (the entering column's solve, the
    // ratio test, the updates of the basic values and of the lexicographic rows), so at most
    // max_pivot_work / 4m pivots.
    if (options.max_pivot_work > 0)
      budget = std::min<long>(
          budget, std::max<long>(1, static_cast<long>(options.max_pivot_work / (4.0 * m))));
  }

  // A start: the guess (covering vector d = B_r·1 = 1_ᾱ − N_α 1, so that z₀'s column is −1 in
  // basis coordinates), or cold (w basic) with d = `cover` (null: 1).
  const auto set_start = [&](const std::vector<bool>* from, const VecX* cover) {
    st.basis.resize(m);
    for (int i = 0; i < m; ++i) st.basis[i] = from != nullptr && (*from)[i] ? m + i : i;
    if (cover != nullptr)
      st.cover = *cover;
    else
      st.cover.setOnes(m);
    if (from == nullptr) return;
    st.impulse.setZero(nv);
    st.z_work.setZero(m);
    for (int j = 0; j < m; ++j)
      if ((*from)[j]) {
        p.g.add_column(p.M, j, 1, st.impulse);
        st.z_work[j] = 1;
        st.cover[j] = 0;
      }
    s.mlcp.W.apply(st.impulse, st.nu_work);
    st.cover.noalias() -= p.D * st.z_work;
    for (int i = 0; i < m; ++i) st.cover[i] -= p.h.column_dot(p.M, i, st.nu_work);
  };
  const auto basis_of_state = [&] {
    s.active.assign(m, false);
    for (int q = 0; q < m; ++q)
      if (st.basis[q] >= m && st.basis[q] < 2 * m) s.active[st.basis[q] - m] = true;
  };

  // One run from a start, its ending turned into a certified point in `sol`. False when the
  // start's basis matrix is singular (sol untouched). The certificate decides (lemke.cc,
  // finish_run): an iterate that verifies is a solution however the run ended; otherwise the
  // status is the run's (a ray tested as a Farkas vector first).
  std::vector<bool> solved_basis;
  const auto attempt = [&](const SolverOptions& o, const std::vector<bool>* from, const VecX* cover,
                           long pivots_left, MlcpSolution& sol) {
    Run run(p, o, s, tol);
    set_start(from, cover);
    run.clear_etas();
    if (!run.refactor()) {
      if (from == nullptr || !run.independent_part(*from, st.kept)) return false;
      set_start(&st.kept, nullptr);
      run.clear_etas();
      if (!run.refactor()) return false;
    }
    SparseRunResult res;
    res.status = SolveStatus::kSolved;
    // A start whose basic solution is feasible to the tolerance ends at once if it certifies.
    bool at_start = false;
    if (st.x.minCoeff() >= -tol) {
      run.point(sol.z, sol.nu);
      certify(sol);
      at_start = sol.certificate.ok();
    }
    if (!at_start) {
      res = run.run(pivots_left);
      if (res.start_failed) return false;
      if (res.status == SolveStatus::kSolved) run.polish();
      run.point(sol.z, sol.nu);
      certify(sol);
    }
    pivots += res.pivots;
    SolveStatus status = res.status;
    if (status == SolveStatus::kRay) status = run.ray_status(res.entering);
    if (status != SolveStatus::kSolved && !sol.certificate.ok()) sol.certificate.status = status;
    // The basis that comes with the point: the run's final one when z₀ left it, else (a run
    // stopped on its budget or a ray whose iterate certifies anyway) the point's own.
    if (res.status == SolveStatus::kSolved)
      basis_of_state();
    else if (sol.certificate.ok())
      active_set(sol.z, sol.w, s.active);
    if (res.status == SolveStatus::kSolved || sol.certificate.ok()) solved_basis = s.active;
    return true;
  };
  const auto final_status = [](const MlcpSolution& sol) {
    return sol.certificate.ok() || sol.certificate.status == SolveStatus::kInfeasible;
  };

  // The warm start, then cold; with SolverOptions::diagnostics.extended_precision_retry, the dense
  // Lemke's retries in double on the same budget (lemke.cc, lemke_solve): near-exact ties (1e-15),
  // the same with pivot tolerance 1e-9, and two other covering vectors e_i ∈ [1, 1.9]. The best
  // answer (certified, else proven infeasible, else least violation) is kept.
  bool have = false;
  const auto consider = [&](MlcpSolution& sol) {
    const bool better = !have || final_status(sol) ||
                        certificate_violation(sol.certificate, sol.z) <
                            certificate_violation(out.certificate, out.z);
    if (better) {
      std::swap(out, sol);
      if (!solved_basis.empty()) s.active = solved_basis;
      have = true;
    }
  };
  MlcpSolution sol;
  if (guess != nullptr && static_cast<int>(guess->size()) == m) {
    SolverOptions o = options;
    if (options.diagnostics.extended_precision_retry)
      o.diagnostics.ratio_tie_tolerance = near_exact_ties(options);
    s.stats.warm = attempt(o, guess, nullptr, budget, sol);
    if (s.stats.warm) {
      ++s.stats.runs;
      consider(sol);
    }
  }
  VecX cover;
  for (int k = 0;
       k < std::ssize(kColdStrategies) && !(have && final_status(out)) && pivots < budget; ++k) {
    if (k > 0 && !options.diagnostics.extended_precision_retry) break;
    const int strategy = options.diagnostics.extended_precision_retry ? kColdStrategies[k] : 0;
    SolverOptions o = options;
    if (strategy > 0) o.diagnostics.ratio_tie_tolerance = near_exact_ties(options);
    if (strategy == 2)
      o.diagnostics.pivot_tolerance = std::max(options.diagnostics.pivot_tolerance, 1e-9);
    const VecX* e = nullptr;
    if (strategy >= 3) {
      cover.resize(m);
      for (int i = 0; i < m; ++i) {
        const Real x = static_cast<Real>(i + 1) * 0.6180339887498949 * (strategy - 2);
        cover[i] = 1.0 + 0.9 * (x - std::floor(x));
      }
      e = &cover;
    }
    solved_basis.clear();
    if (s.stats.warm) s.stats.cold_after_warm = true;
    if (attempt(o, nullptr, e, budget - pivots, sol)) {
      ++s.stats.runs;
      consider(sol);
    } else if (!have) {  // [M 0; −Hᵀ I] is nonsingular for SPD M: only non-finite data
      break;
    }
  }
  if (!have) {
    out.nu.setZero(nv);
    out.z.setZero(m);
    out.w.setZero(m);
    out.certificate = SolveCertificate{};
    out.certificate.tolerance = tol;
    out.certificate.impulse_scale = scale;
    out.certificate.status = SolveStatus::kNumerical;
  }
  if (!out.certificate.ok()) active_set(out.z, out.w, s.active);
  finish();
}

}  // namespace exactsim
