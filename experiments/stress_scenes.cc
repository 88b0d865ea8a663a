#include "experiments/stress_scenes.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "exactsim/math/error.h"
#include "experiments/scenarios.h"

namespace exactsim {
namespace {

// Uniform in [0, 1) from the top 53 bits: the same on every platform (std distributions are not).
Real u01(std::mt19937_64& rng) { return static_cast<Real>(rng() >> 11) * 0x1.0p-53; }
Real uniform(std::mt19937_64& rng, Real lo, Real hi) { return lo + (hi - lo) * u01(rng); }
int uniform_int(std::mt19937_64& rng, int lo, int hi) {  // [lo, hi]
  return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

// Shoemake's uniform random rotation.
Quat random_rotation(std::mt19937_64& rng) {
  const Real a = u01(rng), b = u01(rng), c = u01(rng);
  const Real r1 = std::sqrt(1 - a), r2 = std::sqrt(a);
  const Real t1 = 2 * M_PI * b, t2 = 2 * M_PI * c;
  return Quat(r2 * std::cos(t2), r1 * std::sin(t1), r1 * std::cos(t1), r2 * std::sin(t2))
      .normalized();
}

Quat about_z(Real angle) { return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ())); }

// A 3D box body: static (no mass) or of the given density.
int add_box3(Scene& scene, const std::string& name, const Vec3& size, bool is_static, Real density,
             const Vec3& position, const Quat& orientation,
             const Vec3& angular_velocity = Vec3::Zero()) {
  Body b;
  b.name = name;
  b.is_static = is_static;
  b.shape = static_cast<int>(scene.world.polyhedra.size());
  scene.world.polyhedra.push_back(make_box(size));
  if (!is_static) {
    const auto mp = polyhedron_mass_properties(scene.world.polyhedra.back(), density);
    b.mass = mp.mass;
    b.inertia = mp.inertia;
  }
  VecX v = VecX::Zero(6);
  v.tail<3>() = angular_velocity;
  return append_body(scene, b, position, orientation.normalized(), v);
}

int add_box2(Scene& scene, const std::string& name, const Vec2& size, bool is_static, Real density,
             const Vec2& position, Real angle) {
  Body b;
  b.name = name;
  b.is_static = is_static;
  b.shape = static_cast<int>(scene.world.polygons.size());
  scene.world.polygons.push_back(make_box(size));
  if (!is_static) {
    const auto mp = polygon_mass_properties(scene.world.polygons.back(), density);
    b.mass = mp.mass;
    b.planar_inertia = mp.inertia;
  }
  return append_body(scene, b, Vec3(position.x(), position.y(), 0), about_z(angle), VecX::Zero(3));
}

Scene empty_scene(int dimension, const std::string& name, Real h, Real duration,
                  ContactModel model) {
  if (!(h > 0) || !(duration >= 0)) throw InputError(name + ": step must be > 0, duration >= 0");
  Scene s;
  s.name = name;
  s.step = h;
  s.duration = duration;
  s.world.dimension = dimension;
  s.initial.dimension = dimension;
  s.world.gravity = dimension == 2 ? Vec3(0, -9.81, 0) : Vec3(0, 0, -9.81);
  s.world.contact.model = model;
  return s;
}

// Target mass of body k of a pour: k = 0 the lightest, k = 1 the heaviest, others log-uniform.
Real pour_mass(std::mt19937_64& rng, int k, Real min_mass, Real ratio) {
  const Real u = u01(rng);
  if (k == 0) return min_mass;
  if (k == 1) return min_mass * ratio;
  return min_mass * std::pow(ratio, u);
}

Real min_edge_for(HullKind kind, int dimension) {
  const Vec3 e = hull_kind_extent(kind, dimension);
  const Real smallest = dimension == 2 ? std::min(e.x(), e.y()) : e.minCoeff();
  return std::min(dimension == 2 ? 0.01 : 0.02, 0.3 * smallest);
}

}  // namespace

const char* to_string(HullKind kind) {
  switch (kind) {
    case HullKind::kBlocky:
      return "blocky";
    case HullKind::kSliver:
      return "sliver";
    case HullKind::kElongated:
      return "elongated";
  }
  return "?";
}

Vec3 hull_kind_extent(HullKind kind, int dimension) {
  if (dimension == 2) {
    switch (kind) {
      case HullKind::kBlocky:
        return Vec3(0.2, 0.2, 0);
      case HullKind::kSliver:
        return Vec3(0.3, 0.015, 0);
      case HullKind::kElongated:
        return Vec3(0.3, 0.06, 0);
    }
  }
  switch (kind) {
    case HullKind::kBlocky:
      return Vec3(0.6, 0.6, 0.6);
    case HullKind::kSliver:
      return Vec3(0.8, 0.8, 0.04);
    case HullKind::kElongated:
      return Vec3(1.0, 0.2, 0.2);
  }
  return Vec3::Zero();
}

ConvexPolygon stress_hull_polygon(std::mt19937_64& rng, HullKind kind) {
  const Vec3 ext = hull_kind_extent(kind, 2);
  const Vec2 half(ext.x() / 2, ext.y() / 2);
  const Real min_edge = min_edge_for(kind, 2);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int n = uniform_int(rng, 8, 12);
    std::vector<Vec2> pts;
    for (int i = 0; i < n; ++i) {
      const int side = i < 4 ? i : uniform_int(rng, 0, 3);  // every side gets a point
      const int axis = side / 2;                            // 0: x = ±half.x, 1: y = ±half.y
      const Real sign = side % 2 ? 1.0 : -1.0;
      const Real along = uniform(rng, -1, 1), jitter = uniform(rng, -kHullJitter, kHullJitter);
      Vec2 p;
      p[axis] = sign * half[axis] + jitter;
      p[1 - axis] = along * half[1 - axis];
      pts.push_back(p);
    }
    ConvexPolygon poly;
    try {
      poly = polygon_from_points(pts);
    } catch (const InputError&) {
      continue;
    }
    bool ok = true;
    for (int e = 0; e < poly.size() && ok; ++e) ok = poly.edge(e).norm() >= min_edge;
    if (ok) return poly;
  }
  throw InputError("stress_hull_polygon: no acceptable hull in 1000 draws");
}

ConvexPolyhedron stress_hull_polyhedron(std::mt19937_64& rng, HullKind kind) {
  const Vec3 half = 0.5 * hull_kind_extent(kind, 3);
  const Real min_edge = min_edge_for(kind, 3);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int n = uniform_int(rng, 8, 12);
    std::vector<Vec3> pts;
    for (int i = 0; i < n; ++i) {
      const int side = i < 6 ? i : uniform_int(rng, 0, 5);  // every face gets a point
      const int axis = side / 2;
      const Real sign = side % 2 ? 1.0 : -1.0;
      const Real a = uniform(rng, -1, 1), b = uniform(rng, -1, 1);
      const Real jitter = uniform(rng, -kHullJitter, kHullJitter);
      Vec3 p;
      p[axis] = sign * half[axis] + jitter;
      p[(axis + 1) % 3] = a * half[(axis + 1) % 3];
      p[(axis + 2) % 3] = b * half[(axis + 2) % 3];
      pts.push_back(p);
    }
    ConvexPolyhedron poly;
    try {
      poly = polyhedron_from_points(pts);
    } catch (const InputError&) {
      continue;
    }
    bool ok = true;
    for (int e = 0; e < poly.num_edges() && ok; ++e) ok = poly.edge_vector(e).norm() >= min_edge;
    if (ok) return poly;
  }
  throw InputError("stress_hull_polyhedron: no acceptable hull in 1000 draws");
}

Scene hull_pour2d(std::uint64_t seed, const HullPourOptions& o) {
  Pour2dOptions c;
  c.step = o.step;
  c.duration = o.duration;
  c.bodies = 0;
  c.model = o.model;
  Scene scene = pour2d_random(seed, c);  // the container only
  scene.name = "hull-pour2d-seed" + std::to_string(seed);
  scene.world.contact.friction = o.friction;
  const int bodies = o.bodies < 0 ? 20 : o.bodies;
  const Real min_mass = o.min_mass > 0 ? o.min_mass : 0.05;
  std::mt19937_64 rng(seed);
  for (int k = 0; k < bodies; ++k) {
    const HullKind kind = static_cast<HullKind>(k % 3);
    const ConvexPolygon raw = stress_hull_polygon(rng, kind);
    const auto unit = polygon_mass_properties(raw, 1.0);
    const Real mass = pour_mass(rng, k, min_mass, o.mass_ratio);
    Body b;
    b.name = std::string(to_string(kind)) + "-" + std::to_string(k + 1);
    b.shape = static_cast<int>(scene.world.polygons.size());
    scene.world.polygons.push_back(translated(raw, -unit.centroid));
    b.mass = mass;
    b.planar_inertia = unit.inertia * (mass / unit.area);
    b.spawn_time = spawn_time(k, o.step, 0.25);
    const bool odd = k % 2 == 0;  // 1st, 3rd, … polygons, as in pour2d
    VecX v(3);
    v << (odd ? 0.7 : -0.7), 0, 0;
    append_body(scene, b, Vec3(odd ? -0.5 : 0.5, 0.8, 0), about_z(uniform(rng, 0, 2 * M_PI)), v);
  }
  return scene;
}

// The pour3d container (pour3d_random's, without its bodies) for a pour of `family`.
Scene pour3d_container(std::uint64_t seed, const HullPourOptions& o, const std::string& family) {
  Pour3dOptions c;
  c.step = o.step;
  c.duration = o.duration;
  c.bodies = 0;
  c.model = o.model;
  Scene scene = pour3d_random(seed, c);
  scene.name = family + "-seed" + std::to_string(seed);
  scene.world.contact.friction = o.friction;
  return scene;
}

Scene hull_pour3d(std::uint64_t seed, const HullPourOptions& o) {
  Scene scene = pour3d_container(seed, o, "hull-pour3d");
  const int bodies = o.bodies < 0 ? 10 : o.bodies;
  const Real min_mass = o.min_mass > 0 ? o.min_mass : 1.0;
  std::mt19937_64 rng(seed);
  VecX v = VecX::Zero(6);
  v[0] = -5;
  for (int k = 0; k < bodies; ++k) {
    const HullKind kind = static_cast<HullKind>(k % 3);
    const ConvexPolyhedron raw = stress_hull_polyhedron(rng, kind);
    const auto unit = polyhedron_mass_properties(raw, 1.0);
    const Real mass = pour_mass(rng, k, min_mass, o.mass_ratio);
    Body b;
    b.name = std::string(to_string(kind)) + "-" + std::to_string(k + 1);
    b.shape = static_cast<int>(scene.world.polyhedra.size());
    scene.world.polyhedra.push_back(translated(raw, -unit.centroid));
    b.mass = mass;
    b.inertia = unit.inertia * (mass / unit.volume);
    b.spawn_time = spawn_time(k, o.step, 0.5);
    append_body(scene, b, Vec3(3, 0, 2), random_rotation(rng), v);
  }
  return scene;
}

Scene ball_pour3d(std::uint64_t seed, const HullPourOptions& o) {
  Scene scene = pour3d_container(seed, o, "ball-pour3d");
  const int bodies = o.bodies < 0 ? 12 : o.bodies;
  const Real min_mass = o.min_mass > 0 ? o.min_mass : 1.0;
  std::mt19937_64 rng(seed);
  for (int k = 0; k < bodies; ++k) {
    std::vector<SpatialPart> parts;
    if (k % 3 == 2) {
      parts.push_back(stress_hull_polyhedron(rng, static_cast<HullKind>(k % 3)));
    } else {
      // A row of touching balls along a random direction.
      const int balls = k % 3 == 0 ? 1 : 2 + static_cast<int>(u01(rng) < 0.5);
      const Vec3 d = random_rotation(rng) * Vec3::UnitX();
      for (int j = 0; j < balls; ++j) {
        const Real r = uniform(rng, 0.03, 0.12);
        Vec3 at = Vec3::Zero();
        if (j > 0) {
          const Sphere& last = std::get<Sphere>(parts.back());
          at = last.centre + (last.radius + r) * d;
        }
        parts.push_back(Sphere{r, at});
      }
    }
    const auto unit = compound_mass_properties(std::span<const SpatialPart>(parts), 1.0);
    shift_parts(parts, unit.centroid);
    const Real mass = pour_mass(rng, k, min_mass, o.mass_ratio);
    Body b;
    b.name = (k % 3 == 0 ? "ball-" : k % 3 == 1 ? "clump-" : "hull-") + std::to_string(k + 1);
    b.mass = mass;
    b.inertia = unit.inertia * (mass / unit.volume);
    b.spawn_time = spawn_time(k, o.step, 0.5);
    add_body_shapes(scene.world, b, std::move(parts));
    VecX v = VecX::Zero(6);
    v[0] = -5;
    v.tail<3>() = uniform(rng, 0, 10) * (random_rotation(rng) * Vec3::UnitX());
    append_body(scene, b, Vec3(3, 0, 2), random_rotation(rng), v);
  }
  return scene;
}

Scene box_stack3d(const StackOptions& o) {
  Scene s = empty_scene(3, "stack3d", o.step, o.duration, o.model);
  s.world.contact.friction = 0.4;
  s.world.contact.friction_directions = 6;
  add_box3(s, "floor", Vec3(10, 10, 1), true, 0, Vec3(0, 0, -0.5), Quat::Identity());
  for (int i = 0; i < 4; ++i)
    add_box3(s, "box" + std::to_string(i), Vec3(0.5, 0.4, 0.3), false, 400,
             Vec3(0.03 * i, -0.02 * i, 0.16 + 0.32 * i), Quat(1, 0, 0, 0.05 * i),
             Vec3(0, 0.1 * i, 0));
  return s;
}

Scene box_tower3d(const StackOptions& o) {
  Scene s = empty_scene(3, "tower3d-seed" + std::to_string(o.seed), o.step, o.duration, o.model);
  s.world.contact.friction = 0.5;
  add_box3(s, "floor", Vec3(10, 10, 1), true, 0, Vec3(0, 0, -0.5), Quat::Identity());
  std::mt19937_64 rng(o.seed);
  for (int i = 0; i < 10; ++i) {
    const Real dx = uniform(rng, -0.01, 0.01), dy = uniform(rng, -0.01, 0.01);
    const Real twist = uniform(rng, -0.03, 0.03);
    add_box3(s, "box" + std::to_string(i), Vec3(0.4, 0.4, 0.2), false, 400,
             Vec3(dx, dy, 0.002 + 0.202 * i + 0.1), about_z(twist));
  }
  return s;
}

Scene box_pyramid3d(const StackOptions& o) {
  Scene s = empty_scene(3, "pyramid3d-seed" + std::to_string(o.seed), o.step, o.duration, o.model);
  s.world.contact.friction = 0.5;
  add_box3(s, "floor", Vec3(10, 10, 1), true, 0, Vec3(0, 0, -0.5), Quat::Identity());
  std::mt19937_64 rng(o.seed);
  for (int layer = 0; layer < 5; ++layer) {
    const int n = 5 - layer;
    for (int j = 0; j < n; ++j) {
      const Real dx = uniform(rng, -0.005, 0.005), dy = uniform(rng, -0.005, 0.005);
      const Real twist = uniform(rng, -0.02, 0.02);
      const Real x = 0.45 * (j - (n - 1) / 2.0) + dx;
      add_box3(s, "box-L" + std::to_string(layer) + "-" + std::to_string(j), Vec3(0.4, 0.4, 0.2),
               false, 400, Vec3(x, dy, 0.002 + 0.202 * layer + 0.1), about_z(twist));
    }
  }
  return s;
}

Real incline_friction(const InclineOptions& o) {
  return std::tan(o.angle_deg * M_PI / 180) + o.friction_offset;
}

Vec3 incline_downhill(const InclineOptions& o) {
  const Real t = o.angle_deg * M_PI / 180;
  return o.dimension == 2 ? Vec3(-std::cos(t), -std::sin(t), 0)
                          : Vec3(std::cos(t), 0, -std::sin(t));
}

Real incline_acceleration(const InclineOptions& o) {
  const Real t = o.angle_deg * M_PI / 180;
  return std::max<Real>(0, 9.81 * (std::sin(t) - incline_friction(o) * std::cos(t)));
}

Scene incline_scene(const InclineOptions& o) {
  if (o.dimension != 2 && o.dimension != 3) throw InputError("incline: dimension must be 2 or 3");
  if (!(o.angle_deg > 0 && o.angle_deg < 80)) throw InputError("incline: angle must be in (0, 80)");
  const Real t = o.angle_deg * M_PI / 180;
  const Real mu = incline_friction(o);
  if (!(mu >= 0)) throw InputError("incline: friction tan θ + offset must be >= 0");
  char name[64];
  std::snprintf(name, sizeof name, "incline%dd-%s", o.dimension,
                o.friction_offset < 0 ? "slide" : "stick");
  Scene s = empty_scene(o.dimension, name, o.step, o.duration, o.model);
  s.world.contact.friction = mu;
  const Real gap = 1e-5;
  if (o.dimension == 2) {
    const Vec2 n(-std::sin(t), std::cos(t));
    add_box2(s, "incline", Vec2(10, 1), true, 0, -0.5 * n, t);
    add_box2(s, "box", Vec2(0.4, 0.2), false, 500, (0.1 + gap) * n, t);
  } else {
    const Quat q(Eigen::AngleAxisd(t, Vec3::UnitY()));
    const Vec3 n = q * Vec3::UnitZ();
    add_box3(s, "incline", Vec3(10, 4, 1), true, 0, -0.5 * n, q);
    add_box3(s, "box", Vec3(0.4, 0.4, 0.2), false, 500, (0.1 + gap) * n, q);
  }
  return s;
}

}  // namespace exactsim
