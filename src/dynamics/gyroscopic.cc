#include "exactsim/dynamics/gyroscopic.h"

#include <cmath>
#include <limits>

#include <Eigen/LU>

#include "exactsim/math/rotation.h"

namespace exactsim {
namespace {

constexpr int kMaxNewton = 30;
constexpr int kMaxSplits = 20;  // 2^20 sub-steps at most: h|ω| ~ 1e6 still ends

// Newton on g(ω_m) = 2J(ω_m − ω₀) + h ω_m × Jω_m = 0; false when it does not converge.
bool midpoint_newton(const Mat3& j, const Vec3& w0, Real h, Vec3& w1) {
  Vec3 wm = w0;
  for (int it = 0; it < kMaxNewton; ++it) {
    const Vec3 jwm = j * wm;
    const Vec3 g = 2.0 * j * (wm - w0) + h * wm.cross(jwm);
    if (!g.allFinite()) return false;
    // Converged when g is at the round-off level of its own terms.
    const Real scale = 2.0 * (jwm.norm() + (j * w0).norm()) + h * wm.norm() * jwm.norm();
    if (g.norm() <= 1e-14 * scale) {
      w1 = 2.0 * wm - w0;
      return true;
    }
    const Mat3 jac = 2.0 * j + h * (skew(wm) * j - skew(jwm));
    const Vec3 step = jac.partialPivLu().solve(g);
    wm -= step;
    if (step.norm() <= 1e-16 * std::max<Real>(wm.norm(), 1e-300)) {
      w1 = 2.0 * wm - w0;
      return w1.allFinite();
    }
  }
  return false;
}

Vec3 rotation_step(const Mat3& j, const Vec3& w0, Real h, int depth) {
  Vec3 w1;
  if (midpoint_newton(j, w0, h, w1)) return w1;
  if (depth >= kMaxSplits) return w0 * std::numeric_limits<Real>::quiet_NaN();
  return rotation_step(j, rotation_step(j, w0, 0.5 * h, depth + 1), 0.5 * h, depth + 1);
}

}  // namespace

Vec3 torque_free_rotation_step(const Mat3& inertia_body, const Vec3& omega_body, Real h) {
  if (!omega_body.allFinite()) return omega_body;  // the step's finiteness check reports it
  return rotation_step(inertia_body, omega_body, h, 0);
}

}  // namespace exactsim
