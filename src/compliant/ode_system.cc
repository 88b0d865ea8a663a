#include "exactsim/compliant/ode_system.h"

#include <cmath>

namespace exactsim {

void velocity_weights(const OdeSystem& sys, const VecX& y0, VecX& w) {
  w.resize(sys.nu);
  for (int i = 0; i < sys.nu; ++i) {
    const Real u = std::abs(y0(sys.nq + i));
    w(i) = u > 1.0 ? 1.0 / u : 1.0;
  }
}

// docs/compliant.md "Integrators": RMS norms; quaternion blocks lose their component along q
// (Simbody's N W N⁺).
Real error_norm(const OdeSystem& sys, const VecX& weights, const VecX& y1, const VecX& e) {
  Real sq = 0.0;
  if (sys.nq > 0) {
    Real sum = 0.0;
    size_t next = 0;
    for (int i = 0; i < sys.nq;) {
      if (next < sys.quaternions.size() && sys.quaternions[next] == i) {
        const Eigen::Vector4d q = y1.segment<4>(i).normalized();
        const Eigen::Vector4d eq = e.segment<4>(i);
        sum += (eq - q.dot(eq) * q).squaredNorm();
        i += 4;
        ++next;
      } else {
        sum += e(i) * e(i);
        ++i;
      }
    }
    sq = std::sqrt(sum / sys.nq);
  }
  Real su = 0.0;
  if (sys.nu > 0) {
    Real sum = 0.0;
    for (int i = 0; i < sys.nu; ++i) {
      const Real v = weights(i) * e(sys.nq + i);
      sum += v * v;
    }
    su = std::sqrt(sum / sys.nu);
  }
  if (!std::isfinite(sq) || !std::isfinite(su)) return std::numeric_limits<Real>::infinity();
  return std::max(sq, su);
}

void normalize_quaternions(const OdeSystem& sys, VecX& y) {
  for (int start : sys.quaternions) y.segment<4>(start).normalize();
}

}  // namespace exactsim
