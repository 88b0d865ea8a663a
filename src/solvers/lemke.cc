// Lemke's complementary pivoting method with the lexicographic minimum-ratio test
// (spec peg.md §4, step 2; Cottle–Pang–Stone §4.4).
//
// System: I w − M z − e z0 = q, covering vector e = 1. Variables are numbered w_i = i,
// z_i = n + i, z0 = 2n. We maintain the tableau T = [x_B | B⁻¹] (n × (n+1)) by explicit
// rank-one pivot updates (O(n²) per pivot); the entering column is d = B⁻¹ a_j with
// a_j = e_j (w_j), −M_j (z_j) or −e (z0). Lexicographic rule: among rows with d_i > pivot
// tolerance, pick the lexicographic minimum of T_i / d_i, comparing x first and then the
// columns of B⁻¹ one by one; since the rows of B⁻¹ are independent this is a total order and
// Lemke cannot cycle. When z0 ties at the minimum ratio it leaves (that ends the run).
// On termination the final basis is re-solved exactly (polish) and verified in the unscaled
// problem.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exactsim/solvers/lcp.h"

namespace exactsim {
namespace {

// Ratio test over rows with d_i > pivot tolerance; -1 means no blocking row (secondary ray).
int lexicographic_ratio_test(const MatX& t, const VecX& d, const std::vector<int>& basis, int z0_id,
                             const SolverOptions& options, std::vector<int>& candidates) {
  const Eigen::Index n = d.size();
  const Real piv_tol = options.pivot_tolerance * std::max<Real>(1.0, d.lpNorm<Eigen::Infinity>());
  candidates.clear();
  for (Eigen::Index i = 0; i < n; ++i) {
    if (d(i) > piv_tol) candidates.push_back(static_cast<int>(i));
  }
  if (candidates.empty()) return -1;
  // Level 0 is x_B, levels 1..n the columns of B⁻¹.
  for (Eigen::Index level = 0; level <= n && candidates.size() > 1; ++level) {
    Real min_ratio = std::numeric_limits<Real>::infinity();
    for (int i : candidates) min_ratio = std::min(min_ratio, t(i, level) / d(i));
    const Real tie = options.ratio_tie_tolerance * std::max<Real>(1.0, std::abs(min_ratio));
    std::size_t kept = 0;
    for (int i : candidates) {
      if (t(i, level) / d(i) <= min_ratio + tie) candidates[kept++] = i;
    }
    candidates.resize(kept);
    if (level == 0) {
      // z0 leaving ends the run with a complementary basis: take it whenever it ties.
      for (int i : candidates) {
        if (basis[i] == z0_id) return i;
      }
    }
  }
  // Only reachable with rows equal to rounding: take the largest pivot for stability.
  int best = candidates.front();
  for (int i : candidates) {
    if (d(i) > d(best)) best = i;
  }
  return best;
}

// d = B⁻¹ a for the entering variable.
void entering_column(const Lcp& lcp, const MatX& t, int var, VecX& d) {
  const Eigen::Index n = lcp.q.size();
  const auto b_inv = t.rightCols(n);
  if (var < n) {
    d = b_inv.col(var);
  } else if (var < 2 * n) {
    d.noalias() = b_inv * lcp.M.col(var - n);
    d = -d;
  } else {
    d = b_inv.rowwise().sum();
    d = -d;
  }
}

void pivot(MatX& t, const VecX& d, int r, Eigen::RowVectorXd& row) {
  row = t.row(r) / d(r);
  // Rank-one update of every row, then restore the pivot row.
  t.noalias() -= d * row;
  t.row(r) = row;
}

// z-part of the current basic solution (z0 and w excluded).
void basic_z(const MatX& t, const std::vector<int>& basis, Eigen::Index n, VecX& z) {
  z.setZero(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (basis[i] >= n && basis[i] < 2 * n) z(basis[i] - n) = t(i, 0);
  }
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
    return;
  }
  const auto finish = [&](SolveStatus status, int pivots) {
    SolveCertificate cert = verify_lcp(lcp, out.z, tol, out.w);
    if (status == SolveStatus::kSolved && options.polish && pivots > 0) {
      // Re-solve Lemke's own final basis (nonsingular by construction).
      s.active.assign(n, false);
      for (Eigen::Index i = 0; i < n; ++i) {
        if (s.basis[i] >= n && s.basis[i] < 2 * n) s.active[s.basis[i] - n] = true;
      }
      polish_complementary_basis(lcp, tol, s, out.z, out.w, cert, &s.active);
    }
    // A terminated run reports what the certificate says; other endings keep their reason.
    if (status != SolveStatus::kSolved) cert.status = status;
    cert.primary_status = cert.status;
    cert.method = SolveMethod::kLemke;
    cert.pivots = pivots;
    out.certificate = cert;
  };
  if (lcp.q.minCoeff() >= 0) {  // z = 0 is a solution
    finish(SolveStatus::kSolved, 0);
    return;
  }

  const int z0_id = static_cast<int>(2 * n);
  MatX& t = s.tableau;
  t.resize(n, n + 1);
  t.col(0) = lcp.q;
  t.rightCols(n).setIdentity();
  s.basis.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) s.basis[i] = static_cast<int>(i);
  s.candidates.reserve(n);

  // First pivot: z0 enters (d = −e) and w_r leaves, r = argmin q; among ties the largest index
  // keeps every row lexicographically positive.
  int r = 0;
  for (Eigen::Index i = 1; i < n; ++i) {
    if (lcp.q(i) <= lcp.q(r)) r = static_cast<int>(i);
  }
  s.column.setConstant(n, -1.0);
  pivot(t, s.column, r, s.pivot_row);
  int leaving = s.basis[r];
  s.basis[r] = z0_id;
  int pivots = 1;
  const long max_pivots = static_cast<long>(options.max_pivots_per_unknown) * n + 1;

  while (true) {
    if (pivots >= max_pivots) {
      basic_z(t, s.basis, n, out.z);
      finish(SolveStatus::kMaxIterations, pivots);
      return;
    }
    const int entering =
        leaving < n ? leaving + static_cast<int>(n) : leaving - static_cast<int>(n);
    entering_column(lcp, t, entering, s.column);
    if (!s.column.allFinite() || !t.col(0).allFinite()) {
      basic_z(t, s.basis, n, out.z);
      finish(SolveStatus::kNumerical, pivots);
      return;
    }
    r = lexicographic_ratio_test(t, s.column, s.basis, z0_id, options, s.candidates);
    if (r < 0) {
      // Secondary ray: the entering variable grows without bound, basics change by −d ≥ 0.
      // Its z-part y is a Farkas certificate when Mᵀy ≤ 0 and qᵀy < 0 (guaranteed for
      // copositive-plus M; checked here, not assumed).
      basic_z(t, s.basis, n, out.z);
      VecX& y = out.ray;
      y.setZero(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        if (s.basis[i] >= n && s.basis[i] < 2 * n)
          y(s.basis[i] - n) = std::max<Real>(0, -s.column(i));
      }
      if (entering >= n && entering < 2 * n) y(entering - n) += 1.0;
      const Real y_max = y.size() > 0 ? y.maxCoeff() : 0.0;
      SolveStatus status = SolveStatus::kRay;
      if (y_max > 0) {
        y /= y_max;
        const Real mty_max = (lcp.M.transpose() * y).maxCoeff();
        const Real m_scale = std::max<Real>(1.0, lcp.M.cwiseAbs().maxCoeff());
        if (mty_max <= options.farkas_tolerance * m_scale && lcp.q.dot(y) < -tol) {
          status = SolveStatus::kInfeasible;
        }
      }
      finish(status, pivots);
      return;
    }
    leaving = s.basis[r];
    pivot(t, s.column, r, s.pivot_row);
    s.basis[r] = entering;
    ++pivots;
    if (leaving == z0_id) {
      basic_z(t, s.basis, n, out.z);
      finish(SolveStatus::kSolved, pivots);
      return;
    }
  }
}

LcpSolution solve_lemke(const Lcp& lcp, const SolverOptions& options, LcpScratch* scratch) {
  LcpScratch local;
  LcpSolution out;
  solve_lemke(lcp, options, scratch ? *scratch : local, out);
  return out;
}

}  // namespace exactsim
