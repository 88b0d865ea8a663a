// Exact penetration depth of convex polygons (2D) and convex polyhedra (3D) in their current
// poses, and the per-step "penetration watchdog" over a whole scene: the largest
// depth, the pairs deeper than a threshold, and dynamic bodies whose centre of mass lies inside
// a static body. docs/penetration.md gives the definition, the method and the cost.
//
// Depth of A and B = min over unit d of s(d), s(d) = max_{a∈A} d·a − min_{b∈B} d·b: the shortest
// translation of B (by s(d)·d) after which the interiors are disjoint; 0 when they already are.
// The minimiser is a face normal of the Minkowski difference A − B, so the minimum over
//   2D: the outward edge normals of A and the reversed outward edge normals of B,
//   3D: the outward face normals of A, the reversed face normals of B and ±normalize(e_A × e_B)
//       for the edge pairs whose Gauss-map arcs cross (the edge–edge faces of A − B),
// is exact. Every candidate's s(d) is evaluated by projecting all vertices of both shapes, so
// each candidate is an upper bound and a candidate is never trusted on its combinatorics alone.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/metrics/overlap.h"
#include "exactsim/metrics/penetration_result.h"

namespace exactsim {

// "face 3 of A", "edge 2 of A × edge 7 of B", "edge 4 of B" (2D normals are edge normals);
// "none" for kNone. name_a / name_b replace "A" / "B" (e.g. body names). Allocates (reports
// only).
std::string describe_features(const PenetrationResult& r, std::string_view name_a = "A",
                              std::string_view name_b = "B");

// ---- One pair ---------------------------------------------------------------------------------

// 2D: polygons placed in the world (place()). O(n_A · n_B), allocation-free. Early out on the
// first separating edge normal.
PenetrationResult penetration_depth(const WorldPolygon& a, const WorldPolygon& b);

// Caller-owned working memory for the 3D functions: once it has served shapes of a given size,
// further calls on shapes no larger do not allocate.
struct PenetrationScratch {
  std::vector<Vec3> edge_a, edge_b;    // world edge vectors v_head − v_tail
  std::vector<Vec3> cross_a, cross_b;  // η̂_f2 × η̂_f1 of each edge (world): its Gauss-arc plane
  std::vector<Real> side_a;            // (F_A × E_B) A's face normals · B's arc-plane normals
  std::vector<int> face1_b, face2_b;  // (E_B) B's edge table, compact
  std::vector<Real> side_b;           // (F_B) −B's face normals · the current A arc plane
  // scene_penetration over present flags: the boxes, their broad phase and its pairs.
  std::vector<Aabb2> boxes2;
  std::vector<Aabb3> boxes3;
  BoxPairScratch sweep;
  std::vector<std::pair<int, int>> pairs;
};

struct PenetrationOptions {
  // false: edge pairs are pruned by the Gauss-map arc test (only the edge–edge faces of A − B).
  // true: every edge pair (the brute-force superset, for tests and validation): same depth,
  // about |E_A|·|E_B| projections instead of a few dozen.
  bool all_edge_pairs = false;
  // Edge pairs with |e_A × e_B| ≤ this · |e_A| |e_B| are skipped as parallel (their
  // Minkowski faces degenerate onto face normals of A or B, which are always tested).
  Real parallel_tolerance = 1e-8;
};

// 3D: shapes with their world placement (place(shape, pose, world)); the edge table comes from
// the shape, everything else from the world copy. Early out on the first separating axis.
// Allocation-free once `scratch` has served shapes this large.
PenetrationResult penetration_depth(const ConvexPolyhedron& shape_a, const WorldPolyhedron& a,
                                    const ConvexPolyhedron& shape_b, const WorldPolyhedron& b,
                                    PenetrationScratch& scratch,
                                    const PenetrationOptions& options = {});

// ---- A scene: the penetration watchdog ---------------------------------------------------------

struct ScenePenetration {
  Real max_depth = 0;                       // over all checked pairs (0 if none overlaps)
  int max_a = -1, max_b = -1;               // the pair attaining it (−1 when max_depth is 0)
  PenetrationResult max_result;             // its result (A = max_a)
  int pairs_checked = 0;                    // pairs past the AABB test whose depth was computed
  std::vector<PenetratingPair> deep_pairs;  // depth > threshold, sorted by (body_a, body_b)
  std::vector<CentreInsideStatic> centres_inside;  // sorted by (body, static_body)
  // Keeps the vectors' storage (no allocation per step once warmed up).
  void clear();
};

// Pairs (i < j), both present, not both static, whose AABBs overlap (the broad phase of
// overlap.h, overlapping_box_pairs: the same pairs as total_overlap_area): depth of every pair,
// deep pairs (depth > threshold), and centres of present dynamic bodies strictly inside present
// static bodies. centres[i]: body i's centre of mass, world frame (the body origin:
// state.q_of(i) x, y). Fills `out` (cleared first). Allocation-free in the steady state (out's
// and scratch's storage are reused).
void scene_penetration(std::span<const WorldPolygon> polygons, std::span<const Vec2> centres,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::uint8_t> present, Real threshold,
                       PenetrationScratch& scratch, ScenePenetration& out);

// 3D: shapes[i] and placed[i] = place(*shapes[i], poses[i]); centres are poses[i].position.
void scene_penetration(std::span<const ConvexPolyhedron* const> shapes,
                       std::span<const WorldPolyhedron> placed, std::span<const Pose3> poses,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::uint8_t> present, Real threshold,
                       PenetrationScratch& scratch, ScenePenetration& out,
                       const PenetrationOptions& options = {});

// The same over pairs the caller found (overlapping_box_pairs), so that one broad phase serves
// this watchdog and the overlap metric (docs/stepping.md); with the pairs those functions find,
// the result is the same.
void scene_penetration(std::span<const WorldPolygon> polygons, std::span<const Vec2> centres,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::pair<int, int>> pairs, Real threshold,
                       ScenePenetration& out);
// 3D: `centres`, when given, replaces poses[i].position as the point checked against static bodies.
// A collider with shapes[i] null is a sphere of radius[i] placed in placed[i]
// (geometry/placed_collider.h, metrics/collider_pair.h).
void scene_penetration(std::span<const ConvexPolyhedron* const> shapes,
                       std::span<const WorldPolyhedron> placed, std::span<const Pose3> poses,
                       std::span<const std::uint8_t> is_static,
                       std::span<const std::pair<int, int>> pairs, Real threshold,
                       PenetrationScratch& scratch, ScenePenetration& out,
                       const PenetrationOptions& options = {}, std::span<const Vec3> centres = {},
                       std::span<const Real> radius = {});

// ---- Point in convex polytope (exposed for tests) ----------------------------------------------

// Distance from p to the boundary when p is strictly inside (> 0), else ≤ 0 (minus the largest
// signed distance to an edge line / face plane). Exact for interior points.
Real interior_depth(const WorldPolygon& polygon, const Vec2& p);
Real interior_depth(const WorldPolyhedron& polyhedron, const Vec3& p);

}  // namespace exactsim
