// Exact solve of one complementary basis: z_α = −M_αα⁻¹ q_α, z_rest = 0 (w_rest follows from z).
// solve_complementary_basis (polish) factorises the n×n system B x = q with B_j = −M_j (z_j basic)
// or e_j (w_j basic), so that the buffers keep one size whatever |α| is. solve_active_block (the
// warm start) factorises only the k×k active block, in place in the top-left corner of a buffer
// that keeps its n×n size (no heap allocation between steps): a resting pile has k ≈ n/8.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exactsim/solvers/lcp.h"

namespace exactsim {

Real lu_pivot_ratio(const Eigen::PartialPivLU<MatX>& lu) {
  if (lu.matrixLU().rows() == 0) return 0.0;
  const auto diag = lu.matrixLU().diagonal().cwiseAbs();
  const Real largest = diag.maxCoeff();
  return largest > 0 ? diag.minCoeff() / largest : 0.0;
}

bool solve_active_block(const Lcp& lcp, const std::vector<bool>& active, LcpScratch& scratch,
                        VecX& z, Real min_pivot_ratio) {
  const Eigen::Index n = lcp.q.size();
  std::vector<int>& index = scratch.basis_index;  // the active unknowns, in order
  index.clear();
  for (Eigen::Index j = 0; j < n; ++j)
    if (active[j]) index.push_back(static_cast<int>(j));
  const Eigen::Index k = static_cast<Eigen::Index>(index.size());
  MatX& buffer = scratch.block_matrix;
  if (buffer.rows() < n || buffer.cols() < n) buffer.resize(n, n);
  VecX& x = scratch.block_solution;
  x.resize(n);
  auto a = buffer.topLeftCorner(k, k);
  for (Eigen::Index c = 0; c < k; ++c) {
    for (Eigen::Index r = 0; r < k; ++r) a(r, c) = lcp.M(index[r], index[c]);
    x(c) = -lcp.q(index[c]);
  }
  // LU with partial pivoting (the row swaps recorded in `swaps`).
  std::vector<int>& swaps = scratch.basis_swaps;
  swaps.resize(static_cast<std::size_t>(k));
  Real largest = 0, smallest = std::numeric_limits<Real>::infinity();
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

bool solve_complementary_basis(const Lcp& lcp, const std::vector<bool>& active, LcpScratch& scratch,
                               VecX& z, Real min_pivot_ratio) {
  const Eigen::Index n = lcp.q.size();
  MatX& b = scratch.basis_matrix;
  b.resize(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    if (active[j]) {
      b.col(j) = -lcp.M.col(j);
    } else {
      b.col(j).setZero();
      b(j, j) = 1.0;
    }
  }
  scratch.basis_lu.compute(b);
  // A pivot ratio below ~1e-14 leaves no digits in the solve (and the answer is verified anyway).
  if (!(lu_pivot_ratio(scratch.basis_lu) > min_pivot_ratio)) return false;
  scratch.basis_solution.resize(n);
  scratch.basis_solution.noalias() = scratch.basis_lu.solve(lcp.q);
  if (!scratch.basis_solution.allFinite()) return false;
  z.resize(n);
  for (Eigen::Index j = 0; j < n; ++j) z(j) = active[j] ? scratch.basis_solution(j) : 0.0;
  return true;
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
  if (!solve_complementary_basis(lcp, *active, scratch, scratch.z_polish)) return;
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
