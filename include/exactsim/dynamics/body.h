// Rigid bodies and their state: plain data owned by the World (docs/dynamics.md "Bodies").
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

// Planar bodies: q = (x, y, θ), ν = (v_x, v_y, ω).
// Spatial bodies: q = (x, y, z, w, qx, qy, qz) (unit quaternion, scalar first), ν = (v, ω) with ω
// in the world frame. The body origin is the centre of mass.
inline int config_size(int dimension) { return dimension == 2 ? 3 : 7; }
inline int velocity_size(int dimension) { return dimension == 2 ? 3 : 6; }

// What Body::shape (a body's first part) indexes: a convex polytope (World::polygons in 2D,
// World::polyhedra in 3D) or, in 3D, a sphere (World::spheres; docs/scene-format.md "Spheres").
// A half-space (a static body's one shape, 3D) indexes World::polyhedra too: its stand-in box
// (geometry/half_space.h), so that every contact and metric treats it as the polytope it is
// within reach; its plane is in World::half_spaces.
enum class ShapeKind : std::uint8_t { kPolytope, kSphere, kHalfSpace };

struct Body {
  std::string name;
  // Infinite mass: the body has no velocity unknowns, is never pushed, and does not collide with
  // other infinite-mass bodies. Set for static and for kinematic bodies.
  bool is_static = false;
  // Kinematic (is_static is set too): the body moves with the velocity its State holds, which
  // stays as set (by the scene, set_velocity or set_state) across steps; gravity and applied
  // forces do not act on it (docs/stepping.md "Kinematic bodies").
  bool kinematic = false;
  int shape = -1;  // index into the World's polygons (2D) or polyhedra (3D), or its spheres
  ShapeKind kind = ShapeKind::kPolytope;
  // A compound body (docs/api.md "Compound bodies") has further convex parts, welded to the first
  // (`shape`) in the body's frame: World::parts[first_part, first_part + extra_parts).
  int first_part = 0;
  int extra_parts = 0;
  Real mass = 0;                // kg (unused when static)
  Real planar_inertia = 0;      // kg·m² about the origin, 2D
  Mat3 inertia = Mat3::Zero();  // kg·m² about the origin in body axes, 3D
  Real friction = std::numeric_limits<Real>::quiet_NaN();  // per-body μ; NaN = scene default
  // Per-body coefficient of restitution of PLUS impacts (docs/impacts.md "Restitution per
  // body"); NaN = the scene's contact.impact.restitution.
  Real restitution = std::numeric_limits<Real>::quiet_NaN();
  // Per-body capture and plastic speeds of that law (m/s, impact/restitution.h); NaN = the
  // scene's. A pair takes the larger of its bodies' (docs/impacts.md "Restitution per body").
  Real capture_speed = std::numeric_limits<Real>::quiet_NaN();
  Real plastic_speed = std::numeric_limits<Real>::quiet_NaN();
  Real spawn_time = 0;  // s: joins at the first step whose start time is >= this
};

// A body that never moves: static and not kinematic.
inline bool is_fixed(const Body& b) { return b.is_static && !b.kinematic; }

// Positions and velocities of every body, stacked in body order.
struct State {
  int dimension = 2;
  Real time = 0;                      // s
  VecX q;                             // (n_bodies × config_size)
  VecX v;                             // (n_bodies × velocity_size)
  std::vector<std::uint8_t> present;  // (n_bodies) 1 once spawned
  // Sleeping (StepOptions::sleep, docs/stepping.md "Sleeping"), per body: how long it has moved
  // slower than the sleep speed (s), and whether it sleeps. Empty until a step with sleeping on.
  std::vector<Real> rest_time;
  std::vector<std::uint8_t> asleep;
  // Forces applied over the next step, world frame, stacked as v: (f_x, f_y, τ) per body in 2D,
  // (f, τ) in 3D, in N and N·m about the centre of mass. Empty: none. Each step adds h times
  // them to the bodies' external impulse (dynamics/mass_matrix.h) and leaves them as they are;
  // Simulation::step clears them after the step (docs/api.md "Driving the bodies").
  VecX force;

  int body_count() const { return static_cast<int>(present.size()); }
  auto q_of(int i) { return q.segment(i * config_size(dimension), config_size(dimension)); }
  auto q_of(int i) const { return q.segment(i * config_size(dimension), config_size(dimension)); }
  auto v_of(int i) { return v.segment(i * velocity_size(dimension), velocity_size(dimension)); }
  auto v_of(int i) const {
    return v.segment(i * velocity_size(dimension), velocity_size(dimension));
  }
};

// Body position in world coordinates (2D: z = 0).
Vec3 body_position(const State& s, int i);
// Body orientation (2D: rotation about z by θ).
Quat body_orientation(const State& s, int i);
// Body i's centre-of-mass velocity and angular velocity, world frame (2D: (v_x, v_y, 0) and
// (0, 0, ω)).
Vec3 body_velocity(const State& s, int i);
Vec3 body_angular_velocity(const State& s, int i);

// Sets body i's pose and velocity from world-frame vectors (2D: x and v in the plane, the angle
// of q about z, ω_z; the other components are not used).
void set_body_pose(State& s, int i, const Vec3& position, const Quat& orientation);
void set_body_velocity(State& s, int i, const Vec3& velocity, const Vec3& angular_velocity);

}  // namespace exactsim
