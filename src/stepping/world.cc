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

const char* to_string(Stabilisation s) { return s == Stabilisation::kSplit ? "split" : "velocity"; }

Real bounding_radius(const World& world, int i) {
  const int shape = world.bodies[i].shape;
  Real r = 0;
  if (world.dimension == 2)
    for (const Vec2& v : world.polygons[shape].vertices) r = std::max(r, v.norm());
  else
    for (const Vec3& v : world.polyhedra[shape].vertices) r = std::max(r, v.norm());
  return r;
}

int Scene::step_count() const { return static_cast<int>(std::llround(duration / step)); }

}  // namespace exactsim
