#include "exactsim/events/world.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "contact/pair_coefficient.h"
#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"

namespace exactsim {

int add_free_body(EventWorld& world, Real mass, const Mat3& inertia, const Vec3& position,
                  const Quat& orientation, const Vec3& velocity, const Vec3& angular_velocity) {
  Body b;
  b.name = "body" + std::to_string(world.body_count());
  b.mass = mass;
  b.inertia = inertia;
  world.bodies.push_back(b);
  State& s = world.state;
  s.dimension = 3;
  const int i = world.body_count() - 1;
  s.q.conservativeResize(7 * (i + 1));
  s.v.conservativeResize(6 * (i + 1));
  s.present.push_back(1);
  set_body_pose(s, i, position, orientation);
  set_body_velocity(s, i, velocity, angular_velocity);
  return i;
}

Vec3 sphere_center(const EventWorld& world, const WeldedSphere& s) {
  return body_position(world.state, s.body) + body_orientation(world.state, s.body) * s.center;
}

MatX inverse_mass_matrix(const EventWorld& world) {
  const int n = 6 * world.body_count();
  MatX Minv = MatX::Zero(n, n);
  for (int b = 0; b < world.body_count(); ++b)
    Minv.block<6, 6>(6 * b, 6 * b) = inverse_mass_block(world.bodies[b], world.state, b);
  return Minv;
}

Real mechanical_energy(const EventWorld& world) {
  return kinetic_energy(world.bodies, world.state) +
         potential_energy(world.bodies, world.state, world.gravity);
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
  const State& s = world.state;
  const size_t n = world.bodies.size();
  if (s.dimension != 3 || s.q.size() != static_cast<Eigen::Index>(7 * n) ||
      s.v.size() != static_cast<Eigen::Index>(6 * n) || s.present.size() != n)
    fail("state", "must be 3D and hold 7 coordinates and 6 velocities per body");
  for (size_t i = 0; i < n; ++i) {
    const Body& b = world.bodies[i];
    const std::string f = "bodies[" + std::to_string(i) + "]";
    if (b.is_static || !s.present[i]) fail(f, "must be a present dynamic body");
    if (!std::isfinite(b.mass) || b.mass <= 0.0) fail(f + ".mass", "must be finite and > 0");
    if (!b.inertia.allFinite() ||
        (b.inertia - b.inertia.transpose()).norm() > 1e-12 * b.inertia.norm())
      fail(f + ".inertia", "must be a finite symmetric matrix");
    if (Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia).eigenvalues().minCoeff() <= 0.0)
      fail(f + ".inertia", "must be positive definite");
    if (!s.q_of(i).head<3>().allFinite() || !s.v_of(i).allFinite())
      fail(f, "position and velocities must be finite");
    const auto q = s.q_of(i).tail<4>();
    if (!q.allFinite() || std::abs(q.norm() - 1.0) > 1e-9)
      fail(f + ".orientation", "must be a unit quaternion");
  }
  for (size_t i = 0; i < world.spheres.size(); ++i) {
    const WeldedSphere& s = world.spheres[i];
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
