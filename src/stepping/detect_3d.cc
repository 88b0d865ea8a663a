// 3D detection: broad phase over swept boxes, then vertex–face and edge–edge contacts per pair.
#include <algorithm>

#include "detect.h"
#include "exactsim/collision/corrective.h"
#include "exactsim/collision/polyhedron_contacts.h"
#include "exactsim/collision/sphere_contact.h"

namespace exactsim {
namespace {

Vec3 linear_velocity(const World& w, const State& s, int i) {
  return is_fixed(w.bodies[i]) ? Vec3::Zero() : Vec3(s.v_of(i).head<3>());
}

// Upper bound of how far body i's turn moves any of its points in one step: h |ω| r.
Real turn_bound(const World& w, const State& s, int i, Real h) {
  if (is_fixed(w.bodies[i])) return 0;
  return h * s.v_of(i).tail<3>().norm() * bounding_radius(w, i);
}

// Upper bound of how far any point of body i moves in one step: h(|v| + |ω| r).
Real displacement_bound(const World& w, const State& s, int i, Real h) {
  return h * linear_velocity(w, s, i).norm() + turn_bound(w, s, i, h);
}

// Upper bound of how much the distance between a point of collider a and a point of collider b
// changes in one step: h(|v_a − v_b| + |ω_a| r_a + |ω_b| r_b), a sum of terms that are each >= 0
// in floating point too. Bodies falling side by side close nothing, so they get no speculative
// contacts (which would also merge them into one island).
Real relative_displacement_bound(const World& w, const State& s, int a, int b, Real h) {
  const int ba = w.collider_body(a), bb = w.collider_body(b);
  return h * (linear_velocity(w, s, ba) - linear_velocity(w, s, bb)).norm() +
         turn_bound(w, s, ba, h) + turn_bound(w, s, bb, h);
}

// How far two colliders with a sphere may close in the step. Two spheres centred on their bodies'
// origins turn into themselves, so they close by no more than their centres' relative motion
// brings them: the closest approach of the centres along h(v_b − v_a), plus gravity's h²|g| when
// one of them does not fall with the other. A bound on the relative motion alone (`widen`) would
// hold apart two balls that pass each other within it, by the plane through their closest points
// at the start.
Real sphere_pair_reach(const World& w, const State& s, const Workspace& ws, const BodyPair& p,
                       Real h, Real widen) {
  const Sphere *sa = w.collider_sphere(p.a), *sb = w.collider_sphere(p.b);
  if (sa == nullptr || sb == nullptr || sa->centre != Vec3::Zero() || sb->centre != Vec3::Zero())
    return widen;
  const int a = w.collider_body(p.a), b = w.collider_body(p.b);
  const Vec3 d = ws.poses3[p.b].position - ws.poses3[p.a].position;
  const Vec3 m = h * (linear_velocity(w, s, b) - linear_velocity(w, s, a));
  const Real t = m.squaredNorm() > 0 ? std::clamp(-d.dot(m) / m.squaredNorm(), 0.0, 1.0) : 0.0;
  const Real closest = (d + t * m).norm();
  const Real fall = w.bodies[a].is_static != w.bodies[b].is_static ? h * h * w.gravity.norm() : 0.0;
  return std::min(widen, d.norm() - closest + fall);
}

}  // namespace

void detect_contacts_3d(const World& world, const State& state, Real h, Real eps, Workspace& ws) {
  const int n = world.collider_count();
  const bool predict = world.contact.predict_motion;
  const Real eps_edge = std::isnan(world.contact.epsilon_edge) ? eps : world.contact.epsilon_edge;
  ws.boxes3.resize(n);
  ws.motion.resize(n);
  for (int i = 0; i < n; ++i) {
    if (!ws.collider_present[i]) continue;
    const int b = world.collider_body(i);
    ws.motion[i] = !predict ? 0.0 : b == i ? displacement_bound(world, state, b, h) : ws.motion[b];
    ws.boxes3[i] = ws.polyhedra[i].aabb.inflated(std::max(eps, eps_edge) + ws.motion[i]);
  }
  sweep_and_prune(ws.boxes3, ws.is_static, ws.collider_present, ws.pairs, ws.broad_phase);
  drop_pairs_that_never_collide(world, ws.pairs);
  auto sphere_pair = [&](const BodyPair& p) {
    return ws.shapes3[p.a] == nullptr || ws.shapes3[p.b] == nullptr;
  };
  if (world.contact.model == ContactModel::kCorrective) {  // contacts only after penetration
    for (const BodyPair& p : ws.pairs)
      if (sphere_pair(p))
        sphere_contact(placed_collider(ws, p.a), p.a, placed_collider(ws, p.b), p.b, 0,
                       ws.constraints.contacts);
      else
        corrective_contact_3d(*ws.shapes3[p.a], ws.poses3[p.a], ws.polyhedra[p.a], p.a,
                              *ws.shapes3[p.b], ws.poses3[p.b], ws.polyhedra[p.b], p.b,
                              ws.overlap_polytope, ws.intersection, ws.constraints.contacts);
    return;
  }
  for (const BodyPair& p : ws.pairs) {
    // A fast pair may close more than ε in one step: widen ε by their relative motion bound.
    const Real widen =
        predict ? relative_displacement_bound(world, state, p.a, p.b, h) : 0.0;
    if (sphere_pair(p)) {
      sphere_contact(placed_collider(ws, p.a), p.a, placed_collider(ws, p.b), p.b,
                     eps + (predict ? sphere_pair_reach(world, state, ws, p, h, widen) : 0.0),
                     ws.constraints.contacts);
      continue;
    }
    PolyhedronContactOptions o;
    o.epsilon_vf = eps;
    o.epsilon_ee = eps_edge;
    o.reach = widen;
    if (world.contact.model == ContactModel::kStandard)
      o.min_applicability = world.contact.min_applicability;
    polyhedron_contacts(*ws.shapes3[p.a], ws.polyhedra[p.a], p.a, *ws.shapes3[p.b],
                        ws.polyhedra[p.b], p.b, o, ws.constraints.contacts, &ws.patch);
  }
}

}  // namespace exactsim
