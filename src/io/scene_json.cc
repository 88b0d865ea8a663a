// Scene reader/writer: the scene format (docs/scene-format.md).
#include "exactsim/io/scene_json.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "exactsim/geometry/compound.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/io/mesh_file.h"
#include "exactsim/io/scene_limits.h"
#include "exactsim/io/scene_rules.h"
#include "exactsim/stepping/located_impact.h"
#include "exactsim/stepping/memory_budget.h"
#include "impact_json.h"
#include "inertia_json.h"
#include "json_cursor.h"
#include "solver_options_json.h"

namespace exactsim {
namespace {

using io::JsonCursor;
using io::read_impact_law;
using io::read_inertia3;

constexpr std::uintmax_t kMaxFileBytes = 256ull << 20;
using limits::kMaxVertices;

// A list of [x, y] (Vec2) or [x, y, z] (Vec3) points, at most kMaxVertices, each coordinate
// within limits::kMaxCoordinate.
template <class V>
std::vector<V> points(const JsonCursor& c) {
  c.expect_array();
  c.checked([&] { rules::point_count(c.size()); });
  std::vector<V> pts;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if constexpr (V::RowsAtCompileTime == 2)
      pts.push_back(c.at(i).point2(limits::kMaxCoordinate));
    else
      pts.push_back(c.at(i).point3(limits::kMaxCoordinate));
  }
  return pts;
}

// Box side lengths, each a size (limits::kMinSize..kMaxSize).
std::vector<Real> box_sides(const JsonCursor& v, int n) {
  v.numbers(n);
  std::vector<Real> s(n);
  for (int i = 0; i < n; ++i) {
    if (!(v.at(i).number() > 0)) v.at(i).fail("box side lengths must be > 0");
    s[i] = v.at(i).in_range(limits::kMinSize, limits::kMaxSize, "m");
  }
  return s;
}

// The size (largest side of the bounding box) and fullness of a built shape
// (docs/input-validation.md): its mass properties are meaningful only within these bounds.
template <class V>
void check_extent(const JsonCursor& c, std::span<const V> vertices, Real measure) {
  c.checked([&] { rules::extent(vertices, measure); });
}

// A 2D shape as a written scene lists it: rebuilt from its vertices (their hull, the edge normals
// from its edges), so that a scene written and read back has the same shape bit for bit.
ConvexPolygon as_listed(const std::vector<Vec2>& vertices) { return polygon_from_points(vertices); }

// The convex parts of one body's shape: one for a plain shape, several for a `compound` (its
// items in order) or a `mesh` file with several objects (io/mesh_file.h).
struct Parts {
  std::vector<ConvexPolygon> polygons;
  std::vector<SpatialPart> spatial;     // 3D: polyhedra and spheres
  std::optional<HalfSpace> half_space;  // 3D: a static body's one shape
};

void read_shape(const JsonCursor& c, int dimension, const std::string& scene_dir, Parts& out) {
  c.expect_object({"polygon", "hull", "box", "regular_polygon", "icosahedron", "sphere",
                   "half_space", "mesh", "compound"});
  if (c.value().size() != 1) c.fail("exactly one shape kind must be given");
  const std::string kind = c.value().begin().key();
  const JsonCursor v = c.at(kind.c_str());
  if (kind == "half_space") {
    if (dimension == 2) v.fail("shape kind 'half_space' is not available in a 2D scene");
    if (!out.spatial.empty() || out.half_space)
      v.fail("a half_space is a body's one shape, not a part of a compound");
    v.expect_object({"normal", "offset"});
    const Vec3 normal = v.at("normal").vec3();
    const Real offset = v.has("offset") ? v.at("offset").in_range(-limits::kMaxCoordinate,
                                                                  limits::kMaxCoordinate, "m")
                                        : 0.0;
    out.half_space = v.at("normal").checked([&] { return unit_half_space(normal, offset); });
    return;
  }
  if (out.half_space) v.fail("a half_space is a body's one shape, not a part of a compound");
  if (kind == "sphere") {
    if (dimension == 2) v.fail("shape kind 'sphere' is not available in a 2D scene");
    v.expect_object({"radius", "center"});
    Sphere s{v.at("radius").in_range(limits::kMinSize, limits::kMaxSize, "m")};
    if (v.has("center")) s.centre = v.at("center").point3(limits::kMaxCoordinate);
    out.spatial.push_back(s);
    return;
  }
  if (kind == "compound") {
    v.expect_array();
    if (v.size() == 0) v.fail("a compound needs at least one part");
    if (v.size() > static_cast<std::size_t>(limits::kMaxParts))
      v.fail(std::to_string(v.size()) + " parts exceed the limit of " +
             std::to_string(limits::kMaxParts));
    for (std::size_t k = 0; k < v.size(); ++k) read_shape(v.at(k), dimension, scene_dir, out);
    return;
  }
  const bool planar = dimension == 2;
  const bool kind_is_2d = kind == "polygon" || kind == "regular_polygon";
  const bool kind_is_3d = kind == "hull" || kind == "icosahedron" || kind == "mesh";
  if ((planar && kind_is_3d) || (!planar && kind_is_2d))
    v.fail("shape kind '" + kind + "' is not available in a " + std::to_string(dimension) +
           "D scene");
  if (planar) {
    ConvexPolygon p = v.checked([&] {
      if (kind == "polygon") {
        const auto pts = points<Vec2>(v);
        if (pts.size() < 3)
          v.fail(std::to_string(pts.size()) + " points given, a polygon needs at least 3");
        return polygon_from_points(pts, HullInput::kRequireConvex);
      }
      if (kind == "box") {
        const auto s = box_sides(v, 2);
        return as_listed(make_box(Vec2(s[0], s[1])).vertices);
      }
      v.expect_object({"sides", "radius"});
      return as_listed(
          make_regular_polygon(v.at("sides").integer(3, kMaxVertices),
                               v.at("radius").in_range(limits::kMinSize, limits::kMaxSize, "m"))
              .vertices);
    });
    check_extent<Vec2>(v, p.vertices, polygon_area(p.vertices));
    out.polygons.push_back(std::move(p));
    return;
  }
  if (kind == "mesh") {
    const std::filesystem::path path = std::filesystem::path(scene_dir) / v.string();
    for (ConvexPolyhedron& part : v.checked([&] { return read_mesh_parts(path.string()); }))
      out.spatial.push_back(std::move(part));
    return;
  }
  ConvexPolyhedron p = v.checked([&] {
    if (kind == "hull") {
      const auto pts = points<Vec3>(v);
      if (pts.size() < 4)
        v.fail(std::to_string(pts.size()) +
               " points given, a polyhedron needs at least 4 non-coplanar points");
      return polyhedron_from_points(pts);
    }
    if (kind == "box") {
      const auto s = box_sides(v, 3);
      return make_box(Vec3(s[0], s[1], s[2]));
    }
    v.expect_object({"radius"});
    return make_icosahedron(v.at("radius").in_range(limits::kMinSize, limits::kMaxSize, "m"));
  });
  check_extent<Vec3>(v, p.vertices,
                     v.checked([&] { return polyhedron_mass_properties(p, 1.0).volume; }));
  out.spatial.push_back(std::move(p));
}

// The largest distance of a point of any part from the body origin (the r of m r²): a vertex, or
// a sphere's farthest point.
Real radius(const std::vector<ConvexPolygon>& parts) {
  Real r = 0;
  for (const ConvexPolygon& part : parts)
    for (const Vec2& p : part.vertices) r = std::max(r, p.norm());
  return r;
}
Real radius(const std::vector<SpatialPart>& parts) {
  Real r = 0;
  for (const SpatialPart& part : parts) {
    if (const Sphere* s = std::get_if<Sphere>(&part))
      r = std::max(r, s->centre.norm() + s->radius);
    else
      for (const Vec3& p : std::get<ConvexPolyhedron>(part).vertices) r = std::max(r, p.norm());
  }
  return r;
}

void read_body(const JsonCursor& c, World& w, State& s, const std::string& scene_dir,
               std::set<std::string>& names) {
  const bool planar = w.dimension == 2;
  if (planar)
    c.expect_object({"name", "static", "kinematic", "shape", "mass", "inertia", "density",
                     "position", "angle", "velocity", "angular_velocity", "friction", "restitution",
                     "capture_velocity", "plastic_velocity", "spawn_time"});
  else
    c.expect_object({"name", "static", "kinematic", "shape", "mass", "inertia", "density",
                     "position", "orientation", "velocity", "angular_velocity", "friction",
                     "restitution", "capture_velocity", "plastic_velocity", "spawn_time"});
  Body b;
  b.name = c.at("name").name();
  if (!names.insert(b.name).second) c.at("name").fail("duplicate body name '" + b.name + "'");
  if (c.has("static")) b.is_static = c.at("static").boolean();
  if (c.has("kinematic")) {
    b.kinematic = c.at("kinematic").boolean();
    c.at("kinematic").checked([&] { rules::static_or_kinematic(b.is_static, b.kinematic); });
    b.is_static = b.is_static || b.kinematic;  // infinite mass too
  }
  Parts parts;
  const JsonCursor shape = c.at("shape");
  read_shape(shape, w.dimension, scene_dir, parts);
  if (parts.half_space) {
    if (!b.is_static || b.kinematic) shape.fail("a half_space body must be \"static\": true");
    for (const char* field : {"mass", "inertia", "density"})
      if (c.has(field)) c.at(field).fail("a half_space body has no " + std::string(field));
  } else if (planar) {
    shape.checked([&] { rules::parts(std::span<const ConvexPolygon>(parts.polygons)); });
  } else {
    shape.checked([&] { rules::parts(std::span<const SpatialPart>(parts.spatial)); });
  }

  const bool has_mass = c.has("mass"), has_inertia = c.has("inertia"),
             has_density = c.has("density");
  Vec3 com_shift = Vec3::Zero();  // body-frame offset from the given shape origin to the centroid
  if (has_density && (has_mass || has_inertia))
    c.fail("give either 'density' or 'mass' + 'inertia', not both");
  if (has_mass != has_inertia) c.fail("'mass' and 'inertia' must be given together");
  if (!b.is_static && !has_density && !has_mass)
    c.fail("a dynamic body needs 'density' or 'mass' + 'inertia'");
  if (has_density) {
    const JsonCursor d = c.at("density");
    const Real x = d.number();
    const Real rho = d.checked([&] { return rules::density(x, w.dimension); });
    // The origin moves to the centroid, each part rebuilt from its shifted vertices
    // (translated()): a written scene re-reads to the bitwise-same shape, face planes included.
    if (planar) {
      const auto mp = d.checked([&] {
        return compound_mass_properties(std::span<const ConvexPolygon>(parts.polygons), rho);
      });
      b.mass = mp.mass;
      b.planar_inertia = mp.inertia;
      com_shift.head<2>() = mp.centroid;
      shift_parts(parts.polygons, mp.centroid);
    } else {
      const auto mp = d.checked([&] {
        return compound_mass_properties(std::span<const SpatialPart>(parts.spatial), rho);
      });
      b.mass = mp.mass;
      b.inertia = mp.inertia;
      com_shift = mp.centroid;
      shift_parts(parts.spatial, mp.centroid);
    }
    d.checked([&] { rules::mass_from_density(b.mass); });
  } else if (has_mass) {
    b.mass = c.at("mass").rule(rules::mass);
    if (planar) {
      const JsonCursor ic = c.at("inertia");
      b.planar_inertia = ic.number();
      ic.checked([&] { rules::planar_inertia(b.planar_inertia, b.mass, radius(parts.polygons)); });
    } else {
      b.inertia =
          read_inertia3(c.at("inertia"), b.mass, radius(parts.spatial), rules::kVertexReach);
    }
  }
  if (parts.half_space)
    add_body_shapes(w, b, *parts.half_space);
  else if (planar)
    add_body_shapes(w, b, std::move(parts.polygons));
  else
    add_body_shapes(w, b, std::move(parts.spatial));
  if (c.has("friction")) b.friction = c.at("friction").rule(rules::friction);
  if (c.has("restitution")) b.restitution = c.at("restitution").rule(rules::restitution);
  if (c.has("capture_velocity"))
    b.capture_speed = c.at("capture_velocity").in_range(0, limits::kMaxSpeed, "m/s");
  if (c.has("plastic_velocity"))
    b.plastic_speed = c.at("plastic_velocity").in_range(0, limits::kMaxSpeed, "m/s");
  if (c.has("capture_velocity") || c.has("plastic_velocity")) {
    // contact is read first
    const RestitutionLaw law = restitution_law(b, w.contact.impact.restitution);
    if (law.v_plastic < law.v_capture)
      c.at(c.has("plastic_velocity") ? "plastic_velocity" : "capture_velocity")
          .fail("the plastic velocity (" + io::format_number(law.v_plastic) +
                " m/s) must not be below the capture velocity (" +
                io::format_number(law.v_capture) + " m/s)");
  }
  if (c.has("spawn_time")) b.spawn_time = c.at("spawn_time").rule(rules::spawn_time);

  // parse_scene sized q and v for every body: growing them per body made 20,000 bodies copy
  // gigabytes.
  const int i = static_cast<int>(w.bodies.size());
  s.present.push_back(0);
  auto q = s.q_of(i);
  auto v = s.v_of(i);
  v.setZero();
  if (planar) {
    const Vec2 p = c.at("position").point2(limits::kMaxCoordinate);
    const Real angle = c.has("angle") ? c.at("angle").rule(rules::angle) : 0.0;
    // The body origin moves to the centroid: keep the shape where the file put it.
    const Vec2 origin = p + Eigen::Rotation2Dd(angle) * com_shift.head<2>();
    q << origin.x(), origin.y(), angle;
    if (c.has("velocity")) {
      v.head<2>() = c.at("velocity").vec2();
      c.at("velocity").checked([&] { rules::speed(v.head<2>().stableNorm()); });
    }
    if (c.has("angular_velocity")) {
      v[2] = c.at("angular_velocity").rule(rules::angular_velocity_2d);
    }
  } else {
    Quat o = Quat::Identity();
    if (c.has("orientation")) {
      const JsonCursor oc = c.at("orientation");
      const auto n = oc.numbers(4);
      o = oc.checked([&] { return rules::orientation(n[0], n[1], n[2], n[3]); });
    }
    // A half-space's plane places it: its position may be left out (the origin).
    const Vec3 position = parts.half_space && !c.has("position")
                              ? Vec3::Zero()
                              : c.at("position").point3(limits::kMaxCoordinate);
    const Vec3 origin = position + o * com_shift;
    q << origin, o.w(), o.x(), o.y(), o.z();
    if (c.has("velocity")) {
      v.head<3>() = c.at("velocity").vec3();
      c.at("velocity").checked([&] { rules::speed(v.head<3>().stableNorm()); });
    }
    if (c.has("angular_velocity")) {
      v.tail<3>() = c.at("angular_velocity").vec3();
      c.at("angular_velocity").checked([&] { rules::angular_speed(v.tail<3>().stableNorm()); });
    }
  }
  if (is_fixed(b)) {
    if (c.has("velocity") && v.norm() != 0) c.at("velocity").fail("a static body cannot move");
    v.setZero();
  }
  w.bodies.push_back(std::move(b));
}

// One joint (docs/joints.md "Scene files"): its bodies by name (one name: joined to the world),
// the anchor in the world frame as the bodies are placed at t = 0, and a 3D hinge's axis.
void read_joint(const JsonCursor& c, World& w, const State& s, std::size_t index,
                const std::unordered_map<std::string, int>& body_index) {
  c.expect_object({"name", "type", "bodies", "anchor", "axis"});
  const JsonCursor type_at = c.at("type");
  const JointType type = type_at.checked([&] { return joint_type(type_at.string()); });
  const JsonCursor bodies = c.at("bodies");
  bodies.expect_array();
  if (bodies.size() < 1 || bodies.size() > 2)
    bodies.fail("expected one body name (joined to the world) or two");
  int ids[2] = {kWorldBody, kWorldBody};
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const std::string name = bodies.at(k).string();
    const auto it = body_index.find(name);
    if (it == body_index.end()) bodies.at(k).fail("no body is named \"" + name + "\"");
    ids[k] = it->second;
  }
  Vec3 anchor;
  if (w.dimension == 2)
    anchor << c.at("anchor").point2(limits::kMaxCoordinate), 0;
  else
    anchor = c.at("anchor").point3(limits::kMaxCoordinate);
  const bool has_axis = c.has("axis");
  const JsonCursor axis_at = has_axis ? c.at("axis") : c;
  Vec3 axis = Vec3::UnitZ();
  if (has_axis && w.dimension == 3 && type == JointType::kRevolute) axis = axis_at.vec3();
  axis_at.checked([&] { rules::joint_axis(w.dimension, type, has_axis ? &axis : nullptr); });
  Joint j;
  j.type = type;
  j.body_a = ids[0];
  j.body_b = ids[1];
  c.checked([&] { rules::joint(w, j); });
  j = place_joint(s, type, ids[0], ids[1], anchor, axis);
  j.name = c.has("name") ? c.at("name").name() : "joint " + std::to_string(index);
  w.joints.push_back(std::move(j));
}

ContactModel read_model(const JsonCursor& c) {
  const std::string m = c.string();
  if (m == "peg") return ContactModel::kPeg;
  if (m == "standard") return ContactModel::kStandard;
  if (m == "corrective") return ContactModel::kCorrective;
  c.fail("unknown contact model '" + m + "' (expected \"peg\", \"standard\" or \"corrective\")");
}

// contact.impact (docs/impacts.md "Using it").
void read_impact(const JsonCursor& c, World& w) {
  c.expect_object({"model", "restitution", "capture_velocity", "plastic_velocity",
                   "transition_velocity", "theta_max", "induced", "mixed_rounds", "proximity",
                   "max_impacts_per_step"});
  ImpactStepOptions& o = w.contact.impact;
  if (c.has("model")) {
    const JsonCursor m = c.at("model");
    const std::string v = m.string();
    if (v == "none")
      o.model = ImpactModel::kNone;
    else if (v == "plus")
      o.model = ImpactModel::kPlus;
    else
      m.fail("unknown impact model '" + v + "' (expected \"none\" or \"plus\")");
  }
  read_impact_law(c, o.restitution, o.plus);
  if (c.has("proximity")) o.proximity = c.at("proximity").in_range(1e-12, 1e-2, "m");
  if (c.has("max_impacts_per_step"))
    o.max_impacts_per_step = c.at("max_impacts_per_step").integer(1, 10000);
  if (o.model == ImpactModel::kPlus && w.contact.model == ContactModel::kCorrective)
    c.at("model").fail("impacts need the \"peg\" or \"standard\" contact model");
}

void read_contact(const JsonCursor& c, World& w) {
  c.expect_object({"model", "friction", "friction_directions", "parameters", "impact"});
  if (c.has("model")) w.contact.model = read_model(c.at("model"));
  if (c.has("friction")) w.contact.friction = c.at("friction").rule(rules::friction);
  if (c.has("friction_directions"))
    w.contact.friction_directions = c.at("friction_directions").rule(rules::friction_directions);
  if (c.has("parameters")) {
    const JsonCursor p = c.at("parameters");
    p.expect_object({"epsilon", "epsilon_edge", "predict_motion", "max_stabilisation_speed",
                     "stabilisation", "general_form", "min_applicability"});
    if (p.has("epsilon")) w.contact.epsilon = p.at("epsilon").rule(rules::contact_distance);
    if (p.has("epsilon_edge"))
      w.contact.epsilon_edge = p.at("epsilon_edge").rule(rules::contact_distance);
    if (p.has("predict_motion")) w.contact.predict_motion = p.at("predict_motion").boolean();
    if (p.has("max_stabilisation_speed")) {
      const JsonCursor m = p.at("max_stabilisation_speed");
      w.contact.max_stabilisation_speed = m.positive();
      if (w.contact.max_stabilisation_speed > limits::kMaxSpeed)
        m.in_range(0, limits::kMaxSpeed, "m/s");
    }
    if (p.has("stabilisation")) {
      const JsonCursor st = p.at("stabilisation");
      const std::string v = st.string();
      if (v == "split")
        w.contact.stabilisation = Stabilisation::kSplit;
      else if (v == "velocity")
        w.contact.stabilisation = Stabilisation::kVelocity;
      else
        st.fail("unknown stabilisation '" + v + "' (expected \"split\" or \"velocity\")");
    }
    if (p.has("general_form")) w.contact.peg.general_form = p.at("general_form").boolean();
    if (p.has("min_applicability"))
      w.contact.min_applicability = p.at("min_applicability").rule(rules::applicability);
  }
  if (c.has("impact")) read_impact(c.at("impact"), w);
}

void read_stepping(const JsonCursor& c, World& w) {
  c.expect_object({"rotation_update", "continue_on_solver_failure", "measure_overlap",
                   "memory_budget_gib", "gauss_seidel_min_unknowns", "gauss_seidel_sweeps",
                   "friction_on_demand_min_unknowns", "dense_max_unknowns", "threads", "sleep",
                   "sleep_speed", "sleep_time", "islands", "warm_start", "watch_penetration",
                   "halves_after_failed_solve"});
  if (c.has("rotation_update")) {
    const JsonCursor r = c.at("rotation_update");
    const std::string s = r.string();
    if (s == "exponential")
      w.stepping.rotation = RotationUpdate::kExponential;
    else if (s == "linear")
      w.stepping.rotation = RotationUpdate::kLinear;
    else
      r.fail("unknown rotation update '" + s + "' (expected \"exponential\" or \"linear\")");
  }
  if (c.has("continue_on_solver_failure"))
    w.stepping.continue_on_solver_failure = c.at("continue_on_solver_failure").boolean();
  if (c.has("measure_overlap")) w.stepping.measure_overlap = c.at("measure_overlap").boolean();
  if (c.has("watch_penetration"))
    w.stepping.watch_penetration = c.at("watch_penetration").boolean();
  if (c.has("halves_after_failed_solve"))
    w.stepping.halves_after_failed_solve = c.at("halves_after_failed_solve").integer(0, 1000000);
  if (c.has("memory_budget_gib"))
    w.stepping.memory_budget_bytes = memory_budget_from_gib(
        c.at("memory_budget_gib")
            .in_range(limits::kMinMemoryBudgetGib, limits::kMaxMemoryBudgetGib, "GiB"));
  if (c.has("gauss_seidel_min_unknowns"))
    w.stepping.gauss_seidel_min_unknowns =
        c.at("gauss_seidel_min_unknowns").integer(0, std::numeric_limits<int>::max());
  if (c.has("gauss_seidel_sweeps"))
    w.stepping.gauss_seidel_sweeps = c.at("gauss_seidel_sweeps").integer(1, 1000000);
  if (c.has("dense_max_unknowns"))
    w.stepping.dense_max_unknowns =
        c.at("dense_max_unknowns").integer(0, std::numeric_limits<int>::max());
  if (c.has("friction_on_demand_min_unknowns"))
    w.stepping.friction_on_demand_min_unknowns =
        c.at("friction_on_demand_min_unknowns").integer(0, std::numeric_limits<int>::max());
  if (c.has("threads")) w.stepping.threads = c.at("threads").rule(rules::threads);
  if (c.has("sleep")) w.stepping.sleep = c.at("sleep").boolean();
  if (c.has("sleep_speed")) w.stepping.sleep_speed = c.at("sleep_speed").in_range(1e-9, 1e3, "m/s");
  if (c.has("sleep_time")) w.stepping.sleep_time = c.at("sleep_time").in_range(0, 1e6, "s");
  if (c.has("islands")) w.stepping.islands = c.at("islands").boolean();
  if (c.has("warm_start")) w.stepping.warm_start = c.at("warm_start").boolean();
}

// Rejects a scene whose bodies start deeply inside each other (docs/input-validation.md,
// "Overlap at load"), naming the first pairs found.
void check_initial_overlap(const JsonCursor& bodies, const Scene& scene) {
  if (const auto blame = rules::initial_overlap(scene.world, scene.initial))
    (blame->body >= 0 ? bodies.at(static_cast<std::size_t>(blame->body)) : bodies)
        .fail(blame->reason);
}

}  // namespace

ImpactStepOptions read_impact_options(const nlohmann::json& impact, ContactModel model,
                                      const std::string& origin) {
  World w;
  w.contact.model = model;
  read_impact(JsonCursor(impact, origin, "contact.impact"), w);
  return w.contact.impact;
}

nlohmann::json impact_options_to_json(const ImpactStepOptions& o) {
  if (o.model == ImpactModel::kNone) return nullptr;
  nlohmann::json j = {
      {"model", to_string(o.model)},
      {"restitution", o.restitution.e_min},
      {"capture_velocity", o.restitution.v_capture},
      {"plastic_velocity", o.restitution.v_plastic},
      {"transition_velocity", o.plus.v_transition},
      {"theta_max", o.plus.theta_max},
      {"induced", o.plus.induced_impacts == InducedImpacts::kRounds         ? "sequential"
                  : o.plus.induced_impacts == InducedImpacts::kSimultaneous ? "simultaneous"
                                                                            : "mixed"},
      {"proximity", o.proximity},
      {"max_impacts_per_step", o.max_impacts_per_step}};
  if (o.plus.induced_impacts == InducedImpacts::kMixed) j["mixed_rounds"] = o.plus.mixed_rounds;
  return j;
}

Scene parse_scene(const nlohmann::json& doc, const std::string& origin) {
  const JsonCursor top(doc, origin, "");
  // An event-driven PLUS scene (docs/plus.md) is read by `exactsim events`, not here.
  // (is_event_scene looks at the type first: `.value("model", "")` threw a JSON type_error,
  // not an InputError, on a non-string model; found by fuzz_scene_step)
  if (is_event_scene(doc))
    top.at("contact").at("model").fail(
        "\"plus\" is an event-driven scene: simulate it with `exactsim run FILE`, "
        "Simulation::from_file or, in Python, exactsim.Simulation(FILE) (docs/plus.md)");
  top.expect_object({"format", "version", "name", "dimension", "gravity", "time", "contact",
                     "solver", "stepping", "bodies", "joints"});
  if (top.at("format").string() != "exactsim-scene")
    top.at("format").fail("expected \"exactsim-scene\"");
  if (top.at("version").integer(1, 1000) != 1)
    top.at("version").fail("this exactsim reads version 1 only");
  Scene scene;
  scene.name =
      top.has("name") ? top.at("name").name() : std::filesystem::path(origin).stem().string();
  World& w = scene.world;
  w.dimension = top.at("dimension").integer(2, 3);
  w.gravity = w.dimension == 2 ? Vec3(0, -9.81, 0) : Vec3(0, 0, -9.81);
  if (top.has("gravity")) {
    const JsonCursor gc = top.at("gravity");
    const auto g = gc.numbers(w.dimension);
    w.gravity = Vec3(g[0], g[1], w.dimension == 3 ? g[2] : 0.0);
    gc.checked([&] { rules::gravity(w.gravity); });
  }
  const JsonCursor time = top.at("time");
  time.expect_object({"step", "duration"});
  scene.step = time.at("step").rule(rules::step);
  scene.duration = time.at("duration").rule(rules::duration);
  time.checked([&] { rules::step_count(scene.step, scene.duration); });
  time.at("step").checked([&] { rules::step_in_duration(scene.step, scene.duration); });
  w.contact.model = ContactModel::kPeg;  // the format's default
  if (top.has("contact")) read_contact(top.at("contact"), w);
  if (top.has("solver")) io::read_solver_options(top.at("solver"), w.solver);
  if (top.has("stepping")) read_stepping(top.at("stepping"), w);

  const JsonCursor bodies = top.at("bodies");
  bodies.expect_array();
  bodies.checked([&] { rules::body_count(bodies.size()); });
  State& s = scene.initial;
  s.dimension = w.dimension;
  s.q = VecX::Zero(static_cast<Eigen::Index>(bodies.size()) * config_size(w.dimension));
  s.v = VecX::Zero(static_cast<Eigen::Index>(bodies.size()) * velocity_size(w.dimension));
  const std::string dir = std::filesystem::path(origin).parent_path().string();
  std::set<std::string> names;
  for (std::size_t i = 0; i < bodies.size(); ++i) read_body(bodies.at(i), w, s, dir, names);
  if (top.has("joints")) {
    const JsonCursor joints = top.at("joints");
    joints.expect_array();
    std::unordered_map<std::string, int> body_index;
    for (int b = 0; b < w.body_count(); ++b) body_index.emplace(w.bodies[b].name, b);
    for (std::size_t i = 0; i < joints.size(); ++i) read_joint(joints.at(i), w, s, i, body_index);
  }
  check_initial_overlap(bodies, scene);
  return scene;
}

nlohmann::json read_scene_document(const std::string& path) {
  return io::parse_json_strict(io::read_input_file(path, kMaxFileBytes), path);
}

Scene read_scene_file(const std::string& path) {
  return parse_scene(read_scene_document(path), path);
}

namespace {

nlohmann::json vec_json(const Eigen::Ref<const VecX>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}

}  // namespace

nlohmann::json scene_to_json(const Scene& scene) {
  const World& w = scene.world;
  const bool planar = w.dimension == 2;
  nlohmann::json doc;
  doc["format"] = "exactsim-scene";
  doc["version"] = 1;
  doc["name"] = scene.name;
  doc["dimension"] = w.dimension;
  doc["gravity"] = planar ? vec_json(w.gravity.head<2>()) : vec_json(w.gravity);
  doc["time"] = {{"step", scene.step}, {"duration", scene.duration}};
  nlohmann::json contact = {{"model", to_string(w.contact.model)},
                            {"friction", w.contact.friction},
                            {"friction_directions", w.contact.friction_directions}};
  nlohmann::json params = {{"predict_motion", w.contact.predict_motion}};
  if (!std::isnan(w.contact.epsilon)) params["epsilon"] = w.contact.epsilon;
  if (!std::isnan(w.contact.epsilon_edge)) params["epsilon_edge"] = w.contact.epsilon_edge;
  if (w.contact.stabilisation != Stabilisation::kSplit)
    params["stabilisation"] = to_string(w.contact.stabilisation);
  if (std::isfinite(w.contact.max_stabilisation_speed))
    params["max_stabilisation_speed"] = w.contact.max_stabilisation_speed;
  if (w.contact.peg.general_form) params["general_form"] = true;  // written only when set
  if (w.contact.min_applicability != ContactOptions{}.min_applicability)
    params["min_applicability"] = w.contact.min_applicability;
  contact["parameters"] = params;
  if (w.contact.impact.model != ImpactModel::kNone)
    contact["impact"] = impact_options_to_json(w.contact.impact);
  doc["contact"] = contact;
  doc["solver"] = io::solver_options_to_json(w.solver);
  doc["stepping"] = {
      {"rotation_update",
       w.stepping.rotation == RotationUpdate::kExponential ? "exponential" : "linear"},
      {"continue_on_solver_failure", w.stepping.continue_on_solver_failure},
      {"measure_overlap", w.stepping.measure_overlap}};
  const StepOptions defaults;
  if (w.stepping.gauss_seidel_min_unknowns != defaults.gauss_seidel_min_unknowns)
    doc["stepping"]["gauss_seidel_min_unknowns"] = w.stepping.gauss_seidel_min_unknowns;
  if (w.stepping.gauss_seidel_sweeps != defaults.gauss_seidel_sweeps)
    doc["stepping"]["gauss_seidel_sweeps"] = w.stepping.gauss_seidel_sweeps;
  if (w.stepping.dense_max_unknowns != defaults.dense_max_unknowns)
    doc["stepping"]["dense_max_unknowns"] = w.stepping.dense_max_unknowns;
  if (w.stepping.friction_on_demand_min_unknowns != defaults.friction_on_demand_min_unknowns)
    doc["stepping"]["friction_on_demand_min_unknowns"] = w.stepping.friction_on_demand_min_unknowns;
  if (w.stepping.threads != defaults.threads) doc["stepping"]["threads"] = w.stepping.threads;
  if (w.stepping.sleep) {  // written only when on
    doc["stepping"]["sleep"] = true;
    doc["stepping"]["sleep_speed"] = w.stepping.sleep_speed;
    doc["stepping"]["sleep_time"] = w.stepping.sleep_time;
  }
  if (!w.stepping.islands) doc["stepping"]["islands"] = false;  // written only when off
  if (!w.stepping.warm_start) doc["stepping"]["warm_start"] = false;
  if (!w.stepping.watch_penetration) doc["stepping"]["watch_penetration"] = false;  // when off
  if (w.stepping.halves_after_failed_solve != defaults.halves_after_failed_solve)
    doc["stepping"]["halves_after_failed_solve"] = w.stepping.halves_after_failed_solve;
  if (w.stepping.memory_budget_bytes != kDefaultMemoryBudgetBytes)  // written only when set
    doc["stepping"]["memory_budget_gib"] =
        static_cast<double>(w.stepping.memory_budget_bytes) / 1073741824.0;
  nlohmann::json bodies = nlohmann::json::array();
  const State& s = scene.initial;
  for (int i = 0; i < w.body_count(); ++i) {
    const Body& b = w.bodies[i];
    nlohmann::json j;
    j["name"] = b.name;
    if (b.kinematic)
      j["kinematic"] = true;
    else if (b.is_static)
      j["static"] = true;
    auto shape_json = [&](int k) {
      const int shape = part_shape(w, i, k);
      nlohmann::json pts = nlohmann::json::array();
      if (planar) {
        for (const Vec2& p : w.polygons[shape].vertices) pts.push_back({p.x(), p.y()});
        return nlohmann::json{{"polygon", pts}};
      }
      if (const HalfSpace* h = body_half_space(w, i))
        return nlohmann::json{
            {"half_space", {{"normal", vec_json(h->normal)}, {"offset", h->offset}}}};
      if (part_kind(w, i, k) == ShapeKind::kSphere) {
        const Sphere& sphere = w.spheres[shape];
        nlohmann::json o = {{"radius", sphere.radius}};
        if (sphere.centre != Vec3::Zero()) o["center"] = vec_json(sphere.centre);
        return nlohmann::json{{"sphere", o}};
      }
      for (const Vec3& p : w.polyhedra[shape].vertices) pts.push_back({p.x(), p.y(), p.z()});
      return nlohmann::json{{"hull", pts}};
    };
    if (b.extra_parts == 0) {
      j["shape"] = shape_json(0);
    } else {
      nlohmann::json parts = nlohmann::json::array();
      for (int k = 0; k < part_count(w, i); ++k) parts.push_back(shape_json(k));
      j["shape"] = {{"compound", parts}};
    }
    if (!b.is_static) {
      j["mass"] = b.mass;
      if (planar) {
        j["inertia"] = b.planar_inertia;
      } else {
        nlohmann::json rows = nlohmann::json::array();
        for (int r = 0; r < 3; ++r) rows.push_back(vec_json(b.inertia.row(r).transpose()));
        j["inertia"] = rows;
      }
    }
    const auto q = s.q_of(i);
    const auto v = s.v_of(i);
    if (planar) {
      j["position"] = vec_json(q.head<2>());
      j["angle"] = q[2];
      j["velocity"] = vec_json(v.head<2>());
      j["angular_velocity"] = v[2];
    } else {
      j["position"] = vec_json(q.head<3>());
      j["orientation"] = vec_json(q.tail<4>());
      j["velocity"] = vec_json(v.head<3>());
      j["angular_velocity"] = vec_json(v.tail<3>());
    }
    if (!std::isnan(b.friction)) j["friction"] = b.friction;
    if (!std::isnan(b.restitution)) j["restitution"] = b.restitution;
    if (!std::isnan(b.capture_speed)) j["capture_velocity"] = b.capture_speed;
    if (!std::isnan(b.plastic_speed)) j["plastic_velocity"] = b.plastic_speed;
    if (b.spawn_time != 0) j["spawn_time"] = b.spawn_time;
    bodies.push_back(j);
  }
  doc["bodies"] = bodies;
  if (!w.joints.empty()) {
    nlohmann::json joints = nlohmann::json::array();
    for (const Joint& j : w.joints) {
      nlohmann::json o;
      o["name"] = j.name;
      o["type"] = to_string(j.type);
      o["bodies"] = {w.bodies[j.body_a].name};
      if (j.body_b != kWorldBody) o["bodies"].push_back(w.bodies[j.body_b].name);
      o["anchor"] = vec_json(j.placed_anchor.head(w.dimension));
      if (w.dimension == 3 && j.type == JointType::kRevolute) o["axis"] = vec_json(j.placed_axis);
      joints.push_back(o);
    }
    doc["joints"] = joints;
  }
  return doc;
}

Scene rewritten(const Scene& scene) {
  Scene read = parse_scene(scene_to_json(scene), scene.name);
  Scene out = scene;
  out.world.bodies = std::move(read.world.bodies);
  out.world.polygons = std::move(read.world.polygons);
  out.world.polyhedra = std::move(read.world.polyhedra);
  out.world.spheres = std::move(read.world.spheres);
  out.world.half_spaces = std::move(read.world.half_spaces);
  out.initial = std::move(read.initial);
  out.world.joints = std::move(read.world.joints);
  return out;
}

void write_scene_file(const Scene& scene, const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) throw InputError(path + ": cannot create its folder (" + ec.message() + ")");
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write the scene file (" + std::strerror(errno) + ")");
  out << scene_to_json(scene).dump(1) << "\n";
}

}  // namespace exactsim
