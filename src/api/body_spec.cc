#include "exactsim/api/body_spec.h"

#include <cmath>

#include "exactsim/api/validate.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

std::string num(Real x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

bool set(Real x) { return !std::isnan(x); }

// Runs f, re-throwing a geometry error with the body and field in front.
template <class F>
auto with_field(const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

}  // namespace

Scene make_scene(int dimension, Real step, Real duration) {
  if (dimension != 2 && dimension != 3)
    throw InputError("dimension: must be 2 or 3, got " + std::to_string(dimension));
  if (!(step > 0) || !std::isfinite(step)) throw InputError("step: must be > 0, got " + num(step));
  if (!(duration >= 0) || !std::isfinite(duration))
    throw InputError("duration: must be >= 0, got " + num(duration));
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
  const int i = w.body_count();
  Body b;
  b.name = spec.name.empty() ? "body" + std::to_string(i) : spec.name;
  const std::string at = "bodies[" + std::to_string(i) + "] (" + b.name + ")";
  auto fail = [&](const std::string& field, const std::string& reason) -> void {
    throw InputError(at + "." + field + ": " + reason);
  };
  for (const Body& other : w.bodies)
    if (other.name == b.name) fail("name", "duplicate body name '" + b.name + "'");
  if (planar != std::holds_alternative<ConvexPolygon>(spec.shape))
    fail("shape",
         std::string("a ") + (planar ? "2D scene needs a polygon" : "3D scene needs a polyhedron"));
  b.is_static = spec.is_static;
  const bool has_density = set(spec.density), has_mass = set(spec.mass);
  if (has_density && has_mass) fail("density", "give either density or mass, not both");
  if (!b.is_static && !has_density && !has_mass)
    fail("density", "a dynamic body needs a density or a mass");
  if (has_density && !(spec.density > 0 && std::isfinite(spec.density)))
    fail("density", "must be > 0 and finite, got " + num(spec.density));
  if (has_mass && !(spec.mass > 0 && std::isfinite(spec.mass)))
    fail("mass", "must be > 0 and finite, got " + num(spec.mass));
  if (set(spec.friction) && !(spec.friction >= 0 && std::isfinite(spec.friction)))
    fail("friction", "must be >= 0 and finite, got " + num(spec.friction));
  if (!(spec.spawn_time >= 0) || !std::isfinite(spec.spawn_time))
    fail("spawn_time", "must be >= 0 and finite, got " + num(spec.spawn_time));
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
  if (!position.allFinite()) fail("position", "must be finite");
  if (!velocity.allFinite()) fail("velocity", "must be finite");
  if (!spin.allFinite() || !std::isfinite(spec.omega)) fail("angular_velocity", "must be finite");
  if (!std::isfinite(spec.angle)) fail("angle", "must be finite");
  if (b.is_static && (velocity != Vec3::Zero() || spin != Vec3::Zero() || spec.omega != 0))
    fail("velocity", "a static body cannot move");
  Quat o = spec.orientation;
  if (!planar) {
    const Real norm = o.coeffs().norm();
    if (!(norm > 1e-12) || !std::isfinite(norm))
      fail("orientation", "the quaternion has zero norm");
    // As a scene file: normalised unless already of unit norm to round-off.
    if (std::abs(norm - 1) > 8 * std::numeric_limits<Real>::epsilon()) o.normalize();
  }

  // Mass properties from the shape (geometry/), the origin moved to the centroid as a scene
  // file's body is (io/scene_json.cc).
  Vec3 com_shift = Vec3::Zero();
  if (planar) {
    ConvexPolygon p = std::get<ConvexPolygon>(spec.shape);
    if (p.size() < 3 || p.edge_normals.size() != p.vertices.size())
      fail("shape", "the polygon has " + std::to_string(p.size()) +
                        " vertices; make it with polygon_from_points, make_box or "
                        "make_regular_polygon");
    if (has_density || has_mass) {
      const Real rho = has_density ? spec.density : spec.mass / with_field(at + ".shape", [&] {
                                                      return polygon_mass_properties(p, 1.0).area;
                                                    });
      const auto mp = with_field(at + ".shape", [&] { return polygon_mass_properties(p, rho); });
      b.mass = has_mass ? spec.mass : mp.mass;
      b.planar_inertia = mp.inertia;
      com_shift.head<2>() = mp.centroid;
      p = translated(p, -mp.centroid);
    }
    if (set(spec.planar_inertia)) {
      if (!has_mass) fail("planar_inertia", "give it together with mass");
      if (!(spec.planar_inertia > 0 && std::isfinite(spec.planar_inertia)))
        fail("planar_inertia", "must be > 0 and finite, got " + num(spec.planar_inertia));
      b.planar_inertia = spec.planar_inertia;
    }
    w.polygons.push_back(std::move(p));
    b.shape = static_cast<int>(w.polygons.size()) - 1;
  } else {
    ConvexPolyhedron p = std::get<ConvexPolyhedron>(spec.shape);
    if (p.num_vertices() < 4 || p.num_faces() < 4)
      fail("shape", "the polyhedron has " + std::to_string(p.num_vertices()) +
                        " vertices; make it with polyhedron_from_points, make_box or "
                        "make_icosahedron");
    if (has_density || has_mass) {
      const Real rho =
          has_density ? spec.density : spec.mass / with_field(at + ".shape", [&] {
                                         return polyhedron_mass_properties(p, 1.0).volume;
                                       });
      const auto mp = with_field(at + ".shape", [&] { return polyhedron_mass_properties(p, rho); });
      b.mass = has_mass ? spec.mass : mp.mass;
      b.inertia = mp.inertia;
      com_shift = mp.centroid;
      // Rebuilt from the shifted vertices, as the scene reader does (bitwise the same shape).
      std::vector<Vec3> shifted = p.vertices;
      for (Vec3& v : shifted) v -= mp.centroid;
      p = with_field(at + ".shape", [&] { return polyhedron_from_points(shifted); });
    }
    if (!spec.inertia.array().isNaN().all()) {
      if (!has_mass) fail("inertia", "give it together with mass");
      b.inertia = spec.inertia;
    }
    w.polyhedra.push_back(std::move(p));
    b.shape = static_cast<int>(w.polyhedra.size()) - 1;
  }
  b.friction = spec.friction;
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
  // The finished body must pass the checks every Simulation makes (e.g. a 3D inertia given by
  // hand that is not positive definite); undo and rethrow otherwise.
  try {
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
  return i;
}

}  // namespace exactsim
