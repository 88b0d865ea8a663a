// Exact solve of one complementary basis: z_α = −M_αα⁻¹ q_α, z_rest = 0 (w_rest follows from z).
// solve_active_block (the warm start and the polish) factorises only the k×k active block, in
// place in the top-left corner of a buffer that keeps its n×n size (no heap allocation between
// steps): a resting pile has k ≈ n/8. keep_nonsingular_block makes an active estimate a basis.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dense_lapack.h"
#include "exactsim/math/storage.h"
#include "exactsim/solvers/lcp.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {

Real lu_pivot_ratio(const Eigen::PartialPivLU<MatX>& lu) {
  if (lu.matrixLU().rows() == 0) return 0.0;
  const auto diag = lu.matrixLU().diagonal().cwiseAbs();
  const Real largest = diag.maxCoeff();
  return largest > 0 ? diag.minCoeff() / largest : 0.0;
}

namespace {

// The active unknowns in order (scratch.basis_index) and M_αα copied into the top-left k×k corner
// of scratch.block_matrix (kept n×n); returns k.
Eigen::Index gather_active_block(const Lcp& lcp, const std::vector<bool>& active,
                                 LcpScratch& scratch) {
  const Eigen::Index n = lcp.q.size();
  std::vector<int>& index = scratch.basis_index;
  index.clear();
  for (Eigen::Index j = 0; j < n; ++j)
    if (active[j]) index.push_back(static_cast<int>(j));
  const Eigen::Index k = static_cast<Eigen::Index>(index.size());
  MatX& buffer = scratch.block_matrix;
  if (buffer.rows() < n || buffer.cols() < n) resize_keeping_pages(buffer, n, n);
  auto a = buffer.topLeftCorner(k, k);
  for (Eigen::Index c = 0; c < k; ++c)
    for (Eigen::Index r = 0; r < k; ++r) a(r, c) = lcp.M(index[r], index[c]);
  return k;
}

// Blocks from this size are factorised by LAPACK's getrf (dense_lapack.h); smaller ones column by
// column here, where nothing is allocated and a call costs less than LAPACK's overhead.
constexpr Eigen::Index kLapackLuMin = 128;

// LU with partial pivoting of the square block a, in place (unit lower L below the diagonal, U on
// and above it); swaps[j] is the row exchanged with row j at step j (whole rows, as LAPACK's
// getrf records them). Gives the largest and smallest pivot magnitudes; false on a zero or
// non-finite pivot.
bool lu_in_place(DenseBlock a, std::vector<int>& swaps, Real& largest, Real& smallest) {
  const Eigen::Index k = a.rows();
  if (k >= kLapackLuMin) {
    if (!lu_factor(a, swaps)) return false;
    largest = a.diagonal().cwiseAbs().maxCoeff();
    smallest = a.diagonal().cwiseAbs().minCoeff();
    return true;
  }
  swaps.resize(static_cast<std::size_t>(k));
  for (Eigen::Index j = 0; j < k; ++j) {
    Eigen::Index p = 0;
    const Real pivot = a.col(j).tail(k - j).cwiseAbs().maxCoeff(&p);
    p += j;
    if (!(pivot > 0) || !std::isfinite(pivot)) return false;
    swaps[j] = static_cast<int>(p);
    if (p != j) a.row(j).swap(a.row(p));
    largest = std::max(largest, pivot);
    smallest = std::min(smallest, pivot);
    const Eigen::Index rest = k - j - 1;
    if (rest == 0) continue;
    a.col(j).tail(rest) /= a(j, j);
    a.bottomRightCorner(rest, rest).noalias() -= a.col(j).tail(rest) * a.row(j).tail(rest);
  }
  return true;
}

}  // namespace

bool solve_active_block(const Lcp& lcp, const std::vector<bool>& active, LcpScratch& scratch,
                        VecX& z, Real min_pivot_ratio) {
  const Eigen::Index n = lcp.q.size();
  const Eigen::Index k = gather_active_block(lcp, active, scratch);
  const std::vector<int>& index = scratch.basis_index;
  auto a = scratch.block_matrix.topLeftCorner(k, k);
  VecX& x = scratch.block_solution;
  x.resize(n);
  for (Eigen::Index c = 0; c < k; ++c) x(c) = -lcp.q(index[c]);
  std::vector<int>& swaps = scratch.basis_swaps;
  Real largest = 0, smallest = std::numeric_limits<Real>::infinity();
  if (!lu_in_place(a, swaps, largest, smallest)) return false;
  // A pivot ratio below ~1e-14 leaves no digits in the solve (and the answer is verified anyway).
  if (k > 0 && !(smallest / largest > min_pivot_ratio)) return false;
  auto solve = [&](auto&& v) {
    for (Eigen::Index j = 0; j < k; ++j)
      if (swaps[j] != j) std::swap(v(j), v(swaps[j]));
    a.triangularView<Eigen::UnitLower>().solveInPlace(v);
    a.triangularView<Eigen::Upper>().solveInPlace(v);
  };
  auto xk = x.head(k);
  solve(xk);
  // One step of iterative refinement: the residual −q_α − M_αα z_α, solved and added. Brings a
  // degenerate basic value (0 in exact arithmetic) to round-off of the data instead of
  // round-off times the block's condition number.
  VecX& r = scratch.basis_residual;
  r.resize(n);
  auto rk = r.head(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    Real sum = -lcp.q(index[i]);
    for (Eigen::Index c = 0; c < k; ++c) sum -= lcp.M(index[i], index[c]) * xk(c);
    rk(i) = sum;
  }
  solve(rk);
  xk += rk;
  if (!xk.allFinite()) return false;
  z.setZero(n);
  for (Eigen::Index c = 0; c < k; ++c) z(index[c]) = xk(c);
  return true;
}

// keep_nonsingular_block: a pivot may be this much smaller than the best one if its unknown has
// the higher priority (threshold pivoting, as in sparse LU).
constexpr Real kThreshold = 0.1;
// keep_nonsingular_block's panels: the trailing block is brought up to date once per this many
// pivots, by one matrix product (subtract_product).
constexpr Eigen::Index kPanel = 32;

// Symmetric pivoting (an unknown keeps its row and its column), right-looking by panels: the
// pivots are chosen on the Schur complement's diagonal, which each step keeps current; the chosen
// pivot's row and column are brought up to date with its panel's earlier steps when it is chosen,
// and the rest of the block at the panel's end.
int keep_nonsingular_block(const Lcp& lcp, std::vector<bool>& active, LcpScratch& scratch,
                           Real min_pivot_ratio, const VecX* priority) {
  const Eigen::Index k = gather_active_block(lcp, active, scratch);
  std::vector<int>& index = scratch.basis_index;
  auto a = scratch.block_matrix.topLeftCorner(k, k);
  VecX& scale = scratch.block_solution;
  VecX& diagonal = scratch.basis_residual;  // the Schur complement's diagonal
  scale.resize(lcp.q.size());
  diagonal.resize(lcp.q.size());
  for (Eigen::Index j = 0; j < k; ++j) {
    diagonal(j) = a(j, j);
    scale(j) = std::abs(a(j, j));
    if (scale(j) > 0) continue;
    for (Eigen::Index i = 0; i < k; ++i)
      if (a(i, i) > 0) scale(j) += std::abs(a(i, j) * a(j, i)) / a(i, i);
  }
  auto ratio = [&](Eigen::Index j) {
    return scale(j) > 0 ? std::abs(diagonal(j)) / scale(j) : 0.0;
  };
  Eigen::Index t = 0;
  for (Eigen::Index t0 = 0; t0 < k; t0 += kPanel) {
    const Eigen::Index t1 = std::min(k, t0 + kPanel);
    for (t = t0; t < t1; ++t) {
      Real best_ratio = min_pivot_ratio;
      for (Eigen::Index j = t; j < k; ++j) best_ratio = std::max(best_ratio, ratio(j));
      if (!(best_ratio > min_pivot_ratio)) break;
      // Threshold pivoting: of the pivots within kThreshold of the best, the highest priority.
      Eigen::Index best = -1;
      for (Eigen::Index j = t; j < k; ++j) {
        if (ratio(j) < kThreshold * best_ratio) continue;
        if (best < 0 || (priority != nullptr ? (*priority)(index[j]) > (*priority)(index[best])
                                             : ratio(j) > ratio(best)))
          best = j;
      }
      if (best != t) {
        a.row(t).swap(a.row(best));
        a.col(t).swap(a.col(best));
        std::swap(index[t], index[best]);
        std::swap(scale(t), scale(best));
        std::swap(diagonal(t), diagonal(best));
      }
      const Eigen::Index done = t - t0, rest = k - t - 1;
      if (done > 0) {  // row t (from the diagonal on) and column t: this panel's earlier steps
        a.row(t).tail(rest + 1).noalias() -=
            a.row(t).segment(t0, done) * a.block(t0, t, done, rest + 1);
        a.col(t).tail(rest).noalias() -=
            a.block(t + 1, t0, rest, done) * a.col(t).segment(t0, done);
      }
      if (rest == 0) continue;
      a.col(t).tail(rest) /= a(t, t);
      diagonal.segment(t + 1, rest).array() -=
          a.col(t).tail(rest).array() * a.row(t).tail(rest).transpose().array();
    }
    if (t < t1 || t1 == k) break;  // stopped, or done
    const Eigen::Index rest = k - t1;
    subtract_product(a.bottomRightCorner(rest, rest), a.block(t1, t0, rest, t1 - t0),
                     a.block(t0, t1, t1 - t0, rest));
    diagonal.segment(t1, rest) = a.diagonal().tail(rest);
  }
  for (Eigen::Index j = t; j < k; ++j) active[index[j]] = false;
  return static_cast<int>(k - t);
}

Real certificate_violation(const SolveCertificate& certificate, const VecX& z) {
  (void)z;
  const Real z_scale = certificate.impulse_scale > 0 ? certificate.impulse_scale : 1.0;
  const Real v = std::max(
      {Real(0), -certificate.min_z, -certificate.min_w, certificate.complementarity / z_scale});
  return std::isfinite(v) ? v : std::numeric_limits<Real>::infinity();
}

void polish_complementary_basis(const Lcp& lcp, Real tol, LcpScratch& scratch, VecX& z, VecX& w,
                                SolveCertificate& certificate, const std::vector<bool>* active) {
  const Eigen::Index n = lcp.q.size();
  if (n == 0 || !z.allFinite() || !w.allFinite()) return;
  if (active == nullptr) {
    scratch.active.assign(n, false);
    for (Eigen::Index i = 0; i < n; ++i) scratch.active[i] = z(i) > w(i);
    active = &scratch.active;
  }
  if (!solve_active_block(lcp, *active, scratch, scratch.z_polish, 1e-14)) return;
  SolveCertificate polished =
      verify_lcp(lcp, scratch.z_polish, tol, certificate.impulse_scale, scratch.w_polish);
  if (certificate_violation(polished, scratch.z_polish) > certificate_violation(certificate, z)) {
    return;
  }
  z.swap(scratch.z_polish);
  w.swap(scratch.w_polish);
  certificate.status = polished.status;
  certificate.min_z = polished.min_z;
  certificate.min_w = polished.min_w;
  certificate.complementarity = polished.complementarity;
}

}  // namespace exactsim
