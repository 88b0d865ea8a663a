// Scene reader/writer: ../shared/spec/scene-format.md (the contract) + docs/scene-format.md.
#include "exactsim/io/scene_json.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "exactsim/io/mesh_file.h"
#include "json_cursor.h"
#include "solver_options_json.h"

namespace exactsim {
namespace {

using io::JsonCursor;

constexpr int kMaxVertices = 10000;
constexpr int kMaxBodies = 100000;
constexpr std::uintmax_t kMaxFileBytes = 256ull << 20;

// Re-throws a geometry error with the field's path in front.
template <class F>
auto with_path(const JsonCursor& c, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    c.fail(e.what());
  }
}

struct ShapeResult {
  int index = -1;
  bool explicit_vertices = false;
};

// A list of [x, y] (Vec2) or [x, y, z] (Vec3) points, at most kMaxVertices.
template <class V>
std::vector<V> points(const JsonCursor& c) {
  c.expect_array();
  if (c.size() > static_cast<std::size_t>(kMaxVertices))
    c.fail("too many points (" + std::to_string(c.size()) + "; the limit is " +
           std::to_string(kMaxVertices) + ")");
  std::vector<V> pts;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if constexpr (V::RowsAtCompileTime == 2)
      pts.push_back(c.at(i).vec2());
    else
      pts.push_back(c.at(i).vec3());
  }
  return pts;
}

// Builds the shape of one body into the world; returns its index.
int read_shape(const JsonCursor& c, World& w, const std::string& scene_dir) {
  c.expect_object({"polygon", "hull", "box", "regular_polygon", "icosahedron", "mesh"});
  if (c.value().size() != 1) c.fail("exactly one shape kind must be given");
  const std::string kind = c.value().begin().key();
  const JsonCursor v = c.at(kind.c_str());
  const bool planar = w.dimension == 2;
  const bool kind_is_2d = kind == "polygon" || kind == "regular_polygon";
  const bool kind_is_3d = kind == "hull" || kind == "icosahedron" || kind == "mesh";
  if ((planar && kind_is_3d) || (!planar && kind_is_2d))
    v.fail("shape kind '" + kind + "' is not available in a " + std::to_string(w.dimension) +
           "D scene");
  if (planar) {
    ConvexPolygon p = with_path(v, [&] {
      if (kind == "polygon") {
        const auto pts = points<Vec2>(v);
        if (pts.size() < 3)
          v.fail(std::to_string(pts.size()) + " points given, a polygon needs at least 3");
        return polygon_from_points(pts, HullInput::kRequireConvex);
      }
      if (kind == "box") {
        const auto s = v.numbers(2);
        for (int i = 0; i < 2; ++i)
          if (!(s[i] > 0)) v.at(i).fail("box side lengths must be > 0");
        return make_box(Vec2(s[0], s[1]));
      }
      v.expect_object({"sides", "radius"});
      return make_regular_polygon(v.at("sides").integer(3, kMaxVertices),
                                  v.at("radius").positive());
    });
    w.polygons.push_back(std::move(p));
    return static_cast<int>(w.polygons.size()) - 1;
  }
  ConvexPolyhedron p = with_path(v, [&] {
    if (kind == "hull") {
      const auto pts = points<Vec3>(v);
      if (pts.size() < 4)
        v.fail(std::to_string(pts.size()) +
               " points given, a polyhedron needs at least 4 non-coplanar points");
      return polyhedron_from_points(pts);
    }
    if (kind == "box") {
      const auto s = v.numbers(3);
      for (int i = 0; i < 3; ++i)
        if (!(s[i] > 0)) v.at(i).fail("box side lengths must be > 0");
      return make_box(Vec3(s[0], s[1], s[2]));
    }
    if (kind == "icosahedron") {
      v.expect_object({"radius"});
      return make_icosahedron(v.at("radius").positive());
    }
    const std::string rel = v.string();
    const std::filesystem::path path = std::filesystem::path(scene_dir) / rel;
    const std::vector<Vec3> pts = read_mesh_vertices(path.string(), kMaxVertices);
    ConvexPolyhedron hull = polyhedron_from_points(pts);
    check_mesh_is_convex(pts, hull, path.string());
    return hull;
  });
  w.polyhedra.push_back(std::move(p));
  return static_cast<int>(w.polyhedra.size()) - 1;
}

Mat3 read_inertia3(const JsonCursor& c) {
  c.expect_array();
  if (c.size() != 3) c.fail("expected a 3x3 matrix (3 rows of 3 numbers)");
  Mat3 m;
  for (int r = 0; r < 3; ++r) m.row(r) = c.at(r).vec3().transpose();
  if ((m - m.transpose()).cwiseAbs().maxCoeff() > 1e-12 * m.cwiseAbs().maxCoeff())
    c.fail("the inertia matrix must be symmetric");
  Eigen::SelfAdjointEigenSolver<Mat3> eig(m);
  if (!(eig.eigenvalues().minCoeff() > 0)) c.fail("the inertia matrix must be positive definite");
  return m;
}

void read_body(const JsonCursor& c, World& w, State& s, const std::string& scene_dir,
               std::set<std::string>& names) {
  const bool planar = w.dimension == 2;
  if (planar)
    c.expect_object({"name", "static", "shape", "mass", "inertia", "density", "position", "angle",
                     "velocity", "angular_velocity", "friction", "spawn_time"});
  else
    c.expect_object({"name", "static", "shape", "mass", "inertia", "density", "position",
                     "orientation", "velocity", "angular_velocity", "friction", "spawn_time"});
  Body b;
  b.name = c.at("name").string();
  if (b.name.empty()) c.at("name").fail("must not be empty");
  if (!names.insert(b.name).second) c.at("name").fail("duplicate body name '" + b.name + "'");
  if (c.has("static")) b.is_static = c.at("static").boolean();
  b.shape = read_shape(c.at("shape"), w, scene_dir);

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
    const Real rho = d.positive();
    if (planar) {
      const auto mp =
          with_path(d, [&] { return polygon_mass_properties(w.polygons[b.shape], rho); });
      b.mass = mp.mass;
      b.planar_inertia = mp.inertia;
      com_shift.head<2>() = mp.centroid;
      w.polygons[b.shape] = translated(w.polygons[b.shape], -mp.centroid);
    } else {
      const auto mp =
          with_path(d, [&] { return polyhedron_mass_properties(w.polyhedra[b.shape], rho); });
      b.mass = mp.mass;
      b.inertia = mp.inertia;
      com_shift = mp.centroid;
      // Rebuilt from the shifted vertices (not translated()): a written scene re-reads to the
      // bitwise-same shape, face planes included.
      std::vector<Vec3> shifted = w.polyhedra[b.shape].vertices;
      for (Vec3& p : shifted) p -= mp.centroid;
      w.polyhedra[b.shape] = polyhedron_from_points(shifted);
    }
  } else if (has_mass) {
    b.mass = c.at("mass").positive();
    if (planar)
      b.planar_inertia = c.at("inertia").positive();
    else
      b.inertia = read_inertia3(c.at("inertia"));
  }
  if (c.has("friction")) b.friction = c.at("friction").non_negative();
  if (c.has("spawn_time")) b.spawn_time = c.at("spawn_time").non_negative();

  const int i = static_cast<int>(w.bodies.size());
  s.q.conservativeResize((i + 1) * config_size(w.dimension));
  s.v.conservativeResize((i + 1) * velocity_size(w.dimension));
  s.present.push_back(0);
  auto q = s.q_of(i);
  auto v = s.v_of(i);
  v.setZero();
  if (planar) {
    const Vec2 p = c.at("position").vec2();
    const Real angle = c.has("angle") ? c.at("angle").number() : 0.0;
    // The body origin moves to the centroid: keep the shape where the file put it.
    const Vec2 origin = p + Eigen::Rotation2Dd(angle) * com_shift.head<2>();
    q << origin.x(), origin.y(), angle;
    if (c.has("velocity")) v.head<2>() = c.at("velocity").vec2();
    if (c.has("angular_velocity")) v[2] = c.at("angular_velocity").number();
  } else {
    Quat o = Quat::Identity();
    if (c.has("orientation")) {
      const JsonCursor oc = c.at("orientation");
      const auto n = oc.numbers(4);
      const Eigen::Vector4d raw(n[0], n[1], n[2], n[3]);
      if (!(raw.norm() > 1e-12)) oc.fail("the quaternion has zero norm");
      // Normalised on read (scene-format.md); a quaternion already of unit norm to round-off is
      // kept as written, so a written scene re-reads bit for bit.
      o = Quat(n[0], n[1], n[2], n[3]);
      if (std::abs(raw.norm() - 1) > 8 * std::numeric_limits<Real>::epsilon()) o.normalize();
    }
    const Vec3 origin = c.at("position").vec3() + o * com_shift;
    q << origin, o.w(), o.x(), o.y(), o.z();
    if (c.has("velocity")) v.head<3>() = c.at("velocity").vec3();
    if (c.has("angular_velocity")) v.tail<3>() = c.at("angular_velocity").vec3();
  }
  if (b.is_static) {
    if (c.has("velocity") && v.norm() != 0) c.at("velocity").fail("a static body cannot move");
    v.setZero();
  }
  w.bodies.push_back(std::move(b));
}

ContactModel read_model(const JsonCursor& c) {
  const std::string m = c.string();
  if (m == "peg") return ContactModel::kPeg;
  if (m == "standard") return ContactModel::kStandard;
  if (m == "corrective") return ContactModel::kCorrective;
  c.fail("unknown contact model '" + m + "' (expected \"peg\", \"standard\" or \"corrective\")");
}

void read_contact(const JsonCursor& c, World& w) {
  c.expect_object({"model", "friction", "friction_directions", "parameters"});
  if (c.has("model")) w.contact.model = read_model(c.at("model"));
  if (c.has("friction")) w.contact.friction = c.at("friction").non_negative();
  if (c.has("friction_directions"))
    w.contact.friction_directions = c.at("friction_directions").integer(3, 64);
  if (c.has("parameters")) {
    const JsonCursor p = c.at("parameters");
    p.expect_object(
        {"epsilon", "epsilon_edge", "predict_motion", "max_stabilisation_speed", "general_form"});
    if (p.has("epsilon")) w.contact.epsilon = p.at("epsilon").positive();
    if (p.has("epsilon_edge")) w.contact.epsilon_edge = p.at("epsilon_edge").positive();
    if (p.has("predict_motion")) w.contact.predict_motion = p.at("predict_motion").boolean();
    if (p.has("max_stabilisation_speed"))
      w.contact.max_stabilisation_speed = p.at("max_stabilisation_speed").positive();
    if (p.has("general_form")) w.contact.peg.general_form = p.at("general_form").boolean();
  }
}

void read_stepping(const JsonCursor& c, World& w) {
  c.expect_object({"rotation_update", "continue_on_solver_failure", "measure_overlap"});
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
}

}  // namespace

Scene parse_scene(const nlohmann::json& doc, const std::string& origin) {
  const JsonCursor top(doc, origin, "");
  top.expect_object({"format", "version", "name", "dimension", "gravity", "time", "contact",
                     "solver", "stepping", "bodies"});
  if (top.at("format").string() != "exactsim-scene")
    top.at("format").fail("expected \"exactsim-scene\"");
  if (top.at("version").integer(1, 1000) != 1)
    top.at("version").fail("this exactsim reads version 1 only");
  Scene scene;
  scene.name =
      top.has("name") ? top.at("name").string() : std::filesystem::path(origin).stem().string();
  World& w = scene.world;
  w.dimension = top.at("dimension").integer(2, 3);
  w.gravity = w.dimension == 2 ? Vec3(0, -9.81, 0) : Vec3(0, 0, -9.81);
  if (top.has("gravity")) {
    const auto g = top.at("gravity").numbers(w.dimension);
    w.gravity = Vec3(g[0], g[1], w.dimension == 3 ? g[2] : 0.0);
  }
  const JsonCursor time = top.at("time");
  time.expect_object({"step", "duration"});
  scene.step = time.at("step").positive();
  scene.duration = time.at("duration").non_negative();
  if (scene.duration / scene.step > 1e9) time.fail("duration / step exceeds 1e9 steps");
  w.contact.model = ContactModel::kPeg;  // the format's default
  if (top.has("contact")) read_contact(top.at("contact"), w);
  if (top.has("solver")) io::read_solver_options(top.at("solver"), w.solver);
  if (top.has("stepping")) read_stepping(top.at("stepping"), w);

  const JsonCursor bodies = top.at("bodies");
  bodies.expect_array();
  if (bodies.size() == 0) bodies.fail("at least one body is required");
  if (bodies.size() > static_cast<std::size_t>(kMaxBodies))
    bodies.fail("too many bodies (limit " + std::to_string(kMaxBodies) + ")");
  State& s = scene.initial;
  s.dimension = w.dimension;
  s.q.resize(0);
  s.v.resize(0);
  const std::string dir = std::filesystem::path(origin).parent_path().string();
  std::set<std::string> names;
  for (std::size_t i = 0; i < bodies.size(); ++i) read_body(bodies.at(i), w, s, dir, names);
  return scene;
}

Scene read_scene_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot read the file (" + ec.message() + ")");
  if (size > kMaxFileBytes)
    throw InputError(path + ": the file is larger than the limit of 256 MiB");
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the file");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": not valid JSON (" + e.what() + ")");
  }
  return parse_scene(doc, path);
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
  if (std::isfinite(w.contact.max_stabilisation_speed))
    params["max_stabilisation_speed"] = w.contact.max_stabilisation_speed;
  if (w.contact.peg.general_form) params["general_form"] = true;  // written only when set
  contact["parameters"] = params;
  doc["contact"] = contact;
  doc["solver"] = io::solver_options_to_json(w.solver);
  doc["stepping"] = {
      {"rotation_update",
       w.stepping.rotation == RotationUpdate::kExponential ? "exponential" : "linear"},
      {"continue_on_solver_failure", w.stepping.continue_on_solver_failure},
      {"measure_overlap", w.stepping.measure_overlap}};
  nlohmann::json bodies = nlohmann::json::array();
  const State& s = scene.initial;
  for (int i = 0; i < w.body_count(); ++i) {
    const Body& b = w.bodies[i];
    nlohmann::json j;
    j["name"] = b.name;
    if (b.is_static) j["static"] = true;
    nlohmann::json pts = nlohmann::json::array();
    if (planar) {
      for (const Vec2& p : w.polygons[b.shape].vertices) pts.push_back({p.x(), p.y()});
      j["shape"] = {{"polygon", pts}};
    } else {
      for (const Vec3& p : w.polyhedra[b.shape].vertices) pts.push_back({p.x(), p.y(), p.z()});
      j["shape"] = {{"hull", pts}};
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
    if (b.spawn_time != 0) j["spawn_time"] = b.spawn_time;
    bodies.push_back(j);
  }
  doc["bodies"] = bodies;
  return doc;
}

void write_scene_file(const Scene& scene, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write the scene file");
  out << scene_to_json(scene).dump(1) << "\n";
}

}  // namespace exactsim
