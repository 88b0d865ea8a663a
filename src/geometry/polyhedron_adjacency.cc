// The polyhedron's feature structure from planar face loops: face planes, the edge table with
// t-vectors and O_e (docs/geometry3d.md "Conventions"), and the cyclic vertex adjacency.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw InputError("polyhedron_from_faces: " + what);
}

// Newell's method: the area vector of a planar loop, exact for any planar polygon and the
// least-squares-like normal when round-off leaves it slightly non-planar.
Vec3 newell_area_vector(const std::vector<Vec3>& v, const std::vector<int>& loop) {
  Vec3 sum = Vec3::Zero();
  const Vec3& o = v[loop[0]];  // relative to a corner: less cancellation than about the origin
  for (size_t i = 1; i + 1 < loop.size(); ++i) sum += (v[loop[i]] - o).cross(v[loop[i + 1]] - o);
  return 0.5 * sum;
}

}  // namespace

ConvexPolyhedron polyhedron_from_faces(std::vector<Vec3> vertices,
                                       const std::vector<std::vector<int>>& face_loops,
                                       Real flat_threshold, Real relative_tolerance) {
  ConvexPolyhedron p;
  const int nv = static_cast<int>(vertices.size());
  if (nv < 4) fail("fewer than 4 vertices");
  for (const Vec3& v : vertices)
    if (!v.allFinite()) fail("vertex coordinates must be finite");
  if (face_loops.size() < 4) fail("fewer than 4 faces");
  if (!std::isfinite(flat_threshold)) fail("flat threshold must be finite");
  if (!(relative_tolerance >= 0 && relative_tolerance < 1e-2))
    fail("relative tolerance must be in [0, 0.01)");
  p.vertices = std::move(vertices);

  // Faces and their planes.
  for (size_t f = 0; f < face_loops.size(); ++f) {
    const std::vector<int>& loop = face_loops[f];
    if (loop.size() < 3) fail("face " + std::to_string(f) + " has fewer than 3 vertices");
    for (size_t i = 0; i < loop.size(); ++i) {
      if (loop[i] < 0 || loop[i] >= nv)
        fail("face " + std::to_string(f) + " has an invalid vertex index");
      for (size_t j = 0; j < i; ++j)
        if (loop[j] == loop[i]) fail("face " + std::to_string(f) + " repeats a vertex");
    }
    const Vec3 area = newell_area_vector(p.vertices, loop);
    const Real norm = area.norm();
    if (!(norm > 0)) fail("face " + std::to_string(f) + " has zero area");
    PolyhedronFace face;
    face.vertices = loop;
    face.normal = area / norm;
    Real sum = 0;
    for (int v : loop) sum += face.normal.dot(p.vertices[v]);
    face.offset = sum / static_cast<Real>(loop.size());
    face.edges.assign(loop.size(), -1);
    p.faces.push_back(std::move(face));
  }

  // Edge table: the first face that walks an edge becomes face1 (it runs tail → head); the
  // other direction must follow exactly once.
  std::vector<std::vector<std::pair<int, int>>> out_edges(nv);  // (head, edge id) from tail
  for (int f = 0; f < p.num_faces(); ++f) {
    PolyhedronFace& face = p.faces[f];
    const int n = static_cast<int>(face.vertices.size());
    for (int i = 0; i < n; ++i) {
      const int a = face.vertices[i], b = face.vertices[(i + 1) % n];
      int found = -1;
      for (const auto& [head, id] : out_edges[b])
        if (head == a) found = id;
      if (found >= 0) {
        PolyhedronEdge& e = p.edges[found];
        if (e.face2 >= 0) fail("an edge is shared by more than two faces");
        e.face2 = f;
      } else {
        for (const auto& [head, id] : out_edges[a])
          if (head == b) fail("an edge is walked twice in the same direction (faces not CCW?)");
        found = p.num_edges();
        p.edges.push_back(
            PolyhedronEdge{a, b, f, -1, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), false});
        out_edges[a].emplace_back(b, found);
      }
      face.edges[i] = found;
    }
  }
  for (const PolyhedronEdge& e : p.edges)
    if (e.face2 < 0) fail("an edge has only one face (the surface is not closed)");
  if (nv - p.num_edges() + p.num_faces() != 2) fail("V - E + F != 2");

  // Convex with outward faces: every vertex on or behind every face plane, every face planar.
  Real scale = 0;
  for (const Vec3& v : p.vertices) scale = std::max(scale, v.cwiseAbs().maxCoeff());
  for (const Vec3& v : p.vertices) scale = std::max(scale, (v - p.vertices[0]).norm());
  const Real tol = relative_tolerance * scale;
  for (int f = 0; f < p.num_faces(); ++f) {
    const PolyhedronFace& face = p.faces[f];
    for (int v : face.vertices)
      if (std::abs(face.normal.dot(p.vertices[v]) - face.offset) > tol)
        fail("face " + std::to_string(f) + " is not planar");
    for (int v = 0; v < nv; ++v)
      if (face.normal.dot(p.vertices[v]) - face.offset > tol)
        fail("vertex " + std::to_string(v) + " lies outside the plane of face " +
             std::to_string(f) + " (not convex, or a face is not CCW seen from outside)");
  }

  // t-vectors, O_e and flatness (docs/geometry3d.md "Conventions").
  for (PolyhedronEdge& e : p.edges) {
    const Vec3 ev = p.vertices[e.head] - p.vertices[e.tail];
    const Vec3& n1 = p.faces[e.face1].normal;
    const Vec3& n2 = p.faces[e.face2].normal;
    e.t1 = n1.cross(ev).normalized();
    e.t2 = ev.cross(n2).normalized();
    e.orientation = ev.cross(-(n1 + n2)).normalized();
    e.nearly_flat = n1.dot(n2) > flat_threshold;
  }

  // Cyclic adjacency: around v, CCW seen from outside, the outgoing edge v → next(f) of a face f
  // is followed by f, then by the edge v → prev(f), which is the outgoing edge of the next face.
  std::vector<std::vector<std::pair<int, int>>> corners(nv);  // (face, position of v in it)
  for (int f = 0; f < p.num_faces(); ++f)
    for (int i = 0; i < static_cast<int>(p.faces[f].vertices.size()); ++i)
      corners[p.faces[f].vertices[i]].emplace_back(f, i);
  p.vertex_neighbours.resize(nv);
  p.vertex_edges.resize(nv);
  p.vertex_faces.resize(nv);
  for (int v = 0; v < nv; ++v) {
    if (corners[v].size() < 3) fail("vertex " + std::to_string(v) + " is on fewer than 3 faces");
    auto [f, i] = corners[v].front();
    for (size_t k = 0; k < corners[v].size(); ++k) {
      const PolyhedronFace& face = p.faces[f];
      const int n = static_cast<int>(face.vertices.size());
      const int out = face.edges[i];
      p.vertex_edges[v].push_back(out);
      p.vertex_faces[v].push_back(f);
      const PolyhedronEdge& e = p.edges[out];
      p.vertex_neighbours[v].push_back(e.tail == v ? e.head : e.tail);
      // The edge prev(f) → v is walked v → prev(f) by the next face around v.
      const PolyhedronEdge& in = p.edges[face.edges[(i + n - 1) % n]];
      f = in.face1 == f ? in.face2 : in.face1;
      i = -1;
      for (const auto& [g, j] : corners[v])
        if (g == f) i = j;
    }
    std::vector<int> seen = p.vertex_faces[v];
    std::sort(seen.begin(), seen.end());
    if (f != corners[v].front().first || std::adjacent_find(seen.begin(), seen.end()) != seen.end())
      fail("the faces around vertex " + std::to_string(v) + " do not form a single fan");
  }
  return p;
}

}  // namespace exactsim
