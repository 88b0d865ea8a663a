#include "exactsim/collision/vertex_edge.h"

#include <cmath>
#include <string>

#include "exactsim/collision/closest_points.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

void check_epsilon(Real epsilon) {
  if (!std::isfinite(epsilon) || epsilon < 0) {
    throw InputError("vertex_edge_contacts: epsilon must be finite and >= 0, got " +
                     std::to_string(epsilon));
  }
}

bool near_box(const Vec2& p, const Aabb2& box, Real epsilon) {
  return (p.array() >= box.lo.array() - epsilon).all() &&
         (p.array() <= box.hi.array() + epsilon).all();
}

// Distance between the segments p0→p1 and q0→q1 in the plane (0 when they cross).
Real segment_segment_distance(const Vec2& p0, const Vec2& p1, const Vec2& q0, const Vec2& q1) {
  const Real d1 = cross2(q1 - q0, p0 - q0), d2 = cross2(q1 - q0, p1 - q0);
  const Real d3 = cross2(p1 - p0, q0 - p0), d4 = cross2(p1 - p0, q1 - p0);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
    return 0;
  return std::min(std::min(point_segment_distance(p0, q0, q1), point_segment_distance(p1, q0, q1)),
                  std::min(point_segment_distance(q0, p0, p1), point_segment_distance(q1, p0, p1)));
}

// The swept rule: the vertex's path relative to the edge over the step, v_now → v_pred minus the
// edge's own displacement at the vertex's projection, comes within ε of the current edge.
Real swept_distance(const Vec2& v, const Vec2& v_pred, const Vec2& tail, const Vec2& head,
                    const Vec2& tail_pred, const Vec2& head_pred) {
  const Real t = closest_segment_parameter(v, tail, head);
  const Vec2 edge_motion = (1 - t) * (tail_pred - tail) + t * (head_pred - head);
  return segment_segment_distance(v, v_pred - edge_motion, tail, head);
}

// Vertices of `owner` against edges of `other`; the predicted polygons are optional (null).
void one_way(const WorldPolygon& owner, const WorldPolygon* owner_predicted, int owner_id,
             const WorldPolygon& other, const WorldPolygon* other_predicted, int other_id,
             Real epsilon, ProximityRule rule, bool behind, std::vector<Contact>& out) {
  const bool swept = owner_predicted != nullptr && rule == ProximityRule::kSwept;
  const int nv = static_cast<int>(owner.vertices.size());
  const int ne = static_cast<int>(other.vertices.size());
  for (int i = 0; i < nv; ++i) {
    const Vec2& v = owner.vertices[i];
    const bool now_near = near_box(v, other.aabb, epsilon);
    const bool later_near = owner_predicted != nullptr &&
                            near_box(owner_predicted->vertices[i], other_predicted->aabb, epsilon);
    // A fast vertex may cross the other body between the two configurations.
    const bool path_near = swept && [&] {
      Aabb2 path{v.cwiseMin(owner_predicted->vertices[i]),
                 v.cwiseMax(owner_predicted->vertices[i])};
      return path.overlaps(other.aabb.inflated(epsilon)) ||
             path.overlaps(other_predicted->aabb.inflated(epsilon));
    }();
    if (!now_near && !later_near && !path_near) continue;
    // A vertex deeper than ε inside `other` (no edge within ε) still gets its exit edge, so that
    // the overlap is constrained and pushed out (docs/collision.md "Narrow phase").
    int exit = -1;
    if (now_near && !(deepest_edge(other, v, exit) < -epsilon)) exit = -1;
    for (int j = 0; j < ne; ++j) {
      const int j1 = j + 1 == ne ? 0 : j + 1;
      const Vec2& tail = other.vertices[j];
      const Real distance = point_segment_distance(v, tail, other.vertices[j1]);
      bool potential = distance <= epsilon || j == exit;
      if (!potential && !behind && other.edge_normals[j].dot(v - tail) < -epsilon) continue;
      if (!potential && swept) {
        potential =
            swept_distance(v, owner_predicted->vertices[i], tail, other.vertices[j1],
                           other_predicted->vertices[j], other_predicted->vertices[j1]) <= epsilon;
      } else if (!potential && later_near) {
        potential =
            point_segment_distance(owner_predicted->vertices[i], other_predicted->vertices[j],
                                   other_predicted->vertices[j1]) <= epsilon;
      }
      if (!potential) continue;
      out.push_back(
          vertex_edge_contact(owner_id, i, v, other_id, j, tail, other.edge_normals[j], distance));
    }
  }
}

}  // namespace

Contact vertex_edge_contact(int body_a, int vertex, const Vec2& v, int body_b, int edge,
                            const Vec2& tail, const Vec2& eta, Real distance) {
  Contact c;
  c.body_a = body_a;
  c.body_b = body_b;
  c.type = ContactType::kVertexEdge;
  c.feature_a = vertex;
  c.feature_b = edge;
  c.point_a = Vec3(v.x(), v.y(), 0);
  c.normal = Vec3(-eta.x(), -eta.y(), 0);  // n̂ = −η̂_b (docs/collision.md)
  c.gap = eta.dot(v - tail);               // ψ to the edge's line
  c.distance = distance;
  return c;
}

void vertex_edge_contacts(const WorldPolygon& a, int body_a, const WorldPolygon& b, int body_b,
                          Real epsilon, std::vector<Contact>& out) {
  check_epsilon(epsilon);
  one_way(a, nullptr, body_a, b, nullptr, body_b, epsilon, ProximityRule::kCurrent, true, out);
  one_way(b, nullptr, body_b, a, nullptr, body_a, epsilon, ProximityRule::kCurrent, true, out);
}

void vertex_edge_contacts(const WorldPolygon& a, const WorldPolygon& a_predicted, int body_a,
                          const WorldPolygon& b, const WorldPolygon& b_predicted, int body_b,
                          Real epsilon, ProximityRule rule, std::vector<Contact>& out,
                          bool behind) {
  check_epsilon(epsilon);
  if (a_predicted.vertices.size() != a.vertices.size() ||
      b_predicted.vertices.size() != b.vertices.size()) {
    throw InputError(
        "vertex_edge_contacts: a predicted polygon has a different vertex count from the current "
        "one (body " +
        std::to_string(a_predicted.vertices.size() != a.vertices.size() ? body_a : body_b) + ")");
  }
  one_way(a, &a_predicted, body_a, b, &b_predicted, body_b, epsilon, rule, behind, out);
  one_way(b, &b_predicted, body_b, a, &a_predicted, body_a, epsilon, rule, behind, out);
}

}  // namespace exactsim
