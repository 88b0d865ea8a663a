#include "exactsim/api/body_spec.h"

#include <cmath>

#include "exactsim/api/validate.h"
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
  if (planar != std::holds_alternative<ConvexPolygon>(spec.shape))
    fail("shape",
         std::string("a ") + (planar ? "2D scene needs a polygon" : "3D scene needs a polyhedron"));
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

  // Mass properties from the shape (geometry/), the origin moved to the centroid and the shape
  // rebuilt from its shifted vertices, as the scene reader does (io/scene_json.cc): bitwise the
  // same body as a scene file's.
  Vec3 com_shift = Vec3::Zero();
  if (planar) {
    ConvexPolygon p = std::get<ConvexPolygon>(spec.shape);
    if (p.size() < 3 || p.edge_normals.size() != p.vertices.size())
      fail("shape", "the polygon has " + std::to_string(p.size()) +
                        " vertices; make it with polygon_from_points, make_box or "
                        "make_regular_polygon");
    check("shape", [&] { rules::shape(p); });
    if (has_density || has_mass) {
      const Real rho = has_density ? *spec.density : *spec.mass / check("shape", [&] {
        return polygon_mass_properties(p, 1.0).area;
      });
      const auto mp = check("shape", [&] { return polygon_mass_properties(p, rho); });
      b.mass = has_mass ? *spec.mass : mp.mass;
      b.planar_inertia = mp.inertia;
      com_shift.head<2>() = mp.centroid;
      std::vector<Vec2> shifted = p.vertices;
      for (Vec2& v : shifted) v -= mp.centroid;
      p = check("shape", [&] { return polygon_from_points(shifted); });
    }
    if (spec.planar_inertia) {
      if (!has_mass) fail("inertia", "give it together with mass");
      b.planar_inertia = *spec.planar_inertia;
    }
    w.polygons.push_back(std::move(p));
    b.shape = static_cast<int>(w.polygons.size()) - 1;
  } else {
    ConvexPolyhedron p = std::get<ConvexPolyhedron>(spec.shape);
    if (p.num_vertices() < 4 || p.num_faces() < 4)
      fail("shape", "the polyhedron has " + std::to_string(p.num_vertices()) +
                        " vertices; make it with polyhedron_from_points, make_box or "
                        "make_icosahedron");
    check("shape", [&] { rules::shape(p); });
    if (has_density || has_mass) {
      const Real rho = has_density ? *spec.density : *spec.mass / check("shape", [&] {
        return polyhedron_mass_properties(p, 1.0).volume;
      });
      const auto mp = check("shape", [&] { return polyhedron_mass_properties(p, rho); });
      b.mass = has_mass ? *spec.mass : mp.mass;
      b.inertia = mp.inertia;
      com_shift = mp.centroid;
      std::vector<Vec3> shifted = p.vertices;
      for (Vec3& v : shifted) v -= mp.centroid;
      p = check("shape", [&] { return polyhedron_from_points(shifted); });
    }
    if (spec.inertia) {
      if (!has_mass) fail("inertia", "give it together with mass");
      b.inertia = *spec.inertia;
    }
    w.polyhedra.push_back(std::move(p));
    b.shape = static_cast<int>(w.polyhedra.size()) - 1;
  }
  if (has_density) check("density", [&] { rules::mass_from_density(b.mass); });
  b.friction = spec.friction.value_or(std::numeric_limits<Real>::quiet_NaN());
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
    if (planar)
      w.polygons.pop_back();
    else
      w.polyhedra.pop_back();
    s.present.pop_back();
    s.q.conservativeResize(i * config_size(w.dimension));
    s.v.conservativeResize(i * velocity_size(w.dimension));
    throw;
  }
  index.emplace(w.bodies.back().name, i);
  return i;
}

}  // namespace exactsim
