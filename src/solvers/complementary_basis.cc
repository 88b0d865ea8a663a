// Exact solve of one complementary basis: z_α = −M_αα⁻¹ q_α, z_rest = 0, written as the n×n
// system B x = q with B_j = −M_j (z_j basic) or e_j (w_j basic) so that the buffers keep one size
// whatever |α| is (no reallocation between steps).
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
