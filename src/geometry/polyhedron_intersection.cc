// Exact intersection volume of two placed convex polyhedra (the 3D overlap metric,
// docs/peg3d-experiment.md "Metric and statistics"): A, as a mesh of planar face loops in B's
// frame, is clipped by each face plane of B; each face by Sutherland–Hodgman with shared per-vertex
// classification and shared cut points, the cap closed from the half-edges left unmatched on the
// plane. The volume is the divergence theorem over the final faces. See docs/geometry3d.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

// Vertices within this fraction of the problem's scale of a plane count as on it: merely
// touching shapes (round-off in the relative pose included) intersect in exactly 0.
constexpr Real kOnPlaneRelativeTolerance = 1e-12;

void check_pose(const Pose3& pose, const char* name) {
  if (!pose.position.allFinite() || !pose.orientation.coeffs().allFinite())
    throw InputError(std::string("polyhedron_intersection_volume: pose ") + name +
                     " is not finite");
  if (std::abs(pose.orientation.squaredNorm() - 1) > 1e-6)
    throw InputError(std::string("polyhedron_intersection_volume: pose ") + name +
                     " has a non-unit quaternion");
}

Real radius(const ConvexPolyhedron& p) {
  Real r = 0;
  for (const Vec3& v : p.vertices) r = std::max(r, v.squaredNorm());
  return std::sqrt(r);
}

// Signed side of each vertex of the current polytope: −1 strictly inside (n·x − d < −eps),
// +1 strictly outside, 0 on the plane. Returns (number inside, number outside).
std::pair<int, int> classify(IntersectionScratch& s, const Vec3& n, Real d, Real eps) {
  const size_t nv = s.vertices.size();
  s.distance.resize(nv);
  s.side.resize(nv);
  int inside = 0, outside = 0;
  for (size_t i = 0; i < nv; ++i) {
    const Real dist = n.dot(s.vertices[i]) - d;
    s.distance[i] = dist;
    s.side[i] = dist > eps ? 1 : (dist < -eps ? -1 : 0);
    inside += s.side[i] < 0;
    outside += s.side[i] > 0;
  }
  return {inside, outside};
}

// Keeps the part of the current polytope with n·x ≤ d (after classify found vertices on both
// sides). Returns false if no face is left.
bool clip(IntersectionScratch& s) {
  const size_t nv = s.vertices.size();
  s.next_vertices.clear();
  s.next_on_plane.clear();
  s.remap.assign(nv, -1);
  s.cut_edges.clear();
  s.open_edges.clear();
  s.next_face_start.clear();
  s.next_face_index.clear();
  s.next_face_start.push_back(0);

  const auto keep = [&](int v) {
    if (s.remap[v] < 0) {
      s.remap[v] = static_cast<int>(s.next_vertices.size());
      s.next_vertices.push_back(s.vertices[v]);
      s.next_on_plane.push_back(s.side[v] == 0);
    }
    return s.remap[v];
  };
  // One cut point per edge, computed from the lower index so both faces get the same point.
  const auto cut = [&](int p, int q) {
    const int lo = std::min(p, q), hi = std::max(p, q);
    for (size_t k = 0; k < s.cut_edges.size(); k += 3)
      if (s.cut_edges[k] == lo && s.cut_edges[k + 1] == hi) return s.cut_edges[k + 2];
    // Strictly opposite sides: |distance[lo] − distance[hi]| > 2 eps, never 0/0.
    const Real t = s.distance[lo] / (s.distance[lo] - s.distance[hi]);
    const int id = static_cast<int>(s.next_vertices.size());
    s.next_vertices.push_back(s.vertices[lo] + t * (s.vertices[hi] - s.vertices[lo]));
    s.next_on_plane.push_back(1);
    s.cut_edges.insert(s.cut_edges.end(), {lo, hi, id});
    return id;
  };

  const size_t nf = s.face_start.size() - 1;
  for (size_t f = 0; f < nf; ++f) {
    const int begin = s.face_start[f], k = s.face_start[f + 1] - begin;
    const size_t start = s.next_face_index.size();
    bool any_inside = false, any_on_plane = false;
    for (int i = 0; i < k; ++i) {
      const int p = s.face_index[begin + i], q = s.face_index[i + 1 < k ? begin + i + 1 : begin];
      const int sp = s.side[p], sq = s.side[q];
      if (sp <= 0) s.next_face_index.push_back(keep(p));
      if (sp * sq < 0) s.next_face_index.push_back(cut(p, q));
      any_inside = any_inside || sp < 0;
      any_on_plane = any_on_plane || sp >= 0;  // an on vertex, or an out vertex (cut points)
    }
    const size_t count = s.next_face_index.size() - start;
    // A face with no vertex strictly inside keeps at most a piece of the plane: the cap covers it.
    if (!any_inside || count < 3) {
      s.next_face_index.resize(start);
      continue;
    }
    if (any_on_plane) {
      for (size_t i = 0; i < count; ++i) {
        const int u = s.next_face_index[start + i];
        const int w = s.next_face_index[i + 1 < count ? start + i + 1 : start];
        if (s.next_on_plane[u] && s.next_on_plane[w])
          s.open_edges.insert(s.open_edges.end(), {u, w});
      }
    }
    s.next_face_start.push_back(static_cast<int>(s.next_face_index.size()));
  }

  // Half-edges on the plane whose twin was kept are interior; the rest bound the hole that the
  // cap closes (reversed). Every kept face is a closed loop, so the unmatched half-edges have
  // equal in- and out-degree at each vertex and always chain into closed loops.
  const size_t m = s.open_edges.size() / 2;
  for (size_t i = 0; i < m; ++i) {
    if (s.open_edges[2 * i] < 0) continue;
    for (size_t j = i + 1; j < m; ++j)
      if (s.open_edges[2 * j] == s.open_edges[2 * i + 1] &&
          s.open_edges[2 * j + 1] == s.open_edges[2 * i]) {
        s.open_edges[2 * i] = s.open_edges[2 * i + 1] = -1;
        s.open_edges[2 * j] = s.open_edges[2 * j + 1] = -1;
        break;
      }
  }
  for (size_t i = 0; i < m; ++i) {
    if (s.open_edges[2 * i] < 0) continue;
    // Cap edge = reversed half-edge (u → w becomes w → u).
    const size_t start = s.next_face_index.size();
    const int first = s.open_edges[2 * i + 1];
    int current = s.open_edges[2 * i];
    s.open_edges[2 * i] = s.open_edges[2 * i + 1] = -1;
    s.next_face_index.push_back(first);
    bool closed = true;
    while (current != first) {
      s.next_face_index.push_back(current);
      size_t j = i + 1;
      while (j < m && !(s.open_edges[2 * j] >= 0 && s.open_edges[2 * j + 1] == current)) ++j;
      if (j == m) {
        closed = false;
        break;
      }
      current = s.open_edges[2 * j];
      s.open_edges[2 * j] = s.open_edges[2 * j + 1] = -1;
    }
    if (!closed || s.next_face_index.size() - start < 3) {
      s.next_face_index.resize(start);
      continue;
    }
    s.next_face_start.push_back(static_cast<int>(s.next_face_index.size()));
  }

  s.vertices.swap(s.next_vertices);
  s.face_start.swap(s.next_face_start);
  s.face_index.swap(s.next_face_index);
  return s.face_start.size() > 1;
}

// Divergence theorem: the sum of signed tetrahedra from the vertex mean over fan triangles.
Real enclosed_volume(const IntersectionScratch& s) {
  Vec3 r = Vec3::Zero();
  for (const Vec3& v : s.vertices) r += v;
  r /= static_cast<Real>(s.vertices.size());
  Real six_volume = 0;
  for (size_t f = 0; f + 1 < s.face_start.size(); ++f) {
    const int begin = s.face_start[f], end = s.face_start[f + 1];
    const Vec3 a = s.vertices[s.face_index[begin]] - r;
    for (int i = begin + 1; i + 1 < end; ++i)
      six_volume +=
          a.dot((s.vertices[s.face_index[i]] - r).cross(s.vertices[s.face_index[i + 1]] - r));
  }
  return six_volume / 6;
}

}  // namespace

Real max_face_distance(const ConvexPolyhedron& polyhedron, const Vec3& p) {
  Real d = -std::numeric_limits<Real>::infinity();
  for (const PolyhedronFace& f : polyhedron.faces) d = std::max(d, f.normal.dot(p) - f.offset);
  return d;
}

Real polyhedron_intersection_volume(const ConvexPolyhedron& a, const Pose3& pa,
                                    const ConvexPolyhedron& b, const Pose3& pb,
                                    IntersectionPolyhedron* out, IntersectionScratch* scratch) {
  check_pose(pa, "A");
  check_pose(pb, "B");
  if (out) {
    out->vertices.clear();
    out->faces.clear();
  }
  if (a.vertices.empty() || b.vertices.empty()) return 0;
  IntersectionScratch local;
  IntersectionScratch& s = scratch ? *scratch : local;

  // Everything in B's body frame: x_B = R x_A + t.
  const Mat3 Rb = pb.orientation.toRotationMatrix();
  const Mat3 R = Rb.transpose() * pa.orientation.toRotationMatrix();
  const Vec3 t = Rb.transpose() * (pa.position - pb.position);
  const Real eps = kOnPlaneRelativeTolerance * (radius(a) + radius(b) + t.norm());

  s.vertices.resize(a.vertices.size());
  for (size_t i = 0; i < a.vertices.size(); ++i) s.vertices[i] = R * a.vertices[i] + t;

  // Separating face planes of either body (all of the other's vertices on or outside): 0.
  // B's planes that cut A are clipped deepest cut first: the polytope shrinks early and the
  // later passes have less to do.
  s.planes.clear();
  for (int f = 0; f < b.num_faces(); ++f) {
    const PolyhedronFace& face = b.faces[f];
    Real lowest = std::numeric_limits<Real>::infinity(), highest = -lowest;
    for (const Vec3& v : s.vertices) {
      const Real d = face.normal.dot(v) - face.offset;
      lowest = std::min(lowest, d);
      highest = std::max(highest, d);
    }
    if (lowest >= -eps) return 0;
    if (highest > eps) s.planes.emplace_back(highest, f);
  }
  std::sort(s.planes.begin(), s.planes.end(), [](const auto& x, const auto& y) {
    return x.first > y.first || (x.first == y.first && x.second < y.second);
  });
  s.other_vertices.resize(b.vertices.size());
  for (size_t i = 0; i < b.vertices.size(); ++i)
    s.other_vertices[i] = R.transpose() * (b.vertices[i] - t);
  for (const PolyhedronFace& f : a.faces) {
    Real lowest = std::numeric_limits<Real>::infinity();
    for (const Vec3& v : s.other_vertices) lowest = std::min(lowest, f.normal.dot(v) - f.offset);
    if (lowest >= -eps) return 0;
  }

  s.face_start.assign(1, 0);
  s.face_index.clear();
  for (const PolyhedronFace& f : a.faces) {
    s.face_index.insert(s.face_index.end(), f.vertices.begin(), f.vertices.end());
    s.face_start.push_back(static_cast<int>(s.face_index.size()));
  }
  for (const auto& [depth, index] : s.planes) {
    const PolyhedronFace& f = b.faces[index];
    const auto [inside, outside] = classify(s, f.normal, f.offset, eps);
    if (outside == 0) continue;
    if (inside == 0 || !clip(s)) return 0;
  }

  // A sliver's volume can round to a tiny negative number; it is no overlap.
  const Real volume = std::max(enclosed_volume(s), Real{0});
  if (out && volume > 0) {
    for (const Vec3& v : s.vertices) out->vertices.push_back(Rb * v + pb.position);
    for (size_t f = 0; f + 1 < s.face_start.size(); ++f)
      out->faces.emplace_back(s.face_index.begin() + s.face_start[f],
                              s.face_index.begin() + s.face_start[f + 1]);
  }
  return volume;
}

}  // namespace exactsim
