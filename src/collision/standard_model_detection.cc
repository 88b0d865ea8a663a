#include "exactsim/collision/standard_model_detection.h"

#include "exactsim/collision/vertex_edge.h"

#include <cmath>
#include <string>

#include "exactsim/collision/closest_points.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

void one_way(const WorldPolygon& owner, int owner_id, const WorldPolygon& other, int other_id,
             const StandardModelDetectionOptions& o, std::vector<Contact>& out) {
  const int nv = static_cast<int>(owner.vertices.size());
  const int ne = static_cast<int>(other.vertices.size());
  for (int i = 0; i < nv; ++i) {
    const Vec2& v = owner.vertices[i];
    for (int j = 0; j < ne; ++j) {
      const Vec2& tail = other.vertices[j];
      const Vec2& head = other.vertices[j + 1 == ne ? 0 : j + 1];
      const Vec2& eta = other.edge_normals[j];
      const Real gap = eta.dot(v - tail);
      if (!(std::abs(gap) < o.gap_limit)) continue;
      const Vec2 e = head - tail;
      const Real length = e.norm();
      const Real s = e.dot(v - tail) / length;
      if (s < -o.projection_margin || s > length + o.projection_margin) continue;
      out.push_back(vertex_edge_contact(owner_id, i, v, other_id, j, tail, eta,
                                        point_segment_distance(v, tail, head)));
    }
  }
}

}  // namespace

void standard_model_vertex_edge_contacts(const WorldPolygon& a, int body_a, const WorldPolygon& b,
                                         int body_b, const StandardModelDetectionOptions& options,
                                         std::vector<Contact>& out) {
  if (!std::isfinite(options.gap_limit) || options.gap_limit < 0 ||
      !std::isfinite(options.projection_margin) || options.projection_margin < 0) {
    throw InputError(
        "standard_model_vertex_edge_contacts: gap_limit and projection_margin must be finite and "
        ">= 0");
  }
  one_way(a, body_a, b, body_b, options, out);
  one_way(b, body_b, a, body_a, options, out);
}

}  // namespace exactsim
