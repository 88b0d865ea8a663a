// 3D detection: broad phase over swept boxes, then vertex–face and edge–edge contacts per pair.
#include <algorithm>

#include "detect.h"
#include "exactsim/collision/corrective.h"
#include "exactsim/collision/polyhedron_contacts.h"

namespace exactsim {
namespace {

Vec3 linear_velocity(const World& w, const State& s, int i) {
  return is_fixed(w.bodies[i]) ? Vec3::Zero() : Vec3(s.v_of(i).head<3>());
}

// Upper bound of how far any point of body i moves in one step: h(|v| + |ω| r).
Real displacement_bound(const World& w, const State& s, int i, Real h) {
  if (is_fixed(w.bodies[i])) return 0;
  const auto v = s.v_of(i);
  return h * (v.head<3>().norm() + v.tail<3>().norm() * bounding_radius(w, i));
}

// Upper bound of how much the distance between a point of collider a and a point of collider b
// changes in one step: h(|v_a − v_b| + |ω_a| r_a + |ω_b| r_b), the rotation parts taken from the
// bodies' displacement bounds `motion` (h|v| + h|ω| r, by collider). Bodies falling side by side
// close nothing, so they get no speculative contacts (which would also merge them into one island).
Real relative_displacement_bound(const World& w, const State& s, std::span<const Real> motion,
                                 int a, int b, Real h) {
  const Vec3 va = linear_velocity(w, s, w.collider_body(a));
  const Vec3 vb = linear_velocity(w, s, w.collider_body(b));
  return h * (va - vb).norm() + (motion[a] - h * va.norm()) + (motion[b] - h * vb.norm());
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
  if (world.contact.model == ContactModel::kCorrective) {  // contacts only after penetration
    for (const BodyPair& p : ws.pairs)
      corrective_contact_3d(*ws.shapes3[p.a], ws.poses3[p.a], ws.polyhedra[p.a], p.a,
                            *ws.shapes3[p.b], ws.poses3[p.b], ws.polyhedra[p.b], p.b,
                            ws.overlap_polytope, ws.intersection, ws.constraints.contacts);
    return;
  }
  for (const BodyPair& p : ws.pairs) {
    // A fast pair may close more than ε in one step: widen ε by their relative motion bound.
    const Real widen =
        predict ? relative_displacement_bound(world, state, ws.motion, p.a, p.b, h) : 0.0;
    PolyhedronContactOptions o;
    o.epsilon_vf = eps;
    o.epsilon_ee = eps_edge;
    o.reach = widen;
    polyhedron_contacts(*ws.shapes3[p.a], ws.polyhedra[p.a], p.a, *ws.shapes3[p.b],
                        ws.polyhedra[p.b], p.b, o, ws.constraints.contacts, &ws.patch);
  }
}

}  // namespace exactsim
