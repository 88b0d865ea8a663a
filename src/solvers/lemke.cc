// Lemke's complementary pivoting method with the lexicographic minimum-ratio test
// (docs/solvers.md "Algorithms"; Cottle–Pang–Stone §4.4), made robust for degenerate frictional
// LCPs.
//
// System: I w − M z − e z0 = q, covering vector e. Variables are numbered w_i = i, z_i = n + i,
// z0 = 2n. We maintain the tableau T = [x_B | B⁻¹] (n × (n+1)) by explicit rank-one pivot
// updates (O(n²) per pivot); the entering column is d = B⁻¹ a_j with a_j = e_j (w_j), −M_j (z_j)
// or −e (z0).
//
// Robustness (docs/solvers.md, "Why Lemke fails on frictional LCPs"):
//  * Lexicographic ratio test with tolerances that are consistent with each other: basic values
//    within rounding of zero count as zero (they are zero in exact arithmetic, and a negative
//    rounding value must not decide the order), ties are decided on the B⁻¹ columns with the
//    same tie rule, and z0 leaves whenever it ties.
//  * Refactorisation: every `refactor_interval` pivots B⁻¹ and x_B are recomputed from an LU of
//    the basis columns, so thousands of rank-one updates cannot drift.
//  * Refinement of small pivots: when the ratio test picks a pivot below kSmallPivot of the
//    entering column's largest entry, or finds no blocking row at all, the column and x_B get one
//    step of iterative refinement against the basis columns and the test is repeated. A pivot on a
//    rounding residue (d_r ~ 1e-12 where the true value is 0) sends the path off.
//  * Extended precision: the same algorithm in long double (64-bit mantissa) as a retry.
//  * Warm start: the run can start from any nonsingular complementary basis B (e.g. the previous
//    step's active set) with covering vector e = B·1, so that B⁻¹e = 1 as in the cold start.
// On termination the final basis is re-solved exactly (polish) and verified in the unscaled
// problem with the physical certificate (verify_lcp with the problem's impulse scale).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "exactsim/math/error.h"
#include "exactsim/math/storage.h"
#include "solvers/lcp_scratch.h"
#ifdef EXACTSIM_LEMKE_TRACE  // diagnostics for docs/solvers.md (not built by CMake)
#include <cstdio>
#include <cstdlib>
#endif
#include "dense_lapack.h"
#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/mlcp.h"  // active_set

namespace exactsim {
namespace {

template <typename S>
using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <typename S>
using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <typename S>
using RowVec = Eigen::Matrix<S, 1, Eigen::Dynamic>;

// A pivot below this fraction of the entering column's largest entry is decided again on a
// refined column (refine_column): measured on a 15-box pyramid's LCP (n = 1,184), thresholds
// 1e-10 … 1e-6 give the same path.
constexpr double kSmallPivot = 1e-8;
// A ray restart's downdated inverse (RevisedTableau::downdate_start) is taken when it grows C⁻¹'s
// largest entry at most this many times; else C is factorised again.
constexpr double kDowndateGrowth = 1e4;

// Buffers of one run; for double they live in LcpScratch (no allocation after warm-up).
template <typename S>
struct Work {
  Mat<S>& t;         // [x_B | B⁻¹]
  Vec<S>& d;         // entering column
  RowVec<S>& row;    // pivot row
  Vec<S>& cover;     // covering vector e (original coordinates)
  Vec<S>& original;  // refinement: the entering column a_j and the residual
  Vec<S>& residual;
  Mat<S>& bmat;  // basis matrix for refactorisation
  Eigen::PartialPivLU<Mat<S>>& lu;
  std::vector<int>& basis;
  std::vector<int>& candidates;
};

struct RunResult {
  SolveStatus status = SolveStatus::kNumerical;
  int pivots = 0;
  Real work = 0;              // multiply-adds of the revised form's pivots and factorisations
  bool start_failed = false;  // the warm-start basis was singular
  bool polished = false;      // x_B of the final basis refined to round-off (polish_by_refinement)
  bool cycling = false;       // a basis repeated (the lexicographic rule was broken by rounding)
};

// Cycle detection: Lemke with the lexicographic rule never revisits a basis in exact arithmetic,
// so a repeated basis proves that rounding has broken the rule (the run is cycling). The basis
// is fingerprinted as the XOR of a hash of each basic variable id, kept in an open-addressing
// table (thread-local, allocated once). Checking starts after 2n + 10 pivots (short runs do not
// cycle) so that the common solve pays nothing.
std::uint64_t variable_hash(int id) {
  std::uint64_t x = static_cast<std::uint64_t>(id) + 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class CycleDetector {
 public:
  void reset(long budget) {
    std::size_t size = 1024;
    while (size < 2 * static_cast<std::size_t>(std::max<long>(budget, 1)) && size < (1u << 17))
      size *= 2;
    table_.assign(size, 0);
    used_ = 0;
  }
  // True when fp was seen before (and records it otherwise).
  bool seen(std::uint64_t fp) {
    if (fp == 0) fp = 1;
    if (2 * used_ >= table_.size()) return false;  // full: stop recording
    const std::size_t mask = table_.size() - 1;
    for (std::size_t k = fp & mask;; k = (k + 1) & mask) {
      if (table_[k] == fp) return true;
      if (table_[k] == 0) {
        table_[k] = fp;
        ++used_;
        return false;
      }
    }
  }

 private:
  std::vector<std::uint64_t> table_;
  std::size_t used_ = 0;
};

// Column a_j of variable id in the original system I w − M z − e z0 = q.
template <typename S>
void original_column(const Mat<S>& m, const Vec<S>& cover, Eigen::Index n, int id,
                     Eigen::Ref<Vec<S>> out) {
  if (id < n) {
    out.setZero();
    out(id) = 1;
  } else if (id < 2 * n) {
    out = -m.col(id - n);
  } else {
    out = -cover;
  }
}

// residual = rhs − B v, where B v = Σ_j v_j a_basis(j): −v_j on row j for a basic w_j, and for a
// basic z or z0 add_column(id, v_j, residual) adds v_j times its original column (M_j or the
// covering vector; B's column is the negative).
template <typename S, typename AddColumn>
void basis_residual(const std::vector<int>& basis, const Eigen::Ref<const Vec<S>>& v,
                    const Eigen::Ref<const Vec<S>>& rhs, Vec<S>& residual, AddColumn add_column) {
  const Eigen::Index n = v.size();
  residual = rhs;
  for (Eigen::Index j = 0; j < n; ++j) {
    const int id = basis[j];
    if (v(j) == 0) continue;
    if (id < n)
      residual(id) -= v(j);
    else
      add_column(id, v(j), residual);
  }
}

// One step of iterative refinement of v ≈ B⁻¹ rhs with the current B⁻¹: v += B⁻¹ (rhs − B v).
template <typename S>
void refine_column(const Mat<S>& m, Work<S>& w, Eigen::Ref<Vec<S>> v,
                   const Eigen::Ref<const Vec<S>>& rhs) {
  const Eigen::Index n = v.size();
  basis_residual<S>(w.basis, v, rhs, w.residual, [&](int id, S y, Vec<S>& out) {
    if (id < 2 * n)
      out.noalias() += y * m.col(id - n);
    else
      out.noalias() += y * w.cover;
  });
  v.noalias() += w.t.rightCols(n) * w.residual;
}

// Recomputes B⁻¹ and x_B from the basis columns. Returns false when B is numerically singular
// (the tableau is then left unchanged).
template <typename S>
bool refactor(const Mat<S>& m, const Vec<S>& q, Work<S>& w) {
  const Eigen::Index n = q.size();
  w.bmat.resize(n, n);
  for (Eigen::Index j = 0; j < n; ++j) original_column<S>(m, w.cover, n, w.basis[j], w.bmat.col(j));
  w.lu.compute(w.bmat);
  const auto diag = w.lu.matrixLU().diagonal().cwiseAbs();
  const S largest = diag.maxCoeff();
  if (!(largest > 0) || !(diag.minCoeff() > S(1e-14) * largest)) return false;
  // B⁻¹ by solving against the identity, written straight into the tableau.
  w.t.rightCols(n) = w.lu.solve(Mat<S>::Identity(n, n));
  w.t.col(0) = w.t.rightCols(n) * q;
  return w.t.allFinite();
}

// The tableau of a warm start basis: z_j basic for j in the start set α, w_j otherwise, so that
// B = I with columns α replaced by −M_α. In blocks (rows, columns ordered α then the rest ᾱ):
//   B = [−M_αα 0; −M_ᾱα I],   B⁻¹ = [−M_αα⁻¹ 0; −M_ᾱα M_αα⁻¹ I],
// which costs k³ + 2(n−k)k² for k = |α| instead of the dense LU and inverse of B (~3n³). Also sets
// the covering vector e = B·1. False when M_αα is numerically singular.
template <typename S>
bool start_tableau(const Mat<S>& m, const Vec<S>& q, const std::vector<bool>& start, Work<S>& w) {
  const Eigen::Index n = q.size();
  std::vector<int>& in = w.candidates;  // α, then ᾱ (reused: the ratio test refills it)
  in.clear();
  for (Eigen::Index j = 0; j < n; ++j)
    if (start[j]) in.push_back(static_cast<int>(j));
  const Eigen::Index k = static_cast<Eigen::Index>(in.size());
  for (Eigen::Index j = 0; j < n; ++j)
    if (!start[j]) in.push_back(static_cast<int>(j));
  // bmat's left k columns: M_αα (then its inverse) over −M_ᾱα M_αα⁻¹; right k: M_ᾱα gathered.
  w.bmat.resize(n, std::max<Eigen::Index>(2 * k, 1));
  auto block = w.bmat.topLeftCorner(k, k);
  for (Eigen::Index c = 0; c < k; ++c)
    for (Eigen::Index r = 0; r < k; ++r) block(r, c) = m(in[r], in[c]);
  w.lu.compute(block);
  if (k > 0) {
    const auto diag = w.lu.matrixLU().diagonal().cwiseAbs();
    const S largest = diag.maxCoeff();
    if (!(largest > 0) || !(diag.minCoeff() > S(1e-14) * largest)) return false;
  }
  auto inv = w.bmat.topLeftCorner(k, k);  // M_αα⁻¹ (the LU keeps its own copy)
  inv = w.lu.inverse();
  auto t = w.t.rightCols(n);
  t.setZero();
  for (Eigen::Index j = 0; j < n; ++j)
    if (!start[j]) t(j, j) = 1;
  for (Eigen::Index c = 0; c < k; ++c)
    for (Eigen::Index r = 0; r < k; ++r) t(in[r], in[c]) = -inv(r, c);
  if (k > 0 && k < n) {
    // −M_ᾱα M_αα⁻¹, gathered into the rows below the block.
    auto rest = w.bmat.bottomLeftCorner(n - k, k);
    auto m_rest = w.bmat.bottomRightCorner(n - k, k);
    for (Eigen::Index c = 0; c < k; ++c)
      for (Eigen::Index r = k; r < n; ++r) m_rest(r - k, c) = m(in[r], in[c]);
    rest.noalias() = -m_rest * inv;
    for (Eigen::Index c = 0; c < k; ++c)
      for (Eigen::Index r = k; r < n; ++r) t(in[r], in[c]) = rest(r - k, c);
  }
  w.t.col(0).noalias() = t * q;
  w.cover.setOnes();
  for (Eigen::Index c = 0; c < k; ++c) {
    w.cover(in[c]) -= 1;  // e_j replaced by −M_j
    w.cover -= m.col(in[c]);
  }
  return w.t.allFinite();
}

template <typename S>
void entering_column(const Mat<S>& m, Work<S>& w, int var) {
  const Eigen::Index n = w.t.rows();
  const auto b_inv = w.t.rightCols(n);
  if (var < n) {
    w.d = b_inv.col(var);
  } else if (var < 2 * n) {
    w.d.noalias() = b_inv * m.col(var - n);
    w.d = -w.d;
  } else {
    w.d.noalias() = b_inv * w.cover;
    w.d = -w.d;
  }
}

template <typename S>
void pivot(Work<S>& w, int r) {
  w.row = w.t.row(r) / w.d(r);
  w.t.noalias() -= w.d * w.row;
  w.t.row(r) = w.row;
}

// The dense representation: the whole tableau [x_B | B⁻¹] (n × (n+1)), O(n²) per pivot.
template <typename S>
struct DenseTableau {
  const Mat<S>& m;
  const Vec<S>& q;
  Work<S>& w;

  void resize(Eigen::Index n) { w.t.resize(n, n + 1); }
  bool start(const std::vector<bool>& from) { return start_tableau<S>(m, q, from, w); }
  void cold() {
    const Eigen::Index n = q.size();
    w.t.col(0) = q;
    w.t.rightCols(n).setIdentity();
  }
  void enter(int var) { entering_column<S>(m, w, var); }
  void pivot(int r, int /*entering*/) { exactsim::pivot<S>(w, r); }
  bool refactor() { return exactsim::refactor<S>(m, q, w); }
  // A fresh B⁻¹ before deciding on a small pivot: 3n³ here, too dear; refinement only.
  bool fresh() { return false; }
  bool confirm_ray() const { return false; }
  Real work = 0;  // not counted: the dense form's cap is pivots · n² (pivot_budget)
  // Column `level` of [x_B | B⁻¹].
  auto column(Eigen::Index level) { return w.t.col(level); }
  void refine(Eigen::Ref<Vec<S>> v, const Eigen::Ref<const Vec<S>>& rhs) {
    refine_column<S>(m, w, v, rhs);
  }
};

// The revised representation (docs/solvers.md "Revised Lemke"). B has the identity column e_j for
// each basic w_j (row j "covered") and a = −M_j (z_j) or −e (z0) for the k other basic
// variables. With R the k uncovered rows and C those k columns restricted to R,
//   B x = b  ⇔  x_C = C⁻¹ b_R,   x_{w_j} = b_j − Σ_c a_c(j) x_c   (j covered),
// O(k² + n k) per solve. G = C⁻¹ is kept explicitly and updated per pivot in O(k²): a row and a
// column added (w leaves, z enters) or removed (z leaves, w enters), or one replaced. Only x_B is
// stored (w.t is n × 1); a column of B⁻¹ is computed when the lexicographic test reaches it.
struct RevisedTableau {
  const MatX& m;
  const VecX& q;
  Work<Real>& w;
  RevisedLemkeScratch& s;
  Eigen::Index k = 0;
  // Work so far, for the work cap, in the dense form's unit: a dense pivot does ~2n²
  // multiply-adds (entering column and rank-one update) and counts n², so half the multiply-adds:
  // a pivot's entering column and update of G ~2k² + n k, a factorisation of C ~2k³.
  Real work = 0;

  Eigen::Index n() const { return q.size(); }
  auto g() { return s.g.topLeftCorner(k, k); }
  // Entry i of the original column of basic variable id (a z or z0: C's columns).
  Real entry(int id, Eigen::Index i) const { return id < 2 * n() ? -m(i, id - n()) : -w.cover(i); }
  void reserve(Eigen::Index size) {
    if (s.g.rows() >= size) return;
    const Eigen::Index cap = std::min<Eigen::Index>(n(), std::max<Eigen::Index>(2 * size, 16));
    s.g.conservativeResize(cap, cap);
  }
  void resize(Eigen::Index size) {
    w.t.resize(size, 1);
    s.slot_of_row.assign(static_cast<std::size_t>(size), -1);
    s.slot_of_pos.assign(static_cast<std::size_t>(size), -1);
    s.w_pos.assign(static_cast<std::size_t>(size), -1);
    s.row.clear();
    s.pos.clear();
    // Work vectors of length k <= n, used through head(k): no allocation as k changes.
    for (VecX* v : {&s.full, &s.rhs, &s.col, &s.y, &s.rb, &s.v, &s.h, &s.dc}) v->resize(size);
    k = 0;
  }
  // out += y · (the original column of z or z0 variable id: M_j or the covering vector; B's
  // column is its negative).
  void add_column(int id, Real y, VecX& out) const {
    if (id >= 2 * n()) {
      out.noalias() += y * w.cover;
    } else if (s.sparse) {  // the same sums: only exact zeros are skipped
      const auto c = static_cast<std::size_t>(id - n());
      for (Eigen::Index e = s.column_start[c]; e < s.column_start[c + 1]; ++e)
        out(s.column_rows[e]) += y * s.column_values[e];
    } else {
      out.noalias() += y * m.col(id - n());
    }
  }
  // out (by basis position) = B⁻¹ rhs (by row): x_C = G rhs_R, then each covered row from
  // full = rhs − Σ_c x_c a_c.
  void solve(const Eigen::Ref<const VecX>& rhs, Eigen::Ref<VecX> out) {
    auto y = s.y.head(k), rb = s.rb.head(k);
    for (Eigen::Index a = 0; a < k; ++a) rb(a) = rhs(s.row[a]);
    y.noalias() = g() * rb;
    s.full = rhs;
    for (Eigen::Index b = 0; b < k; ++b) add_column(w.basis[s.pos[b]], y(b), s.full);
    for (Eigen::Index j = 0; j < n(); ++j)
      if (s.w_pos[j] >= 0) out(s.w_pos[j]) = s.full(j);
    for (Eigen::Index b = 0; b < k; ++b) out(s.pos[b]) = y(b);
  }
  // C (its LU, its inverse) in the top-left corner of s.c, which only grows once it is a large
  // block (storage.h): its pages stay mapped from one factorisation to the next (docs/solvers.md
  // "Allocation"). Smaller, it takes C's size, and the allocator reuses it.
  auto c_block() { return s.c.topLeftCorner(s.c_size, s.c_size); }
  void size_c(Eigen::Index size) {
    if (s.c.rows() < size || (s.c.rows() > size && !is_large_block(s.c.size())))
      resize_keeping_pages(s.c, size, size);
    s.c_size = size;
  }
  // G = C⁻¹ from an LU of C (LAPACK's, in place in s.c: dense_lapack.h), then x_B = B⁻¹ q. False,
  // with G and x_B unchanged, when C is numerically singular. `lu`: an LU of M_αα for a start's
  // C = −M_αα (RevisedLemkeScratch::start_lu), whose U is negated instead of factorising.
  bool factor(const MatX* lu = nullptr) {
    s.start_inverse = false;
    size_c(k);
    auto c = c_block();
    work += Real(k) * Real(k) * Real(k);
    if (lu != nullptr && lu->rows() >= k && s.start_lu_swaps->size() == std::size_t(k)) {
      c = lu->topLeftCorner(k, k);
      c.triangularView<Eigen::Upper>() *= -1;  // −M_αα = P L (−U)
      s.swaps = *s.start_lu_swaps;
    } else {
      for (Eigen::Index b = 0; b < k; ++b) {
        const int id = w.basis[s.pos[b]];
        for (Eigen::Index a = 0; a < k; ++a) c(a, b) = entry(id, s.row[a]);
      }
      if (!lu_factor(c, s.swaps)) return false;
    }
    if (k > 0) {
      const auto diag = c.diagonal().cwiseAbs();
      const Real largest = diag.maxCoeff();
      if (!(largest > 0) || !(diag.minCoeff() > 1e-14 * largest)) return false;
    }
    if (!lu_inverse(c, s.swaps)) return false;
    reserve(k);
    g() = c;
    solve(q, w.t.col(0));
    return w.t.allFinite() && g().allFinite();
  }
  void add_slots(Eigen::Index row, Eigen::Index pos) {
    s.slot_of_row[row] = static_cast<int>(s.row.size());
    s.row.push_back(static_cast<int>(row));
    s.slot_of_pos[pos] = static_cast<int>(s.pos.size());
    s.pos.push_back(static_cast<int>(pos));
  }
  bool start(const std::vector<bool>& from) {
    for (Eigen::Index i = 0; i < n(); ++i) {
      if (from[i])
        add_slots(i, i);
      else
        s.w_pos[i] = static_cast<int>(i);
    }
    k = static_cast<Eigen::Index>(s.row.size());
    // e = B·1 (as start_tableau).
    w.cover.setOnes();
    for (Eigen::Index c = 0; c < k; ++c) {
      w.cover(s.row[c]) -= 1;
      w.cover -= m.col(s.row[c]);
    }
    const MatX* lu = s.start_lu;
    s.start_lu = nullptr;
    if (!(s.restart && downdate_start(from)) && !factor(lu)) return false;
    s.start_inverse = true;
    s.inverse_start = from;
    return true;
  }
  // A ray restart's start is the last start without one unknown j (solve_lcp): its C is the last
  // start's without row and column slot t (both of j, in start slot order), whose inverse is
  // C⁻¹ − C⁻¹(:, t) C⁻¹(t, :) / C⁻¹(t, t) without row and column t, O(k²) instead of a
  // factorisation. False (then factorised) when that is not the case, or when the division would
  // amplify C⁻¹'s entries more than kDowndateGrowth times (C without j nearly singular).
  bool downdate_start(const std::vector<bool>& from) {
    if (!s.start_inverse || s.inverse_start.size() != from.size()) return false;
    Eigen::Index t = -1, slot = 0;
    for (std::size_t i = 0; i < from.size(); ++i) {
      if (s.inverse_start[i] == from[i]) {
        slot += from[i] ? 1 : 0;
        continue;
      }
      if (t >= 0 || from[i]) return false;  // more than one change, or an unknown added
      t = slot++;
    }
    const auto c = c_block();
    if (t < 0 || c.rows() != k + 1) return false;
    const Real pivot = c(t, t);
    const Real growth = c.col(t).cwiseAbs().maxCoeff() * c.row(t).cwiseAbs().maxCoeff();
    if (!(std::abs(pivot) * kDowndateGrowth * c.cwiseAbs().maxCoeff() > growth)) return false;
    reserve(k);
    auto g = this->g();
    for (Eigen::Index b = 0, cb = 0; b < k; ++b, ++cb) {
      if (cb == t) ++cb;
      for (Eigen::Index a = 0, ca = 0; a < k; ++a, ++ca) {
        if (ca == t) ++ca;
        g(a, b) = c(ca, cb) - c(ca, t) * c(t, cb) / pivot;
      }
    }
    size_c(k);
    c_block() = g;  // the next restart downdates this one
    work += Real(k) * Real(k);
    ++s.downdated_starts;
    solve(q, w.t.col(0));
    return w.t.allFinite() && g.allFinite();
  }
  void cold() {
    for (Eigen::Index i = 0; i < n(); ++i) s.w_pos[i] = static_cast<int>(i);
    w.t.col(0) = q;
  }
  void enter(int var) {
    original_column<Real>(m, w.cover, n(), var, s.rhs);
    solve(s.rhs, w.d);
  }
  // v(b) = a_b(i): row i of C's columns (the row a covered row i would add to C).
  void covered_row(Eigen::Index i) {
    for (Eigen::Index b = 0; b < k; ++b) s.v(b) = entry(w.basis[s.pos[b]], i);
  }
  // x_C of the entering column d, by column slot.
  void entering_c() {
    for (Eigen::Index b = 0; b < k; ++b) s.dc(b) = w.d(s.pos[b]);
  }
  // Moves slot `last` into slot b (column slot: a row of G) / a (row slot: a column of G).
  void move_column_slot(Eigen::Index from, Eigen::Index to) {
    if (from == to) return;
    s.g.row(to).head(k) = s.g.row(from).head(k);
    s.pos[to] = s.pos[from];
    s.slot_of_pos[s.pos[to]] = static_cast<int>(to);
  }
  void move_row_slot(Eigen::Index from, Eigen::Index to) {
    if (from == to) return;
    s.g.col(to).head(k) = s.g.col(from).head(k);
    s.row[to] = s.row[from];
    s.slot_of_row[s.row[to]] = static_cast<int>(to);
  }
  void pivot(int r, int entering) {
    const int leaving = w.basis[r];
    const int nn = static_cast<int>(n());
    work += Real(k) * (Real(k) + Real(n()) / 2);
    // x_B as the dense tableau's column 0.
    const Real x_r = w.t(r, 0) / w.d(r);
    w.t.col(0).noalias() -= x_r * w.d;
    w.t(r, 0) = x_r;
    const Real d_r = w.d(r);
    // Views of length k (the size before this pivot).
    auto v = s.v.head(k), h = s.h.head(k), dc = s.dc.head(k);
    if (leaving < nn && entering >= nn) {
      // Grow: row `leaving` and the entering column join C. Bordered inverse with
      // G u = x_C of d, v = the new row of C's old columns, σ = d_r = s − vᵀ G u.
      covered_row(leaving);
      h.noalias() = g().transpose() * v;  // Gᵀ v
      entering_c();
      reserve(k + 1);
      g().noalias() += (dc / d_r) * h.transpose();
      s.g.col(k).head(k) = -dc / d_r;
      s.g.row(k).head(k) = -h.transpose() / d_r;
      s.g(k, k) = 1 / d_r;
      s.w_pos[leaving] = -1;
      add_slots(leaving, r);
      ++k;
    } else if (leaving >= nn && entering < nn) {
      // Shrink: column slot b (the leaving z) and row slot a (row `entering`, now covered) leave
      // C; G without row b and column a, after eliminating on G(b, a) = d_r.
      const Eigen::Index b = s.slot_of_pos[r], a = s.slot_of_row[entering];
      dc = g().col(a);
      h = g().row(b).transpose();
      g().noalias() -= (dc / dc(b)) * h.transpose();
      const Eigen::Index last = k - 1;
      move_column_slot(last, b);
      move_row_slot(last, a);
      s.pos.pop_back();
      s.row.pop_back();
      s.slot_of_pos[r] = -1;
      s.slot_of_row[entering] = -1;
      s.w_pos[entering] = r;
      --k;
    } else if (leaving < nn) {
      // w_leaving out, w_entering in: row slot a changes from row `entering` to row `leaving`.
      // Sherman–Morrison: G' = G − G e_a (Gᵀv − e_a)ᵀ / (vᵀ G e_a), vᵀ G e_a = −d_r.
      const Eigen::Index a = s.slot_of_row[entering];
      covered_row(leaving);
      h.noalias() = g().transpose() * v;
      const Real h_a = h(a);
      h(a) -= 1;
      dc = g().col(a);
      g().noalias() -= (dc / h_a) * h.transpose();
      s.row[a] = leaving;
      s.slot_of_row[leaving] = static_cast<int>(a);
      s.slot_of_row[entering] = -1;
      s.w_pos[leaving] = -1;
      s.w_pos[entering] = r;
    } else {
      // A z (or z0) replaces another in column slot b: G' = G − (G u − e_b) G(b, :) / d_r.
      const Eigen::Index b = s.slot_of_pos[r];
      entering_c();
      dc(b) -= 1;
      h = g().row(b).transpose();
      g().noalias() -= (dc / d_r) * h.transpose();
    }
    w.basis[r] = entering;
  }
  // Before deciding on a small pivot: G and x_B from a fresh LU of C (~2k³), so that the updates'
  // accumulated error cannot pass as a pivot (docs/solvers.md "Revised Lemke").
  bool fresh() { return refactor(); }
  // A ray is confirmed from a fresh factorisation unless the run is one of several starts.
  bool confirm_ray() const { return !s.capped_run; }
  // On a singular C the updated inverse stays (as the dense refactor keeps its tableau).
  bool refactor() { return factor(); }
  // Column `level` of [x_B | B⁻¹], where the ratio tests read it: at the candidate rows
  // (w.candidates) and, for its scale, at the k positions of C. Column level − 1 of B⁻¹ is a unit
  // vector when that row is covered; otherwise x_C = G(:, slot) and a covered row j holds
  // −Σ_c a_c(j) x_c, O(k) per candidate instead of O(n k) for the whole column.
  const VecX& column(Eigen::Index level) {
    if (level == 0) {
      s.col = w.t.col(0);
      return s.col;
    }
    const Eigen::Index row = level - 1;
    s.col.setZero();
    if (s.w_pos[row] >= 0) {
      s.col(s.w_pos[row]) = 1;
      return s.col;
    }
    const auto x_c = g().col(s.slot_of_row[row]);
    for (Eigen::Index b = 0; b < k; ++b) s.col(s.pos[b]) = x_c(b);
    for (int i : w.candidates) {
      const int id = w.basis[i];
      if (id >= n()) continue;  // a C position, set above
      Real sum = 0;
      for (Eigen::Index b = 0; b < k; ++b) sum -= entry(w.basis[s.pos[b]], id) * x_c(b);
      s.col(i) = sum;
    }
    return s.col;
  }
  void refine(Eigen::Ref<VecX> v, const Eigen::Ref<const VecX>& rhs) {
    basis_residual<Real>(w.basis, v, rhs, w.residual,
                         [&](int id, Real y, VecX& out) { add_column(id, y, out); });
    solve(w.residual, s.col);
    v += s.col;
  }
};

// Lexicographic ratio test. Candidates: d_i > pivot tolerance. Level 0 (x_B): a basic value
// within `zero` of 0 counts as 0 (negative rounding values included), and rows whose ratio is
// within the tie tolerance of the minimum are kept; z0 leaves whenever it is among them. Levels
// 1..n (columns of B⁻¹): the same rule. -1: no blocking row (secondary ray).
template <typename S, typename Tableau>
int lexicographic_ratio_test(Tableau& tab, Work<S>& w, int z0_id, const SolverOptions& options) {
  const Eigen::Index n = w.d.size();
  const S d_max = w.d.cwiseAbs().maxCoeff();
  const S piv_tol = S(options.diagnostics.pivot_tolerance) * std::max<S>(1, d_max);
  w.candidates.clear();
  for (Eigen::Index i = 0; i < n; ++i)
    if (w.d(i) > piv_tol) w.candidates.push_back(static_cast<int>(i));
  if (w.candidates.empty()) return -1;
  const S eps = std::numeric_limits<S>::epsilon();
  const S tie_rel = std::max<S>(S(options.diagnostics.ratio_tie_tolerance), 64 * eps);
  for (Eigen::Index level = 0; level <= n && w.candidates.size() > 1; ++level) {
    const auto& col = tab.column(level);
    // Values of this level below `zero` are rounding noise around an exact zero.
    const S col_max = col.cwiseAbs().maxCoeff();
    const S zero = tie_rel * std::max<S>(level == 0 ? S(1) : S(0), col_max);
    S min_ratio = std::numeric_limits<S>::infinity();
    for (int i : w.candidates) {
      const S v = std::abs(col(i)) <= zero ? S(0) : col(i);
      min_ratio = std::min(min_ratio, v / w.d(i));
    }
    std::size_t kept = 0;
    for (int i : w.candidates) {
      const S v = std::abs(col(i)) <= zero ? S(0) : col(i);
      // Tie: this row would end within `zero` (plus relative rounding) of its bound.
      if (v - min_ratio * w.d(i) <= zero + tie_rel * std::abs(min_ratio * w.d(i)))
        w.candidates[kept++] = i;
    }
    w.candidates.resize(kept);
    if (level == 0) {
      for (int i : w.candidates)
        if (w.basis[i] == z0_id) return i;  // z0 leaving ends the run: take it on any tie
    }
  }
  // Rows equal up to rounding: take the largest pivot for stability.
  int best = w.candidates.front();
  for (int i : w.candidates)
    if (w.d(i) > w.d(best)) best = i;
  return best;
}

// The run itself, on either representation. `start` (optional, size n): a complementary basis to
// start from (z_i basic when start[i]). Writes the final basis into w.basis and the basic values
// x_B into w.t's column 0.
template <typename S, typename Tableau>
RunResult lemke_run(Tableau& tab, const Vec<S>& q, const std::vector<bool>* start,
                    const SolverOptions& options, long max_pivots, Work<S>& w,
                    const VecX* cold_cover = nullptr, Real max_work = 0) {
  RunResult res;
  const Eigen::Index n = q.size();
  const int z0_id = static_cast<int>(2 * n);
  tab.resize(n);
  w.basis.resize(n);
  w.candidates.reserve(n);
  w.d.resize(n);
  w.cover.resize(n);
  if (start != nullptr) {
    for (Eigen::Index i = 0; i < n; ++i)
      w.basis[i] = (*start)[i] ? static_cast<int>(n + i) : static_cast<int>(i);
    // e = B·1: in basis coordinates the z0 column is −1, as in the cold start.
    if (!tab.start(*start)) {
      res.start_failed = true;
      return res;
    }
  } else {
    for (Eigen::Index i = 0; i < n; ++i) w.basis[i] = static_cast<int>(i);
    if (cold_cover != nullptr)
      w.cover = cold_cover->template cast<S>();
    else
      w.cover.setOnes();
    tab.cold();
  }
  if (w.t.col(0).minCoeff() >= 0) {  // the start basis is already feasible: a solution
    res.status = SolveStatus::kSolved;
    return res;
  }
  // First pivot: z0 enters (d = −B⁻¹e, negative) and the row with the largest −x_i / |d_i| leaves;
  // among ties the lexicographically smallest row of [x_B | B⁻¹] / |d_i| (cold, e = 1: the largest
  // index), which keeps every row lexicographically positive.
  tab.enter(z0_id);
  if (!(w.d.maxCoeff() < 0)) {  // the covering vector must be positive in basis coordinates
    res.start_failed = true;
    return res;
  }
  S x_min = std::numeric_limits<S>::infinity();
  for (Eigen::Index i = 0; i < n; ++i) x_min = std::min(x_min, w.t(i, 0) / -w.d(i));
  const S tie = std::max<S>(S(options.diagnostics.ratio_tie_tolerance),
                            64 * std::numeric_limits<S>::epsilon()) *
                std::max<S>(1, std::abs(x_min));
  w.candidates.clear();
  for (Eigen::Index i = 0; i < n; ++i)
    if (!(w.t(i, 0) / -w.d(i) > x_min + tie)) w.candidates.push_back(static_cast<int>(i));
  // Level by level, the rows at the exact minimum (the first of identical rows stays).
  for (Eigen::Index level = 1; level <= n && w.candidates.size() > 1; ++level) {
    const auto& col = tab.column(level);
    S least = std::numeric_limits<S>::infinity();
    for (int i : w.candidates) least = std::min<S>(least, col(i) / -w.d(i));
    std::size_t kept = 0;
    for (int i : w.candidates)
      if (col(i) / -w.d(i) == least) w.candidates[kept++] = i;
    w.candidates.resize(kept);
  }
  int r = w.candidates.front();
  int leaving = w.basis[r];
  tab.pivot(r, z0_id);
  w.basis[r] = z0_id;
  res.pivots = 1;
  const int interval = options.diagnostics.refactor_interval > 0
                           ? options.diagnostics.refactor_interval
                           : std::max<int>(25, static_cast<int>(n / 2));
  int since_refactor = 0;
  std::uint64_t fingerprint = 0;
  for (int id : w.basis) fingerprint ^= variable_hash(id);
  const long check_from = 2 * static_cast<long>(n) + 10;
  thread_local CycleDetector cycles;
  bool checking = false;
  while (true) {
    if (res.pivots >= check_from) {
      if (!checking) {
        cycles.reset(max_pivots - res.pivots);
        checking = true;
      }
      if (cycles.seen(fingerprint)) {
        res.status = SolveStatus::kMaxIterations;
        res.cycling = true;
        return res;
      }
    }
    if (res.pivots >= max_pivots || (max_work > 0 && tab.work >= max_work)) {
      res.status = SolveStatus::kMaxIterations;
      return res;
    }
    if (since_refactor >= interval) {
      since_refactor = 0;
      // On a singular basis matrix keep the updated tableau (the next interval retries).
#ifdef EXACTSIM_LEMKE_TRACE
      const Vec<S> x_before = w.t.col(0);
#endif
      tab.refactor();
#ifdef EXACTSIM_LEMKE_TRACE
      std::fprintf(stderr, "  refactor at %d: drift |x_upd - x_lu| = %.3e, min x = %.3e\n",
                   res.pivots, static_cast<double>((x_before - w.t.col(0)).cwiseAbs().maxCoeff()),
                   static_cast<double>(w.t.col(0).minCoeff()));
#endif
    }
    const int entering =
        leaving < n ? leaving + static_cast<int>(n) : leaving - static_cast<int>(n);
    tab.enter(entering);
    if (!w.d.allFinite() || !w.t.col(0).allFinite()) {
      res.status = SolveStatus::kNumerical;
      return res;
    }
    r = lexicographic_ratio_test<S>(tab, w, z0_id, options);
    if (r < 0 || w.d(r) < S(kSmallPivot) * w.d.cwiseAbs().maxCoeff()) {
      // A tiny pivot or no blocking row: decide again on a refined column and x_B; if that
      // decision is a tiny pivot too (or a ray that ends the solve: confirm_ray), once more from
      // a fresh factorisation where one is cheap.
      w.original.resize(n);
      original_column<S>(tab.m, w.cover, n, entering, w.original);
      const auto decide_refined = [&] {
        tab.refine(w.d, w.original);
        tab.refine(w.t.col(0), q);
        r = lexicographic_ratio_test<S>(tab, w, z0_id, options);
      };
      decide_refined();
      if ((r < 0 ? tab.confirm_ray() : w.d(r) < S(kSmallPivot) * w.d.cwiseAbs().maxCoeff()) &&
          tab.fresh()) {
        since_refactor = 0;
        tab.enter(entering);
        decide_refined();
      }
    }
    if (r < 0) {
      res.status = SolveStatus::kRay;
      // The caller reads the ray from w.d and the entering variable (kept in leaving).
      w.candidates.assign(1, entering);
      return res;
    }
    leaving = w.basis[r];
#ifdef EXACTSIM_LEMKE_TRACE
    if (std::getenv("LEMKE_TRACE_ALL"))
      std::fprintf(
          stderr, "  piv %d: in %d out %d d_r=%.3e |d|=%.3e theta=%.3e min x=%.3e ncand=%zu\n",
          res.pivots, entering, leaving, static_cast<double>(w.d(r)),
          static_cast<double>(w.d.cwiseAbs().maxCoeff()), static_cast<double>(w.t(r, 0) / w.d(r)),
          static_cast<double>(w.t.col(0).minCoeff()), w.candidates.size());
#endif
    tab.pivot(r, entering);
    w.basis[r] = entering;
    fingerprint ^= variable_hash(leaving) ^ variable_hash(entering);
    ++res.pivots;
    ++since_refactor;
    if (leaving == z0_id) {
      // Complementary basis reached; recompute x_B exactly before reading z.
      res.status = SolveStatus::kSolved;
      return res;
    }
  }
}

// The revised form's polish (docs/solvers.md "Revised Lemke"): the final basis's x_B refined
// with the updated inverse G until a correction is at round-off (at most kPolishSteps steps of
// O(k² + nonzeros) each), instead of an LU of the active block (~k³/3). False, with x_B as it
// was, when the corrections do not shrink to 1e-12 of x_B (G has drifted too far): the LU
// polish runs then.
constexpr int kPolishSteps = 3;
bool polish_by_refinement(RevisedTableau& tab, const VecX& q, Work<Real>& w) {
  VecX& x = w.original;  // free at the end of a run
  x = w.t.col(0);
  const Real round_off = 4 * std::numeric_limits<Real>::epsilon();
  Real correction = 0;
  for (int step = 0; step < kPolishSteps; ++step) {
    const Real scale = std::max<Real>(1, w.t.col(0).cwiseAbs().maxCoeff());
    tab.refine(w.t.col(0), q);
    correction = tab.s.col.cwiseAbs().maxCoeff() / scale;  // refine's correction
    if (!(correction > round_off)) break;
  }
  if (w.t.col(0).allFinite() && correction <= 1e-12) return true;
  w.t.col(0) = x;
  return false;
}

// z-part of the current basic solution (z0 and w excluded).
template <typename S>
void basic_z(const Mat<S>& t, const std::vector<int>& basis, Eigen::Index n, VecX& z) {
  z.setZero(n);
  for (Eigen::Index i = 0; i < n; ++i)
    if (basis[i] >= n && basis[i] < 2 * n) z(basis[i] - n) = static_cast<Real>(t(i, 0));
}

// Farkas test of a secondary ray: y = z-part of the ray direction. kInfeasible when verified.
template <typename S>
SolveStatus ray_status(const Lcp& lcp, const Work<S>& w, int entering, Real tol,
                       const SolverOptions& options, VecX& y) {
  const Eigen::Index n = lcp.q.size();
  y.setZero(n);
  for (Eigen::Index i = 0; i < n; ++i)
    if (w.basis[i] >= n && w.basis[i] < 2 * n)
      y(w.basis[i] - n) = std::max<Real>(0, -static_cast<Real>(w.d(i)));
  if (entering >= n && entering < 2 * n) y(entering - n) += 1.0;
  const Real y_max = y.size() > 0 ? y.maxCoeff() : 0.0;
  if (!(y_max > 0)) return SolveStatus::kRay;
  y /= y_max;
  const Real mty_max = (lcp.M.transpose() * y).maxCoeff();
  const Real m_scale = std::max<Real>(1.0, lcp.M.cwiseAbs().maxCoeff());
  if (mty_max <= options.diagnostics.farkas_tolerance * m_scale && lcp.q.dot(y) < -tol)
    return SolveStatus::kInfeasible;
  return SolveStatus::kRay;
}

// Turns a run's ending into (z, w, certificate, ray); polishes a complementary ending.
template <typename S>
void finish_run(const Lcp& lcp, const SolverOptions& options, Real tol, Real z_scale,
                const RunResult& res, Work<S>& w, LcpScratch& s, LcpSolution& out) {
  const Eigen::Index n = lcp.q.size();
  basic_z<S>(w.t, w.basis, n, out.z);
  SolveStatus status = res.status;
  out.ray.resize(0);
  s.ray_entering = status == SolveStatus::kRay ? w.candidates[0] : -1;
  if (status == SolveStatus::kRay)
    status = ray_status<S>(lcp, w, w.candidates[0], tol, options, out.ray);
  SolveCertificate cert = verify_lcp(lcp, out.z, tol, z_scale, out.w);
  if (status == SolveStatus::kSolved) {
    // The final complementary basis (z_i basic), kept in s.active: the warm-start guess to pass
    // to the next solve (nonsingular by construction, degenerate basics included).
    s.active.assign(n, false);
    for (Eigen::Index i = 0; i < n; ++i)
      if (w.basis[i] >= n && w.basis[i] < 2 * n) s.active[w.basis[i] - n] = true;
    if (options.diagnostics.polish && res.pivots > 0 && !res.polished)
      polish_complementary_basis(lcp, tol, s, out.z, out.w, cert, &s.active);
  }
  // The certificate decides: an iterate that verifies is a solution however the run ended (a
  // degenerate run can end on a ray or a cycle at a point that already solves the LCP).
  if (status != SolveStatus::kSolved && !cert.ok()) cert.status = status;
  // Such an iterate has no complementary basis of its own (z0 may still be basic): s.active is
  // its active set, so that it describes the returned point as documented.
  if (status != SolveStatus::kSolved && cert.ok()) active_set(out.z, out.w, s.active);
  if (cert.ok()) out.ray.resize(0);
  cert.primary_status = cert.status;
  cert.method = SolveMethod::kLemke;
  cert.pivots = res.pivots;
  out.certificate = cert;
}

long pivot_budget(const SolverOptions& options, Eigen::Index n) {
  long budget = static_cast<long>(options.max_pivots_per_unknown) * n + 1;
  if (options.max_pivots > 0) budget = std::min<long>(budget, options.max_pivots);
  if (options.max_pivot_work > 0) {
    const Real by_work = options.max_pivot_work / (static_cast<Real>(n) * static_cast<Real>(n));
    if (by_work < static_cast<Real>(budget)) budget = static_cast<long>(by_work);
  }
  return std::max<long>(budget, 1);
}

// M's nonzeros by column into s (RevisedLemkeScratch::sparse), when at most a fraction `density`
// of M is nonzero; otherwise s.sparse = false and the basis solve reads M's dense columns.
void compress_columns(const MatX& m, Real density, RevisedLemkeScratch& s) {
  const Eigen::Index n = m.cols();
  const Eigen::Index nonzeros = (m.array() != 0).count();
  s.sparse = density > 0 && Real(nonzeros) <= density * Real(n) * Real(n);
  if (!s.sparse) return;
  s.column_start.assign(static_cast<std::size_t>(n) + 1, 0);
  s.column_rows.resize(static_cast<std::size_t>(nonzeros));
  s.column_values.resize(static_cast<std::size_t>(nonzeros));
  Eigen::Index e = 0;
  for (Eigen::Index c = 0; c < n; ++c) {
    for (Eigen::Index i = 0; i < n; ++i) {
      if (m(i, c) == 0) continue;
      s.column_rows[static_cast<std::size_t>(e)] = static_cast<int>(i);
      s.column_values[static_cast<std::size_t>(e)] = m(i, c);
      ++e;
    }
    s.column_start[static_cast<std::size_t>(c) + 1] = e;
  }
}

// The dense Lemke run in long double (64-bit mantissa) on its own buffers, finished into `out`
// (unless the start basis was singular). `start` may be null.
RunResult long_double_run(const Lcp& lcp, const SolverOptions& options,
                          const std::vector<bool>* start, long max_pivots, Real tol, Real z_scale,
                          LcpScratch& s, LcpSolution& out) {
  using L = long double;
  Mat<L> t, bmat, m = lcp.M.cast<L>();
  Vec<L> d, cover, q = lcp.q.cast<L>();
  RowVec<L> row;
  Eigen::PartialPivLU<Mat<L>> lu;
  std::vector<int> basis, candidates;
  Vec<L> original, residual;
  Work<L> wl{t, d, row, cover, original, residual, bmat, lu, basis, candidates};
  DenseTableau<L> tab{m, q, wl};
  const RunResult res = lemke_run<L>(tab, q, start, options, max_pivots, wl);
  if (!res.start_failed) finish_run<L>(lcp, options, tol, z_scale, res, wl, s, out);
  return res;
}

// One Lemke solve in double, then (if allowed and needed) in long double. `start` may be null.
// Returns false only when a warm start basis was singular (out untouched then).
bool lemke_solve(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out,
                 const std::vector<bool>* start) {
  const Eigen::Index n = lcp.q.size();
  const Real tol = verification_tolerance(lcp, options);
  const Real z_scale = certificate_impulse_scale(lcp, options);
  // Large problems pivot in the revised form (docs/solvers.md "Revised Lemke"), whose pivots cost
  // less than n²: its work cap counts the multiply-adds it does instead of pivots · n².
  const bool revised =
      options.diagnostics.revised_min_size > 0 && n >= options.diagnostics.revised_min_size;
  SolverOptions by_pivots = options;
  if (revised) by_pivots.max_pivot_work = 0;
  const long budget = pivot_budget(by_pivots, n);
  const bool capped_by_work = revised && options.max_pivot_work > 0;
  Real work_left = capped_by_work ? options.max_pivot_work : 0;  // 0: no cap
  Work<Real> w{s.tableau,        s.column,          s.pivot_row,   s.cover, s.lemke_original,
               s.lemke_residual, s.refactor_matrix, s.refactor_lu, s.basis, s.candidates};
  const auto run = [&](const SolverOptions& o, const std::vector<bool>* from, long pivots,
                       const VecX* cover) {
    if (revised) {
      RevisedTableau tab{lcp.M, lcp.q, w, s.revised};
      RunResult r = lemke_run<Real>(tab, lcp.q, from, o, pivots, w, cover, work_left);
      if (r.status == SolveStatus::kSolved && r.pivots > 0 && o.diagnostics.polish)
        r.polished = polish_by_refinement(tab, lcp.q, w);
      if (r.polished) ++s.revised.refined_polishes;
      r.work = tab.work;
      return r;
    }
    DenseTableau<Real> tab{lcp.M, lcp.q, w};
    return lemke_run<Real>(tab, lcp.q, from, o, pivots, w, cover);
  };
  if (revised && !(s.revised.same_lcp && s.revised.columns_current)) {
    compress_columns(lcp.M, options.diagnostics.revised_sparse_density, s.revised);
    s.revised.columns_current = true;
  }
  const RunResult res = run(options, start, budget, nullptr);
  if (res.start_failed) return false;
  finish_run<Real>(lcp, options, tol, z_scale, res, w, s, out);
  const SolveStatus st = out.certificate.status;
  if (st == SolveStatus::kSolved || st == SolveStatus::kInfeasible ||
      !options.diagnostics.extended_precision_retry)
    return true;
  int total = res.pivots;
  long remaining = budget - res.pivots;
  const auto budget_left = [&] { return remaining > 0 && !(capped_by_work && work_left <= 0); };
  if (capped_by_work) work_left -= res.work;
  const auto adopt = [&](LcpSolution& retry, bool extended) {
    const bool better = retry.certificate.ok() ||
                        retry.certificate.status == SolveStatus::kInfeasible ||
                        certificate_violation(retry.certificate, retry.z) <
                            certificate_violation(out.certificate, out.z);
    if (better) {
      out.z.swap(retry.z);
      out.w.swap(retry.w);
      out.ray.swap(retry.ray);
      out.certificate = retry.certificate;
      out.certificate.extended_precision = extended;
    }
  };
  const auto done = [&] {
    return out.certificate.status == SolveStatus::kSolved ||
           out.certificate.status == SolveStatus::kInfeasible;
  };
  // Retries, sharing the pivot budget of the first run (each stops early when it cycles):
  //  1. near-exact lexicographic ties (tie tolerance 1e-15 instead of 1e-12): rows that are
  //     not truly tied are no longer merged, so the order stays a total order;
  //  2. the same with a larger pivot tolerance (1e-9): rows with tiny d_i are not pivoted on;
  //  3–4. cold restarts with two other covering vectors e > 0 (a different Lemke path: a
  //     secondary ray of a non-copositive-plus problem is a property of the path, not of the
  //     problem);
  //  5. the first path in long double (a wrong turn caused by rounding is not repeated; the most
  //     expensive attempt, ~4× a double pivot, so the last).
  // Runaway protection: the long-double run is skipped where it does not fit the work cap.
  const bool long_double_ok = long_double_lemke_fits(n, options);
  for (int strategy = 1; strategy <= 5 && !done() && budget_left(); ++strategy) {
    SolverOptions o = options;
    o.diagnostics.ratio_tie_tolerance = std::min(options.diagnostics.ratio_tie_tolerance, 1e-15);
    if (strategy == 2)
      o.diagnostics.pivot_tolerance = std::max(options.diagnostics.pivot_tolerance, 1e-9);
    RunResult rk;
    LcpSolution retry;
    if (strategy == 5) {
      // Its pivots count n² each, as in the dense form's budget: within what is left of the
      // revised form's work cap.
      const long pivots =
          capped_by_work
              ? std::min<long>(remaining, static_cast<long>(work_left / (Real(n) * Real(n))))
              : remaining;
      if (!long_double_ok || pivots <= 0) continue;
      rk = long_double_run(lcp, options, start, pivots, tol, z_scale, s, retry);
    } else {
      const VecX* cover = nullptr;
      if (strategy == 3 || strategy == 4) {
        // Deterministic covering vectors: e_i = 1 + 0.9·frac(i·φ·k) (positive, distinct).
        VecX& e = s.w_best;
        e.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
          const Real x = static_cast<Real>(i + 1) * 0.6180339887498949 * (strategy - 2);
          e(i) = 1.0 + 0.9 * (x - std::floor(x));
        }
        cover = &e;
      }
      rk = run(o, cover != nullptr ? nullptr : start, remaining, cover);
      if (!rk.start_failed) {
        retry.z.swap(s.z_best);
        finish_run<Real>(lcp, options, tol, z_scale, rk, w, s, retry);
      }
    }
    total += rk.pivots;
    remaining -= rk.pivots;
    if (capped_by_work) work_left -= strategy == 5 ? Real(rk.pivots) * Real(n) * Real(n) : rk.work;
    if (!rk.start_failed) adopt(retry, strategy == 5);
    if (strategy != 5 && retry.z.size() > 0) s.z_best.swap(retry.z);
  }
  out.certificate.pivots = total;
  return true;
}

}  // namespace

void solve_lemke(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out) {
  validate_lcp(lcp, "solve_lemke");
  const Eigen::Index n = lcp.q.size();
  const Real tol = verification_tolerance(lcp, options);
  out.ray.resize(0);
  out.z.setZero(n);
  if (n == 0) {
    out.w.resize(0);
    out.certificate = SolveCertificate{};
    out.certificate.status = out.certificate.primary_status = SolveStatus::kSolved;
    out.certificate.tolerance = tol;
    out.certificate.impulse_scale = certificate_impulse_scale(lcp, options);
    return;
  }
  if (lcp.q.minCoeff() >= 0) {  // z = 0 is a solution
    s.active.assign(n, false);
    out.certificate = verify_lcp(lcp, out.z, tol, certificate_impulse_scale(lcp, options), out.w);
    out.certificate.method = SolveMethod::kLemke;
    out.certificate.primary_status = out.certificate.status;
    return;
  }
  lemke_solve(lcp, options, s, out, nullptr);
}

bool solve_lemke_from(const Lcp& lcp, const std::vector<bool>& start, const SolverOptions& options,
                      LcpScratch& s, LcpSolution& out) {
  if (!s.revised.same_lcp) validate_lcp(lcp, "solve_lemke_from");  // solve_lcp's warm runs: done
  const Eigen::Index n = lcp.q.size();
  if (static_cast<Eigen::Index>(start.size()) != n)
    throw InputError("solve_lemke_from: start basis has " + std::to_string(start.size()) +
                     " entries, the LCP has " + std::to_string(n));
  if (n == 0) {
    solve_lemke(lcp, options, s, out);
    return true;
  }
  out.ray.resize(0);
  out.z.setZero(n);
  return lemke_solve(lcp, options, s, out, &start);
}

bool long_double_lemke_fits(Eigen::Index n, const SolverOptions& options) {
  const Real x = static_cast<Real>(n);
  return !(options.max_pivot_work > 0 && 4.0 * x * x * x > options.max_pivot_work);
}

bool solve_lemke_long_double(const Lcp& lcp, const std::vector<bool>* start,
                             const SolverOptions& options, LcpScratch& s, LcpSolution& out) {
  validate_lcp(lcp, "solve_lemke_long_double");
  const Eigen::Index n = lcp.q.size();
  if (start != nullptr && static_cast<Eigen::Index>(start->size()) != n)
    throw InputError("solve_lemke_long_double: start basis has " + std::to_string(start->size()) +
                     " entries, the LCP has " + std::to_string(n));
  if (n == 0 || lcp.q.minCoeff() >= 0) {
    solve_lemke(lcp, options, s, out);
    return true;
  }
  out.ray.resize(0);
  out.z.setZero(n);
  const RunResult res = long_double_run(lcp, options, start, pivot_budget(options, n),
                                        verification_tolerance(lcp, options),
                                        certificate_impulse_scale(lcp, options), s, out);
  if (res.start_failed) return false;
  out.certificate.extended_precision = true;
  return true;
}

LcpSolution solve_lemke(const Lcp& lcp, const SolverOptions& options, LcpScratch* scratch) {
  LcpScratch local;
  LcpSolution out;
  solve_lemke(lcp, options, scratch ? *scratch : local, out);
  return out;
}

}  // namespace exactsim
