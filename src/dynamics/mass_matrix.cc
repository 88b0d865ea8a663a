#include "exactsim/dynamics/mass_matrix.h"

#include "exactsim/dynamics/gyroscopic.h"

namespace exactsim {

BodyMatrix mass_block(const Body& body, const State& s, int i) {
  const int n = velocity_size(s.dimension);
  BodyMatrix m = BodyMatrix::Zero(n, n);
  if (s.dimension == 2) {
    m.diagonal() << body.mass, body.mass, body.planar_inertia;
  } else {
    const Mat3 r = body_orientation(s, i).toRotationMatrix();
    m.topLeftCorner(3, 3) = body.mass * Mat3::Identity();
    m.bottomRightCorner(3, 3) = r * body.inertia * r.transpose();
  }
  return m;
}

BodyMatrix inverse_mass_block(const Body& body, const State& s, int i) {
  const int n = velocity_size(s.dimension);
  BodyMatrix w = BodyMatrix::Zero(n, n);
  if (s.dimension == 2) {
    w.diagonal() << 1.0 / body.mass, 1.0 / body.mass, 1.0 / body.planar_inertia;
  } else {
    const Mat3 r = body_orientation(s, i).toRotationMatrix();
    w.topLeftCorner(3, 3) = (1.0 / body.mass) * Mat3::Identity();
    w.bottomRightCorner(3, 3) = r * body.inertia.inverse() * r.transpose();
  }
  return w;
}

BodyVector external_impulse(const Body& body, const State& s, int i, Real h, const Vec3& gravity) {
  const int n = velocity_size(s.dimension);
  BodyVector f = BodyVector::Zero(n);
  if (s.dimension == 2) {
    f.head<2>() = h * body.mass * gravity.head<2>();
  } else {
    const Mat3 r = body_orientation(s, i).toRotationMatrix();
    const Vec3 omega_body = r.transpose() * s.v_of(i).tail<3>();
    const Vec3 omega1_body = torque_free_rotation_step(body.inertia, omega_body, h);
    f.head<3>() = h * body.mass * gravity;
    f.tail<3>() = r * (body.inertia * (omega1_body - omega_body));
  }
  if (s.force.size() > 0) f += h * s.force.segment(i * n, n);
  return f;
}

Real applied_work(const State& s, int i, Real h) {
  if (s.force.size() == 0) return 0;
  const int n = velocity_size(s.dimension);
  return h * s.force.segment(i * n, n).dot(s.v_of(i));
}

}  // namespace exactsim
