// Convex polygons (docs/geometry2d.md "Conventions"): construction through a convex hull, exact
// mass properties, convenience shapes, world placement and exact convex–convex intersection.
// Conventions (docs/geometry2d.md): vertices counter-clockwise, strictly convex (collinear hull
// points dropped), edge i = vertices[i] → vertices[i+1] (cyclic), outward unit normal
// η̂_i = (e_y, −e_x)/|e| (the right-hand perpendicular of a CCW edge).
#pragma once

#include <random>
#include <span>
#include <vector>

#include "exactsim/geometry/aabb.h"
#include "exactsim/geometry/pose.h"
#include "exactsim/math/types.h"

namespace exactsim {

struct ConvexPolygon {
  std::vector<Vec2> vertices;      // (n) body frame, counter-clockwise, strictly convex
  std::vector<Vec2> edge_normals;  // (n) outward unit normal of edge i = vertices[i] -> [i+1]

  int size() const { return static_cast<int>(vertices.size()); }
  int next(int i) const { return i + 1 == size() ? 0 : i + 1; }
  int prev(int i) const { return i == 0 ? size() - 1 : i - 1; }
  // Edge vector e_i = v_{i+1} − v_i.
  Vec2 edge(int i) const { return vertices[next(i)] - vertices[i]; }
};

// Outward unit normal of a CCW edge vector e: (e_y, −e_x)/|e|.
inline Vec2 outward_normal(const Vec2& edge) { return Vec2(edge.y(), -edge.x()).normalized(); }

// ---- Construction (polygon_hull.cc) ----------------------------------------------------------

// A point is "collinear" (dropped from the hull, or accepted on the boundary under
// kRequireConvex) when its distance from the line through its hull neighbours is at most
// kHullRelativeTolerance · S, with S = max(bounding-box diagonal, largest |coordinate|) of the
// input: the scale of the shape and of the round-off in its coordinates.
inline constexpr Real kHullRelativeTolerance = 1e-12;

enum class HullInput {
  kAllowInterior,  // points inside the hull are ignored
  kRequireConvex,  // every point must be a hull vertex or lie on the hull's boundary
};

// Convex hull (Andrew's monotone chain) as a CCW, strictly convex polygon; edge normals filled.
// InputError for: fewer than 3 points, NaN/inf coordinates, all points coincident or collinear
// (fewer than 3 affinely independent points), or, under kRequireConvex, a point strictly inside
// ("point 3 (x, y) lies inside the hull: the polygon is not convex", 0-based index).
ConvexPolygon polygon_from_points(std::span<const Vec2> points,
                                  HullInput mode = HullInput::kAllowInterior);

// ---- Mass properties (polygon_mass_properties.cc) --------------------------------------------

struct PolygonMassProperties {
  Real area;      // m²
  Real mass;      // density · area
  Vec2 centroid;  // body frame
  Real inertia;   // about the centroid, perpendicular axis: density · polar second moment of area
};

// Closed form for uniform density (triangle fan). InputError if density ≤ 0 or not finite.
PolygonMassProperties polygon_mass_properties(const ConvexPolygon& polygon, Real density);

// Signed area (shoelace) of a closed vertex loop: positive when CCW. Any simple polygon.
Real polygon_area(std::span<const Vec2> vertices);

// The polygon moved by `offset`, rebuilt from its moved vertices (polygon_from_points), as a scene
// file's polygon is read: a written scene reads back to the bitwise-same shape.
ConvexPolygon translated(const ConvexPolygon& polygon, const Vec2& offset);
// The polygon moved so that its area centroid is the origin (the body frame of
// docs/dynamics.md "Bodies").
ConvexPolygon recentred(const ConvexPolygon& polygon);

// ---- Convenience shapes (polygon_shapes.cc) --------------------------------------------------

// Rectangle with full side lengths size = (w, h), centred at the origin, first vertex
// (−w/2, −h/2). InputError unless both sides are positive and finite.
ConvexPolygon make_box(const Vec2& size);

// Regular polygon centred at the origin, vertex k at angle phase + 2πk/sides from the +x axis.
// InputError unless sides ≥ 3 and circumradius > 0 (finite).
ConvexPolygon make_regular_polygon(int sides, Real circumradius, Real phase = 0);

struct RandomPolygonOptions {
  int points = 10;                    // random points drawn per attempt (paper: 10)
  Real scale = 0.25;                  // factor applied after the hull (paper: 0.25)
  Real min_edge_length = 0;           // reject if any edge is shorter (2ε suggested)
  Real max_interior_angle_deg = 179;  // reject if any interior angle is larger
  int max_attempts = 1000;            // redraws before giving up with InputError
};

// The paper's recipe (docs/geometry2d.md "Random convex polygons"): `points` points uniform in
// [0,1]², minus their mean, convex hull, times `scale`; slivers are rejected by redrawing. The body
// origin is the mean of the random points (as in the archived sets), not the centroid: use
// recentred() for that. Uniform variates are (rng() >> 11) · 2⁻⁵³, so a seed gives the same polygon
// on every platform. InputError for invalid options or when max_attempts draws are all rejected.
ConvexPolygon random_convex_polygon(std::mt19937_64& rng, const RandomPolygonOptions& options = {});

// The smallest extent of the polygon across one of its edges (max − min of η̂_i · v over the
// vertices, minimised over the edges i): its width for a rectangle, an upper bound of the true
// minimum width in general. +∞ for a polygon without edges (minimum_width.cc).
Real minimum_width(const ConvexPolygon& polygon);

// ---- World placement (polygon_placement.cc) --------------------------------------------------

struct WorldPolygon {
  std::vector<Vec2> vertices;      // world frame, CCW
  std::vector<Vec2> edge_normals;  // world frame, outward unit
  Aabb2 aabb;                      // of the world vertices
};

// World vertices v + R(θ)·v_local, rotated normals and the AABB. Reuses out's storage: no
// allocation once out has held a polygon of at least this size.
void place(const ConvexPolygon& shape, const Pose2& pose, WorldPolygon& out);

// max_j η̂_j·(p − v_j) over the edges j of a placed polygon (v_j the tail; < 0: p strictly
// inside, by that much), and the edge attaining it (the lowest index on a tie): the edge through
// which p leaves soonest, its exit edge. −∞ and edge −1 for a polygon without edges. The 2D
// deepest_face (polyhedron.h).
Real deepest_edge(const WorldPolygon& polygon, const Vec2& p, int& edge);

// ---- Intersection (polygon_intersection.cc) --------------------------------------------------

// Exact sign of the orientation of (a, b, c): +1 if c lies left of the directed line a → b
// (counter-clockwise turn), −1 if right, 0 if exactly collinear. Error-free arithmetic when the
// fast floating-point filter cannot decide (Shewchuk's orient2d, re-derived).
int orientation_sign(const Vec2& a, const Vec2& b, const Vec2& c);

// Exact intersection of two convex polygons given as CCW world vertex lists (the 2D
// overlap metric). Returns the area; if `out` is non-null it receives the intersection polygon's
// CCW vertices (empty when the area is 0). Exactly 0 when the interiors are disjoint (disjoint
// or merely touching shapes: decided by exact predicates on the input vertices); never NaN;
// symmetric: area(A, B) and area(B, A) are bitwise equal. Fewer than 3 vertices: area 0.
// InputError for a NaN/inf vertex. Does not allocate unless the polygons have more than 42
// vertices together or `out` needs to grow.
Real polygon_intersection_area(std::span<const Vec2> a, std::span<const Vec2> b,
                               std::vector<Vec2>* out = nullptr);

// Sutherland–Hodgman clipping of `subject` (any CCW loop) by the convex CCW `clipper`, without
// the disjointness pre-test or symmetrisation of polygon_intersection_area: the raw building
// block, exposed for tests and for callers that need a fixed clipping order. Writes the
// clipped loop to *out (possibly with fewer than 3 vertices) and returns its area (≥ 0).
Real clip_convex_polygon(std::span<const Vec2> subject, std::span<const Vec2> clipper,
                         std::vector<Vec2>* out);

}  // namespace exactsim
