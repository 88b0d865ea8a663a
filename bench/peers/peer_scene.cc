#include "peer_scene.h"

#include <algorithm>
#include <cmath>

#include "exactsim/math/error.h"

namespace exactsim::peers {
namespace {

// Whether `p` is a box centred on the origin along the axes: 8 vertices, each (±h_x, ±h_y, ±h_z).
bool axis_aligned_box(const ConvexPolyhedron& p, Vec3& half) {
  if (p.num_vertices() != 8) return false;
  half = Vec3::Zero();
  for (const Vec3& v : p.vertices) half = half.cwiseMax(v.cwiseAbs());
  const Real tol = 1e-12 * half.maxCoeff();
  if (!(half.minCoeff() > 0)) return false;
  for (const Vec3& v : p.vertices)
    if (((v.cwiseAbs() - half).cwiseAbs().array() > tol).any()) return false;
  return true;
}

bool diagonal(const Mat3& m) {
  const Real scale = m.diagonal().cwiseAbs().maxCoeff();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      if (r != c && std::abs(m(r, c)) > 1e-14 * scale) return false;
  return true;
}

ConvexPolyhedron prism(const ConvexPolygon& polygon, Real thickness) {
  std::vector<Vec3> points;
  for (const Vec2& v : polygon.vertices)
    for (const Real z : {-0.5 * thickness, 0.5 * thickness}) points.emplace_back(v.x(), v.y(), z);
  return polyhedron_from_points(points);
}

}  // namespace

PeerScene map_scene(const Scene& scene, Real thickness) {
  const World& w = scene.world;
  const int d = w.dimension;
  if (d == 2 && !(thickness > 0)) throw InputError("map_scene: 2D prisms need a thickness > 0");
  PeerScene out;
  out.dimension = d;
  out.gravity = w.gravity;
  if (d == 2) out.gravity.z() = 0;
  for (int i = 0; i < w.body_count(); ++i) {
    const Body& b = w.bodies[i];
    const std::string where = "body '" + b.name + "' (bodies[" + std::to_string(i) + "])";
    if (b.kinematic)
      throw InputError(where + ": kinematic bodies have no mapping to the peer engines");
    if (b.extra_parts > 0)
      throw InputError(where + ": compound bodies have no mapping to the peer engines");
    PeerBody p;
    p.name = b.name;
    p.is_static = b.is_static;
    p.friction = std::isnan(b.friction) ? w.contact.friction : b.friction;
    p.position = body_position(scene.initial, i);
    const Quat q = body_orientation(scene.initial, i);
    const auto v = scene.initial.v_of(i);
    if (d == 3) {
      p.velocity = v.head<3>();
      p.angular_velocity = v.tail<3>();
      const ConvexPolyhedron& shape = w.polyhedra[b.shape];
      if (!b.is_static) {
        p.mass = b.mass;
        if (diagonal(b.inertia)) {
          p.principal_inertia = b.inertia.diagonal();
        } else {
          Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia);
          p.rotation = eig.eigenvectors();
          if (p.rotation.determinant() < 0) p.rotation.col(2) *= -1;
          p.principal_inertia = eig.eigenvalues();
        }
      }
      if (p.rotation.isIdentity(0) && axis_aligned_box(shape, p.half)) {
        p.is_box = true;
      } else {
        std::vector<Vec3> points;
        for (const Vec3& x : shape.vertices) points.push_back(p.rotation.transpose() * x);
        p.hull = polyhedron_from_points(points);
      }
    } else {
      p.velocity = Vec3(v[0], v[1], 0);
      p.angular_velocity = Vec3(0, 0, v[2]);
      if (b.is_static) {
        // Static 2D bodies as boxes twice the prisms' depth (a prism never slides off them) when
        // they are boxes, else as their prism.
        ConvexPolyhedron slab = prism(w.polygons[b.shape], 2 * thickness);
        p.is_box = axis_aligned_box(slab, p.half);
        if (!p.is_box) p.hull = std::move(slab);
      } else {
        p.mass = b.mass;
        p.principal_inertia = Vec3::Constant(b.planar_inertia);
        p.hull = prism(w.polygons[b.shape], thickness);
      }
    }
    p.orientation = Quat(q * Quat(p.rotation)).normalized();
    out.bodies.push_back(std::move(p));
  }
  return out;
}

Real pair_friction(const PeerBody& a, const PeerBody& b) {
  return std::sqrt(a.friction * b.friction);
}

void set_body_state(const PeerScene& scene, int i, const Vec3& position,
                    const Quat& principal_orientation, const Vec3& velocity,
                    const Vec3& angular_velocity, State& state) {
  const PeerBody& b = scene.bodies[i];
  state.present[i] = 1;
  auto q = state.q_of(i);
  auto v = state.v_of(i);
  if (scene.dimension == 2) {
    const Quat o = principal_orientation.normalized();
    q << position.x(), position.y(), 2 * std::atan2(o.z(), o.w());
    v << velocity.x(), velocity.y(), angular_velocity.z();
    return;
  }
  const Quat o = Quat(principal_orientation * Quat(Mat3(b.rotation.transpose()))).normalized();
  q << position, o.w(), o.x(), o.y(), o.z();
  v << velocity, angular_velocity;
}

}  // namespace exactsim::peers
