#include "experiments/scenarios.h"

#include <cmath>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "exactsim/math/error.h"

namespace exactsim {

int append_body(Scene& scene, Body body, const Vec3& position, const Quat& orientation,
                const VecX& velocity) {
  World& w = scene.world;
  State& s = scene.initial;
  const int i = w.body_count();
  w.bodies.push_back(std::move(body));
  s.q.conservativeResize((i + 1) * config_size(w.dimension));
  s.v.conservativeResize((i + 1) * velocity_size(w.dimension));
  s.present.push_back(0);
  if (w.dimension == 2) {
    s.q_of(i) << position.x(), position.y(), 2.0 * std::atan2(orientation.z(), orientation.w());
  } else {
    s.q_of(i) << position, orientation.w(), orientation.x(), orientation.y(), orientation.z();
  }
  s.v_of(i) = velocity;
  return i;
}

namespace {

void add_static_rectangle(Scene& scene, const std::string& name, Vec2 lo, Vec2 hi) {
  Body b;
  b.name = name;
  b.is_static = true;
  b.shape = static_cast<int>(scene.world.polygons.size());
  scene.world.polygons.push_back(make_box(Vec2(hi - lo)));
  const Vec2 c = 0.5 * (lo + hi);
  append_body(scene, b, Vec3(c.x(), c.y(), 0), Quat::Identity(), VecX::Zero(3));
}

Scene pour2d_container(const Pour2dOptions& o, const std::string& name) {
  if (!(o.step > 0) || !(o.duration >= 0))
    throw InputError("pour2d: step must be > 0, duration >= 0");
  Scene scene;
  scene.name = name;
  scene.step = o.step;
  scene.duration = o.duration;
  World& w = scene.world;
  w.dimension = 2;
  w.gravity = Vec3(0, -9.8, 0);  // the archive applied 9.8 m/s²
  w.contact.model = o.model;
  w.contact.friction = 0;
  scene.initial.dimension = 2;
  add_static_rectangle(scene, "floor", Vec2(-1, -0.4), Vec2(1, 0));
  add_static_rectangle(scene, "left-wall", Vec2(-1.2, -0.4), Vec2(-0.8, 1.6));
  add_static_rectangle(scene, "right-wall", Vec2(0.8, -0.4), Vec2(1.2, 1.6));
  return scene;
}

}  // namespace

Real spawn_time(int k, Real h, Real period) {
  const long every = std::lround(period / h);
  return static_cast<Real>(k * every) * h;
}

Scene pour2d_archived(const std::string& body_sets_file, char set, const Pour2dOptions& o) {
  std::ifstream in(body_sets_file);
  if (!in) throw InputError(body_sets_file + ": cannot open the archived body sets");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(body_sets_file + ": not valid JSON (" + e.what() + ")");
  }
  const std::string key(1, set);
  if (!doc.contains("sets") || !doc["sets"].contains(key))
    throw InputError(body_sets_file + ": sets." + key + ": no such body set (expected a…j)");
  const auto& bodies = doc["sets"][key];
  if (o.bodies < 0 || o.bodies > static_cast<int>(bodies.size()))
    throw InputError("pour2d: set " + key + " has " + std::to_string(bodies.size()) + " bodies");
  Scene scene = pour2d_container(o, "pour2d-" + key);
  for (int k = 0; k < o.bodies; ++k) {
    const auto& jb = bodies[k];
    std::vector<Vec2> pts;
    for (const auto& p : jb["verts_local"]) pts.emplace_back(p[0].get<Real>(), p[1].get<Real>());
    Body b;
    b.name = "polygon-" + std::to_string(k + 1);
    b.shape = static_cast<int>(scene.world.polygons.size());
    // The archive's body origin is the mean of the generating points, not the centroid
    // (docs/geometry2d.md "Conventions").
    scene.world.polygons.push_back(polygon_from_points(pts, HullInput::kRequireConvex));
    b.mass = jb["mass"].get<Real>();
    b.planar_inertia = jb["J"].get<Real>();
    b.spawn_time = spawn_time(k, o.step, 0.25);
    const Real rot = jb["rot"].get<Real>();
    VecX v(3);
    v << jb["nu"][0].get<Real>(), jb["nu"][1].get<Real>(), jb["nu"][2].get<Real>();
    append_body(scene, b, Vec3(jb["pos"][0].get<Real>(), jb["pos"][1].get<Real>(), 0),
                Quat(Eigen::AngleAxisd(rot, Vec3::UnitZ())), v);
  }
  return scene;
}

Scene pour2d_random(std::uint64_t seed, const Pour2dOptions& o) {
  Scene scene = pour2d_container(o, "pour2d-seed" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<Real> angle(0.0, 2.0 * M_PI);
  RandomPolygonOptions shape_options;
  shape_options.min_edge_length = 2 * 0.0008 + 0.016;  // > 2ε for every h of the study
  for (int k = 0; k < o.bodies; ++k) {
    Body b;
    b.name = "polygon-" + std::to_string(k + 1);
    b.shape = static_cast<int>(scene.world.polygons.size());
    scene.world.polygons.push_back(random_convex_polygon(rng, shape_options));
    b.mass = 0.25;
    b.planar_inertia = 0.003;
    b.spawn_time = spawn_time(k, o.step, 0.25);
    const bool odd = k % 2 == 0;  // 1st, 3rd, … polygons
    VecX v(3);
    v << (odd ? 0.7 : -0.7), 0, 0;
    append_body(scene, b, Vec3(odd ? -0.5 : 0.5, 0.8, 0),
                Quat(Eigen::AngleAxisd(angle(rng), Vec3::UnitZ())), v);
  }
  return scene;
}

namespace {

Scene pour3d_container(const Pour3dOptions& o, const std::string& name) {
  if (!(o.step > 0) || !(o.duration >= 0))
    throw InputError("pour3d: step must be > 0, duration >= 0");
  Scene scene;
  scene.name = name;
  scene.step = o.step;
  scene.duration = o.duration;
  World& w = scene.world;
  w.dimension = 3;
  w.gravity = Vec3(0, 0, -9.81);
  w.contact.model = o.model;
  w.contact.friction = 0;
  w.contact.epsilon = 0.1;  // ε_vf = ε_ee = 0.1 (docs/peg3d-experiment.md)
  scene.initial.dimension = 3;
  auto box = [&](const std::string& n, Vec3 size, Vec3 centre) {
    Body b;
    b.name = n;
    b.is_static = true;
    b.shape = static_cast<int>(w.polyhedra.size());
    w.polyhedra.push_back(make_box(size));
    append_body(scene, b, centre, Quat::Identity(), VecX::Zero(6));
  };
  box("floor", Vec3(10.25, 4.25, 0.25), Vec3(0, 0, -0.125));
  box("wall-x-", Vec3(0.25, 4.25, 4), Vec3(-5, 0, 1.75));
  box("wall-x+", Vec3(0.25, 4.25, 4), Vec3(5, 0, 1.75));
  box("wall-y-", Vec3(10.25, 0.25, 4), Vec3(0, -2, 1.75));
  box("wall-y+", Vec3(10.25, 0.25, 4), Vec3(0, 2, 1.75));
  return scene;
}

}  // namespace

Scene pour3d_icosahedra(const Pour3dOptions& o) {
  Scene scene = pour3d_container(o, "pour3d-icosahedra");
  const Quat orientation(Eigen::AngleAxisd(0.2, Vec3(1, 2, 3).normalized()));
  VecX v = VecX::Zero(6);
  v[0] = -5;
  for (int k = 0; k < o.bodies; ++k) {
    Body b;
    b.name = "icosahedron-" + std::to_string(k + 1);
    b.shape = static_cast<int>(scene.world.polyhedra.size());
    scene.world.polyhedra.push_back(make_icosahedron(0.5));
    b.mass = 0.5;
    b.inertia = 0.1309 * Mat3::Identity();  // the archived code's value
    b.spawn_time = spawn_time(k, o.step, 0.5);
    append_body(scene, b, Vec3(3, 0, 2), orientation, v);
  }
  return scene;
}

Scene pour3d_random(std::uint64_t seed, const Pour3dOptions& o) {
  Scene scene = pour3d_container(o, "pour3d-seed" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const Quat orientation(Eigen::AngleAxisd(0.2, Vec3(1, 2, 3).normalized()));
  VecX v = VecX::Zero(6);
  v[0] = -5;
  RandomPolyhedronOptions shape_options;
  shape_options.min_edge_length = 0.05;
  for (int k = 0; k < o.bodies; ++k) {
    Body b;
    b.name = "rock-" + std::to_string(k + 1);
    b.shape = static_cast<int>(scene.world.polyhedra.size());
    const ConvexPolyhedron shape = random_convex_polyhedron(rng, shape_options);
    const auto mp = polyhedron_mass_properties(shape, 1000.0);
    scene.world.polyhedra.push_back(translated(shape, -mp.centroid));
    b.mass = mp.mass;
    b.inertia = mp.inertia;
    b.spawn_time = spawn_time(k, o.step, 0.5);
    append_body(scene, b, Vec3(3, 0, 2), orientation, v);
  }
  return scene;
}

}  // namespace exactsim
