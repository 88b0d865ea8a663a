#include "exactsim/collision/edge_edge.h"

#include <algorithm>
#include <cmath>

#include "exactsim/collision/closest_points.h"

namespace exactsim {
namespace {

// The contact record of edge a of A against edge b of B at their closest points (docs/collision.md
// "Conventions").
Contact edge_edge_record(int body_a, int edge_a, int body_b, int edge_b,
                         const SegmentClosestPoints& cp, const Vec3& normal) {
  Contact c;
  c.body_a = body_a;
  c.body_b = body_b;
  c.type = ContactType::kEdgeEdge;
  c.feature_a = edge_a;
  c.feature_b = edge_b;
  c.point_a = cp.p_a;
  c.normal = normal;
  c.gap = normal.dot(cp.p_b - cp.p_a);
  c.distance = cp.distance;
  return c;
}

// The record of a crossed pair with a nearly flat edge (edge_edge_contacts): false unless the
// closest points are interior to both segments, more than min_depth apart, each strictly inside
// the other body, and the edges are not parallel.
bool crossed_edge_record(const Vec3& a0, const Vec3& a1, const WorldPolyhedron& world_a, int body_a,
                         int edge_a, const Vec3& b0, const Vec3& b1, const WorldPolyhedron& world_b,
                         int body_b, int edge_b, Real min_depth, Real parallel_sine, Contact& out) {
  const SegmentClosestPoints cp = closest_points_segments(a0, a1, b0, b1);
  if (!(cp.distance > min_depth) || !(cp.s > 0 && cp.s < 1 && cp.t > 0 && cp.t < 1)) return false;
  int face = -1;
  if (!(deepest_face(world_b, cp.p_a, face) < 0) || !(deepest_face(world_a, cp.p_b, face) < 0))
    return false;
  const Vec3 cross = (a1 - a0).cross(b1 - b0);
  const Real norm = cross.norm();
  if (!(norm > parallel_sine * (a1 - a0).norm() * (b1 - b0).norm())) return false;
  const Vec3 n = cross / norm;
  out = edge_edge_record(body_a, edge_a, body_b, edge_b, cp, n.dot(cp.p_b - cp.p_a) > 0 ? -n : n);
  return true;
}

// How far the normal m lies inside the Gauss arc of an edge with in-face tangents t1, t2 (the
// body on the side `side` = +1 for B, −1 for A of the record's normal), the arc of a nearly flat
// edge widened by its own fold |t1 + t2| on both sides (ridge_record).
Real arc_margin(const Vec3& m, const Vec3& t1, const Vec3& t2, Real side, bool flat) {
  const Real inside = std::min(side * m.dot(t1), side * m.dot(t2));
  return flat ? inside + (t1 + t2).norm() : inside;
}

// A sharp edge over a nearly flat one (a ridge): the record of the pair as for two sharp edges
// when their closest points are within epsilon and interior to both segments and the ridge is
// applicable (APPL_ee > 0: the sharp edge points into it). A ridge's Gauss arc is only its fold
// φ wide, and when the sharp edge lies in the plane of one of the ridge's faces, the edges'
// normal is that face's normal, at the arc's end: APPL_ee is 0 up to round-off, and its sign
// flips as the body turns by round-off from step to step. The ridge's arc is widened by φ on
// both sides, so such an edge keeps its contact; a contact plane at most φ off the surface holds
// it instead of none (docs/collision.md "Flat ridges").
bool ridge_record(const Vec3& a0, const Vec3& a1, const WorldPolyhedron& world_a, int body_a,
                  int edge_a, bool flat_a, const Vec3& b0, const Vec3& b1,
                  const WorldPolyhedron& world_b, int body_b, int edge_b, Real epsilon,
                  Real parallel_sine, Contact& out) {
  const SegmentClosestPoints cp = closest_points_segments(a0, a1, b0, b1);
  if (cp.distance > epsilon || !(cp.s > 0 && cp.s < 1 && cp.t > 0 && cp.t < 1)) return false;
  const Vec3 cross = (a1 - a0).cross(b1 - b0);
  const Real norm = cross.norm();
  if (!(norm > parallel_sine * (a1 - a0).norm() * (b1 - b0).norm())) return false;
  const auto margin = [&](const Vec3& m) {
    return std::min(arc_margin(m, world_a.edge_t1[edge_a], world_a.edge_t2[edge_a], -1, flat_a),
                    arc_margin(m, world_b.edge_t1[edge_b], world_b.edge_t2[edge_b], 1, !flat_a));
  };
  const Vec3 n = cross / norm;
  const Real minus_n = margin(-n), plus_n = margin(n);
  if (!(std::max(minus_n, plus_n) > 0)) return false;
  out = edge_edge_record(body_a, edge_a, body_b, edge_b, cp, minus_n >= plus_n ? Vec3(-n) : n);
  return true;
}

}  // namespace

EdgeEdgeNormal edge_edge_normal(const Vec3& e_a, const Vec3& t_a1, const Vec3& t_a2,
                                const Vec3& e_b, const Vec3& t_b1, const Vec3& t_b2,
                                Real parallel_sine) {
  EdgeEdgeNormal out;
  const Vec3 cross = e_a.cross(e_b);
  const Real norm = cross.norm();
  if (!(norm > parallel_sine * e_a.norm() * e_b.norm())) return out;  // parallel: APPL = −1
  const Vec3 n = cross / norm;
  const Real a1 = n.dot(t_a1), a2 = n.dot(t_a2), b1 = -n.dot(t_b1), b2 = -n.dot(t_b2);
  const Real minus_n = std::min({a1, a2, b1, b2});     // classical test for n̂ = −n
  const Real plus_n = std::min({-a1, -a2, -b1, -b2});  // classical test for n̂ = +n
  out.parallel = false;
  out.applicability = std::max(minus_n, plus_n);
  out.normal = minus_n >= plus_n ? Vec3(-n) : n;
  return out;
}

bool edge_edge_contact(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a, int body_a,
                       int edge_a, const ConvexPolyhedron& shape_b, const WorldPolyhedron& world_b,
                       int body_b, int edge_b, Real parallel_sine, Contact& out,
                       Real* applicability) {
  const PolyhedronEdge& ea = shape_a.edges[edge_a];
  const PolyhedronEdge& eb = shape_b.edges[edge_b];
  if (ea.nearly_flat || eb.nearly_flat) return false;
  const Vec3& a0 = world_a.vertices[ea.tail];
  const Vec3& a1 = world_a.vertices[ea.head];
  const Vec3& b0 = world_b.vertices[eb.tail];
  const Vec3& b1 = world_b.vertices[eb.head];
  const EdgeEdgeNormal n =
      edge_edge_normal(a1 - a0, world_a.edge_t1[edge_a], world_a.edge_t2[edge_a], b1 - b0,
                       world_b.edge_t1[edge_b], world_b.edge_t2[edge_b], parallel_sine);
  if (n.parallel) return false;  // docs/peg.md "Tricky cases" item 4
  out = edge_edge_record(body_a, edge_a, body_b, edge_b, closest_points_segments(a0, a1, b0, b1),
                         n.normal);
  if (applicability) *applicability = n.applicability;
  return true;
}

void edge_edge_contacts(const ConvexPolyhedron& shape_a, const WorldPolyhedron& world_a, int body_a,
                        const ConvexPolyhedron& shape_b, const WorldPolyhedron& world_b, int body_b,
                        Real epsilon, Real parallel_sine, std::vector<Contact>& out,
                        Real flat_crossing_depth, bool flat_ridges, Real reach,
                        Real min_applicability) {
  const Aabb3 b_reach = world_b.aabb.inflated(epsilon + reach);
  // A crossing point lies inside both bodies: only where their boxes overlap.
  const bool crossings = std::isfinite(flat_crossing_depth) && world_a.aabb.overlaps(world_b.aabb);
  // Ridges likewise only where the boxes overlap (as measured, docs/collision.md "Flat ridges"): a
  // bar that reaches a ridge from farther within one step is left to the crossing rule.
  const bool ridges = flat_ridges && world_a.aabb.overlaps(world_b.aabb);
  const int na = shape_a.num_edges(), nb = shape_b.num_edges();
  Contact crossed;
  for (int i = 0; i < na; ++i) {
    const PolyhedronEdge& ea = shape_a.edges[i];
    const Vec3& a0 = world_a.vertices[ea.tail];
    const Vec3& a1 = world_a.vertices[ea.head];
    const Aabb3 a_box{a0.cwiseMin(a1), a0.cwiseMax(a1)};
    // Nearly flat edges are face interior (docs/geometry3d.md): only their crossings count, and
    // a sharp edge of the other body over one (a ridge).
    const bool in_reach = b_reach.overlaps(a_box);
    const bool near = !ea.nearly_flat && in_reach;
    const bool may_cross = crossings && world_b.aabb.overlaps(a_box);
    if (!near && !may_cross && !(ridges && in_reach)) continue;  // below, a_box is in reach
    const Aabb3 a_reach = a_box.inflated(epsilon + reach);
    for (int j = 0; j < nb; ++j) {
      const PolyhedronEdge& eb = shape_b.edges[j];
      const Vec3& b0 = world_b.vertices[eb.tail];
      const Vec3& b1 = world_b.vertices[eb.head];
      if (ea.nearly_flat || eb.nearly_flat) {
        if (ridges && ea.nearly_flat != eb.nearly_flat &&
            a_reach.overlaps(Aabb3{b0.cwiseMin(b1), b0.cwiseMax(b1)}) &&
            ridge_record(a0, a1, world_a, body_a, i, ea.nearly_flat, b0, b1, world_b, body_b, j,
                         epsilon + reach, parallel_sine, crossed)) {
          out.push_back(crossed);
          continue;
        }
        if (may_cross && world_a.aabb.overlaps(Aabb3{b0.cwiseMin(b1), b0.cwiseMax(b1)}) &&
            crossed_edge_record(a0, a1, world_a, body_a, i, b0, b1, world_b, body_b, j,
                                flat_crossing_depth, parallel_sine, crossed))
          out.push_back(crossed);
        continue;
      }
      if (!near || !a_reach.overlaps(Aabb3{b0.cwiseMin(b1), b0.cwiseMax(b1)})) continue;
      const SegmentClosestPoints cp = closest_points_segments(a0, a1, b0, b1);
      if (cp.distance > epsilon + reach) continue;  // FEAS_ee (docs/peg3d.md)
      const EdgeEdgeNormal n =
          edge_edge_normal(a1 - a0, world_a.edge_t1[i], world_a.edge_t2[i], b1 - b0,
                           world_b.edge_t1[j], world_b.edge_t2[j], parallel_sine);
      if (n.parallel) continue;  // never a contact from a zero normal (Tricky cases item 4)
      if (min_applicability > -1 && n.applicability < min_applicability) continue;
      const Contact record = edge_edge_record(body_a, i, body_b, j, cp, n.normal);
      // Beyond ε only for edges apart whose closest points are interior to both segments: there
      // ψ is their distance, the one the step's motion may close.
      const bool interior = cp.s > 0 && cp.s < 1 && cp.t > 0 && cp.t < 1;
      if (cp.distance > epsilon && !(record.gap > 0 && interior)) continue;
      out.push_back(record);
    }
  }
}

}  // namespace exactsim
