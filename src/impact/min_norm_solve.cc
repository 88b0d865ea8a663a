#include "exactsim/impact/min_norm_solve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace exactsim {

bool solve_nonsingular(const MatX& B, int m, const VecX& w, MinNormSolver& s, VecX& x,
                       Real pivot_scale) {
  if (s.lu.rows() < m) {
    s.lu.resize(m, m);
    s.rhs.resize(m);
  }
  // Column-major raw access: the elimination is a few dozen flops for the usual m ≤ 6, where
  // Eigen's dynamic-size machinery would dominate.
  const Eigen::Index ld = s.lu.rows();
  Real* a = s.lu.data();
  Real* r = s.rhs.data();
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) a[i + j * ld] = B(i, j);
  for (int i = 0; i < m; ++i) r[i] = w(i);
  Real largest = pivot_scale, smallest = std::numeric_limits<Real>::infinity();
  bool singular = false;
  for (int k = 0; k < m && !singular; ++k) {
    int p = k;
    for (int i = k + 1; i < m; ++i)
      if (std::abs(a[i + k * ld]) > std::abs(a[p + k * ld])) p = i;
    if (p != k) {
      for (int j = k; j < m; ++j) std::swap(a[k + j * ld], a[p + j * ld]);
      std::swap(r[k], r[p]);
    }
    const Real pivot = a[k + k * ld];
    largest = std::max(largest, std::abs(pivot));
    smallest = std::min(smallest, std::abs(pivot));
    if (!(smallest > kMinNormPivotRel * largest)) {  // also catches 0 and NaN
      singular = true;
      break;
    }
    const Real inverse = 1.0 / pivot;
    for (int i = k + 1; i < m; ++i) {
      const Real l = a[i + k * ld] * inverse;
      if (l == 0.0) continue;
      for (int j = k + 1; j < m; ++j) a[i + j * ld] -= l * a[k + j * ld];
      r[i] -= l * r[k];
    }
  }
  // A later pivot can only be compared with the earlier ones: check the whole diagonal again.
  if (!singular)
    for (int k = 0; k < m; ++k)
      if (!(std::abs(a[k + k * ld]) > kMinNormPivotRel * largest)) singular = true;
  if (singular) return false;
  for (int i = m - 1; i >= 0; --i) {
    Real sum = r[i];
    for (int j = i + 1; j < m; ++j) sum -= a[i + j * ld] * x(j);
    x(i) = sum / a[i + i * ld];
  }
  return true;
}

bool solve_min_norm(const MatX& B, int m, const VecX& w, MinNormSolver& s, VecX& x) {
  if (solve_nonsingular(B, m, w, s, x)) return false;
  solve_min_norm_cod(B, m, w, s, x);
  return true;
}

void solve_min_norm_cod(const MatX& B, int m, const VecX& w, MinNormSolver& s, VecX& x) {
  s.cod.compute(B.topLeftCorner(m, m));
  x.head(m) = s.cod.solve(w.head(m));
}

}  // namespace exactsim
