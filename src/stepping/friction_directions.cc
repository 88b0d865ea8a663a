#include "exactsim/stepping/friction_directions.h"

#include <algorithm>
#include <cmath>

#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/stepping/warm_start.h"

namespace exactsim {
namespace {

// Below this tangential speed (m/s) after a free step, the bodies are taken as at rest relative to
// each other without tangential load: the cone keeps its last direction.
constexpr Real kSlidingSpeed = 1e-9;
// A friction impulse below this (N s) leaves no direction to remember.
constexpr Real kNegligibleImpulse = 1e-12;

// A unit vector orthogonal to unit n̂, from the world axis least aligned with it.
Vec3 any_tangent(const Vec3& n) {
  int axis = 0;
  n.cwiseAbs().minCoeff(&axis);
  return n.cross(Vec3::Unit(axis)).normalized();
}

// Velocity of body b's material point p after a free step (ν + h M⁻¹F); zero for static bodies.
Vec3 free_point_velocity(const World& world, const State& state, Real h, int b, const Vec3& p) {
  const Body& body = world.bodies[b];
  if (body.is_static) return Vec3::Zero();
  const BodyVector v =
      state.v_of(b) + inverse_mass_block(body, state, b) * external_impulse(body, state, b, h,
                                                                             world.gravity);
  return v.head<3>() + v.tail<3>().cross(p - body_position(state, b));
}

}  // namespace

Vec3 contact_tangent(const World& world, const State& state, const Contact& c) {
  Vec3 e = Vec3::Zero();
  if (c.type == ContactType::kVertexFace) {
    const ConvexPolyhedron& shape = world.polyhedra[world.bodies[c.body_b].shape];
    const std::vector<int>& loop = shape.faces[c.feature_b].vertices;
    e = body_orientation(state, c.body_b) * (shape.vertices[loop[1]] - shape.vertices[loop[0]]);
  } else if (c.type == ContactType::kEdgeEdge) {
    const ConvexPolyhedron& shape = world.polyhedra[world.bodies[c.body_a].shape];
    e = body_orientation(state, c.body_a) * shape.edge_vector(c.feature_a);
  }
  const Vec3 t = e - c.normal.dot(e) * c.normal;
  const Real length = t.norm();
  return length > 1e-9 * e.norm() && length > 0 ? Vec3(t / length) : any_tangent(c.normal);
}

Vec3 first_friction_direction(const World& world, const State& state, Real h, const Contact& c,
                              const Vec3& tangent, std::span<const FrictionDirection> previous) {
  const Vec3 p_b = c.point_b();
  const Vec3 relative = free_point_velocity(world, state, h, c.body_b, p_b) -
                        free_point_velocity(world, state, h, c.body_a, c.point_a);
  const Vec3 sliding = relative - c.normal.dot(relative) * c.normal;
  if (sliding.norm() > kSlidingSpeed) return -sliding.normalized();
  const FrictionDirection probe{contact_name(c), 0};
  const auto it = std::lower_bound(previous.begin(), previous.end(), probe);
  if (it != previous.end() && it->contact == probe.contact)
    return std::cos(it->angle) * tangent + std::sin(it->angle) * c.normal.cross(tangent);
  return tangent;
}

void friction_directions(const Vec3& normal, const Vec3& first, int dimension, int k,
                         std::vector<Vec3>& out) {
  out.clear();
  if (dimension == 2) {
    const Vec3 t(-normal.y(), normal.x(), 0.0);
    out.push_back(t);
    out.push_back(-t);
    return;
  }
  const Vec3 o = normal.cross(first);
  for (int r = 0; r < k; ++r) {
    const Real a = 2.0 * M_PI * r / k;
    out.push_back(std::cos(a) * first + std::sin(a) * o);
  }
}

void remember_friction_direction(const Contact& c, const Vec3& tangent, const Vec3& f,
                                 std::vector<FrictionDirection>& out) {
  if (!(f.norm() > kNegligibleImpulse)) return;
  out.push_back({contact_name(c), std::atan2(f.dot(c.normal.cross(tangent)), f.dot(tangent))});
}

}  // namespace exactsim
