#include "scaling_scene.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"
#include "experiments/scenarios.h"

namespace exactsim::bench {
namespace {

// Uniform in [0, 1) from the top 53 bits (the library's convention: the same on every platform).
Real u01(std::mt19937_64& rng) { return static_cast<Real>(rng() >> 11) * 0x1.0p-53; }
Real uniform(std::mt19937_64& rng, Real lo, Real hi) { return lo + (hi - lo) * u01(rng); }

// Shoemake's uniform random rotation.
Quat random_rotation(std::mt19937_64& rng) {
  const Real a = u01(rng), b = u01(rng), c = u01(rng);
  const Real r1 = std::sqrt(1 - a), r2 = std::sqrt(a);
  const Real t1 = 2 * M_PI * b, t2 = 2 * M_PI * c;
  return Quat(r2 * std::cos(t2), r1 * std::sin(t1), r1 * std::cos(t1), r2 * std::sin(t2))
      .normalized();
}

// Largest interior angle of a face (degrees).
Real max_face_angle_deg(const ConvexPolyhedron& p) {
  Real worst = 0;
  for (const PolyhedronFace& f : p.faces) {
    const int n = static_cast<int>(f.vertices.size());
    for (int i = 0; i < n; ++i) {
      const Vec3 v = p.vertices[f.vertices[i]];
      const Vec3 a = p.vertices[f.vertices[(i + n - 1) % n]] - v;
      const Vec3 b = p.vertices[f.vertices[(i + 1) % n]] - v;
      const Real c = std::clamp(a.normalized().dot(b.normalized()), -1.0, 1.0);
      worst = std::max(worst, std::acos(c) * 180 / M_PI);
    }
  }
  return worst;
}

// Hull of `points` uniform points on the sphere (Archimedes: z uniform, azimuth uniform).
ConvexPolyhedron sphere_hull(std::mt19937_64& rng, const ScalingSceneOptions& o, int points) {
  for (int attempt = 0; attempt < 10000; ++attempt) {
    std::vector<Vec3> pts;
    for (int i = 0; i < points; ++i) {
      const Real z = uniform(rng, -1, 1), phi = uniform(rng, 0, 2 * M_PI);
      const Real r = std::sqrt(std::max<Real>(0, 1 - z * z));
      pts.push_back(o.radius * Vec3(r * std::cos(phi), r * std::sin(phi), z));
    }
    ConvexPolyhedron hull;
    try {
      hull = polyhedron_from_points(pts);
    } catch (const InputError&) {
      continue;
    }
    bool ok = max_face_angle_deg(hull) <= 179;
    for (int e = 0; e < hull.num_edges() && ok; ++e) ok = hull.edge_vector(e).norm() >= o.min_edge;
    if (ok) return hull;
  }
  throw InputError("scaling_scene: no acceptable hull in 10000 draws");
}

// Convex polygon of `points` uniform points on the circle.
ConvexPolygon circle_hull(std::mt19937_64& rng, const ScalingSceneOptions& o, int points) {
  for (int attempt = 0; attempt < 10000; ++attempt) {
    std::vector<Vec2> pts;
    for (int i = 0; i < points; ++i) {
      const Real phi = uniform(rng, 0, 2 * M_PI);
      pts.push_back(o.radius * Vec2(std::cos(phi), std::sin(phi)));
    }
    ConvexPolygon poly;
    try {
      poly = polygon_from_points(pts);
    } catch (const InputError&) {
      continue;
    }
    bool ok = true;
    for (int e = 0; e < poly.size() && ok; ++e) ok = poly.edge(e).norm() >= o.min_edge;
    if (ok) return poly;
  }
  throw InputError("scaling_scene: no acceptable polygon in 10000 draws");
}

}  // namespace

ScalingGrid scaling_grid(int dimension, int bodies) {
  ScalingGrid g;
  const Real n = std::max(1, bodies);
  g.layers = std::max(1, static_cast<int>(std::ceil(std::pow(n, 1.0 / dimension) / 2 - 1e-9)));
  const Real per_layer = n / g.layers;
  g.side =
      std::max(1, static_cast<int>(std::ceil(std::pow(per_layer, 1.0 / (dimension - 1)) - 1e-9)));
  while (std::pow(g.side, dimension - 1) * g.layers < n) ++g.side;  // (round-off guard)
  return g;
}

Scene scaling_scene(const ScalingSceneOptions& o) {
  if (o.dimension != 2 && o.dimension != 3) throw InputError("scaling_scene: dimension 2 or 3");
  if (o.bodies < 1) throw InputError("scaling_scene: at least one body");
  if (!(o.spacing > 2 * (o.radius + o.jitter)))
    throw InputError("scaling_scene: spacing must exceed 2 (radius + jitter)");
  const int d = o.dimension;
  const int points = o.points > 0 ? o.points : (d == 3 ? 14 : 8);
  const ScalingGrid grid = scaling_grid(d, o.bodies);

  Scene scene;
  scene.name = "scaling" + std::to_string(d) + "d-n" + std::to_string(o.bodies) + "-seed" +
               std::to_string(o.seed);
  scene.step = o.step;
  scene.duration = 1.0;
  World& w = scene.world;
  w.dimension = d;
  scene.initial.dimension = d;
  w.gravity = d == 3 ? Vec3(0, 0, -9.81) : Vec3(0, -9.81, 0);
  w.contact.model = ContactModel::kPeg;
  w.contact.friction = o.friction;

  // The container: interior [−L/2, L/2] per horizontal axis, floor top at 0.
  const Real inner = grid.side * o.spacing;
  const Real height = grid.layers * o.spacing + 0.5;
  const Real t = o.wall;
  const int up = d == 3 ? 2 : 1;  // the vertical axis
  auto add_static = [&](const std::string& name, const Vec3& size, const Vec3& centre) {
    Body b;
    b.name = name;
    b.is_static = true;
    if (d == 3) {
      b.shape = static_cast<int>(w.polyhedra.size());
      w.polyhedra.push_back(make_box(size));
      append_body(scene, b, centre, Quat::Identity(), VecX::Zero(6));
    } else {
      b.shape = static_cast<int>(w.polygons.size());
      w.polygons.push_back(make_box(Vec2(size.x(), size.y())));
      append_body(scene, b, centre, Quat::Identity(), VecX::Zero(3));
    }
  };
  const Real outer = inner + 2 * t;
  if (d == 3) {
    add_static("floor", Vec3(outer, outer, t), Vec3(0, 0, -t / 2));
    add_static("wall-x-", Vec3(t, outer, height), Vec3(-(inner + t) / 2, 0, height / 2));
    add_static("wall-x+", Vec3(t, outer, height), Vec3((inner + t) / 2, 0, height / 2));
    add_static("wall-y-", Vec3(inner, t, height), Vec3(0, -(inner + t) / 2, height / 2));
    add_static("wall-y+", Vec3(inner, t, height), Vec3(0, (inner + t) / 2, height / 2));
  } else {
    add_static("floor", Vec3(outer, t, 0), Vec3(0, -t / 2, 0));
    add_static("wall-left", Vec3(t, height, 0), Vec3(-(inner + t) / 2, height / 2, 0));
    add_static("wall-right", Vec3(t, height, 0), Vec3((inner + t) / 2, height / 2, 0));
  }

  std::mt19937_64 rng(o.seed);
  const int per_layer = d == 3 ? grid.side * grid.side : grid.side;
  for (int k = 0; k < o.bodies; ++k) {
    const int layer = k / per_layer, slot = k % per_layer;
    Vec3 c = Vec3::Zero();
    c[0] = -inner / 2 + o.spacing * (slot % grid.side + 0.5);
    if (d == 3) c[1] = -inner / 2 + o.spacing * (slot / grid.side + 0.5);
    c[up] = o.spacing * (layer + 0.5);  // the lowest centre spacing/2 above the floor
    for (int a = 0; a < d; ++a) c[a] += uniform(rng, -o.jitter, o.jitter);
    Body b;
    b.name = "hull-" + std::to_string(k + 1);
    if (d == 3) {
      const ConvexPolyhedron raw = sphere_hull(rng, o, points);
      const auto mp = polyhedron_mass_properties(raw, o.density);
      b.shape = static_cast<int>(w.polyhedra.size());
      w.polyhedra.push_back(translated(raw, -mp.centroid));
      b.mass = mp.mass;
      b.inertia = mp.inertia;
      // The sphere's centre (not the centroid) on the slot: every vertex within radius of it.
      const Quat q = random_rotation(rng);
      append_body(scene, b, c + q * mp.centroid, q, VecX::Zero(6));
    } else {
      const ConvexPolygon raw = circle_hull(rng, o, points);
      const auto mp = polygon_mass_properties(raw, o.density * o.thickness);
      b.shape = static_cast<int>(w.polygons.size());
      w.polygons.push_back(translated(raw, -mp.centroid));
      b.mass = mp.mass;
      b.planar_inertia = mp.inertia;
      const Quat q(Eigen::AngleAxisd(uniform(rng, 0, 2 * M_PI), Vec3::UnitZ()));
      append_body(scene, b, c + q * Vec3(mp.centroid.x(), mp.centroid.y(), 0), q, VecX::Zero(3));
    }
  }
  return scene;
}

Vec3 static_half_extents(const Scene& scene, int i) {
  const World& w = scene.world;
  const Body& b = w.bodies[i];
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
  if (w.dimension == 3) {
    lo = hi = w.polyhedra[b.shape].vertices.front();
    for (const Vec3& v : w.polyhedra[b.shape].vertices) {
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
  } else {
    lo.head<2>() = hi.head<2>() = w.polygons[b.shape].vertices.front();
    for (const Vec2& v : w.polygons[b.shape].vertices) {
      lo.head<2>() = lo.head<2>().cwiseMin(v);
      hi.head<2>() = hi.head<2>().cwiseMax(v);
    }
  }
  return 0.5 * (hi - lo);
}

Aabb3 container_bounds(const Scene& scene) {
  Aabb3 box{Vec3::Constant(1e300), Vec3::Constant(-1e300)};
  for (int i = 0; i < scene.world.body_count(); ++i) {
    if (!scene.world.bodies[i].is_static) continue;
    const Vec3 c = body_position(scene.initial, i), half = static_half_extents(scene, i);
    box.lo = box.lo.cwiseMin(c - half);
    box.hi = box.hi.cwiseMax(c + half);
  }
  return box;
}

}  // namespace exactsim::bench
