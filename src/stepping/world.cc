#include "exactsim/stepping/world.h"

#include <algorithm>
#include <cmath>

namespace exactsim {

const char* to_string(ContactModel m) {
  switch (m) {
    case ContactModel::kStandard:
      return "standard";
    case ContactModel::kPeg:
      return "peg";
    case ContactModel::kCorrective:
      return "corrective";
  }
  return "?";
}

const char* to_string(ImpactModel m) { return m == ImpactModel::kPlus ? "plus" : "none"; }

const char* to_string(Stabilisation s) { return s == Stabilisation::kSplit ? "split" : "velocity"; }

int dense_max_unknowns(const World& world, bool moving) {
  if (world.stepping.dense_max_unknowns >= 0) return world.stepping.dense_max_unknowns;
  if (moving && world.contact.model == ContactModel::kPeg) return world.dimension == 3 ? 50 : 70;
  return world.dimension == 3 ? 1000 : 300;
}

Real bounding_radius(const World& world, int i) {
  Real r = 0;
  for (int k = 0; k < part_count(world, i); ++k) {
    const int shape = part_shape(world, i, k);
    if (part_kind(world, i, k) == ShapeKind::kSphere) {
      const Sphere& s = world.spheres[shape];
      r = std::max(r, s.centre.norm() + s.radius);
    } else if (world.dimension == 2)
      for (const Vec2& v : world.polygons[shape].vertices) r = std::max(r, v.norm());
    else
      for (const Vec3& v : world.polyhedra[shape].vertices) r = std::max(r, v.norm());
  }
  return r;
}

namespace {

template <class Part>
void add_shapes(World& w, Body& b, std::vector<Part>& parts, std::vector<Part>& shapes) {
  const int body = w.body_count();
  b.shape = static_cast<int>(shapes.size());
  b.first_part = static_cast<int>(w.parts.size());
  b.extra_parts = static_cast<int>(parts.size()) - 1;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) w.parts.push_back({body, static_cast<int>(shapes.size())});
    shapes.push_back(std::move(parts[k]));
  }
}

}  // namespace

void add_body_shapes(World& w, Body& b, std::vector<ConvexPolygon> parts) {
  add_shapes(w, b, parts, w.polygons);
}

void add_body_shapes(World& w, Body& b, std::vector<ConvexPolyhedron> parts) {
  add_shapes(w, b, parts, w.polyhedra);
}

void add_body_shapes(World& w, Body& b, std::vector<SpatialPart> parts) {
  const int body = w.body_count();
  b.first_part = static_cast<int>(w.parts.size());
  b.extra_parts = static_cast<int>(parts.size()) - 1;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    BodyPart part{body, -1, ShapeKind::kPolytope};
    if (const Sphere* s = std::get_if<Sphere>(&parts[k])) {
      part = {body, static_cast<int>(w.spheres.size()), ShapeKind::kSphere};
      w.spheres.push_back(*s);
    } else {
      part.shape = static_cast<int>(w.polyhedra.size());
      w.polyhedra.push_back(std::move(std::get<ConvexPolyhedron>(parts[k])));
    }
    if (k == 0) {
      b.shape = part.shape;
      b.kind = part.kind;
    } else {
      w.parts.push_back(part);
    }
  }
}

void add_body_shapes(World& w, Body& b, const HalfSpace& half_space) {
  b.kind = ShapeKind::kHalfSpace;
  b.shape = static_cast<int>(w.polyhedra.size());
  b.first_part = static_cast<int>(w.parts.size());
  b.extra_parts = 0;
  w.polyhedra.push_back(half_space_box(half_space));
  w.half_spaces.push_back(half_space);
}

const HalfSpace* body_half_space(const World& w, int i) {
  if (w.bodies[i].kind != ShapeKind::kHalfSpace) return nullptr;
  int k = 0;
  for (int j = 0; j < i; ++j) k += w.bodies[j].kind == ShapeKind::kHalfSpace;
  return &w.half_spaces[k];
}

PlacedCollider3 place_collider(const World& w, int c, const Pose3& body_pose,
                               WorldPolyhedron& out) {
  if (const Sphere* s = w.collider_sphere(c)) return place_collider(*s, body_pose, out);
  return place_collider(w.polyhedra[w.collider_shape(c)], body_pose, out);
}

int Scene::step_count() const { return static_cast<int>(std::llround(duration / step)); }

bool bodies_joined(const World& world, int a, int b) {
  for (const Joint& j : world.joints)
    if ((j.body_a == a && j.body_b == b) || (j.body_a == b && j.body_b == a)) return true;
  return false;
}

}  // namespace exactsim
