#include "exactsim/api/validate.h"

#include <algorithm>
#include <cmath>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/io/scene_rules.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/located_impact.h"
#include "located.h"

namespace exactsim {
namespace {

using api::at;
using api::fail;

}  // namespace

std::string body_label(const World& world, int i) {
  std::string s = "bodies[" + std::to_string(i) + "]";
  if (i >= 0 && i < world.body_count() && !world.bodies[i].name.empty())
    s += " (" + world.bodies[i].name + ")";
  return s;
}

void validate_body(const World& w, int i) {
  const Body& b = w.bodies[i];
  const std::string label = body_label(w, i) + ".";
  at(label + "name", [&] { rules::name(b.name); });
  const int shapes = static_cast<int>(w.dimension == 2 ? w.polygons.size() : w.polyhedra.size());
  if (b.extra_parts < 0 || b.extra_parts >= limits::kMaxParts || b.first_part < 0 ||
      b.first_part + b.extra_parts > static_cast<int>(w.parts.size()))
    fail(label + "parts", "parts [" + std::to_string(b.first_part) + ", " +
                              std::to_string(b.first_part + b.extra_parts) + ") name no parts of " +
                              "the world (" + std::to_string(w.parts.size()) + " given)");
  for (int k = 0; k < part_count(w, i); ++k) {
    if (k > 0 && w.parts[b.first_part + k - 1].body != i)
      fail(label + "parts", "part " + std::to_string(b.first_part + k - 1) + " belongs to bodies[" +
                                std::to_string(w.parts[b.first_part + k - 1].body) + "]");
    const int shape = part_shape(w, i, k);
    if (part_kind(w, i, k) == ShapeKind::kHalfSpace) {
      if (w.dimension != 3) fail(label + "shape", "a half-space needs a 3D scene");
      if (!b.is_static || b.kinematic || b.extra_parts != 0)
        fail(label + "shape", "a half-space is a static body's one shape");
      int planes = 0;
      for (const Body& other : w.bodies) planes += other.kind == ShapeKind::kHalfSpace;
      if (planes != static_cast<int>(w.half_spaces.size()) || shape < 0 || shape >= shapes)
        fail(label + "shape",
             "the world's half-spaces and their stand-ins do not match its bodies");
      const HalfSpace& h = *body_half_space(w, i);
      if (!h.normal.allFinite() || std::abs(h.normal.norm() - 1) > 1e-12)
        fail(label + "shape.half_space.normal", "must be a finite unit vector");
      at(label + "shape.half_space.offset", [&] { rules::coordinate(h.offset); });
      continue;
    }
    if (part_kind(w, i, k) == ShapeKind::kSphere) {
      if (w.dimension != 3) fail(label + "shape", "a sphere needs a 3D scene");
      if (shape < 0 || shape >= static_cast<int>(w.spheres.size()))
        fail(label + "shape", "index " + std::to_string(shape) + " names no sphere of the world (" +
                                  std::to_string(w.spheres.size()) + " given)");
      at(label + "shape.sphere", [&] { rules::shape(w.spheres[shape]); });
      continue;
    }
    if (shape < 0 || shape >= shapes)
      fail(label + "shape", "index " + std::to_string(shape) + " names no " +
                                (w.dimension == 2 ? "polygon" : "polyhedron") + " of the world (" +
                                std::to_string(shapes) + " given)");
    if (w.dimension == 2) {
      const ConvexPolygon& p = w.polygons[shape];
      if (p.size() < 3 || p.edge_normals.size() != p.vertices.size())
        fail(label + "shape", "polygon " + std::to_string(shape) + " has " +
                                  std::to_string(p.size()) + " vertices and " +
                                  std::to_string(p.edge_normals.size()) +
                                  " edge normals; build it with polygon_from_points");
      at(label + "shape", [&] { rules::shape(p); });
    } else {
      const ConvexPolyhedron& p = w.polyhedra[shape];
      if (p.num_vertices() < 4 || p.num_faces() < 4 || p.num_edges() < 6 ||
          p.vertex_edges.size() != p.vertices.size())
        fail(label + "shape", "polyhedron " + std::to_string(shape) +
                                  " is incomplete (vertices, faces, edges, adjacency); build it "
                                  "with polyhedron_from_points");
      at(label + "shape", [&] { rules::shape(p); });
    }
  }
  const Real r = bounding_radius(w, i);
  if (b.kinematic && !b.is_static)
    fail(label + "kinematic", "a kinematic body has infinite mass: set is_static too");
  if (!b.is_static) {
    at(label + "mass", [&] { rules::mass(b.mass); });
    if (w.dimension == 2)
      at(label + "inertia", [&] { rules::planar_inertia(b.planar_inertia, b.mass, r); });
    else
      at(label + "inertia", [&] { rules::inertia(b.inertia, b.mass, r); });
  }
  if (!std::isnan(b.friction)) at(label + "friction", [&] { rules::friction(b.friction); });
  if (!std::isnan(b.restitution))
    at(label + "restitution", [&] { rules::restitution(b.restitution); });
  const RestitutionLaw law = restitution_law(b, w.contact.impact.restitution);
  if (!std::isnan(b.capture_speed) && !(b.capture_speed >= 0 && std::isfinite(b.capture_speed)))
    fail(label + "capture_speed", "must be finite and >= 0");
  if ((!std::isnan(b.capture_speed) || !std::isnan(b.plastic_speed)) &&
      !(law.v_plastic >= law.v_capture))
    fail(label + "plastic_speed", "must be >= the capture speed");
  at(label + "spawn_time", [&] { rules::spawn_time(b.spawn_time); });
}

void validate_world(const World& w) {
  if (w.dimension != 2 && w.dimension != 3)
    fail("dimension", "must be 2 or 3, got " + std::to_string(w.dimension));
  if (w.dimension == 2 && w.gravity.z() != 0) fail("gravity", "z must be 0 in 2D");
  at("gravity", [&] { rules::gravity(w.gravity); });
  const ContactOptions& c = w.contact;
  at("contact.friction", [&] { rules::friction(c.friction); });
  at("contact.friction_directions", [&] { rules::friction_directions(c.friction_directions); });
  if (!std::isnan(c.epsilon))
    at("contact.parameters.epsilon", [&] { rules::contact_distance(c.epsilon); });
  if (!std::isnan(c.epsilon_edge))
    at("contact.parameters.epsilon_edge", [&] { rules::contact_distance(c.epsilon_edge); });
  at("contact.parameters.min_applicability", [&] { rules::applicability(c.min_applicability); });
  if (!(c.max_stabilisation_speed > 0))
    fail("contact.parameters.max_stabilisation_speed",
         "must be > 0 (+inf: off), got " + rules::shown(c.max_stabilisation_speed));
  at("stepping.threads", [&] { rules::threads(w.stepping.threads); });
  if (w.stepping.dense_max_unknowns < -1)  // (−1: the default, dense_max_unknowns(World))
    fail("stepping.dense_max_unknowns", "must be >= 0, or -1 for the default, got " +
                                            std::to_string(w.stepping.dense_max_unknowns));
  at("bodies", [&] { rules::body_count(w.bodies.size()); });
  std::size_t parts = 0;
  for (int i = 0; i < w.body_count(); ++i) {
    validate_body(w, i);
    parts += static_cast<std::size_t>(w.bodies[i].extra_parts);
  }
  for (std::size_t k = 0; k < w.joints.size(); ++k)
    at("joints[" + std::to_string(k) + "]", [&] { rules::joint(w, w.joints[k]); });
  if (parts != w.parts.size())
    fail("parts",
         std::to_string(w.parts.size()) + " parts, but the bodies list " + std::to_string(parts));
}

void validate_state(const World& w, const State& s) {
  if (s.dimension != w.dimension)
    fail("state.dimension", std::to_string(s.dimension) + ", but the world is " +
                                std::to_string(w.dimension) + "D (set State::dimension)");
  const long n = w.body_count(), nq = config_size(w.dimension), nv = velocity_size(w.dimension);
  if (static_cast<long>(s.present.size()) != n)
    fail("state.present", std::to_string(s.present.size()) + " flags for " + std::to_string(n) +
                              " bodies (one per body: 0 until spawned, step() sets them)");
  if (s.q.size() != n * nq)
    fail("state.q", std::to_string(s.q.size()) + " entries, " + std::to_string(n) + " bodies in " +
                        std::to_string(w.dimension) + "D need " + std::to_string(n * nq));
  if (s.v.size() != n * nv)
    fail("state.v", std::to_string(s.v.size()) + " entries, " + std::to_string(n) + " bodies in " +
                        std::to_string(w.dimension) + "D need " + std::to_string(n * nv));
  if (s.force.size() != 0 && s.force.size() != n * nv)
    fail("state.force", std::to_string(s.force.size()) + " entries, " + std::to_string(n) +
                            " bodies in " + std::to_string(w.dimension) + "D need 0 or " +
                            std::to_string(n * nv));
  if (!s.force.allFinite()) fail("state.force", "must be finite");
  if ((!s.asleep.empty() && static_cast<long>(s.asleep.size()) != n) ||
      s.rest_time.size() != s.asleep.size())
    fail("state.asleep", "one flag and one rest time per body, or none");
  if (!std::isfinite(s.time)) fail("state.time", "must be finite");
  for (int i = 0; i < n; ++i) {
    const std::string label = body_label(w, i) + ".";
    if (s.present[i] > 1)
      fail(label + "present", "must be 0 or 1, got " + std::to_string(s.present[i]));
    if (!s.q_of(i).allFinite()) fail(label + "position", "must be finite (state.q)");
    if (!s.v_of(i).allFinite()) fail(label + "velocity", "must be finite (state.v)");
    if (w.dimension == 3) {
      const Real norm = s.q_of(i).tail<4>().norm();
      if (std::abs(norm - 1) > 1e-9)
        fail(label + "orientation",
             "quaternion norm " + std::to_string(norm).substr(0, 8) + ", must be 1 (normalise it)");
    }
    if (is_fixed(w.bodies[i]) && s.v_of(i).cwiseAbs().maxCoeff() != 0)
      fail(label + "velocity", "a static body cannot move");
  }
}

void validate_configuration(const World& w, int i, const Eigen::Ref<const VecX>& q) {
  const std::string label = body_label(w, i) + ".";
  for (int k = 0; k < w.dimension; ++k)
    at(label + "position[" + std::to_string(k) + "]", [&] { rules::coordinate(q[k]); });
  if (w.dimension == 2) at(label + "angle", [&] { rules::angle(q[2]); });
}

void validate_velocity(const World& w, int i, const Eigen::Ref<const VecX>& v) {
  const std::string label = body_label(w, i) + ".";
  const int d = w.dimension;
  for (int k = 0; k < v.size(); ++k) {
    std::string field = k < d ? "velocity" : "angular_velocity";
    if (k < d || d == 3) field.append("[").append(std::to_string(k < d ? k : k - d)).append("]");
    at(label + field, [&] { rules::finite(v[k]); });
  }
  at(label + "velocity", [&] { rules::speed(v.head(d).stableNorm()); });
  if (d == 2)
    at(label + "angular_velocity", [&] { rules::angular_velocity_2d(v[2]); });
  else
    at(label + "angular_velocity", [&] { rules::angular_speed(v.tail<3>().stableNorm()); });
  at(label + "velocity",
     [&] { rules::static_at_rest(is_fixed(w.bodies[i]), v.cwiseAbs().maxCoeff() != 0); });
}

void validate_scene(const Scene& scene) {
  at("time.step", [&] { rules::step(scene.step); });
  at("time.duration", [&] { rules::duration(scene.duration); });
  at("time", [&] { rules::step_count(scene.step, scene.duration); });
  at("time.step", [&] { rules::step_in_duration(scene.step, scene.duration); });
  if (!scene.name.empty()) at("name", [&] { rules::name(scene.name); });
  const World& w = scene.world;
  validate_world(w);
  // Names are unique: sorted, O(n log n) for any number of bodies.
  std::vector<int> order(w.bodies.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return w.bodies[a].name < w.bodies[b].name; });
  int duplicate = -1;  // the first body, in index order, whose name an earlier body has
  for (std::size_t k = 1; k < order.size(); ++k)
    if (w.bodies[order[k]].name == w.bodies[order[k - 1]].name &&
        (duplicate < 0 || order[k] < duplicate))
      duplicate = order[k];
  if (duplicate >= 0)
    fail(body_label(w, duplicate) + ".name",
         "duplicate body name '" + w.bodies[duplicate].name + "'");
  validate_state(w, scene.initial);
  if (scene.initial.time != 0)
    fail("state.time", "must be 0 at the start (" + rules::shown(scene.initial.time) +
                           " given): a Simulation counts time from 0 in steps of h");
  for (int i = 0; i < w.body_count(); ++i) {
    validate_configuration(w, i, scene.initial.q_of(i));
    validate_velocity(w, i, scene.initial.v_of(i));
  }
  if (const auto blame = rules::initial_overlap(w, scene.initial))
    fail(blame->body >= 0 ? body_label(w, blame->body) : "bodies", blame->reason);
}

}  // namespace exactsim
