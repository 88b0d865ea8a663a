#include "experiments/structures.h"

#include <cmath>
#include <string>
#include <vector>

#include "exactsim/geometry/polyhedron.h"
#include "experiments/scenarios.h"

namespace exactsim {
namespace {

Scene structure_scene(const std::string& name, const StructureOptions& o, Real friction) {
  Scene s;
  s.name = name;
  s.step = o.step;
  s.duration = o.duration;
  s.world.dimension = 3;
  s.world.gravity = Vec3(0, 0, -9.81);
  s.world.contact.model = o.model;
  s.world.contact.friction = friction;
  s.initial.dimension = 3;
  Body floor;
  floor.name = "floor";
  floor.is_static = true;
  floor.shape = 0;
  s.world.polyhedra.push_back(make_box(Vec3(4, 4, 0.2)));
  append_body(s, floor, Vec3(0, 0, -0.1), Quat::Identity(), VecX::Zero(6));
  return s;
}

// A body of `shape` (its centroid at its origin) of density `density` at `position`.
int add_solid(Scene& s, const std::string& name, ConvexPolyhedron shape, Real density,
              const Vec3& position, const Quat& orientation = Quat::Identity(),
              const Vec3& angular_velocity = Vec3::Zero()) {
  Body b;
  b.name = name;
  b.shape = static_cast<int>(s.world.polyhedra.size());
  const PolyhedronMassProperties mp = polyhedron_mass_properties(shape, density);
  b.mass = mp.mass;
  b.inertia = mp.inertia;
  s.world.polyhedra.push_back(std::move(shape));
  VecX v = VecX::Zero(6);
  v.tail<3>() = angular_velocity;
  return append_body(s, b, position, orientation, v);
}

}  // namespace

Scene arch3d(const StructureOptions& o) {
  Scene s = structure_scene("arch3d", o, 0.7);
  const int n = 9;
  const Real r0 = 0.5, r1 = 0.65, depth = 0.3;
  for (int i = 0; i < n; ++i) {
    std::vector<Vec3> points;
    for (const Real a : {M_PI * i / n, M_PI * (i + 1) / n})
      for (const Real r : {r0, r1})
        for (const Real y : {-depth / 2, depth / 2})
          points.emplace_back(r * std::cos(a), y, r * std::sin(a));
    const ConvexPolyhedron world = polyhedron_from_points(points);
    const Vec3 centroid = polyhedron_mass_properties(world, 1).centroid;
    add_solid(s, "voussoir" + std::to_string(i), recentred(world), 2400, centroid);
  }
  return s;
}

Scene jenga3d(const StructureOptions& o) {
  Scene s = structure_scene("jenga3d", o, 0.5);
  const Real l = 0.3, w = 0.1, t = 0.06;
  for (int layer = 0; layer < 5; ++layer)
    for (int k = 0; k < 3; ++k) {
      const Real offset = (k - 1) * w, z = t / 2 + layer * t;
      const bool along_x = layer % 2 == 0;
      add_solid(s, "block" + std::to_string(layer) + "-" + std::to_string(k),
                make_box(along_x ? Vec3(l, w, t) : Vec3(w, l, t)), 600,
                along_x ? Vec3(0, offset, z) : Vec3(offset, 0, z));
    }
  return s;
}

Scene cube_pyramid3d(const StructureOptions& o) {
  Scene s = structure_scene("cube-pyramid3d", o, 0.5);
  const Real a = 0.2;
  for (int layer = 0; layer < 4; ++layer) {
    const int n = 4 - layer;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        add_solid(s, "cube" + std::to_string(layer) + "-" + std::to_string(i) + "-" + std::to_string(j),
                  make_box(Vec3(a, a, a)), 600,
                  Vec3((i - (n - 1) / 2.0) * a, (j - (n - 1) / 2.0) * a, a / 2 + layer * a));
  }
  return s;
}

Scene dominoes3d(const StructureOptions& o) {
  Scene s = structure_scene("dominoes3d", o, 0.5);
  for (int i = 0; i < 12; ++i)
    add_solid(s, "domino" + std::to_string(i), make_box(Vec3(0.05, 0.25, 0.5)), 600,
              Vec3(-1.8 + 0.3 * i, 0, 0.25), Quat::Identity(),
              i == 0 ? Vec3(0, 2, 0) : Vec3::Zero());
  return s;
}

Scene tight_bin3d(const StructureOptions& o) {
  Scene s = structure_scene("tight-bin3d", o, 0.5);
  const Real inner = 0.41, wall = 0.05, height = 0.5;
  const Real c = inner / 2 + wall / 2;
  const struct {
    const char* name;
    Vec3 position, size;
  } walls[] = {{"wall-x-", Vec3(-c, 0, height / 2), Vec3(wall, inner + 2 * wall, height)},
               {"wall-x+", Vec3(c, 0, height / 2), Vec3(wall, inner + 2 * wall, height)},
               {"wall-y-", Vec3(0, -c, height / 2), Vec3(inner, wall, height)},
               {"wall-y+", Vec3(0, c, height / 2), Vec3(inner, wall, height)}};
  for (const auto& w : walls) {
    Body b;
    b.name = w.name;
    b.is_static = true;
    b.shape = static_cast<int>(s.world.polyhedra.size());
    s.world.polyhedra.push_back(make_box(w.size));
    append_body(s, b, w.position, Quat::Identity(), VecX::Zero(6));
  }
  int k = 0;
  for (int layer = 0; layer < 2; ++layer)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        add_solid(s, "box" + std::to_string(k++), make_box(Vec3(0.2, 0.2, 0.2)), 600,
                  Vec3((i - 0.5) * 0.203, (j - 0.5) * 0.203, 0.1 + 0.201 * layer));
  return s;
}

StructureBuilder structure_builder(const std::string& name) {
  if (name == "arch3d") return arch3d;
  if (name == "jenga3d") return jenga3d;
  if (name == "cube-pyramid3d") return cube_pyramid3d;
  if (name == "dominoes3d") return dominoes3d;
  if (name == "tight-bin3d") return tight_bin3d;
  return nullptr;
}

}  // namespace exactsim
