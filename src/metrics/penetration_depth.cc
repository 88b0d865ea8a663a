// Exact penetration depth (docs/penetration.md): the minimum over the face normals of the
// Minkowski difference A − B of the projection overlap s(d) = max_A d·x − min_B d·x.
#include "exactsim/metrics/penetration_depth.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "exactsim/metrics/collider_pair.h"

namespace exactsim {
namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();

// The running minimum over candidate directions, with early out on a separating axis.
struct Best {
  PenetrationResult r;
  bool separated = false;

  explicit Best(int dimension) {
    r.depth = kInf;
    r.dimension = static_cast<std::uint8_t>(dimension);
  }
  // Offers candidate direction d with overlap s. Returns true when d separates (s ≤ 0).
  bool offer(Real s, const Vec3& d, PenetrationFeature f, int fa, int fb) {
    if (s < r.depth || s <= 0) {
      r.depth = s;
      r.direction = d;
      r.feature = f;
      r.feature_a = fa;
      r.feature_b = fb;
    }
    if (s <= 0) separated = true;
    return separated;
  }
  PenetrationResult finish() {
    if (r.feature == PenetrationFeature::kNone)
      return PenetrationResult{0, Vec3::Zero(), false, r.dimension};
    r.overlapping = !separated;
    if (separated) r.depth = 0;
    return r;
  }
};

template <class V>
void project(std::span<const V> points, const V& d, Real& lo, Real& hi) {
  lo = kInf;
  hi = -kInf;
  for (const V& p : points) {
    const Real t = d.dot(p);
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
}

template <class V>
Real max_projection(std::span<const V> points, const V& d) {
  Real hi = -kInf;
  for (const V& p : points) hi = std::max(hi, d.dot(p));
  return hi;
}

template <class V>
Real min_projection(std::span<const V> points, const V& d) {
  Real lo = kInf;
  for (const V& p : points) lo = std::min(lo, d.dot(p));
  return lo;
}

void world_edges(const ConvexPolyhedron& shape, const WorldPolyhedron& w, std::vector<Vec3>& edge,
                 std::vector<Vec3>& cross) {
  const int ne = shape.num_edges();
  edge.resize(ne);
  cross.resize(ne);
  for (int e = 0; e < ne; ++e) {
    const PolyhedronEdge& pe = shape.edges[e];
    edge[e] = w.vertices[pe.head] - w.vertices[pe.tail];
    // Arc of the edge on the Gauss map: from η̂_f1 to η̂_f2 (for B: of −B, from −η̂_f1 to −η̂_f2;
    // the cross product of the two ends is the same for B and −B).
    cross[e] = w.face_normals[pe.face2].cross(w.face_normals[pe.face1]);
  }
}

}  // namespace

std::string describe_features(const PenetrationResult& r, std::string_view name_a,
                              std::string_view name_b) {
  const char* element = r.dimension == 2 ? "edge " : "face ";
  auto of = [](const char* what, int i, std::string_view name) {
    return std::string(what) + std::to_string(i) + " of " + std::string(name);
  };
  switch (r.feature) {
    case PenetrationFeature::kNone:
      return "none";
    case PenetrationFeature::kFaceA:
      return of(element, r.feature_a, name_a);
    case PenetrationFeature::kFaceB:
      return of(element, r.feature_b, name_b);
    case PenetrationFeature::kEdgeEdge:
      return of("edge ", r.feature_a, name_a) + " × " + of("edge ", r.feature_b, name_b);
    case PenetrationFeature::kSphere:
      if (r.feature_a >= 0)
        return "sphere " + std::string(name_b) + " at " + of(element, r.feature_a, name_a);
      if (r.feature_b >= 0)
        return "sphere " + std::string(name_a) + " at " + of(element, r.feature_b, name_b);
      return "spheres " + std::string(name_a) + " and " + std::string(name_b);
  }
  return "none";
}

PenetrationResult penetration_depth(const WorldPolygon& a, const WorldPolygon& b) {
  Best best(2);
  if (a.vertices.size() < 3 || b.vertices.size() < 3) return best.finish();
  const std::span<const Vec2> va(a.vertices), vb(b.vertices);
  for (int i = 0; i < static_cast<int>(a.edge_normals.size()); ++i) {
    const Vec2& n = a.edge_normals[i];
    const Real s = max_projection(va, n) - min_projection(vb, n);
    if (best.offer(s, Vec3(n.x(), n.y(), 0), PenetrationFeature::kFaceA, i, -1)) break;
  }
  if (!best.separated)
    for (int j = 0; j < static_cast<int>(b.edge_normals.size()); ++j) {
      const Vec2& m = b.edge_normals[j];  // direction −m: s = max_B m·x − min_A m·x
      const Real s = max_projection(vb, m) - min_projection(va, m);
      if (best.offer(s, Vec3(-m.x(), -m.y(), 0), PenetrationFeature::kFaceB, -1, j)) break;
    }
  return best.finish();
}

PenetrationResult penetration_depth(const ConvexPolyhedron& shape_a, const WorldPolyhedron& a,
                                    const ConvexPolyhedron& shape_b, const WorldPolyhedron& b,
                                    PenetrationScratch& scratch,
                                    const PenetrationOptions& options) {
  Best best(3);
  if (a.vertices.empty() || b.vertices.empty()) return best.finish();
  const std::span<const Vec3> va(a.vertices), vb(b.vertices);
  // Cheap estimates (face offsets, the edge–edge formula) only choose which candidates get the
  // exact projection; they may be off by the hull's planarity tolerance (1e-9 of the size), far
  // inside this margin. Every value offered is an exact projection overlap.
  const Real margin = 1e-7 * ((a.aabb.hi - a.aabb.lo).norm() + (b.aabb.hi - b.aabb.lo).norm());
  const auto promising = [&](Real estimate) { return estimate < best.r.depth + margin; };

  // Face normals of A, then the reversed face normals of B.
  const int fa = static_cast<int>(a.face_normals.size());
  const int fb = static_cast<int>(b.face_normals.size());
  for (int f = 0; f < fa; ++f) {
    const Vec3& n = a.face_normals[f];
    const Real lo_b = min_projection(vb, n);
    if (!promising(a.face_offsets[f] - lo_b)) continue;
    if (best.offer(max_projection(va, n) - lo_b, n, PenetrationFeature::kFaceA, f, -1))
      return best.finish();
  }
  for (int g = 0; g < fb; ++g) {
    const Vec3& m = b.face_normals[g];
    const Real lo_a = min_projection(va, m);
    if (!promising(b.face_offsets[g] - lo_a)) continue;
    if (best.offer(max_projection(vb, m) - lo_a, -m, PenetrationFeature::kFaceB, -1, g))
      return best.finish();
  }

  // Edge pairs: the candidate ±normalize(e_A × e_B), both signs from one exact projection.
  world_edges(shape_a, a, scratch.edge_a, scratch.cross_a);
  world_edges(shape_b, b, scratch.edge_b, scratch.cross_b);
  const int ea_count = shape_a.num_edges(), eb_count = shape_b.num_edges();
  const Real tol2 = options.parallel_tolerance * options.parallel_tolerance;
  const auto evaluate = [&](int i, int j, Vec3 d) {
    d.normalize();
    Real lo_a, hi_a, lo_b, hi_b;
    project(va, d, lo_a, hi_a);
    project(vb, d, lo_b, hi_b);
    const Real s_plus = hi_a - lo_b, s_minus = hi_b - lo_a;
    const bool plus = s_plus <= s_minus;
    return best.offer(plus ? s_plus : s_minus, plus ? d : Vec3(-d), PenetrationFeature::kEdgeEdge,
                      i, j);
  };
  if (options.all_edge_pairs) {
    for (int i = 0; i < ea_count; ++i)
      for (int j = 0; j < eb_count; ++j) {
        const Vec3 d = scratch.edge_a[i].cross(scratch.edge_b[j]);
        if (!(d.squaredNorm() >
              tol2 * scratch.edge_a[i].squaredNorm() * scratch.edge_b[j].squaredNorm()))
          continue;  // parallel (or degenerate)
        if (evaluate(i, j, d)) return best.finish();
      }
    return best.finish();
  }

  // Gauss-map arcs: edge i of A runs from a = η̂_f1 to b = η̂_f2, edge j of −B from c = −μ̂_g1 to
  // d = −μ̂_g2. The four triple products of the arc test are table look-ups: A's face normals
  // against each arc plane of B (side_a, row f contiguous in j) and −B's face normals against
  // the current arc plane of A (side_b); one combined, rarely true, branch per pair.
  scratch.side_a.resize(static_cast<std::size_t>(fa) * eb_count);
  scratch.side_b.resize(fb);
  scratch.face1_b.resize(eb_count);
  scratch.face2_b.resize(eb_count);
  for (int j = 0; j < eb_count; ++j) {
    scratch.face1_b[j] = shape_b.edges[j].face1;
    scratch.face2_b[j] = shape_b.edges[j].face2;
  }
  for (int f = 0; f < fa; ++f)
    for (int j = 0; j < eb_count; ++j)
      scratch.side_a[static_cast<std::size_t>(f) * eb_count + j] =
          a.face_normals[f].dot(scratch.cross_b[j]);
  const int* f1b = scratch.face1_b.data();
  const int* f2b = scratch.face2_b.data();
  for (int i = 0; i < ea_count; ++i) {
    const PolyhedronEdge& ea = shape_a.edges[i];
    Real* sb = scratch.side_b.data();
    for (int g = 0; g < fb; ++g) sb[g] = -b.face_normals[g].dot(scratch.cross_a[i]);
    const Real* row1 = &scratch.side_a[static_cast<std::size_t>(ea.face1) * eb_count];
    const Real* row2 = &scratch.side_a[static_cast<std::size_t>(ea.face2) * eb_count];
    for (int j = 0; j < eb_count; ++j) {
      const Real cba = sb[f1b[j]], dba = sb[f2b[j]], adc = row1[j], bdc = row2[j];
      const bool cross = (cba * dba < 0) & (adc * bdc < 0) & (cba * bdc > 0);
      if (!cross) [[likely]]
        continue;
      // A face of A − B: its normal d (oriented out of A at edge i) has A's support on edge i
      // and B's on edge j, so s(d) = d·(p_A − p_B).
      const Vec3& ua = scratch.edge_a[i];
      Vec3 d = ua.cross(scratch.edge_b[j]);
      const Real l2 = d.squaredNorm();
      if (!(l2 > tol2 * ua.squaredNorm() * scratch.edge_b[j].squaredNorm())) continue;
      d /= std::sqrt(l2);
      if (d.dot(a.face_normals[ea.face1] + a.face_normals[ea.face2]) < 0) d = -d;
      if (!promising(d.dot(a.vertices[ea.tail] - b.vertices[shape_b.edges[j].tail]))) continue;
      if (evaluate(i, j, d)) return best.finish();
    }
  }
  return best.finish();
}

// ---- Point in polytope ------------------------------------------------------------------------

Real interior_depth(const WorldPolygon& polygon, const Vec2& p) {
  int edge = -1;
  return -deepest_edge(polygon, p, edge);
}

Real interior_depth(const WorldPolyhedron& polyhedron, const Vec3& p) {
  int face = -1;
  return -deepest_face(polyhedron, p, face);
}

// ---- Scenes -----------------------------------------------------------------------------------

void ScenePenetration::clear() {
  max_depth = 0;
  max_a = max_b = -1;
  max_result = PenetrationResult{};
  pairs_checked = 0;
  deep_pairs.clear();
  centres_inside.clear();
}

namespace {

void record(ScenePenetration& out, int i, int j, const PenetrationResult& r, Real threshold) {
  ++out.pairs_checked;
  if (r.depth > out.max_depth || (r.depth == out.max_depth && r.depth > 0 &&
                                  std::pair(i, j) < std::pair(out.max_a, out.max_b))) {
    out.max_depth = r.depth;
    out.max_a = i;
    out.max_b = j;
    out.max_result = r;
  }
  if (r.depth > threshold) out.deep_pairs.push_back(PenetratingPair{i, j, r});
}

void check_centre(ScenePenetration& out, std::span<const std::uint8_t> is_static, int i, int j,
                  auto&& depth_of_centre_in) {
  // One of (i, j) dynamic and the other static: is the dynamic one's centre inside?
  if (is_static[i] == is_static[j]) return;
  const int body = is_static[i] ? j : i, wall = is_static[i] ? i : j;
  const Real d = depth_of_centre_in(body, wall);
  if (d > 0) out.centres_inside.push_back(CentreInsideStatic{body, wall, d});
}

void finish(ScenePenetration& out) {
  std::sort(out.deep_pairs.begin(), out.deep_pairs.end(), [](const auto& x, const auto& y) {
    return std::pair(x.body_a, x.body_b) < std::pair(y.body_a, y.body_b);
  });
  std::sort(out.centres_inside.begin(), out.centres_inside.end(), [](const auto& x, const auto& y) {
    return std::pair(x.body, x.static_body) < std::pair(y.body, y.static_body);
  });
}

}  // namespace

void scene_penetration(std::span<const WorldPolygon> polygons, std::span<const Vec2> centres,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::pair<int, int>> pairs, Real threshold,
                       ScenePenetration& out) {
  out.clear();
  for (const auto& [i, j] : pairs) {
    record(out, i, j, penetration_depth(polygons[i], polygons[j]), threshold);
    check_centre(out, is_static, i, j,
                 [&](int body, int wall) { return interior_depth(polygons[wall], centres[body]); });
  }
  finish(out);
}

void scene_penetration(std::span<const ConvexPolyhedron* const> shapes,
                       std::span<const WorldPolyhedron> placed, std::span<const Pose3> poses,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::pair<int, int>> pairs, Real threshold,
                       PenetrationScratch& scratch, ScenePenetration& out,
                       const PenetrationOptions& options, std::span<const Vec3> centres,
                       std::span<const Real> radius) {
  out.clear();
  auto collider = [&](int i) {
    return placed_collider(shapes[i], placed[i], radius.empty() ? 0 : radius[i]);
  };
  for (const auto& [i, j] : pairs) {
    record(out, i, j, penetration_depth(collider(i), collider(j), scratch, options), threshold);
    check_centre(out, is_static, i, j, [&](int body, int wall) {
      return interior_depth(collider(wall), centres.empty() ? poses[body].position : centres[body]);
    });
  }
  finish(out);
}

void scene_penetration(std::span<const WorldPolygon> polygons, std::span<const Vec2> centres,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::uint8_t> present, Real threshold,
                       PenetrationScratch& scratch, ScenePenetration& out) {
  scratch.boxes2.resize(polygons.size());
  for (std::size_t i = 0; i < polygons.size(); ++i) scratch.boxes2[i] = polygons[i].aabb;
  overlapping_box_pairs<Aabb2>(scratch.boxes2, is_static, present, scratch.sweep, scratch.pairs);
  scene_penetration(polygons, centres, is_static,
                    std::span<const std::pair<int, int>>(scratch.pairs), threshold, out);
}

void scene_penetration(std::span<const ConvexPolyhedron* const> shapes,
                       std::span<const WorldPolyhedron> placed, std::span<const Pose3> poses,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::uint8_t> present, Real threshold,
                       PenetrationScratch& scratch, ScenePenetration& out,
                       const PenetrationOptions& options) {
  scratch.boxes3.resize(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) scratch.boxes3[i] = placed[i].aabb;
  overlapping_box_pairs<Aabb3>(scratch.boxes3, is_static, present, scratch.sweep, scratch.pairs);
  scene_penetration(shapes, placed, poses, is_static,
                    std::span<const std::pair<int, int>>(scratch.pairs), threshold, scratch, out,
                    options);
}

}  // namespace exactsim
