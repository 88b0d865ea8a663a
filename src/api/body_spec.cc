#include "exactsim/api/body_spec.h"

#include <cmath>

#include "exactsim/api/validate.h"
#include "exactsim/geometry/compound.h"
#include "exactsim/io/scene_rules.h"
#include "exactsim/math/error.h"
#include "located.h"

namespace exactsim {
namespace {

using api::at;

// scene.body_index, rebuilt when it does not cover the bodies (a scene read from a file, or
// one whose bodies were changed by hand): once per such change, so O(1) amortised.
std::unordered_map<std::string, int>& name_index(Scene& scene) {
  auto& index = scene.body_index;
  const World& w = scene.world;
  if (index.size() != w.bodies.size()) {
    index.clear();
    for (int i = 0; i < w.body_count(); ++i) index.emplace(w.bodies[i].name, i);
  }
  return index;
}

}  // namespace

Scene make_scene(int dimension, Real step, Real duration) {
  if (dimension != 2 && dimension != 3)
    throw InputError("dimension: must be 2 or 3, got " + std::to_string(dimension));
  at("time.step", [&] { rules::step(step); });
  at("time.duration", [&] { rules::duration(duration); });
  at("time", [&] { rules::step_count(step, duration); });
  at("time.step", [&] { rules::step_in_duration(step, duration); });
  Scene scene;
  scene.name = "scene";
  scene.step = step;
  scene.duration = duration;
  World& w = scene.world;
  w.dimension = dimension;
  w.gravity = dimension == 2 ? Vec3(0, -9.81, 0) : Vec3(0, 0, -9.81);  // scene-format defaults
  w.contact.model = ContactModel::kPeg;
  scene.initial.dimension = dimension;
  return scene;
}

int add_body(Scene& scene, const BodySpec& spec) {
  World& w = scene.world;
  State& s = scene.initial;
  const bool planar = w.dimension == 2;
  const int d = w.dimension;
  const int i = w.body_count();
  at("bodies", [&] { rules::body_count(static_cast<std::size_t>(i) + 1); });
  Body b;
  b.name = spec.name.empty() ? "body" + std::to_string(i) : spec.name;
  const std::string label = "bodies[" + std::to_string(i) + "] (" + b.name + ").";
  auto fail = [&](const std::string& field, const std::string& reason) -> void {
    api::fail(label + field, reason);
  };
  auto check = [&](const std::string& field, auto&& f) { return at(label + field, f); };
  check("name", [&] { rules::name(b.name); });
  auto& index = name_index(scene);
  if (index.contains(b.name)) fail("name", "duplicate body name '" + b.name + "'");
  check("kinematic", [&] { rules::static_or_kinematic(spec.is_static, spec.kinematic); });
  b.is_static = spec.is_static || spec.kinematic;  // kinematic: infinite mass too
  b.kinematic = spec.kinematic;
  const bool has_density = spec.density.has_value(), has_mass = spec.mass.has_value();
  if (has_density && has_mass) fail("density", "give either density or mass, not both");
  if (!b.is_static && !has_density && !has_mass)
    fail("density", "a dynamic body needs a density or a mass");
  if (has_density) check("density", [&] { rules::density(*spec.density, d); });
  if (has_mass) check("mass", [&] { rules::mass(*spec.mass); });
  if (spec.friction) check("friction", [&] { rules::friction(*spec.friction); });
  if (spec.restitution) check("restitution", [&] { rules::restitution(*spec.restitution); });
  check("spawn_time", [&] { rules::spawn_time(spec.spawn_time); });
  const Vec3 position = spec.position.vec3(), velocity = spec.velocity.vec3();
  const Vec3 spin = spec.angular_velocity.vec3();
  if (planar) {
    if (position.z() != 0) fail("position", "z must be 0 in a 2D scene");
    if (velocity.z() != 0) fail("velocity", "z must be 0 in a 2D scene");
    if (spin != Vec3::Zero()) fail("angular_velocity", "a 2D body spins by omega (rad/s)");
    if (!spec.orientation.coeffs().isApprox(Quat::Identity().coeffs()))
      fail("orientation", "a 2D body turns by angle (rad)");
  } else {
    if (spec.angle != 0) fail("angle", "a 3D body turns by orientation (a unit quaternion)");
    if (spec.omega != 0) fail("omega", "a 3D body spins by angular_velocity (rad/s, world axes)");
  }
  for (int k = 0; k < d; ++k)
    check("position[" + std::to_string(k) + "]", [&] { rules::coordinate(position[k]); });
  if (planar) check("angle", [&] { rules::angle(spec.angle); });
  const Quat o = planar ? Quat::Identity() : check("orientation", [&] {
    const Quat& g = spec.orientation;
    return rules::orientation(g.w(), g.x(), g.y(), g.z());
  });

  // Mass properties from the shape or parts (geometry/compound.h), the origin moved to the
  // centroid and each part rebuilt from its shifted vertices, as the scene reader does
  // (io/scene_json.cc): bitwise the same body as a scene file's.
  Vec3 com_shift = Vec3::Zero();
  auto build = [&]<class Part>(std::vector<Part> parts, auto& mass_inertia, auto given_inertia) {
    for (const Part& p : parts) {
      bool complete = true;
      if constexpr (std::is_same_v<Part, ConvexPolygon>) {
        complete = p.size() >= 3 && p.edge_normals.size() == p.vertices.size();
      } else if (const ConvexPolyhedron* h = std::get_if<ConvexPolyhedron>(&p)) {
        complete = h->num_vertices() >= 4 && h->num_faces() >= 4;
      }
      if (!complete)
        fail(spec.parts.empty() ? "shape" : "parts",
             std::string("a ") + (planar ? "polygon" : "polyhedron") +
                 " is incomplete; make it with " +
                 (planar ? "polygon_from_points, make_box or make_regular_polygon"
                         : "polyhedron_from_points, make_box or make_icosahedron"));
    }
    const std::string field = spec.parts.empty() ? "shape" : "parts";
    check(field, [&] { rules::parts(std::span<const Part>(parts)); });
    if (has_density || has_mass) {
      const Real rho = has_density ? *spec.density : *spec.mass / check(field, [&] {
        const auto unit = compound_mass_properties(std::span<const Part>(parts), 1.0);
        if constexpr (std::is_same_v<Part, ConvexPolygon>)
          return unit.area;
        else
          return unit.volume;
      });
      const auto mp =
          check(field, [&] { return compound_mass_properties(std::span<const Part>(parts), rho); });
      b.mass = has_mass ? *spec.mass : mp.mass;
      mass_inertia = mp.inertia;
      if constexpr (std::is_same_v<Part, ConvexPolygon>)
        com_shift.head<2>() = mp.centroid;
      else
        com_shift = mp.centroid;
      check(field, [&] { shift_parts(parts, mp.centroid); });
    }
    if (given_inertia) {
      if (!has_mass) fail("inertia", "give it together with mass");
      mass_inertia = *given_inertia;
    }
    if (has_density) check("density", [&] { rules::mass_from_density(b.mass); });
    add_body_shapes(w, b, std::move(parts));  // last: nothing above has changed the world
  };
  auto empty = [](const Shape& shape) {
    return std::visit(
        [](const auto& p) {
          if constexpr (std::is_same_v<std::decay_t<decltype(p)>, Sphere> ||
                        std::is_same_v<std::decay_t<decltype(p)>, HalfSpace>)
            return false;
          else
            return p.vertices.empty();
        },
        shape);
  };
  const HalfSpace* half_space = std::get_if<HalfSpace>(&spec.shape);
  for (const Shape& part : spec.parts)
    if (std::holds_alternative<HalfSpace>(part))
      fail("parts", "a half-space is a body's one shape, not a part of a compound");
  std::vector<Shape> shapes = spec.parts;
  if (shapes.empty())
    shapes.push_back(spec.shape);
  else if (!empty(spec.shape))
    fail("parts", "give either shape or parts, not both");
  for (const Shape& part : shapes)
    if (planar != std::holds_alternative<ConvexPolygon>(part))
      fail(spec.parts.empty() ? "shape" : "parts",
           spec.parts.empty()
               ? std::string("a ") + (planar ? "2D scene needs a polygon"
                                             : "3D scene needs a polyhedron, a sphere or a "
                                               "half-space")
               : std::string("a ") +
                     (planar ? "2D scene needs polygons" : "3D scene needs polyhedra and spheres"));
  const std::size_t polygons_before = w.polygons.size(), polyhedra_before = w.polyhedra.size();
  const std::size_t parts_before = w.parts.size(), spheres_before = w.spheres.size(),
                    half_spaces_before = w.half_spaces.size();
  if (half_space != nullptr) {
    if (!spec.is_static || spec.kinematic) fail("is_static", "a half-space body must be static");
    if (has_density || has_mass || spec.inertia)
      fail(has_mass      ? "mass"
           : has_density ? "density"
                         : "inertia",
           "a half-space body has no mass");
    check("shape.offset", [&] { rules::coordinate(half_space->offset); });
    add_body_shapes(w, b, check("shape.normal", [&] {
                      return unit_half_space(half_space->normal, half_space->offset);
                    }));
  } else if (planar) {
    std::vector<ConvexPolygon> parts;
    for (const Shape& part : shapes) parts.push_back(std::get<ConvexPolygon>(part));
    build(std::move(parts), b.planar_inertia, spec.planar_inertia);
  } else {
    std::vector<SpatialPart> parts;
    for (const Shape& part : shapes) {
      if (const Sphere* sphere = std::get_if<Sphere>(&part))
        parts.push_back(*sphere);
      else
        parts.push_back(std::get<ConvexPolyhedron>(part));
    }
    build(std::move(parts), b.inertia, spec.inertia);
  }
  b.friction = spec.friction.value_or(std::numeric_limits<Real>::quiet_NaN());
  b.restitution = spec.restitution.value_or(std::numeric_limits<Real>::quiet_NaN());
  b.spawn_time = spec.spawn_time;

  s.dimension = w.dimension;
  s.q.conservativeResize((i + 1) * config_size(w.dimension));
  s.v.conservativeResize((i + 1) * velocity_size(w.dimension));
  s.present.push_back(0);
  auto q = s.q_of(i);
  auto v = s.v_of(i);
  if (planar) {
    const Vec2 origin = position.head<2>() + Eigen::Rotation2Dd(spec.angle) * com_shift.head<2>();
    q << origin.x(), origin.y(), spec.angle;
    v << velocity.x(), velocity.y(), spec.omega;
  } else {
    const Vec3 origin = position + o * com_shift;
    q << origin, o.w(), o.x(), o.y(), o.z();
    v << velocity, spin;
  }
  w.bodies.push_back(std::move(b));
  // The finished body and its velocity must pass the checks every Simulation makes (e.g. a 3D
  // inertia given by hand that is not positive definite); undo and rethrow otherwise.
  try {
    validate_velocity(w, i, s.v_of(i));
    validate_body(w, i);
  } catch (const InputError&) {
    w.bodies.pop_back();
    w.polygons.resize(polygons_before);
    w.polyhedra.resize(polyhedra_before);
    w.spheres.resize(spheres_before);
    w.half_spaces.resize(half_spaces_before);
    w.parts.resize(parts_before);
    s.present.pop_back();
    s.q.conservativeResize(i * config_size(w.dimension));
    s.v.conservativeResize(i * velocity_size(w.dimension));
    throw;
  }
  index.emplace(w.bodies.back().name, i);
  return i;
}

int add_joint(Scene& scene, const JointSpec& spec) {
  const World& w = scene.world;
  const int k = static_cast<int>(w.joints.size());
  const std::string name = spec.name.empty() ? "joint " + std::to_string(k) : spec.name;
  const std::string label = "joints[" + std::to_string(k) + "] (" + name + ")";
  auto& index = name_index(scene);
  auto body = [&](const std::string& field, const std::string& body_name) {
    const auto it = index.find(body_name);
    if (it == index.end()) api::fail(label + "." + field, "no body is named '" + body_name + "'");
    return it->second;
  };
  Joint j;
  j.type = spec.type;
  j.body_a = body("body_a", spec.body_a);
  j.body_b = spec.body_b.empty() ? kWorldBody : body("body_b", spec.body_b);
  at(label, [&] { rules::joint(w, j); });
  const Vec3 axis = spec.axis ? spec.axis->vec3() : Vec3::UnitZ();
  at(label + ".axis",
     [&] { rules::joint_axis(w.dimension, spec.type, spec.axis ? &axis : nullptr); });
  at(label + ".anchor", [&] {
    for (int c = 0; c < w.dimension; ++c) rules::coordinate(spec.anchor.vec3()[c]);
  });
  j = place_joint(scene.initial, spec.type, j.body_a, j.body_b, spec.anchor.vec3(), axis);
  j.name = name;
  scene.world.joints.push_back(std::move(j));
  return k;
}

}  // namespace exactsim
