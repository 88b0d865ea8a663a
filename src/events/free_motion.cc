#include "exactsim/events/free_motion.h"

#include <type_traits>

namespace exactsim {
namespace {

// A body's free-flight state: position, quaternion coefficients (x, y, z, w like
// Quat::coeffs()), velocity and angular velocity (world).
struct Flight {
  Vec3 x, v, w;
  Eigen::Vector4d q;
};

Flight rate(const Flight& f, const Mat3& inertia, const Vec3& g) {
  const Mat3 R = Quat(f.q).normalized().toRotationMatrix();
  const Mat3 Iw = R * inertia * R.transpose();
  const Quat wq(0.0, f.w.x(), f.w.y(), f.w.z());
  return {f.v, g, Iw.ldlt().solve(-f.w.cross(Iw * f.w)), 0.5 * (wq * Quat(f.q)).coeffs()};
}

Flight offset(const Flight& f, const Flight& r, Real h) {
  return {f.x + h * r.x, f.v + h * r.v, f.w + h * r.w, f.q + h * r.q};
}

}  // namespace

void rk4_free_step(EventWorld& world, Real h) {
  if (h <= 0.0) return;
  State& s = world.state;
  for (int b = 0; b < world.body_count(); ++b) {
    const Mat3& J = world.bodies[b].inertia;
    const Flight f{body_position(s, b), body_velocity(s, b), body_angular_velocity(s, b),
                   body_orientation(s, b).coeffs()};
    const Flight k1 = rate(f, J, world.gravity);
    const Flight k2 = rate(offset(f, k1, 0.5 * h), J, world.gravity);
    const Flight k3 = rate(offset(f, k2, 0.5 * h), J, world.gravity);
    const Flight k4 = rate(offset(f, k3, h), J, world.gravity);
    const auto sum = [&](auto Flight::*m) {
      using V = std::decay_t<decltype(f.*m)>;
      return V(f.*m + h / 6.0 * (k1.*m + 2.0 * k2.*m + 2.0 * k3.*m + k4.*m));
    };
    Quat q;
    q.coeffs() = sum(&Flight::q);
    set_body_pose(s, b, sum(&Flight::x), q.normalized());
    set_body_velocity(s, b, sum(&Flight::v), sum(&Flight::w));
  }
}

}  // namespace exactsim
