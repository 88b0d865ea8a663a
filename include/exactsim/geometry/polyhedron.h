// Convex polyhedra (docs/geometry3d.md "Conventions"): construction through a convex hull with true
// planar faces, the edge table with t-vectors and edge orientation vectors, vertex adjacency, exact
// mass properties, convenience shapes, world placement and exact convex–convex intersection volume.
// Conventions (docs/geometry3d.md): every face is one planar convex polygon, counter-clockwise
// seen from outside (coplanar hull facets are merged, so no triangulation diagonal is ever an
// edge); outward unit normals; each undirected edge appears once in the edge table.
#pragma once

#include <random>
#include <span>
#include <utility>
#include <vector>

#include "exactsim/geometry/aabb.h"
#include "exactsim/geometry/pose3.h"
#include "exactsim/math/types.h"

namespace exactsim {

struct PolyhedronFace {
  std::vector<int> vertices;  // CCW seen from outside, strictly convex corners
  std::vector<int> edges;     // edges[i] joins vertices[i] and vertices[i+1] (cyclic)
  Vec3 normal;                // outward unit normal η̂_f
  Real offset;                // plane: normal · x = offset
};

struct PolyhedronEdge {
  int tail, head;    // e = vertices[head] − vertices[tail]
  int face1, face2;  // face1's CCW boundary runs tail → head, face2's runs head → tail
  Vec3 t1, t2;       // t1 = normalize(η̂_f1 × e), t2 = normalize(e × η̂_f2): in the
                     // face plane, ⟂ e, pointing from the edge into that face
  Vec3 orientation;  // O_e = normalize(e × (−(η̂_f1 + η̂_f2))): direction of t1 − t2
  bool nearly_flat;  // η̂_f1 · η̂_f2 > flat threshold (0.995): PEG may treat the
                     // edge as face interior
};

struct ConvexPolyhedron {
  std::vector<Vec3> vertices;         // (nv) body frame, every one a strict corner (≥ 3 faces)
  std::vector<PolyhedronFace> faces;  // (nf)
  std::vector<PolyhedronEdge> edges;  // (ne) each undirected edge once; nv − ne + nf = 2
  // Adjacency of vertex v, all three cyclic and counter-clockwise seen from outside:
  // vertex_edges[v][k] is an edge at v, vertex_neighbours[v][k] its other end (ω(v))
  // and vertex_faces[v][k] the face between vertex_edges[v][k] and vertex_edges[v][k+1].
  std::vector<std::vector<int>> vertex_neighbours, vertex_edges, vertex_faces;

  int num_vertices() const { return static_cast<int>(vertices.size()); }
  int num_edges() const { return static_cast<int>(edges.size()); }
  int num_faces() const { return static_cast<int>(faces.size()); }
  // Edge vector e = v_head − v_tail.
  Vec3 edge_vector(int e) const { return vertices[edges[e].head] - vertices[edges[e].tail]; }
};

// Faces whose normals satisfy η̂_f1 · η̂_f2 > this are "nearly flat" (docs/geometry3d.md "The
// planar-face decision"; the authors' code).
inline constexpr Real kFlatEdgeThreshold = 0.995;

// Hull tolerance, relative to S = max(bounding-box diagonal, largest |coordinate|) of the input:
// points closer than tol·S are duplicates; hull facets whose vertices lie within tol·S of a
// common plane are one face; a thickness below tol·S is "coplanar".
inline constexpr Real kPolyhedronRelativeTolerance = 1e-9;

struct PolyhedronHullOptions {
  Real relative_tolerance = kPolyhedronRelativeTolerance;
  Real flat_threshold = kFlatEdgeThreshold;  // sets PolyhedronEdge::nearly_flat
};

// ---- Construction (polyhedron_hull.cc, polyhedron_adjacency.cc) ------------------------------

// Convex hull via qhull (libqhull_r) with coplanar facets merged into planar faces; interior,
// duplicate and face-/edge-coplanar points are dropped. Vertices keep the order of the input.
// InputError ("polyhedron_from_points: ...") for fewer than 4 points, NaN/inf coordinates, all
// points coincident, collinear or coplanar, or invalid options.
ConvexPolyhedron polyhedron_from_points(std::span<const Vec3> points,
                                        const PolyhedronHullOptions& options = {});

// Builds the full structure (normals by Newell's method, offsets = mean of η̂·v over the face,
// edge table, t-vectors, O_e, adjacency) from vertices and planar face loops, CCW seen from
// outside. Validates: InputError ("polyhedron_from_faces: ...") unless every face has ≥ 3
// distinct valid indices and non-zero area, every edge is walked once in each direction, every
// vertex is on ≥ 3 faces forming one fan, V − E + F = 2, and (with tol = relative_tolerance · S,
// S = max(largest |coordinate|, largest distance from vertex 0)) every face is planar within tol
// and no vertex lies more than tol outside any face plane (convex, faces outward).
ConvexPolyhedron polyhedron_from_faces(std::vector<Vec3> vertices,
                                       const std::vector<std::vector<int>>& face_loops,
                                       Real flat_threshold = kFlatEdgeThreshold,
                                       Real relative_tolerance = kPolyhedronRelativeTolerance);

// ---- Mass properties (polyhedron_mass_properties.cc) -----------------------------------------

struct PolyhedronMassProperties {
  Real volume;    // m³
  Real mass;      // density · volume
  Vec3 centroid;  // body frame
  Mat3 inertia;   // about the centroid, body axes
};

// Exact for uniform density: divergence theorem over fan-triangulated faces (signed tetrahedra
// about a point near the shape, second moments in closed form). InputError if density ≤ 0 or
// not finite.
PolyhedronMassProperties polyhedron_mass_properties(const ConvexPolyhedron& polyhedron,
                                                    Real density);

// ---- Convenience shapes (polyhedron_shapes.cc) -----------------------------------------------

// Box with full side lengths `size`, centred at the origin: 8 vertices, 12 edges, 6 quad faces.
// InputError unless every side is positive and finite.
ConvexPolyhedron make_box(const Vec3& size);

// Regular icosahedron centred at the origin, vertices at the cyclic permutations of (0, ±1, ±φ)
// scaled to `circumradius` (the 3D pour: 0.5). InputError unless circumradius > 0 (finite).
ConvexPolyhedron make_icosahedron(Real circumradius);

struct RandomPolyhedronOptions {
  int points = 15;           // uniform points in the unit cube per attempt (the authors' generator)
  Real diameter = 1.0;       // largest vertex–vertex distance after scaling
  Real min_edge_length = 0;  // reject if any edge is shorter (after scaling)
  Real max_face_angle_deg = 179;  // reject if any face has an interior angle above this
  int max_attempts = 1000;        // redraws before giving up with InputError
};

// The authors' unused generator (docs/peg3d-experiment.md "Protocol"): hull of `points` uniform
// points in the unit cube, translated so that the volume centroid is the origin, scaled to
// `diameter`; slivers are rejected by redrawing. Variates are (rng() >> 11) · 2⁻⁵³, the same on
// every platform. InputError for invalid options or when all max_attempts draws are rejected.
ConvexPolyhedron random_convex_polyhedron(std::mt19937_64& rng,
                                          const RandomPolyhedronOptions& options = {});

// The smallest extent of the polyhedron across one of its faces (max − min of η̂_f · v over the
// vertices, minimised over the faces f): a box's shortest side; an upper bound of the true
// minimum width in general (which an edge–edge direction may attain). +∞ without faces
// (minimum_width.cc).
Real minimum_width(const ConvexPolyhedron& polyhedron);

// ---- Placement (polyhedron_placement.cc) -----------------------------------------------------

// The polyhedron moved by `offset`, rebuilt from its moved vertices (polyhedron_from_points), as a
// scene file's hull is read: a written scene reads back to the bitwise-same shape.
ConvexPolyhedron translated(const ConvexPolyhedron& polyhedron, const Vec3& offset);
// The polyhedron moved so that its volume centroid is the origin (the body frame of
// docs/dynamics.md "Bodies").
ConvexPolyhedron recentred(const ConvexPolyhedron& polyhedron);

struct WorldPolyhedron {
  std::vector<Vec3> vertices;      // (nv) world frame
  std::vector<Vec3> face_normals;  // (nf) world frame, outward unit
  std::vector<Real> face_offsets;  // (nf) world plane: face_normals[f] · x = face_offsets[f]
  std::vector<Vec3> edge_t1, edge_t2, edge_orientation;  // (ne) world frame
  Aabb3 aabb;                                            // of the world vertices
};

// Places the shape at `pose`. Reuses out's storage: no allocation once out has held a
// polyhedron of at least this size.
void place(const ConvexPolyhedron& shape, const Pose3& pose, WorldPolyhedron& out);

// max_f (η̂_f · p − d_f) over the faces of a placed polyhedron (< 0: p strictly inside, by that
// much), and the face attaining it (the lowest index on a tie): the face through which p leaves
// soonest. −∞ and face −1 for a polyhedron without faces.
Real deepest_face(const WorldPolyhedron& w, const Vec3& p, int& face);

// ---- Intersection (polyhedron_intersection.cc) -----------------------------------------------

struct IntersectionPolyhedron {
  std::vector<Vec3> vertices;           // world frame
  std::vector<std::vector<int>> faces;  // planar loops, CCW seen from outside
};

// Caller-owned working memory for polyhedron_intersection_volume: once it has served a pair of
// a given size, further calls on shapes no larger do not allocate.
struct IntersectionScratch {
  std::vector<Vec3> vertices, next_vertices;  // current / clipped polytope, B's frame
  std::vector<Real> distance;                 // signed distance of each vertex to the plane
  std::vector<signed char> side;              // −1 inside, 0 on the plane, +1 outside
  std::vector<signed char> next_on_plane;     // next_vertices[i] lies on the cutting plane
  std::vector<int> remap;                     // old vertex index → index in next_vertices
  std::vector<int> face_start, face_index;    // current faces as flattened loops
  std::vector<int> next_face_start, next_face_index;
  std::vector<int> cut_edges;                // (lo, hi, new vertex) triples of cut edges
  std::vector<int> open_edges;               // (from, to) half-edges lying on the plane
  std::vector<Vec3> other_vertices;          // B's vertices in A's frame (separation test)
  std::vector<std::pair<Real, int>> planes;  // (deepest cut, face of B) of the cutting planes
};

// Exact volume of the intersection of two convex polyhedra placed at poses pa and pb: A as a
// face-polygon mesh is clipped by every face plane of B (Sutherland–Hodgman on each face, the
// cap closed from the half-edges left open on the plane), then the divergence theorem
// (docs/geometry3d.md). A vertex within eps = 1e-12 · (r_A + r_B + |p_A − p_B|) of a plane
// counts as on it (r = largest body-frame vertex radius), so disjoint or merely touching shapes
// give exactly 0, also under round-off in the poses. Never NaN. A∩B and B∩A agree to round-off
// in generic position, and to eps · (surface area) near exact coincidence. If `out` is non-null
// it receives the intersection polytope in world coordinates (empty when the volume is 0).
// InputError if a pose is not finite or its quaternion is not unit (|q|² off by > 1e-6).
Real polyhedron_intersection_volume(const ConvexPolyhedron& a, const Pose3& pa,
                                    const ConvexPolyhedron& b, const Pose3& pb,
                                    IntersectionPolyhedron* out = nullptr,
                                    IntersectionScratch* scratch = nullptr);

// max_f (η̂_f · p − d_f) for a body-frame point: ≤ 0 inside or on, > 0 outside (the distance to
// the surface when the nearest feature is a face).
Real max_face_distance(const ConvexPolyhedron& polyhedron, const Vec3& p);

}  // namespace exactsim
