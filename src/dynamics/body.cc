#include "exactsim/dynamics/body.h"

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

}  // namespace exactsim
