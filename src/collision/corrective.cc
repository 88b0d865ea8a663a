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

Vec3 polytope_centroid(const IntersectionPolyhedron& polytope) {
  const std::vector<Vec3>& v = polytope.vertices;
  if (v.empty()) return Vec3::Zero();
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : v) mean += p;
  mean /= static_cast<Real>(v.size());
  // Signed tetrahedra (mean, fan triangle) of every face: exact for a closed polytope.
  Real volume = 0;
  Vec3 moment = Vec3::Zero();
  for (const std::vector<int>& face : polytope.faces)
    for (std::size_t i = 1; i + 1 < face.size(); ++i) {
      const Vec3 &a = v[face[0]], &b = v[face[i]], &c = v[face[i + 1]];
      const Real t = (a - mean).dot((b - mean).cross(c - mean)) / 6.0;
      volume += t;
      moment += t * (mean + a + b + c) / 4.0;
    }
  return volume > 0 ? Vec3(moment / volume) : mean;
}

void corrective_contact_3d(const ConvexPolyhedron& shape_a, const Pose3& pose_a,
                           const WorldPolyhedron& world_a, int body_a,
                           const ConvexPolyhedron& shape_b, const Pose3& pose_b,
                           const WorldPolyhedron& world_b, int body_b,
                           IntersectionPolyhedron& polytope, IntersectionScratch& scratch,
                           std::vector<Contact>& out) {
  if (polyhedron_intersection_volume(shape_a, pose_a, shape_b, pose_b, &polytope, &scratch) <= 0 ||
      polytope.vertices.empty())
    return;
  const Vec3 centre = polytope_centroid(polytope);
  int face_a = 0, face_b = 0;
  const Real value_a = deepest_face(world_a, centre, face_a);
  const Real value_b = deepest_face(world_b, centre, face_b);
  Contact c;
  c.body_a = body_a;
  c.body_b = body_b;
  c.type = ContactType::kVertexFace;  // features stay −1: the contact is on no feature pair
  if (value_b >= value_a) {
    c.normal = -world_b.face_normals[face_b];  // A lies outside B's face: A → B is −η̂_B
    c.gap = 2 * value_b;
  } else {
    c.normal = world_a.face_normals[face_a];  // B lies outside A's face: A → B is +η̂_A
    c.gap = 2 * value_a;
  }
  c.point_a = centre - 0.5 * c.gap * c.normal;
  c.distance = 0;
  out.push_back(c);
}

}  // namespace exactsim
