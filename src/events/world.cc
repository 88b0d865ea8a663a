#include "exactsim/events/world.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "contact/pair_coefficient.h"
#include "exactsim/math/error.h"

namespace exactsim {

int velocity_dofs(const EventWorld& world) { return 6 * static_cast<int>(world.bodies.size()); }

VecX generalized_velocity(const EventWorld& world) {
  VecX u(velocity_dofs(world));
  for (size_t b = 0; b < world.bodies.size(); ++b) {
    u.segment<3>(6 * b) = world.bodies[b].velocity;
    u.segment<3>(6 * b + 3) = world.bodies[b].angular_velocity;
  }
  return u;
}

void set_generalized_velocity(EventWorld& world, const VecX& u) {
  for (size_t b = 0; b < world.bodies.size(); ++b) {
    world.bodies[b].velocity = u.segment<3>(6 * b);
    world.bodies[b].angular_velocity = u.segment<3>(6 * b + 3);
  }
}

Mat3 world_inertia(const RigidBody& body) {
  const Mat3 R = body.orientation.toRotationMatrix();
  return R * body.inertia * R.transpose();
}

MatX inverse_mass_matrix(const EventWorld& world) {
  const int n = velocity_dofs(world);
  MatX Minv = MatX::Zero(n, n);
  for (size_t b = 0; b < world.bodies.size(); ++b) {
    const RigidBody& body = world.bodies[b];
    Minv.block<3, 3>(6 * b, 6 * b) = Mat3::Identity() / body.mass;
    Minv.block<3, 3>(6 * b + 3, 6 * b + 3) = world_inertia(body).inverse();
  }
  return Minv;
}

Real kinetic_energy(const EventWorld& world) {
  Real t = 0.0;
  for (const RigidBody& b : world.bodies)
    t += 0.5 * b.mass * b.velocity.squaredNorm() +
         0.5 * b.angular_velocity.dot(world_inertia(b) * b.angular_velocity);
  return t;
}

Real potential_energy(const EventWorld& world) {
  Real v = 0.0;
  for (const RigidBody& b : world.bodies) v -= b.mass * world.gravity.dot(b.position);
  return v;
}

ContactLaw combine_materials(const ContactLaw& a, const ContactLaw& b) {
  ContactLaw c;
  c.friction = pair_coefficient(a.friction, b.friction);
  c.restitution.e_min = pair_coefficient(a.restitution.e_min, b.restitution.e_min);
  c.restitution.v_capture = std::max(a.restitution.v_capture, b.restitution.v_capture);
  c.restitution.v_plastic = std::max(a.restitution.v_plastic, b.restitution.v_plastic);
  return c;
}

void check_world(const EventWorld& world) {
  auto fail = [](const std::string& field, const std::string& why) {
    throw InputError(field + ": " + why);
  };
  for (size_t i = 0; i < world.bodies.size(); ++i) {
    const RigidBody& b = world.bodies[i];
    const std::string f = "bodies[" + std::to_string(i) + "]";
    if (!std::isfinite(b.mass) || b.mass <= 0.0) fail(f + ".mass", "must be finite and > 0");
    if (!b.inertia.allFinite() ||
        (b.inertia - b.inertia.transpose()).norm() > 1e-12 * b.inertia.norm())
      fail(f + ".inertia", "must be a finite symmetric matrix");
    if (Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia).eigenvalues().minCoeff() <= 0.0)
      fail(f + ".inertia", "must be positive definite");
    if (!b.position.allFinite() || !b.velocity.allFinite() || !b.angular_velocity.allFinite())
      fail(f, "position and velocities must be finite");
    if (!b.orientation.coeffs().allFinite() || std::abs(b.orientation.norm() - 1.0) > 1e-9)
      fail(f + ".orientation", "must be a unit quaternion");
  }
  for (size_t i = 0; i < world.spheres.size(); ++i) {
    const Sphere& s = world.spheres[i];
    const std::string f = "spheres[" + std::to_string(i) + "]";
    if (s.body < 0 || s.body >= static_cast<int>(world.bodies.size()))
      fail(f + ".body", "no such body " + std::to_string(s.body));
    if (!std::isfinite(s.radius) || s.radius <= 0.0) fail(f + ".radius", "must be > 0");
    if (!s.center.allFinite()) fail(f + ".center", "must be finite");
    if (!std::isfinite(s.material.friction) || s.material.friction < 0.0)
      fail(f + ".material.friction", "must be >= 0");
    const RestitutionLaw& r = s.material.restitution;
    if (!(r.e_min >= 0.0 && r.e_min <= 1.0)) fail(f + ".material.e_min", "must lie in [0, 1]");
    if (!(r.v_capture >= 0.0 && r.v_plastic >= r.v_capture))
      fail(f + ".material", "needs 0 <= v_capture <= v_plastic");
  }
  for (size_t i = 0; i < world.half_spaces.size(); ++i) {
    const HalfSpace& h = world.half_spaces[i];
    if (!h.normal.allFinite() || std::abs(h.normal.norm() - 1.0) > 1e-9 || !std::isfinite(h.offset))
      fail("half_spaces[" + std::to_string(i) + "]", "normal must be a finite unit vector");
  }
  if (!world.gravity.allFinite()) fail("gravity", "must be finite");
}

}  // namespace exactsim
