#include "exactsim/math/rotation.h"

#include <cmath>

namespace exactsim {

Mat2 rotation2(Real theta) {
  const Real c = std::cos(theta), s = std::sin(theta);
  Mat2 r;
  r << c, -s, s, c;
  return r;
}

Quat integrate_exponential(const Quat& q, const Vec3& omega_world, Real h) {
  const Real angle = omega_world.norm() * h;
  if (angle == 0.0) return q;
  const Vec3 axis = omega_world.normalized();
  const Quat dq(Eigen::AngleAxisd(angle, axis));
  return (dq * q).normalized();
}

Quat integrate_linear(const Quat& q, const Vec3& omega_world, Real h) {
  const Quat w(0.0, omega_world.x(), omega_world.y(), omega_world.z());
  Quat dq = w * q;
  Quat out(q.w() + 0.5 * h * dq.w(), q.x() + 0.5 * h * dq.x(), q.y() + 0.5 * h * dq.y(),
           q.z() + 0.5 * h * dq.z());
  return out.normalized();
}

Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

}  // namespace exactsim
