#include "exactsim/contact/peg_applicability.h"

#include <algorithm>
#include <string>

#include "exactsim/math/error.h"

namespace exactsim {

// APPL_ve (docs/peg.md "Algorithm" step 1).
Real vertex_edge_applicability(const WorldPolygon& owner, int vertex, const Vec2& edge_normal) {
  const int n = static_cast<int>(owner.vertices.size());
  if (vertex < 0 || vertex >= n) {
    throw InputError("vertex_edge_applicability: vertex " + std::to_string(vertex) +
                     " out of range for a polygon of " + std::to_string(n) + " vertices");
  }
  const Vec2& v = owner.vertices[vertex];
  const Vec2& prev = owner.vertices[vertex == 0 ? n - 1 : vertex - 1];
  const Vec2& next = owner.vertices[vertex + 1 == n ? 0 : vertex + 1];
  return std::min(edge_normal.dot((prev - v).normalized()),
                  edge_normal.dot((next - v).normalized()));
}

void vertex_edge_applicability(std::span<const WorldPolygon> polygons,
                               std::span<const Contact> contacts, std::vector<Real>& out) {
  const int nb = static_cast<int>(polygons.size());
  out.resize(contacts.size());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    // (the message is built only on failure: this loop runs every step and must not allocate)
    auto fail = [&](const std::string& why) {
      throw InputError("vertex_edge_applicability: contact " + std::to_string(i) + why);
    };
    if (c.type != ContactType::kVertexEdge) fail(" is not vertex-edge");
    if (c.body_a < 0 || c.body_a >= nb || c.body_b < 0 || c.body_b >= nb)
      fail(" names a body without a polygon");
    const WorldPolygon& edge_owner = polygons[c.body_b];
    if (c.feature_b < 0 || c.feature_b >= static_cast<int>(edge_owner.edge_normals.size()))
      fail(" names edge " + std::to_string(c.feature_b) + " outside its polygon");
    out[i] = vertex_edge_applicability(polygons[c.body_a], c.feature_a,
                                       edge_owner.edge_normals[c.feature_b]);
  }
}

}  // namespace exactsim
