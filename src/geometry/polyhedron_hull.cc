// Convex hull of a point set as a polyhedron with true planar faces (docs/geometry3d.md
// "Conventions" and "The planar-face decision"): qhull's triangulated hull, coplanar triangles
// merged into faces, redundant (face- or edge-interior) vertices removed by re-hulling.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"

extern "C" {
#include "libqhull_r/qhull_ra.h"
}

namespace exactsim {
namespace {

[[noreturn]] void fail_hull(const std::string& what) {
  throw InputError("polyhedron_from_points: " + what);
}

struct Triangle {
  int v[3];     // indices into the point list, CCW seen from outside
  Vec3 normal;  // qhull's outward unit normal (shared by the triangles of one qhull facet)
  Real offset;  // normal · x = offset
};

// qhull ("Qt": triangulated output, default precision merging) on the selected points.
std::vector<Triangle> qhull_triangles(std::span<const Vec3> points, const std::vector<int>& ids) {
  std::vector<coordT> coords;
  coords.reserve(3 * ids.size());
  for (int i : ids) coords.insert(coords.end(), {points[i].x(), points[i].y(), points[i].z()});

  char* message = nullptr;
  size_t message_size = 0;
  FILE* err = open_memstream(&message, &message_size);
  qhT qh_struct;
  qhT* qh = &qh_struct;
  qh_zero(qh, err);
  char command[] = "qhull Qt";
  const int exitcode = qh_new_qhull(qh, 3, static_cast<int>(ids.size()), coords.data(), False,
                                    command, nullptr, err);
  std::vector<Triangle> triangles;
  if (exitcode == 0) {
    facetT* facet;
    FORALLfacets {
      if (!facet->simplicial || qh_setsize(qh, facet->vertices) != 3) continue;
      int v[3];
      for (int k = 0; k < 3; ++k)
        v[k] = ids[qh_pointid(qh, static_cast<vertexT*>(facet->vertices->e[k].p)->point)];
      // qhull's simplicial orientation: vertices (1, 0, 2) are counter-clockwise seen from
      // outside when the facet has top orientation, (0, 1, 2) otherwise (qh_facet3vertex with
      // qh_ORIENTclock = 0 lists them clockwise).
      if (facet->toporient) std::swap(v[0], v[1]);
      Triangle t{{v[0], v[1], v[2]},
                 Vec3(facet->normal[0], facet->normal[1], facet->normal[2]),
                 -facet->offset};
      triangles.push_back(t);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (err) std::fclose(err);  // (qhull falls back to stderr if open_memstream failed)
  std::string text = message ? std::string(message, message_size) : std::string();
  std::free(message);
  if (exitcode != 0) {
    // Degenerate inputs are rejected before qhull runs; reaching this is a precision failure.
    fail_hull("qhull failed (exit code " + std::to_string(exitcode) + "): " + text.substr(0, 400));
  }
  return triangles;
}

// Union–find over triangles with the running plane of each cluster.
struct Clusters {
  std::vector<int> parent;
  std::vector<Vec3> area;               // Σ area vectors (twice the area)
  std::vector<Vec3> moment;             // Σ |area| · centroid
  std::vector<Real> weight;             // Σ |area|
  std::vector<std::vector<int>> verts;  // vertex ids of the cluster (root only)
  std::vector<Vec3> fallback_normal;    // qhull's normal, for all-degenerate clusters
  std::vector<Vec3> fallback_point;

  int find(int t) {
    while (parent[t] != t) t = parent[t] = parent[parent[t]];
    return t;
  }
  std::pair<Vec3, Vec3> plane(int r) const {  // (unit normal, point on the plane)
    const Real a = area[r].norm();
    if (a > 0 && weight[r] > 0) return {area[r] / a, moment[r] / weight[r]};
    return {fallback_normal[r], fallback_point[r]};
  }
};

struct HullFaces {
  std::vector<std::vector<int>> loops;  // point ids, CCW from outside
  std::vector<int> redundant;           // hull vertices on fewer than 3 faces
};

HullFaces merge_coplanar(std::span<const Vec3> points, const std::vector<Triangle>& tris,
                         Real tol) {
  const int nt = static_cast<int>(tris.size());
  Clusters c;
  c.parent.resize(nt);
  std::iota(c.parent.begin(), c.parent.end(), 0);
  for (const Triangle& t : tris) {
    const Vec3 &a = points[t.v[0]], &b = points[t.v[1]], &d = points[t.v[2]];
    const Vec3 av = (b - a).cross(d - a);
    c.area.push_back(av);
    c.weight.push_back(av.norm());
    c.moment.push_back(av.norm() * (a + b + d) / 3);
    std::vector<int> sorted{t.v[0], t.v[1], t.v[2]};  // sorted: clusters merge by set_union
    std::sort(sorted.begin(), sorted.end());
    c.verts.push_back(std::move(sorted));
    c.fallback_normal.push_back(t.normal);
    c.fallback_point.push_back(a);
  }

  // Half-edge → triangle, and candidate merges across each undirected edge.
  std::map<std::pair<int, int>, int> half_edge;
  for (int t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) half_edge[{tris[t].v[k], tris[t].v[(k + 1) % 3]}] = t;
  struct Candidate {
    Real flatness;
    int t, u;
  };
  std::vector<Candidate> candidates;
  for (int t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = tris[t].v[k], b = tris[t].v[(k + 1) % 3];
      if (a > b) continue;
      const auto it = half_edge.find({b, a});
      if (it == half_edge.end())
        fail_hull("numerically degenerate points: qhull's surface is open");
      const int u = it->second;
      Real flatness = 0;
      for (int q = 0; q < 3; ++q) {
        flatness =
            std::max(flatness, std::abs(tris[t].normal.dot(points[tris[u].v[q]]) - tris[t].offset));
        flatness =
            std::max(flatness, std::abs(tris[u].normal.dot(points[tris[t].v[q]]) - tris[u].offset));
      }
      if (flatness <= tol) candidates.push_back({flatness, t, u});
    }
  // Flattest first, and a merge only if the whole union stays within tol of its own plane:
  // chains of almost-flat facets cannot drift into a curved "face".
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.flatness < y.flatness; });
  for (const Candidate& m : candidates) {
    const int r = c.find(m.t), s = c.find(m.u);
    if (r == s) continue;
    Vec3 area = c.area[r] + c.area[s];
    Vec3 normal, point;
    if (area.norm() > 0 && c.weight[r] + c.weight[s] > 0) {
      normal = area.normalized();
      point = (c.moment[r] + c.moment[s]) / (c.weight[r] + c.weight[s]);
    } else {
      normal = c.fallback_normal[r];
      point = c.fallback_point[r];
    }
    bool planar = true;
    for (int rs : {r, s})
      for (int v : c.verts[rs]) planar = planar && std::abs(normal.dot(points[v] - point)) <= tol;
    if (!planar) continue;
    c.parent[s] = r;
    c.area[r] = area;
    c.moment[r] += c.moment[s];
    c.weight[r] += c.weight[s];
    std::vector<int> merged;
    std::set_union(c.verts[r].begin(), c.verts[r].end(), c.verts[s].begin(), c.verts[s].end(),
                   std::back_inserter(merged));
    c.verts[r] = std::move(merged);
    c.verts[s].clear();
    c.verts[s].shrink_to_fit();
  }

  // Faces: the boundary of each cluster, walked along half-edges whose twin lies elsewhere.
  std::map<int, std::vector<std::pair<int, int>>> boundary;  // root → half-edges (a, b)
  std::map<int, std::vector<int>> clusters_at;               // vertex → cluster roots
  for (int t = 0; t < nt; ++t) {
    const int r = c.find(t);
    for (int k = 0; k < 3; ++k) {
      const int a = tris[t].v[k], b = tris[t].v[(k + 1) % 3];
      clusters_at[a].push_back(r);
      if (c.find(half_edge.at({b, a})) != r) boundary[r].emplace_back(a, b);
    }
  }
  HullFaces out;
  for (auto& [v, roots] : clusters_at) {
    std::sort(roots.begin(), roots.end());
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    if (roots.size() < 3) out.redundant.push_back(v);
  }
  if (!out.redundant.empty()) return out;
  for (auto& [r, half_edges] : boundary) {
    std::map<int, int> next;
    for (const auto& [a, b] : half_edges)
      if (!next.emplace(a, b).second)
        fail_hull("numerically degenerate points: a merged face is not a simple polygon");
    std::vector<int> loop{next.begin()->first};
    while (static_cast<int>(loop.size()) <= static_cast<int>(next.size())) {
      const auto it = next.find(loop.back());
      if (it == next.end())
        fail_hull("numerically degenerate points: a merged face's boundary is open");
      if (it->second == loop.front()) break;
      loop.push_back(it->second);
    }
    if (loop.size() != next.size())
      fail_hull("numerically degenerate points: a merged face has several boundary loops");
    out.loops.push_back(std::move(loop));
  }
  return out;
}

}  // namespace

ConvexPolyhedron polyhedron_from_points(std::span<const Vec3> points,
                                        const PolyhedronHullOptions& options) {
  if (!(options.relative_tolerance > 0 && options.relative_tolerance < 1e-2))
    fail_hull("relative_tolerance must be in (0, 0.01)");
  if (!std::isfinite(options.flat_threshold)) fail_hull("flat_threshold must be finite");
  const int n = static_cast<int>(points.size());
  if (n < 4) fail_hull("fewer than 4 points (got " + std::to_string(n) + ")");
  for (int i = 0; i < n; ++i)
    if (!points[i].allFinite())
      fail_hull("point " + std::to_string(i) + " has a NaN or infinite coordinate");

  Aabb3 box = bounding_box(points);
  const Real scale = std::max((box.hi - box.lo).norm(),
                              std::max(box.lo.cwiseAbs().maxCoeff(), box.hi.cwiseAbs().maxCoeff()));
  const Real tol = options.relative_tolerance * scale;

  // Duplicates (closer than tol to an earlier point) are dropped; sweep along x.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int i, int j) { return points[i].x() < points[j].x(); });
  std::vector<char> duplicate(n, 0);
  for (int a = 0; a < n; ++a) {
    if (duplicate[order[a]]) continue;
    for (int b = a + 1; b < n && points[order[b]].x() - points[order[a]].x() <= tol; ++b)
      if ((points[order[b]] - points[order[a]]).norm() <= tol)
        duplicate[std::max(order[a], order[b])] = 1;  // keep the earlier input point
  }
  std::vector<int> ids;
  for (int i = 0; i < n; ++i)
    if (!duplicate[i]) ids.push_back(i);

  // Degeneracy, with the same tolerance the face merge uses.
  const Vec3 p0 = points[ids[0]];
  auto farthest = [&](auto&& dist) {
    int best = ids[0];
    Real d = -1;
    for (int i : ids)
      if (dist(points[i]) > d) d = dist(points[i]), best = i;
    return std::pair{best, d};
  };
  const auto [i1, d1] = farthest([&](const Vec3& p) { return (p - p0).norm(); });
  if (d1 <= tol) fail_hull("all points coincide");
  const Vec3 u = (points[i1] - p0).normalized();
  const auto [i2, d2] = farthest([&](const Vec3& p) { return (p - p0).cross(u).norm(); });
  if (d2 <= tol) fail_hull("all points are collinear");
  const Vec3 w = u.cross(points[i2] - p0).normalized();
  const auto [i3, d3] = farthest([&](const Vec3& p) { return std::abs((p - p0).dot(w)); });
  if (d3 <= tol) fail_hull("all points are coplanar");

  // Hull, merge, drop redundant vertices, repeat: each pass removes at least one point, and a
  // removed point lies within tol of the faces of the remaining hull.
  for (int pass = 0; pass < 64; ++pass) {
    const std::vector<Triangle> tris = qhull_triangles(points, ids);
    HullFaces faces = merge_coplanar(points, tris, tol);
    if (faces.redundant.empty()) {
      // Vertices in input order; loops start at their smallest index; faces sorted.
      std::vector<int> used;
      for (const auto& loop : faces.loops) used.insert(used.end(), loop.begin(), loop.end());
      std::sort(used.begin(), used.end());
      used.erase(std::unique(used.begin(), used.end()), used.end());
      std::vector<Vec3> vertices;
      std::map<int, int> index;
      for (int id : used) {
        index[id] = static_cast<int>(vertices.size());
        vertices.push_back(points[id]);
      }
      for (auto& loop : faces.loops) {
        for (int& v : loop) v = index.at(v);
        std::rotate(loop.begin(), std::min_element(loop.begin(), loop.end()), loop.end());
      }
      std::sort(faces.loops.begin(), faces.loops.end());
      // The fitted face planes may tilt by ~tol across a merged face: validate with margin.
      return polyhedron_from_faces(std::move(vertices), faces.loops, options.flat_threshold,
                                   4 * options.relative_tolerance);
    }
    std::vector<int> keep;
    for (int id : ids) {
      bool on_hull = false;
      for (const Triangle& t : tris)
        on_hull = on_hull || t.v[0] == id || t.v[1] == id || t.v[2] == id;
      if (on_hull && !std::binary_search(faces.redundant.begin(), faces.redundant.end(), id))
        keep.push_back(id);
    }
    ids = std::move(keep);
    // Coordinates spanning many orders of magnitude can pass the degeneracy checks above and
    // still leave every point within tol of the faces of the others.
    if (ids.size() < 4)
      fail_hull("the points are coplanar within the hull tolerance " + short_number(tol) +
                " (coordinates spanning many orders of magnitude?)");
  }
  fail_hull(
      "the hull did not settle within 64 passes of redundant-vertex removal (the points are "
      "numerically degenerate at tolerance " +
      short_number(tol) + ")");
}

}  // namespace exactsim
