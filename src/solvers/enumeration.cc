// Brute-force LCP oracle (docs/solvers.md "Algorithms", "Enumeration"): every complementary index
// set α ⊆ {1..n} with z_α basic; independent of the pivoting and Newton solvers (own full-pivoting
// LU), for tests.
#include <algorithm>
#include <sstream>

#include "exactsim/math/error.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {

std::vector<VecX> enumerate_lcp_solutions(const Lcp& lcp, Real tol) {
  validate_lcp(lcp, "enumerate_lcp_solutions");
  const int n = static_cast<int>(lcp.q.size());
  if (n > 20) {
    std::ostringstream msg;
    msg << "enumerate_lcp_solutions: n = " << n << " needs 2^" << n
        << " basis solves; brute force is limited to n <= 20";
    throw InputError(msg.str());
  }
  std::vector<VecX> solutions;
  std::vector<int> idx;
  VecX z(n), w(n);
  for (unsigned long mask = 0; mask < (1ul << n); ++mask) {
    idx.clear();
    for (int i = 0; i < n; ++i) {
      if (mask & (1ul << i)) idx.push_back(i);
    }
    const int k = static_cast<int>(idx.size());
    z.setZero();
    if (k > 0) {
      MatX m_aa(k, k);
      VecX q_a(k);
      for (int a = 0; a < k; ++a) {
        q_a(a) = -lcp.q(idx[a]);
        for (int b = 0; b < k; ++b) m_aa(a, b) = lcp.M(idx[a], idx[b]);
      }
      Eigen::FullPivLU<MatX> lu(m_aa);
      VecX z_a;
      if (lu.isInvertible()) {
        z_a = lu.solve(q_a);
      } else {
        // Singular block: the minimum-norm point of a consistent system represents its face.
        z_a = m_aa.completeOrthogonalDecomposition().solve(q_a);
      }
      for (int a = 0; a < k; ++a) z(idx[a]) = z_a(a);
    }
    if (!verify_lcp(lcp, z, tol, w).ok()) continue;
    bool duplicate = false;
    for (const VecX& s : solutions) {
      const Real scale = std::max<Real>(1.0, s.lpNorm<Eigen::Infinity>());
      if ((s - z).lpNorm<Eigen::Infinity>() <= 1e-8 * scale) duplicate = true;
    }
    if (!duplicate) solutions.push_back(z);
  }
  return solutions;
}

}  // namespace exactsim
