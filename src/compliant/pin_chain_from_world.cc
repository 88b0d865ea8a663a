#include "exactsim/compliant/pin_chain_from_world.h"

#include <cmath>
#include <numeric>
#include <string>

#include "exactsim/math/error.h"
#include "exactsim/stepping/islands.h"
#include "exactsim/stepping/located_impact.h"
#include "exactsim/stepping/stewart_trinkle.h"

namespace exactsim {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw InputError("pin chain from world: " + what + " (docs/joints.md \"Compliant pin chains\")");
}

std::string body_name(const World& w, int i) { return "body " + w.bodies[i].name; }

std::string joint_name(const World& w, int j) {
  return w.joints[j].name.empty() ? "joint " + std::to_string(j) : w.joints[j].name;
}

Vec3 world_point(const State& s, int body, const Vec3& local) {
  return body_position(s, body) + body_orientation(s, body) * local;
}

Real wrapped(Real angle) { return std::remainder(angle, 2 * M_PI); }

}  // namespace

ChainFromWorld pin_chain_from_world(const World& w, const State& s, const ChainMaterials& m) {
  if (w.dimension != 3) fail("the world is not 3D");
  const int n_bodies = w.body_count();
  // The ground: the one half-space, its outward normal against gravity.
  int ground = -1;
  for (int i = 0; i < n_bodies; ++i)
    if (body_half_space(w, i) != nullptr) {
      if (ground >= 0) fail("more than one half-space (" + body_name(w, i) + ")");
      ground = i;
    }
  if (ground < 0) fail("no half-space for the ground");
  if (!(w.gravity.norm() > 0)) fail("no gravity to tell down");
  const Vec3 up = -w.gravity.normalized();
  const HalfSpace& plane = *body_half_space(w, ground);
  const Quat ground_turn = body_orientation(s, ground);
  if ((ground_turn * plane.normal - up).norm() > 1e-9)
    fail(body_name(w, ground) + ": its normal is not against gravity");
  // Welded groups (fixed joints) and the hinges (revolute joints) between them.
  std::vector<int> parent(n_bodies);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<int> hinges;
  for (int j = 0; j < static_cast<int>(w.joints.size()); ++j) {
    const Joint& joint = w.joints[j];
    if (joint.type == JointType::kFixed && joint.body_b != kWorldBody)
      parent[find_root(parent, joint.body_b)] = find_root(parent, joint.body_a);
    else if (joint.type == JointType::kRevolute)
      hinges.push_back(j);
    else
      fail(joint_name(w, j) + ": only hinges and welds between bodies make a chain");
  }
  // Follow the hinges from the one to the world: joint k turns link k about pin k.
  ChainFromWorld out;
  std::vector<int> pins;  // joint of pin k
  std::vector<char> used(w.joints.size(), 0);
  int link = -1;  // the welded group of the last link
  for (;;) {
    int next = -1, next_link = -1;
    for (const int j : hinges) {
      const Joint& joint = w.joints[j];
      if (used[j]) continue;
      const int a = find_root(parent, joint.body_a);
      const int b = joint.body_b == kWorldBody ? -1 : find_root(parent, joint.body_b);
      const bool joins = link < 0 ? b < 0 : (a == link) != (b == link);
      if (!joins) continue;
      if (next >= 0)
        fail(joint_name(w, j) + (link < 0 ? ": a second hinge to the world"
                                          : ": a second hinge on one link (not a serial chain)"));
      next = j;
      next_link = link < 0 ? a : (a == link ? b : a);
    }
    if (next < 0) break;
    if (next_link < 0) fail(joint_name(w, next) + ": a second hinge to the world");
    used[next] = 1;
    pins.push_back(next);
    const Joint& joint = w.joints[next];
    const bool a_moves = joint.body_b == kWorldBody || find_root(parent, joint.body_a) == next_link;
    out.link_bodies.push_back(a_moves ? joint.body_a : joint.body_b);
    link = next_link;
  }
  if (pins.empty()) fail("no hinge joins a body to the world");
  for (const int j : hinges)
    if (!used[j]) fail(joint_name(w, j) + ": not on the chain from the world");
  const int n = static_cast<int>(pins.size());
  std::vector<int> link_of(n_bodies, -1);
  for (int k = 0; k < n; ++k) {
    const int group = find_root(parent, out.link_bodies[k]);
    for (int i = 0; i < n_bodies; ++i)
      if (find_root(parent, i) == group) link_of[i] = k;
  }
  for (int i = 0; i < n_bodies; ++i)
    if (i != ground && link_of[i] < 0) fail(body_name(w, i) + ": not on the chain");
  // The plane: e_y = −axis, e_z = up, e_x = e_y × e_z; the origin on the ground.
  const Joint& first = w.joints[pins[0]];
  const Vec3 axis = (body_orientation(s, first.body_a) * first.axis_a).normalized();
  if (std::abs(axis.dot(up)) > 1e-9) fail(joint_name(w, pins[0]) + ": its axis is not level");
  for (const int j : pins) {
    const Joint& joint = w.joints[j];
    if ((body_orientation(s, joint.body_a) * joint.axis_a).normalized().cross(axis).norm() > 1e-9)
      fail(joint_name(w, j) + ": its axis is not parallel to the first hinge's");
  }
  out.e_y = -axis;
  out.e_z = up;
  out.e_x = out.e_y.cross(out.e_z);
  out.origin = world_point(s, ground, plane.offset * plane.normal);
  auto in_plane = [&](const Vec3& p) {
    return Vec2((p - out.origin).dot(out.e_x), (p - out.origin).dot(out.e_z));
  };
  PinChain& c = out.chain;
  std::vector<Vec2> pin_at(n);
  for (int k = 0; k < n; ++k) {
    const Joint& joint = w.joints[pins[k]];
    pin_at[k] = in_plane(world_point(s, joint.body_a, joint.anchor_a));
  }
  c.base = pin_at[0];
  // Link directions: to the next pin, and for the last link to its centre of mass.
  std::vector<Vec2> along(n);
  c.lengths.assign(n, 0.0);
  for (int k = 0; k < n; ++k) {
    const Vec2 to = k + 1 < n ? pin_at[k + 1] : in_plane(body_position(s, out.link_bodies[k]));
    const Real length = (to - pin_at[k]).norm();
    if (!(length > 1e-9))
      fail(body_name(w, out.link_bodies[k]) + ": its link has no direction in the plane");
    along[k] = (to - pin_at[k]) / length;
    c.lengths[k] = length;
  }
  // θ and θ̇: φ_k from s(φ) = (sin φ, −cos φ), φ̇_k the link's spin about the axis.
  out.theta.resize(n);
  out.rate.resize(n);
  Real phi_before = 0, spin_before = 0;
  for (int k = 0; k < n; ++k) {
    const Real phi = std::atan2(along[k].x(), -along[k].y());
    const Real spin = body_angular_velocity(s, out.link_bodies[k]).dot(axis);
    out.theta[k] = wrapped(phi - phi_before);
    out.rate[k] = spin - spin_before;
    phi_before = phi;
    spin_before = spin;
  }
  // Masses and spheres of each link, at (along, across) from its pin; across toward +φ.
  for (int i = 0; i < n_bodies; ++i) {
    const int k = link_of[i];
    if (k < 0) continue;
    const Body& b = w.bodies[i];
    if (b.is_static) fail(body_name(w, i) + ": a static or kinematic body on the chain");
    const Vec2 d = along[k], across(-d.y(), d.x());  // ds/dφ = (cos φ, sin φ)
    const Vec2 r = in_plane(body_position(s, i)) - pin_at[k];
    const Vec3 axis_body = body_orientation(s, i).conjugate() * axis;
    c.bodies.push_back({k, r.dot(d), r.dot(across), b.mass, axis_body.dot(b.inertia * axis_body)});
    if (k == n - 1) c.lengths[k] = std::max(c.lengths[k], r.dot(d));
    for (int p = 0; p < part_count(w, i); ++p) {
      if (part_kind(w, i, p) != ShapeKind::kSphere) continue;
      const Sphere& sphere = w.spheres[part_shape(w, i, p)];
      const Vec2 centre = in_plane(world_point(s, i, sphere.centre)) - pin_at[k];
      if (std::abs(centre.dot(across)) > 1e-9 * std::max(1.0, c.lengths[k]))
        fail(body_name(w, i) + ": a sphere off its link's line");
      ChainSphere cs;
      cs.link = k;
      cs.along = centre.dot(d);
      cs.radius = sphere.radius;
      cs.material = m.spheres;
      cs.plus_law.friction = pair_friction(w, i, ground);
      cs.plus_law.restitution = RestitutionLaw::constant(pair_restitution(w, i, ground));
      if (k == n - 1) c.lengths[k] = std::max(c.lengths[k], cs.along);
      c.spheres.push_back(cs);
    }
  }
  c.ground = m.ground;
  c.gravity = -w.gravity.norm();
  c.transition_speed = m.transition_speed;
  check_pin_chain(c);
  return out;
}

}  // namespace exactsim
