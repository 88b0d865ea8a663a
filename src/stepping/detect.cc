// Stage 1 of a step: place shapes, broad phase, narrow phase (docs/stepping.md stage 2).
#include "detect.h"

#include <algorithm>
#include <limits>

#include "exactsim/collision/corrective.h"
#include "exactsim/collision/vertex_edge.h"
#include "exactsim/geometry/pose.h"
#include "exactsim/geometry/pose3.h"
#include "exactsim/metrics/overlap.h"

namespace exactsim {

Real contact_epsilon(const World& world, Real h) {
  if (!std::isnan(world.contact.epsilon)) return world.contact.epsilon;
  Real thinnest = std::numeric_limits<Real>::infinity();
  if (world.dimension == 2)
    for (const ConvexPolygon& p : world.polygons) thinnest = std::min(thinnest, minimum_width(p));
  else {
    for (const ConvexPolyhedron& p : world.polyhedra)
      thinnest = std::min(thinnest, minimum_width(p));
    for (const Sphere& s : world.spheres) thinnest = std::min(thinnest, 2 * s.radius);
  }
  return std::min(default_vertex_edge_epsilon(h), 0.5 * thinnest);
}

Real split_slop(const World& world, Real h) { return 1e-12 * contact_epsilon(world, h); }

Real velocity_stabilisation_cap(const ContactOptions& options) {
  return options.stabilisation == Stabilisation::kSplit ? 0.0 : options.max_stabilisation_speed;
}

namespace {

void place_all(const World& world, const State& state, Real h, Workspace& ws, bool predicted) {
  const int n = world.collider_count();
  ws.is_static.resize(n);
  ws.collider_present.resize(n);
  for (int c = 0; c < n; ++c) {
    const int b = world.collider_body(c);
    ws.is_static[c] = world.bodies[b].is_static;
    ws.collider_present[c] = state.present[b];
  }
  if (world.dimension == 2) {
    ws.polygons.resize(n);
    ws.predicted_polygons.resize(n);
    for (int c = 0; c < n; ++c) {
      if (!ws.collider_present[c]) continue;
      const int b = world.collider_body(c);
      const auto q = state.q_of(b);
      const auto v = state.v_of(b);
      const ConvexPolygon& shape = world.polygons[world.collider_shape(c)];
      place(shape, Pose2{Vec2(q[0], q[1]), q[2]}, ws.polygons[c]);
      if (predicted)
        place(shape, Pose2{Vec2(q[0] + h * v[0], q[1] + h * v[1]), q[2] + h * v[2]},
              ws.predicted_polygons[c]);
    }
    return;
  }
  ws.polyhedra.resize(n);
  ws.poses3.resize(n);
  ws.shapes3.resize(n);
  ws.radius3.resize(n);
  for (int c = 0; c < n; ++c) {
    ws.radius3[c] = world.collider_radius(c);
    ws.shapes3[c] = ws.radius3[c] > 0 ? nullptr : &world.polyhedra[world.collider_shape(c)];
    if (!ws.collider_present[c]) continue;
    const int b = world.collider_body(c);
    ws.poses3[c] = Pose3{body_position(state, b), body_orientation(state, b)};
    place_collider(world, c, ws.poses3[c], ws.polyhedra[c]);
  }
}

}  // namespace

void map_contacts_to_bodies(const World& world, std::vector<Contact>& contacts) {
  for (Contact& c : contacts) {
    c.part_a = c.body_a;
    c.part_b = c.body_b;
    c.body_a = world.collider_body(c.part_a);
    c.body_b = world.collider_body(c.part_b);
  }
}

void place_bodies(const World& world, const State& state, Real h, Workspace& ws) {
  place_all(world, state, h, ws, true);
}

void place_current_bodies(const World& world, const State& state, Workspace& ws) {
  place_all(world, state, 0, ws, false);
}

void find_overlapping_pairs(const World& world, const State& /*state*/, Workspace& ws,
                            bool from_detection) {
  const int n = world.collider_count();
  const std::span<const std::uint8_t> present = ws.collider_present;
  // The same for both dimensions: the placed shapes' boxes, then the pairs (the detection's broad
  // phase as the cover when it ran on these present flags).
  auto pairs = [&]<class Box>(std::vector<Box>& boxes, const auto& placed,
                              const std::vector<Box>& cover) {
    boxes.resize(n);
    for (int i = 0; i < n; ++i)
      if (present[i]) boxes[i] = placed[i].aabb;
    if (from_detection)
      overlapping_box_pairs<Box, BodyPair>(boxes, ws.is_static, present, cover, ws.pairs,
                                           ws.end_sweep, ws.end_pairs);
    else
      overlapping_box_pairs<Box>(boxes, ws.is_static, present, ws.end_sweep, ws.end_pairs);
  };
  if (world.dimension == 2)
    pairs(ws.end_boxes2, ws.polygons, ws.boxes2);
  else
    pairs(ws.end_boxes3, ws.polyhedra, ws.boxes3);
  drop_pairs_that_never_collide(world, ws.end_pairs);
}

void detect_contacts(const World& world, const State& state, Real h, Real eps, Workspace& ws) {
  const bool predict = world.contact.predict_motion;
  const int n = world.collider_count();
  auto& contacts = ws.constraints.contacts;
  contacts.clear();
  ws.pairs.clear();
  if (world.dimension == 2) {
    ws.boxes2.resize(n);
    for (int i = 0; i < n; ++i)
      if (ws.collider_present[i])
        ws.boxes2[i] = predict ? swept_aabb(ws.polygons[i].aabb, ws.predicted_polygons[i].aabb, eps)
                               : ws.polygons[i].aabb.inflated(eps);
    sweep_and_prune(ws.boxes2, ws.is_static, ws.collider_present, ws.pairs, ws.broad_phase);
    drop_pairs_that_never_collide(world, ws.pairs);
    if (world.contact.model == ContactModel::kCorrective) {
      for (const BodyPair& p : ws.pairs)
        corrective_contact_2d(ws.polygons[p.a], p.a, ws.polygons[p.b], p.b, contacts);
      return;
    }
    // Contacts behind an edge's line serve PEG's vertex–vertex configurations only.
    const bool behind = world.contact.model == ContactModel::kPeg;
    for (const BodyPair& p : ws.pairs) {
      if (predict)
        vertex_edge_contacts(ws.polygons[p.a], ws.predicted_polygons[p.a], p.a, ws.polygons[p.b],
                             ws.predicted_polygons[p.b], p.b, eps, world.contact.proximity,
                             contacts, behind);
      else
        vertex_edge_contacts(ws.polygons[p.a], p.a, ws.polygons[p.b], p.b, eps, contacts);
    }
    return;
  }
  detect_contacts_3d(world, state, h, eps, ws);
}

}  // namespace exactsim
