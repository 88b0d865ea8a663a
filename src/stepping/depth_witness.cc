// The depth witness row (docs/penetration.md "The depth witness"): a pair of polytopes whose exact
// penetration depth at the step's start is well beyond what its constraints see gets the feature
// pair of that depth as one more U.
#include "depth_witness.h"

#include <algorithm>

#include "exactsim/collision/closest_points.h"
#include "exactsim/collision/edge_edge.h"
#include "exactsim/collision/polyhedron_contacts.h"
#include "exactsim/collision/vertex_edge.h"
#include "exactsim/collision/vertex_face.h"
#include "exactsim/metrics/penetration_depth.h"

namespace exactsim {
namespace {

// Pairs whose deepest candidate contact (used or not) is less than kLook ε deep are not measured:
// resting contact, at round-off, costs no exact depth.
constexpr Real kLook = 0.01;
// The witness joins where the exact depth d exceeds twice the constraints' deepest overlap r and
// r + kMargin ε: a vertex inside by its own row's depth (d = r) changes nothing.
constexpr Real kMargin = 0.01;

std::pair<int, int> key(const Contact& c) { return std::minmax(c.body_a, c.body_b); }

// The vertex of `owner` deepest behind the plane n·x = offset (2D: a line).
template <class V>
int deepest_vertex(const std::vector<V>& vertices, const V& n, Real offset) {
  int best = 0;
  for (int i = 1; i < static_cast<int>(vertices.size()); ++i)
    if (n.dot(vertices[i]) - offset < n.dot(vertices[best]) - offset) best = i;
  return best;
}

bool same_features(const Contact& x, const Contact& y) {
  return x.body_a == y.body_a && x.body_b == y.body_b && x.type == y.type &&
         x.feature_a == y.feature_a && x.feature_b == y.feature_b;
}

// The witness of r (A = collider a): the vertex deepest behind the face (2D: edge) that the depth
// is measured against, or the two edges of a 3D edge–edge depth. False where there is none.
bool witness_2d(const Workspace& ws, int a, int b, const PenetrationResult& r, Contact& out) {
  const WorldPolygon& pa = ws.polygons[a];
  const WorldPolygon& pb = ws.polygons[b];
  const bool face_b = r.feature == PenetrationFeature::kFaceB;
  if (!face_b && r.feature != PenetrationFeature::kFaceA) return false;
  const WorldPolygon& owner = face_b ? pa : pb;
  const WorldPolygon& other = face_b ? pb : pa;
  const int edge = face_b ? r.feature_b : r.feature_a;
  const Vec2& tail = other.vertices[edge];
  const Vec2& eta = other.edge_normals[edge];
  const int v = deepest_vertex(owner.vertices, eta, eta.dot(tail));
  const Vec2& p = owner.vertices[v];
  const int ne = static_cast<int>(other.vertices.size());
  out = vertex_edge_contact(face_b ? a : b, v, p, face_b ? b : a, edge, tail, eta,
                            point_segment_distance(p, tail, other.vertices[(edge + 1) % ne]));
  return true;
}

bool witness_3d(const Workspace& ws, int a, int b, const PenetrationResult& r, Contact& out) {
  const ConvexPolyhedron& sa = *ws.shapes3[a];
  const ConvexPolyhedron& sb = *ws.shapes3[b];
  const WorldPolyhedron& wa = ws.polyhedra[a];
  const WorldPolyhedron& wb = ws.polyhedra[b];
  if (r.feature == PenetrationFeature::kFaceA || r.feature == PenetrationFeature::kFaceB) {
    const bool face_b = r.feature == PenetrationFeature::kFaceB;
    const WorldPolyhedron& owner = face_b ? wa : wb;
    const WorldPolyhedron& other = face_b ? wb : wa;
    const int face = face_b ? r.feature_b : r.feature_a;
    const int v =
        deepest_vertex(owner.vertices, other.face_normals[face], other.face_offsets[face]);
    out = vertex_face_contact(owner.vertices[v], face_b ? a : b, v, face_b ? sb : sa, other,
                              face_b ? b : a, face);
    return true;
  }
  if (r.feature != PenetrationFeature::kEdgeEdge) return false;
  if (!edge_edge_contact(sa, wa, a, r.feature_a, sb, wb, b, r.feature_b,
                         PolyhedronContactOptions{}.parallel_sine, out))
    return false;
  // Along the depth's direction (A → B): B leaves A by translating along it.
  if (out.normal.dot(r.direction) < 0) {
    out.normal = -out.normal;
    out.gap = -out.gap;
  }
  return true;
}

}  // namespace

int add_depth_witnesses(const World& world, Real eps, Workspace& ws) {
  ConstraintSet& set = ws.constraints;
  std::vector<WitnessPair>& pairs = ws.witness_pairs;
  pairs.clear();
  for (const Contact& c : set.contacts)
    if (c.type != ContactType::kSphere && c.gap < -kLook * eps) {
      const auto [a, b] = key(c);
      pairs.push_back(WitnessPair{a, b});
    }
  if (pairs.empty()) return 0;
  auto order = [](const WitnessPair& p) { return std::pair(p.a, p.b); };
  std::ranges::sort(pairs, {}, order);
  pairs.erase(
      std::unique(pairs.begin(), pairs.end(),
                  [&](const WitnessPair& x, const WitnessPair& y) { return order(x) == order(y); }),
      pairs.end());
  auto deepen = [&](const Contact& c, Real overlap) {
    const auto it = std::ranges::lower_bound(pairs, key(c), {}, order);
    if (it != pairs.end() && order(*it) == key(c)) it->row = std::max(it->row, overlap);
  };
  for (int u : set.unilateral) deepen(set.contacts[u], -set.contacts[u].gap);
  for (const IntercontactConstraint& ic : set.intercontacts) {
    Real gap = set.contacts[ic.primary].gap;
    for (int s = 0; s < ic.secondary_count; ++s)
      gap = std::max(gap, set.contacts[set.secondaries[ic.first_secondary + s]].gap);
    deepen(set.contacts[ic.primary], -gap);
  }
  int added = 0;
  for (const WitnessPair& p : pairs) {
    if (world.collider_kind(p.a) != ShapeKind::kPolytope ||
        world.collider_kind(p.b) != ShapeKind::kPolytope)
      continue;
    const PenetrationResult r =
        world.dimension == 2
            ? penetration_depth(ws.polygons[p.a], ws.polygons[p.b])
            : penetration_depth(*ws.shapes3[p.a], ws.polyhedra[p.a], *ws.shapes3[p.b],
                                ws.polyhedra[p.b], ws.penetration);
    if (!(r.depth > 2 * p.row && r.depth > p.row + kMargin * eps)) continue;
    Contact w;
    if (!(world.dimension == 2 ? witness_2d(ws, p.a, p.b, r, w) : witness_3d(ws, p.a, p.b, r, w)))
      continue;
    // A contact already among the candidates keeps its index; one inside an I stays there (a U
    // is never inside an I, docs/peg.md "Tricky cases" item 13).
    const auto found =
        std::ranges::find_if(set.contacts, [&](const Contact& c) { return same_features(c, w); });
    const int index = static_cast<int>(found - set.contacts.begin());
    if (found != set.contacts.end()) {
      const bool in_i = std::ranges::any_of(set.intercontacts,
                                            [&](const IntercontactConstraint& ic) {
                                              return ic.primary == index;
                                            }) ||
                        std::ranges::find(set.secondaries, index) != set.secondaries.end();
      if (in_i || std::ranges::binary_search(set.unilateral, index)) continue;
    } else {
      set.contacts.push_back(w);
    }
    set.unilateral.insert(std::ranges::upper_bound(set.unilateral, index), index);
    ++added;
  }
  return added;
}

}  // namespace exactsim
