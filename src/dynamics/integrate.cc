#include "exactsim/dynamics/integrate.h"

#include "exactsim/dynamics/free_rotation.h"
#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/math/rotation.h"

namespace exactsim {

void integrate_position(State& s, int i, Real h, RotationUpdate rotation) {
  auto q = s.q_of(i);
  const auto v = s.v_of(i);
  if (s.dimension == 2) {
    q += h * v;
    return;
  }
  q.head<3>() += h * v.head<3>();
  const Quat q0(q[3], q[4], q[5], q[6]);
  const Vec3 omega = v.tail<3>();
  const Quat q1 = rotation == RotationUpdate::kExponential ? integrate_exponential(q0, omega, h)
                                                           : integrate_linear(q0, omega, h);
  q.tail<4>() << q1.w(), q1.x(), q1.y(), q1.z();
}

void integrate_free_velocity(const Body& body, State& s, int i, Real h, const Vec3& gravity) {
  const BodyVector impulse = external_impulse(body, s, i, h, gravity);
  s.v_of(i) += inverse_mass_block(body, s, i) * impulse;
}

void integrate_flight(const Body& body, State& s, int i, Real h, const Vec3& gravity,
                      RotationUpdate rotation, bool exact) {
  if (body.kinematic) {  // keeps its velocity
    integrate_position(s, i, h, rotation);
    return;
  }
  const int d = s.dimension == 2 ? 2 : 3;
  const BodyVector before = s.v_of(i);
  // x + h ν₁ − (h/2)(ν₁ − ν₀) = x + h ν₀ + (h²/2) a: the parabola of a constant force.
  auto parabola = [&] { s.q_of(i).head(d) -= 0.5 * h * (s.v_of(i).head(d) - before.head(d)); };
  // Exact flight in 3D without applied torque: the torque-free rotation to round-off
  // (dynamics/free_rotation.h), and of integrate_free_velocity only the linear part, the numbers
  // its M⁻¹ (h F) gives. Otherwise (2D, an applied torque, a spin beyond the rotation's
  // sub-steps) the semi-implicit update.
  if (exact && d == 3 && (s.force.size() == 0 || s.force.segment(6 * i + 3, 3).isZero(0))) {
    Quat q = body_orientation(s, i);
    Vec3 omega = before.tail<3>();
    if (torque_free_rotation(body.inertia, q, omega, h)) {
      Vec3 impulse = h * body.mass * gravity;
      if (s.force.size() > 0) impulse += h * s.force.segment<3>(6 * i);
      s.v_of(i).head<3>() += (1.0 / body.mass) * impulse;
      s.q_of(i).head<3>() += h * s.v_of(i).head<3>();
      s.q_of(i).tail<4>() << q.w(), q.x(), q.y(), q.z();
      s.v_of(i).tail<3>() = omega;
      parabola();
      return;
    }
  }
  integrate_free_velocity(body, s, i, h, gravity);
  integrate_position(s, i, h, rotation);
  if (exact) parabola();
}

}  // namespace exactsim
