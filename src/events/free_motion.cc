#include "exactsim/events/free_motion.h"

#include <vector>

#include "exactsim/math/rotation.h"

namespace exactsim {
namespace {

struct BodyRate {
  Vec3 dx, dv, dw;
  Eigen::Vector4d dq;  // (x, y, z, w) like Quat::coeffs()
};

Vec3 gyroscopic_acceleration(const Quat& q, const Mat3& inertia, const Vec3& w) {
  const Mat3 R = q.normalized().toRotationMatrix();
  const Mat3 Iw = R * inertia * R.transpose();
  return Iw.ldlt().solve(-w.cross(Iw * w));
}

BodyRate rate(const RigidBody& b, const Vec3& g) {
  BodyRate r;
  r.dx = b.velocity;
  r.dv = g;
  r.dw = gyroscopic_acceleration(b.orientation, b.inertia, b.angular_velocity);
  const Quat wq(0.0, b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z());
  r.dq = 0.5 * (wq * b.orientation).coeffs();
  return r;
}

RigidBody offset(const RigidBody& b, const BodyRate& r, Real h) {
  RigidBody o = b;
  o.position += h * r.dx;
  o.velocity += h * r.dv;
  o.angular_velocity += h * r.dw;
  o.orientation.coeffs() += h * r.dq;
  return o;
}

}  // namespace

void rk4_free_step(EventWorld& world, Real h) {
  if (h <= 0.0) return;
  for (RigidBody& b : world.bodies) {
    const BodyRate k1 = rate(b, world.gravity);
    const BodyRate k2 = rate(offset(b, k1, 0.5 * h), world.gravity);
    const BodyRate k3 = rate(offset(b, k2, 0.5 * h), world.gravity);
    const BodyRate k4 = rate(offset(b, k3, h), world.gravity);
    b.position += h / 6.0 * (k1.dx + 2.0 * k2.dx + 2.0 * k3.dx + k4.dx);
    b.velocity += h / 6.0 * (k1.dv + 2.0 * k2.dv + 2.0 * k3.dv + k4.dv);
    b.angular_velocity += h / 6.0 * (k1.dw + 2.0 * k2.dw + 2.0 * k3.dw + k4.dw);
    b.orientation.coeffs() += h / 6.0 * (k1.dq + 2.0 * k2.dq + 2.0 * k3.dq + k4.dq);
    b.orientation.normalize();
  }
}

void euler_velocity_step(EventWorld& world, Real h) {
  for (RigidBody& b : world.bodies) {
    b.velocity += h * world.gravity;
    b.angular_velocity += h * gyroscopic_acceleration(b.orientation, b.inertia, b.angular_velocity);
  }
}

void advance_positions(EventWorld& world, Real h) {
  for (RigidBody& b : world.bodies) {
    b.position += h * b.velocity;
    b.orientation = integrate_exponential(b.orientation, b.angular_velocity, h);
  }
}

}  // namespace exactsim
