#include "exactsim/dynamics/body.h"

#include <cmath>

namespace exactsim {

Vec3 body_position(const State& s, int i) {
  const auto q = s.q_of(i);
  return s.dimension == 2 ? Vec3(q[0], q[1], 0.0) : Vec3(q[0], q[1], q[2]);
}

Quat body_orientation(const State& s, int i) {
  const auto q = s.q_of(i);
  if (s.dimension == 2) return Quat(Eigen::AngleAxisd(q[2], Vec3::UnitZ()));
  return Quat(q[3], q[4], q[5], q[6]);
}

Vec3 body_velocity(const State& s, int i) {
  const auto v = s.v_of(i);
  return s.dimension == 2 ? Vec3(v[0], v[1], 0.0) : Vec3(v[0], v[1], v[2]);
}

Vec3 body_angular_velocity(const State& s, int i) {
  const auto v = s.v_of(i);
  return s.dimension == 2 ? Vec3(0.0, 0.0, v[2]) : Vec3(v[3], v[4], v[5]);
}

void set_body_pose(State& s, int i, const Vec3& position, const Quat& orientation) {
  auto q = s.q_of(i);
  if (s.dimension == 2) {
    q << position.x(), position.y(), 2.0 * std::atan2(orientation.z(), orientation.w());
  } else {
    q << position, orientation.w(), orientation.x(), orientation.y(), orientation.z();
  }
}

void set_body_velocity(State& s, int i, const Vec3& velocity, const Vec3& angular_velocity) {
  auto v = s.v_of(i);
  if (s.dimension == 2) {
    v << velocity.x(), velocity.y(), angular_velocity.z();
  } else {
    v << velocity, angular_velocity;
  }
}

}  // namespace exactsim
