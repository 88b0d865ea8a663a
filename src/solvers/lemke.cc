// Lemke's complementary pivoting method with the lexicographic minimum-ratio test
// (docs/solvers.md "Algorithms"; Cottle–Pang–Stone §4.4), made robust for degenerate frictional
// LCPs.
//
// System: I w − M z − e z0 = q, covering vector e. Variables are numbered w_i = i, z_i = n + i,
// z0 = 2n. We maintain the tableau T = [x_B | B⁻¹] (n × (n+1)) by explicit rank-one pivot
// updates (O(n²) per pivot); the entering column is d = B⁻¹ a_j with a_j = e_j (w_j), −M_j (z_j)
// or −e (z0).
//
// Robustness (docs/solvers.md, "Why Lemke failed"):
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
#ifdef EXACTSIM_LEMKE_TRACE  // diagnostics for docs/solvers.md (not built by CMake)
#include <cstdio>
#include <cstdlib>
#endif
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
  bool start_failed = false;  // the warm-start basis was singular
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

// One step of iterative refinement of v ≈ B⁻¹ rhs with the current B⁻¹: v += B⁻¹ (rhs − B v),
// where B v = Σ_j v_j a_basis(j) costs O(n) per basic w and O(n) per basic z or z0.
template <typename S>
void refine_column(const Mat<S>& m, Work<S>& w, Eigen::Ref<Vec<S>> v,
                   const Eigen::Ref<const Vec<S>>& rhs) {
  const Eigen::Index n = v.size();
  w.residual = rhs;
  for (Eigen::Index j = 0; j < n; ++j) {
    const int id = w.basis[j];
    if (v(j) == 0) continue;
    if (id < n)
      w.residual(id) -= v(j);
    else if (id < 2 * n)
      w.residual += v(j) * m.col(id - n);
    else
      w.residual += v(j) * w.cover;
  }
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

// Lexicographic ratio test. Candidates: d_i > pivot tolerance. Level 0 (x_B): a basic value
// within `zero` of 0 counts as 0 (negative rounding values included), and rows whose ratio is
// within the tie tolerance of the minimum are kept; z0 leaves whenever it is among them. Levels
// 1..n (columns of B⁻¹): the same rule. -1: no blocking row (secondary ray).
template <typename S>
int lexicographic_ratio_test(Work<S>& w, int z0_id, const SolverOptions& options) {
  const Eigen::Index n = w.d.size();
  const S d_max = w.d.cwiseAbs().maxCoeff();
  const S piv_tol = S(options.pivot_tolerance) * std::max<S>(1, d_max);
  w.candidates.clear();
  for (Eigen::Index i = 0; i < n; ++i)
    if (w.d(i) > piv_tol) w.candidates.push_back(static_cast<int>(i));
  if (w.candidates.empty()) return -1;
  const S eps = std::numeric_limits<S>::epsilon();
  const S tie_rel = std::max<S>(S(options.ratio_tie_tolerance), 64 * eps);
  for (Eigen::Index level = 0; level <= n && w.candidates.size() > 1; ++level) {
    // Values of this level below `zero` are rounding noise around an exact zero.
    const S col_max = w.t.col(level).cwiseAbs().maxCoeff();
    const S zero = tie_rel * std::max<S>(level == 0 ? S(1) : S(0), col_max);
    S min_ratio = std::numeric_limits<S>::infinity();
    for (int i : w.candidates) {
      const S v = std::abs(w.t(i, level)) <= zero ? S(0) : w.t(i, level);
      min_ratio = std::min(min_ratio, v / w.d(i));
    }
    std::size_t kept = 0;
    for (int i : w.candidates) {
      const S v = std::abs(w.t(i, level)) <= zero ? S(0) : w.t(i, level);
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

// The run itself. `start` (optional, size n): a complementary basis to start from (z_i basic
// when start[i]). Writes the final basis into w.basis and the z0-free basic solution into z.
template <typename S>
RunResult lemke_run(const Mat<S>& m, const Vec<S>& q, const std::vector<bool>* start,
                    const SolverOptions& options, long max_pivots, Work<S>& w,
                    const VecX* cold_cover = nullptr) {
  RunResult res;
  const Eigen::Index n = q.size();
  const int z0_id = static_cast<int>(2 * n);
  w.t.resize(n, n + 1);
  w.basis.resize(n);
  w.candidates.reserve(n);
  w.d.resize(n);
  w.cover.resize(n);
  if (start != nullptr) {
    for (Eigen::Index i = 0; i < n; ++i)
      w.basis[i] = (*start)[i] ? static_cast<int>(n + i) : static_cast<int>(i);
    // e = B·1: in basis coordinates the z0 column is −1, as in the cold start.
    if (!start_tableau<S>(m, q, *start, w)) {
      res.start_failed = true;
      return res;
    }
  } else {
    w.t.col(0) = q;
    w.t.rightCols(n).setIdentity();
    for (Eigen::Index i = 0; i < n; ++i) w.basis[i] = static_cast<int>(i);
    if (cold_cover != nullptr)
      w.cover = cold_cover->template cast<S>();
    else
      w.cover.setOnes();
  }
  if (w.t.col(0).minCoeff() >= 0) {  // the start basis is already feasible: a solution
    res.status = SolveStatus::kSolved;
    return res;
  }
  // First pivot: z0 enters (d = −B⁻¹e, negative) and the row with the largest −x_i / |d_i| leaves;
  // among ties the lexicographically smallest row of [x_B | B⁻¹] / |d_i| (cold, e = 1: the largest
  // index), which keeps every row lexicographically positive.
  entering_column<S>(m, w, z0_id);
  if (!(w.d.maxCoeff() < 0)) {  // the covering vector must be positive in basis coordinates
    res.start_failed = true;
    return res;
  }
  S x_min = std::numeric_limits<S>::infinity();
  for (Eigen::Index i = 0; i < n; ++i) x_min = std::min(x_min, w.t(i, 0) / -w.d(i));
  const S tie =
      std::max<S>(S(options.ratio_tie_tolerance), 64 * std::numeric_limits<S>::epsilon()) *
      std::max<S>(1, std::abs(x_min));
  int r = -1;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (w.t(i, 0) / -w.d(i) > x_min + tie) continue;
    if (r < 0) {
      r = static_cast<int>(i);
      continue;
    }
    for (Eigen::Index k = 1; k <= n; ++k) {
      const S a = w.t(i, k) / -w.d(i), b = w.t(r, k) / -w.d(r);
      if (a == b) continue;
      if (a < b) r = static_cast<int>(i);
      break;
    }
  }
  pivot<S>(w, r);
  int leaving = w.basis[r];
  w.basis[r] = z0_id;
  res.pivots = 1;
  const int interval = options.refactor_interval > 0 ? options.refactor_interval
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
    if (res.pivots >= max_pivots) {
      res.status = SolveStatus::kMaxIterations;
      return res;
    }
    if (since_refactor >= interval) {
      since_refactor = 0;
#ifdef EXACTSIM_LEMKE_TRACE
      const Vec<S> x_before = w.t.col(0);
#endif
      // On a singular basis matrix keep the updated tableau (the next interval retries).
      refactor<S>(m, q, w);
#ifdef EXACTSIM_LEMKE_TRACE
      std::fprintf(stderr,
                   "  refactor at %d: drift |x_upd - x_lu| = %.3e, min x = %.3e, cond-ish %.3e\n",
                   res.pivots, static_cast<double>((x_before - w.t.col(0)).cwiseAbs().maxCoeff()),
                   static_cast<double>(w.t.col(0).minCoeff()),
                   static_cast<double>(w.t.rightCols(n).cwiseAbs().maxCoeff()));
#endif
    }
    const int entering =
        leaving < n ? leaving + static_cast<int>(n) : leaving - static_cast<int>(n);
    entering_column<S>(m, w, entering);
    if (!w.d.allFinite() || !w.t.col(0).allFinite()) {
      res.status = SolveStatus::kNumerical;
      return res;
    }
    r = lexicographic_ratio_test<S>(w, z0_id, options);
    if (r < 0 || w.d(r) < S(kSmallPivot) * w.d.cwiseAbs().maxCoeff()) {
      // A tiny pivot or no blocking row: decide again on a refined column and x_B.
      w.original.resize(n);
      original_column<S>(m, w.cover, n, entering, w.original);
      refine_column<S>(m, w, w.d, w.original);
      refine_column<S>(m, w, w.t.col(0), q);
      r = lexicographic_ratio_test<S>(w, z0_id, options);
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
    pivot<S>(w, r);
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
  if (mty_max <= options.farkas_tolerance * m_scale && lcp.q.dot(y) < -tol)
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
  if (status == SolveStatus::kRay)
    status = ray_status<S>(lcp, w, w.candidates[0], tol, options, out.ray);
  SolveCertificate cert = verify_lcp(lcp, out.z, tol, z_scale, out.w);
  if (status == SolveStatus::kSolved) {
    // The final complementary basis (z_i basic), kept in s.active: the warm-start guess to pass
    // to the next solve (nonsingular by construction, degenerate basics included).
    s.active.assign(n, false);
    for (Eigen::Index i = 0; i < n; ++i)
      if (w.basis[i] >= n && w.basis[i] < 2 * n) s.active[w.basis[i] - n] = true;
    if (options.polish && res.pivots > 0)
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

// One Lemke solve in double, then (if allowed and needed) in long double. `start` may be null.
// Returns false only when a warm start basis was singular (out untouched then).
bool lemke_solve(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out,
                 const std::vector<bool>* start) {
  const Eigen::Index n = lcp.q.size();
  const Real tol = verification_tolerance(lcp, options);
  const Real z_scale = certificate_impulse_scale(lcp, options);
  const long budget = pivot_budget(options, n);
  Work<Real> w{s.tableau,        s.column,          s.pivot_row,   s.cover, s.lemke_original,
               s.lemke_residual, s.refactor_matrix, s.refactor_lu, s.basis, s.candidates};
  const RunResult res = lemke_run<Real>(lcp.M, lcp.q, start, options, budget, w);
  if (res.start_failed) return false;
  finish_run<Real>(lcp, options, tol, z_scale, res, w, s, out);
  const SolveStatus st = out.certificate.status;
  if (st == SolveStatus::kSolved || st == SolveStatus::kInfeasible ||
      !options.extended_precision_retry)
    return true;
  int total = res.pivots;
  long remaining = budget - res.pivots;
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
  // Runaway protection: the long-double run costs ~4× a double pivot; it is skipped when even a
  // short run (n pivots) would exceed the work cap.
  const bool long_double_ok =
      !(options.max_pivot_work > 0 &&
        4.0 * static_cast<Real>(n) * static_cast<Real>(n) * static_cast<Real>(n) >
            options.max_pivot_work);
  for (int strategy = 1; strategy <= 5 && !done() && remaining > 0; ++strategy) {
    SolverOptions o = options;
    o.ratio_tie_tolerance = std::min(options.ratio_tie_tolerance, 1e-15);
    if (strategy == 2) o.pivot_tolerance = std::max(options.pivot_tolerance, 1e-9);
    RunResult rk;
    LcpSolution retry;
    if (strategy == 5) {
      if (!long_double_ok) continue;
      using L = long double;
      Mat<L> t, bmat, m = lcp.M.cast<L>();
      Vec<L> d, cover, q = lcp.q.cast<L>();
      RowVec<L> row;
      Eigen::PartialPivLU<Mat<L>> lu;
      std::vector<int> basis, candidates;
      Vec<L> original, residual;
      Work<L> wl{t, d, row, cover, original, residual, bmat, lu, basis, candidates};
      rk = lemke_run<L>(m, q, start, options, remaining, wl);
      if (!rk.start_failed) finish_run<L>(lcp, options, tol, z_scale, rk, wl, s, retry);
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
      rk =
          lemke_run<Real>(lcp.M, lcp.q, cover != nullptr ? nullptr : start, o, remaining, w, cover);
      if (!rk.start_failed) {
        retry.z.swap(s.z_best);
        finish_run<Real>(lcp, options, tol, z_scale, rk, w, s, retry);
      }
    }
    total += rk.pivots;
    remaining -= rk.pivots;
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
  validate_lcp(lcp, "solve_lemke_from");
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

LcpSolution solve_lemke(const Lcp& lcp, const SolverOptions& options, LcpScratch* scratch) {
  LcpScratch local;
  LcpSolution out;
  solve_lemke(lcp, options, scratch ? *scratch : local, out);
  return out;
}

}  // namespace exactsim
