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

// Velocity of body b's material point p after a free step (ν + h M⁻¹F); zero for static bodies,
// the prescribed one for kinematic bodies.
Vec3 free_point_velocity(const World& world, const State& state, Real h, int b, const Vec3& p) {
  const Body& body = world.bodies[b];
  if (body.kinematic) {
    const auto v = state.v_of(b);
    return v.head<3>() + v.tail<3>().cross(p - body_position(state, b));
  }
  if (body.is_static) return Vec3::Zero();
  const BodyVector v = state.v_of(b) + inverse_mass_block(body, state, b) *
                                           external_impulse(body, state, b, h, world.gravity);
  return v.head<3>() + v.tail<3>().cross(p - body_position(state, b));
}

// (patch, cone) of every cone, sorted: the cones of a patch are consecutive.
void group_by_patch(std::span<const Contact> contacts, std::span<const int> cones,
                    std::vector<std::pair<std::uint64_t, int>>& out) {
  out.clear();
  for (std::size_t f = 0; f < cones.size(); ++f)
    out.push_back({friction_patch(contacts[cones[f]]), static_cast<int>(f)});
  std::sort(out.begin(), out.end());
}

// Calls f(begin, end) for each run of one patch in a group_by_patch() list.
template <class F>
void for_each_patch(const std::vector<std::pair<std::uint64_t, int>>& groups, F&& f) {
  for (std::size_t b = 0, e; b < groups.size(); b = e) {
    for (e = b + 1; e < groups.size() && groups[e].first == groups[b].first;) ++e;
    f(b, e);
  }
}

}  // namespace

Vec3 any_tangent(const Vec3& n) {
  int axis = 0;
  n.cwiseAbs().minCoeff(&axis);
  return n.cross(Vec3::Unit(axis)).normalized();
}

std::uint64_t friction_patch(const Contact& c) {
  if (c.type != ContactType::kVertexFace) return contact_name(c);
  Contact face = c;
  face.feature_a = -1;  // every vertex of A against this face of B
  return contact_name(face);
}

Vec3 contact_tangent(const World& world, const State& state, const Contact& c) {
  Vec3 e = Vec3::Zero();
  if (c.type == ContactType::kVertexFace) {
    const ConvexPolyhedron& shape = world.polyhedra[world.collider_shape(c.collider_b())];
    const std::vector<int>& loop = shape.faces[c.feature_b].vertices;
    e = body_orientation(state, c.body_b) * (shape.vertices[loop[1]] - shape.vertices[loop[0]]);
  } else if (c.type == ContactType::kEdgeEdge) {
    const ConvexPolyhedron& shape = world.polyhedra[world.collider_shape(c.collider_a())];
    e = body_orientation(state, c.body_a) * shape.edge_vector(c.feature_a);
  } else if (c.type == ContactType::kSphere) {
    // Against a face: the face's first edge, as for a vertex; against a sphere: sphere A's body x
    // axis. Either turns with the scene.
    if (c.feature_b >= 0) {
      const ConvexPolyhedron& shape = world.polyhedra[world.collider_shape(c.collider_b())];
      const std::vector<int>& loop = shape.faces[c.feature_b].vertices;
      e = body_orientation(state, c.body_b) * (shape.vertices[loop[1]] - shape.vertices[loop[0]]);
    } else {
      e = body_orientation(state, c.body_a) * Vec3::UnitX();
    }
  }
  const Vec3 t = e - c.normal.dot(e) * c.normal;
  const Real length = t.norm();
  return length > 1e-9 * e.norm() && length > 0 ? Vec3(t / length) : any_tangent(c.normal);
}

void first_friction_directions(const World& world, const State& state, Real h,
                               std::span<const Contact> contacts, std::span<const int> cones,
                               std::span<const FrictionDirection> previous,
                               std::vector<Vec3>& tangent, std::vector<Vec3>& first,
                               std::vector<std::pair<std::uint64_t, int>>& scratch) {
  tangent.resize(cones.size());
  first.resize(cones.size());
  group_by_patch(contacts, cones, scratch);
  for_each_patch(scratch, [&](std::size_t b, std::size_t e) {
    const Contact& c = contacts[cones[scratch[b].second]];
    const Vec3 t = contact_tangent(world, state, c);
    Vec3 a = Vec3::Zero(), p = Vec3::Zero();  // mean points on A and on B
    for (std::size_t i = b; i < e; ++i) {
      const Contact& ci = contacts[cones[scratch[i].second]];
      a += ci.point_a;
      p += ci.point_b();
    }
    a /= static_cast<Real>(e - b);
    p /= static_cast<Real>(e - b);
    const Vec3 relative = free_point_velocity(world, state, h, c.body_b, p) -
                          free_point_velocity(world, state, h, c.body_a, a);
    const Vec3 sliding = relative - c.normal.dot(relative) * c.normal;
    Vec3 d = t;
    if (sliding.norm() > kSlidingSpeed) {
      d = -sliding.normalized();
    } else {
      const FrictionDirection probe{scratch[b].first, 0};
      const auto it = std::lower_bound(previous.begin(), previous.end(), probe);
      if (it != previous.end() && it->patch == probe.patch)
        d = std::cos(it->angle) * t + std::sin(it->angle) * c.normal.cross(t);
    }
    for (std::size_t i = b; i < e; ++i) {
      tangent[scratch[i].second] = t;
      first[scratch[i].second] = d;
    }
  });
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

void remember_friction_directions(std::span<const Contact> contacts, std::span<const int> cones,
                                  std::span<const Vec3> tangent, std::span<const Vec3> impulse,
                                  std::vector<FrictionDirection>& out,
                                  std::vector<std::pair<std::uint64_t, int>>& scratch) {
  group_by_patch(contacts, cones, scratch);
  for_each_patch(scratch, [&](std::size_t b, std::size_t e) {
    Vec3 f = Vec3::Zero();
    for (std::size_t i = b; i < e; ++i) f += impulse[scratch[i].second];
    if (!(f.norm() > kNegligibleImpulse)) return;
    const int cone = scratch[b].second;
    const Vec3& n = contacts[cones[cone]].normal;
    const Vec3& t = tangent[cone];
    out.push_back({scratch[b].first, std::atan2(f.dot(n.cross(t)), f.dot(t))});
  });
}

}  // namespace exactsim
