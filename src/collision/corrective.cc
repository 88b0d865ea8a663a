#include "exactsim/collision/corrective.h"

#include <limits>

namespace exactsim {
namespace {

// Overlap depth of the projections of a and b on axis n: how far b must move along n (or a
// against it) to separate them.
Real overlap_along(const WorldPolygon& a, const WorldPolygon& b, const Vec2& n) {
  Real a_max = -std::numeric_limits<Real>::infinity(),
       b_min = std::numeric_limits<Real>::infinity();
  for (const Vec2& v : a.vertices) a_max = std::max(a_max, n.dot(v));
  for (const Vec2& v : b.vertices) b_min = std::min(b_min, n.dot(v));
  return a_max - b_min;
}

}  // namespace

void corrective_contact_2d(const WorldPolygon& a, int body_a, const WorldPolygon& b, int body_b,
                           std::vector<Contact>& out) {
  std::vector<Vec2> overlap;
  if (polygon_intersection_area(a.vertices, b.vertices, &overlap) <= 0 || overlap.empty()) return;
  // The best separating axis: the edge normal (of either polygon, oriented A → B) with the
  // smallest overlap depth.
  Real depth = std::numeric_limits<Real>::infinity();
  Vec2 normal = Vec2::UnitX();
  for (const Vec2& n : a.edge_normals)
    if (const Real d = overlap_along(a, b, n); d < depth) depth = d, normal = n;
  for (const Vec2& n : b.edge_normals)
    if (const Real d = overlap_along(a, b, -n); d < depth) depth = d, normal = -n;
  Vec2 centre = Vec2::Zero();
  for (const Vec2& p : overlap) centre += p;
  centre /= static_cast<Real>(overlap.size());
  Contact c;
  c.body_a = body_a;
  c.body_b = body_b;
  c.type = ContactType::kVertexEdge;
  c.point_a = Vec3(centre.x(), centre.y(), 0);
  c.normal = Vec3(normal.x(), normal.y(), 0);
  c.gap = -depth;
  c.distance = 0;
  out.push_back(c);
}

}  // namespace exactsim
