#include "exactsim/dynamics/free_rotation.h"

#include <algorithm>
#include <cmath>

namespace exactsim {
namespace {

// (q, ω) in body axes: q̇ = ½ q ⊗ [0, ω], I ω̇ = −ω × I ω; q as Quat::coeffs() (x, y, z, w), not
// normalised between stages. In body axes the inertia is constant, so a stage costs no matrix
// factorisation.
struct Rotation {
  Eigen::Vector4d q;
  Vec3 w;
};

struct Inertia {
  Mat3 matrix, inverse;
};

Rotation rate(const Rotation& f, const Inertia& inertia) {
  const Quat wq(0.0, f.w.x(), f.w.y(), f.w.z());
  return {0.5 * (Quat(f.q) * wq).coeffs(), inertia.inverse * (-f.w.cross(inertia.matrix * f.w))};
}

Rotation offset(const Rotation& f, const Rotation& r, Real h) {
  return {f.q + h * r.q, f.w + h * r.w};
}

void rk4_body_step(const Inertia& inertia, Quat& q, Vec3& omega_body, Real h) {
  const Rotation f{q.coeffs(), omega_body};
  const Rotation k1 = rate(f, inertia);
  const Rotation k2 = rate(offset(f, k1, 0.5 * h), inertia);
  const Rotation k3 = rate(offset(f, k2, 0.5 * h), inertia);
  const Rotation k4 = rate(offset(f, k3, h), inertia);
  q.coeffs() = f.q + h / 6.0 * (k1.q + 2.0 * k2.q + 2.0 * k3.q + k4.q);
  q.normalize();
  omega_body = f.w + h / 6.0 * (k1.w + 2.0 * k2.w + 2.0 * k3.w + k4.w);
}

Inertia with_inverse(const Mat3& inertia_body) { return {inertia_body, inertia_body.inverse()}; }

constexpr Real kMaxSubstepAngle = 1e-3;  // rad, |ω| Δt of one RK4 sub-step
constexpr int kMaxSubsteps = 10000;

}  // namespace

void rk4_rotation_step(const Mat3& inertia_body, Quat& q, Vec3& omega_world, Real h) {
  Vec3 omega = q.conjugate() * omega_world;
  rk4_body_step(with_inverse(inertia_body), q, omega, h);
  omega_world = q * omega;
}

bool torque_free_rotation(const Mat3& inertia_body, Quat& q, Vec3& omega_world, Real t) {
  const Real angle = omega_world.norm() * t;
  if (!(angle <= kMaxSubstepAngle * kMaxSubsteps)) return false;
  if (angle == 0.0) return true;
  const int n = std::max(1, static_cast<int>(std::ceil(angle / kMaxSubstepAngle)));
  const Inertia inertia = with_inverse(inertia_body);
  // 2 T from the world-axes ω as stored, so that the next step starts from the energy this one
  // ends with.
  auto twice_energy = [&](const Quat& r, const Vec3& w) {
    const Vec3 b = r.conjugate() * w;
    return b.dot(inertia_body * b);
  };
  const Real energy = twice_energy(q, omega_world);
  Vec3 omega = q.conjugate() * omega_world;
  for (int k = 0; k < n; ++k) rk4_body_step(inertia, q, omega, t / n);
  omega_world = q * omega;
  const Real after = twice_energy(q, omega_world);
  if (after > 0.0) omega_world *= std::sqrt(energy / after);
  return true;
}

}  // namespace exactsim
