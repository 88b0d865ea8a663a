#include "exactsim/metrics/energy.h"

#include "exactsim/dynamics/mass_matrix.h"

namespace exactsim {

namespace {
bool counts(const std::vector<Body>& bodies, const State& s, int i) {
  return s.present[i] && !bodies[i].is_static;
}
}  // namespace

Real kinetic_energy(const std::vector<Body>& bodies, const State& s) {
  Real e = 0;
  for (int i = 0; i < s.body_count(); ++i)
    if (counts(bodies, s, i)) {
      const BodyVector v = s.v_of(i);
      e += 0.5 * v.dot(mass_block(bodies[i], s, i) * v);
    }
  return e;
}

Real potential_energy(const std::vector<Body>& bodies, const State& s, const Vec3& gravity) {
  Real e = 0;
  for (int i = 0; i < s.body_count(); ++i)
    if (counts(bodies, s, i)) e -= bodies[i].mass * gravity.dot(body_position(s, i));
  return e;
}

Vec3 linear_momentum(const std::vector<Body>& bodies, const State& s) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < s.body_count(); ++i)
    if (counts(bodies, s, i)) {
      const auto v = s.v_of(i);
      p += bodies[i].mass * (s.dimension == 2 ? Vec3(v[0], v[1], 0) : Vec3(v.head<3>()));
    }
  return p;
}

Vec3 angular_momentum(const std::vector<Body>& bodies, const State& s, const Vec3& o) {
  Vec3 l = Vec3::Zero();
  for (int i = 0; i < s.body_count(); ++i) {
    if (!counts(bodies, s, i)) continue;
    const auto v = s.v_of(i);
    const Vec3 x = body_position(s, i) - o;
    if (s.dimension == 2) {
      l += x.cross(bodies[i].mass * Vec3(v[0], v[1], 0)) +
           Vec3(0, 0, bodies[i].planar_inertia * v[2]);
    } else {
      const BodyMatrix m = mass_block(bodies[i], s, i);
      l += x.cross(bodies[i].mass * Vec3(v.head<3>())) + m.bottomRightCorner(3, 3) * v.tail<3>();
    }
  }
  return l;
}

}  // namespace exactsim
