// The inverse of a friction cone's interior-point matrix K = D_gg + diag(w/z) in closed form
// (docs/solvers.md "Interior point"). A Stewart–Trinkle cone's rows are p, β_1 … β_k and σ
// (PEG paper eq. 20; Stewart and Trinkle 1996): D_gg is zero but for σ's row (μ on p, −1 on each
// β) and σ's column (+1 on each β), so K is an arrowhead,
//
//   K = [Λ  c; rᵀ  κ],   Λ = diag(λ_i),   λ_i = w_i/z_i > 0,   κ = D_σσ + w_σ/z_σ,
//
// and with u_i = z_i/w_i = 1/λ_i, t_i = −r_i c_i u_i and s = κ + Σ t_i (the Schur complement of Λ):
//
//   (K⁻¹)_ii = u_i (s − t_i)/s,   (K⁻¹)_ij = u_i c_i r_j u_j / s   (i ≠ j),
//   (K⁻¹)_iσ = −u_i c_i / s,      (K⁻¹)_σj = −r_j u_j / s,         (K⁻¹)_σσ = 1/s.
//
// Where every r_i c_i ≤ 0 and D_σσ ≥ 0 (a cone: r_i c_i = −1 on the β rows, 0 on p), every t_i
// is ≥ 0, so s and s − t_i = κ + Σ_{l≠i} t_l are sums of non-negative terms: each entry is a
// product and quotient of such sums, exact to a few roundings however far apart the λ_i are,
// without the pivoting, and the cancellation, of an elimination.
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

// True where `d` (a group's D_gg, square) has the cone's shape above: nonzero only in its last
// row and column, r_i c_i ≤ 0 for each i and D_σσ ≥ 0.
inline bool is_cone(const MatX& d) {
  const Eigen::Index n = d.rows(), last = n - 1;
  if (n < 2 || d(last, last) < 0) return false;
  for (Eigen::Index j = 0; j < last; ++j) {
    for (Eigen::Index i = 0; i < last; ++i)
      if (d(i, j) != 0) return false;
    if (d(j, last) * d(last, j) > 0) return false;
  }
  return true;
}

// inv = (d + diag(w/z))⁻¹ for a cone `d` (is_cone), z and w > 0 indexed by the group's rows (local
// row i is row rows[i]); inv is n × n, column-major, written in full.
inline void cone_inverse(const MatX& d, const Real* z, const Real* w, const int* rows, Real* inv) {
  const int n = static_cast<int>(d.rows()), last = n - 1;
  constexpr int kMaxRows = 16;
  Real u_small[kMaxRows], t_small[kMaxRows];
  VecX u_large, t_large;
  Real* u = u_small;
  Real* t = t_small;
  if (n > kMaxRows) {
    u_large.resize(n);
    t_large.resize(n);
    u = u_large.data();
    t = t_large.data();
  }
  const Real kappa = d(last, last) + w[rows[last]] / z[rows[last]];
  Real s = kappa;
  for (int i = 0; i < last; ++i) {
    u[i] = z[rows[i]] / w[rows[i]];
    t[i] = -d(last, i) * d(i, last) * u[i];
    s += t[i];
  }
  for (int j = 0; j < last; ++j) {
    const Real rj = d(last, j) * u[j] / s;
    for (int i = 0; i < last; ++i) {
      if (i == j) {
        Real rest = kappa;  // s − t_i, as a sum of the other terms
        for (int l = 0; l < last; ++l)
          if (l != i) rest += t[l];
        inv[i + j * n] = u[i] * rest / s;
      } else {
        inv[i + j * n] = u[i] * d(i, last) * rj;
      }
    }
    inv[last + j * n] = -rj;
  }
  for (int i = 0; i < last; ++i) inv[i + last * n] = -u[i] * d(i, last) / s;
  inv[last + last * n] = 1 / s;
}

}  // namespace exactsim
