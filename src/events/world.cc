#include "exactsim/events/world.h"

#include <cmath>
#include <string>

#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"
#include "exactsim/stepping/located_impact.h"
#include "exactsim/stepping/stewart_trinkle.h"

namespace exactsim {
namespace {

// Appends body b (its shapes already added) and its pose and velocity to the state.
int push_body(World& world, State& state, Body b, const Vec3& position, const Quat& orientation,
              const Vec3& velocity, const Vec3& angular_velocity) {
  world.bodies.push_back(std::move(b));
  const int i = world.body_count() - 1;
  state.dimension = 3;
  state.q.conservativeResize(7 * (i + 1));
  state.v.conservativeResize(6 * (i + 1));
  state.present.push_back(1);
  set_body_pose(state, i, position, orientation);
  set_body_velocity(state, i, velocity, angular_velocity);
  return i;
}

}  // namespace

World event_world() {
  World w;
  w.dimension = 3;
  w.gravity = Vec3(0.0, 0.0, -9.81);
  return w;
}

State event_state() {
  State s;
  s.dimension = 3;
  return s;
}

int add_sphere_body(World& world, State& state, Real mass, const Mat3& inertia,
                    const std::vector<Sphere>& spheres, const Vec3& position,
                    const Quat& orientation, const Vec3& velocity, const Vec3& angular_velocity) {
  Body b;
  b.name = "body" + std::to_string(world.body_count());
  b.mass = mass;
  b.inertia = inertia;
  add_body_shapes(world, b, std::vector<SpatialPart>(spheres.begin(), spheres.end()));
  return push_body(world, state, std::move(b), position, orientation, velocity, angular_velocity);
}

int add_half_space(World& world, State& state, const HalfSpace& half_space) {
  Body b;
  b.name = "half_space " + std::to_string(world.half_spaces.size());
  b.is_static = true;
  add_body_shapes(world, b, half_space);
  return push_body(world, state, std::move(b), Vec3::Zero(), Quat::Identity(), Vec3::Zero(),
                   Vec3::Zero());
}

std::vector<WeldedSphere> welded_spheres(const World& world) {
  std::vector<WeldedSphere> out;
  for (int b = 0; b < world.body_count(); ++b) {
    if (world.bodies[b].is_static) continue;
    for (int k = 0; k < part_count(world, b); ++k) {
      if (part_kind(world, b, k) != ShapeKind::kSphere) continue;
      const Sphere& s = world.spheres[part_shape(world, b, k)];
      out.push_back({b, s.centre, s.radius});
    }
  }
  return out;
}

Vec3 sphere_center(const State& state, const WeldedSphere& s) {
  return body_position(state, s.body) + body_orientation(state, s.body) * s.center;
}

MatX inverse_mass_matrix(const World& world, const State& state) {
  const int n = 6 * world.body_count();
  MatX Minv = MatX::Zero(n, n);
  for (int b = 0; b < world.body_count(); ++b)
    if (!world.bodies[b].is_static)
      Minv.block<6, 6>(6 * b, 6 * b) = inverse_mass_block(world.bodies[b], state, b);
  return Minv;
}

Real mechanical_energy(const World& world, const State& state) {
  return kinetic_energy(world.bodies, state) + potential_energy(world.bodies, state, world.gravity);
}

ContactLaw body_contact_law(const World& world, int b) {
  ContactLaw law;
  const Real mu = world.bodies[b].friction;
  law.friction = std::isnan(mu) ? world.contact.friction : mu;
  law.restitution = body_restitution_law(world, b);
  return law;
}

void set_body_contact_law(World& world, int b, const ContactLaw& law) {
  Body& body = world.bodies[b];
  body.friction = law.friction;
  body.restitution = law.restitution.e_min;
  body.capture_speed = law.restitution.v_capture;
  body.plastic_speed = law.restitution.v_plastic;
}

ContactLaw pair_contact_law(const World& world, int a, int b) {
  ContactLaw law;
  law.friction = pair_friction(world, a, b);
  law.restitution = pair_restitution_law(world, a, b);
  return law;
}

void check_world(const World& world, const State& s) {
  auto fail = [](const std::string& field, const std::string& why) {
    throw InputError(field + ": " + why);
  };
  const size_t n = world.bodies.size();
  if (world.dimension != 3 || s.dimension != 3 || s.q.size() != static_cast<Eigen::Index>(7 * n) ||
      s.v.size() != static_cast<Eigen::Index>(6 * n) || s.present.size() != n)
    fail("state", "must be 3D and hold 7 coordinates and 6 velocities per body");
  if (!world.joints.empty())
    fail("joints", "the event-driven simulator has no joints (time-step the scene instead)");
  for (size_t i = 0; i < n; ++i) {
    const Body& b = world.bodies[i];
    const int bi = static_cast<int>(i);
    const std::string f = "bodies[" + std::to_string(i) + "]";
    if (!s.present[i]) fail(f, "must be present");
    if (b.is_static) {
      if (b.kind != ShapeKind::kHalfSpace || b.kinematic)
        fail(f, "a static body of the event-driven simulator must be a fixed half-space");
      const HalfSpace& h = *body_half_space(world, bi);
      if (!h.normal.allFinite() || std::abs(h.normal.norm() - 1.0) > 1e-9 ||
          !std::isfinite(h.offset))
        fail(f + ".half_space", "normal must be a finite unit vector");
      continue;
    }
    for (int k = 0; k < part_count(world, bi); ++k) {
      const std::string p = f + ".shape.spheres[" + std::to_string(k) + "]";
      if (part_kind(world, bi, k) != ShapeKind::kSphere)
        fail(p, "a dynamic body of the event-driven simulator is made of spheres");
      const Sphere& sp = world.spheres[part_shape(world, bi, k)];
      if (!std::isfinite(sp.radius) || sp.radius <= 0.0) fail(p + ".radius", "must be > 0");
      if (!sp.centre.allFinite()) fail(p + ".center", "must be finite");
    }
    if (!std::isfinite(b.mass) || b.mass <= 0.0) fail(f + ".mass", "must be finite and > 0");
    if (!b.inertia.allFinite() ||
        (b.inertia - b.inertia.transpose()).norm() > 1e-12 * b.inertia.norm())
      fail(f + ".inertia", "must be a finite symmetric matrix");
    if (Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia).eigenvalues().minCoeff() <= 0.0)
      fail(f + ".inertia", "must be positive definite");
    if (!s.q_of(bi).head<3>().allFinite() || !s.v_of(bi).allFinite())
      fail(f, "position and velocities must be finite");
    const auto q = s.q_of(bi).tail<4>();
    if (!q.allFinite() || std::abs(q.norm() - 1.0) > 1e-9)
      fail(f + ".orientation", "must be a unit quaternion");
    const ContactLaw law = body_contact_law(world, bi);
    if (!std::isfinite(law.friction) || law.friction < 0.0) fail(f + ".friction", "must be >= 0");
    const RestitutionLaw& r = law.restitution;
    if (!(r.e_min >= 0.0 && r.e_min <= 1.0)) fail(f + ".restitution", "must lie in [0, 1]");
    if (!(r.v_capture >= 0.0 && r.v_plastic >= r.v_capture))
      fail(f + ".restitution", "needs 0 <= v_capture <= v_plastic");
  }
  if (!world.gravity.allFinite()) fail("gravity", "must be finite");
}

}  // namespace exactsim
