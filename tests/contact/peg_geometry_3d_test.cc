// The 3D geometric tests of PEG (docs/peg3d.md "Tests and their definitions"): t-vectors and O_e of
// the cube edge of docs/geometry3d.md, APPL_vf, the sign of the edge–edge normal, the branches of
// FEAS_vf (with the point–polygon Voronoi classification, docs/peg.md "Defects not replicated" item
// 7), the primary heuristics, and the Jacobians of the contact builders the generator uses against
// finite differences of the gaps.
#include <cmath>

#include <gtest/gtest.h>

#include "exactsim/collision/closest_points.h"
#include "exactsim/collision/contact_jacobian.h"
#include "exactsim/collision/edge_edge.h"
#include "exactsim/collision/vertex_face.h"
#include "exactsim/contact/peg_applicability_3d.h"
#include "exactsim/contact/peg_feasibility_3d.h"
#include "exactsim/contact/peg_primary_3d.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/rotation.h"
#include "input_error.h"

namespace exactsim::peg_geometry_3d_test {
namespace {

WorldPolyhedron placed(const ConvexPolyhedron& s, const Pose3& pose) {
  WorldPolyhedron w;
  place(s, pose, w);
  return w;
}

int find_vertex(const ConvexPolyhedron& s, const WorldPolyhedron& w, const Vec3& p) {
  for (int v = 0; v < s.num_vertices(); ++v)
    if ((w.vertices[v] - p).norm() < 1e-12) return v;
  return -1;
}

int find_face(const WorldPolyhedron& w, const Vec3& normal) {
  for (int f = 0; f < static_cast<int>(w.face_normals.size()); ++f)
    if ((w.face_normals[f] - normal).norm() < 1e-12) return f;
  return -1;
}

// docs/geometry3d.md "Conventions": cube [0,1]×[0,1]×[−1,0], edge (0,0,0)→(1,0,0): f1 = top (+z),
// f2 = front (−y), t1 = (0,1,0), t2 = (0,0,−1), O_e ∝ (0,1,1). The edge table may store the edge
// the other way round; then f1/f2 and t1/t2 exchange and O_e flips.
TEST(PegGeometry3d, CubeEdgeTangentsAndOrientation) {
  const ConvexPolyhedron cube = translated(make_box(Vec3(1, 1, 1)), Vec3(0.5, 0.5, -0.5));
  const Vec3 p0(0, 0, 0), p1(1, 0, 0);
  int found = 0;
  for (const PolyhedronEdge& e : cube.edges) {
    const Vec3 tail = cube.vertices[e.tail], head = cube.vertices[e.head];
    const bool forward = (tail - p0).norm() < 1e-12 && (head - p1).norm() < 1e-12;
    const bool backward = (tail - p1).norm() < 1e-12 && (head - p0).norm() < 1e-12;
    if (!forward && !backward) continue;
    ++found;
    const Vec3 top(0, 0, 1), front(0, -1, 0);
    const Vec3 t_top(0, 1, 0), t_front(0, 0, -1);
    EXPECT_NEAR((cube.faces[e.face1].normal - (forward ? top : front)).norm(), 0, 1e-14);
    EXPECT_NEAR((e.t1 - (forward ? t_top : t_front)).norm(), 0, 1e-14);
    EXPECT_NEAR((e.t2 - (forward ? t_front : t_top)).norm(), 0, 1e-14);
    const Vec3 o = (forward ? 1.0 : -1.0) * Vec3(0, 1, 1).normalized();
    EXPECT_NEAR((e.orientation - o).norm(), 0, 1e-14);
    // O_e points across the edge towards the f1 side: the direction of t1 − t2.
    EXPECT_GT(e.orientation.dot(e.t1 - e.t2), 0);
    EXPECT_FALSE(e.nearly_flat);
  }
  EXPECT_EQ(found, 1);
}

// A downward spike (apex at the origin, three neighbours at 45° above it) over a face with
// η̂ = +z: every edge points away, APPL = cos 45°. Against a side face η̂ = +x the edge towards
// −x points into it: APPL = −cos 45°.
TEST(PegGeometry3d, VertexFaceApplicability) {
  const Vec3 pts[4] = {{0, 0, 0}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}};
  const ConvexPolyhedron spike = polyhedron_from_points(pts);
  const WorldPolyhedron w = placed(spike, Pose3{});
  const int apex = find_vertex(spike, w, Vec3::Zero());
  ASSERT_GE(apex, 0);
  EXPECT_NEAR(vertex_face_applicability(spike, w, apex, Vec3(0, 0, 1)), std::sqrt(0.5), 1e-14);
  EXPECT_NEAR(vertex_face_applicability(spike, w, apex, Vec3(1, 0, 0)), -std::sqrt(0.5), 1e-14);
  // Frame invariance: rotating the body and the face normal together keeps the value.
  const Pose3 pose{Vec3(0.3, -2, 1), Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()))};
  const WorldPolyhedron r = placed(spike, pose);
  EXPECT_NEAR(vertex_face_applicability(spike, r, apex, pose.rotate(Vec3(0, 0, 1))), std::sqrt(0.5),
              1e-13);
  EXPECT_NE(
      ErrorOf([&] { vertex_face_applicability(spike, w, 9, Vec3(0, 0, 1)); }).find("out of range"),
      std::string::npos);
}

// Two unit boxes, A rolled 45° about x (a top edge along x at z = √½), B rolled 45° about y
// (a bottom edge along y), B 0.01 above: the chosen ee normal points from A to B (+z) and the
// configuration is applicable (APPL_ee = cos 45°); swapping the roles flips the normal.
TEST(PegGeometry3d, EdgeEdgeNormalSign) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 1));
  const Real r = std::sqrt(0.5);
  const Pose3 pa{Vec3::Zero(), Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX()))};
  const Pose3 pb{Vec3(0, 0, 2 * r + 0.01), Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY()))};
  const WorldPolyhedron wa = placed(box, pa), wb = placed(box, pb);
  int ea = -1, eb = -1;
  for (int e = 0; e < box.num_edges(); ++e) {
    const Vec3 ma = 0.5 * (wa.vertices[box.edges[e].tail] + wa.vertices[box.edges[e].head]);
    const Vec3 mb = 0.5 * (wb.vertices[box.edges[e].tail] + wb.vertices[box.edges[e].head]);
    if ((ma - Vec3(0, 0, r)).norm() < 1e-12) ea = e;
    if ((mb - Vec3(0, 0, r + 0.01)).norm() < 1e-12) eb = e;
  }
  ASSERT_GE(ea, 0);
  ASSERT_GE(eb, 0);
  Contact c;
  Real appl = 0;
  ASSERT_TRUE(edge_edge_contact(box, wa, 0, ea, box, wb, 1, eb, 1e-6, c, &appl));
  EXPECT_NEAR((c.normal - Vec3(0, 0, 1)).norm(), 0, 1e-12);
  EXPECT_NEAR(c.gap, 0.01, 1e-12);
  EXPECT_NEAR(appl, r, 1e-12);
  Contact swapped;
  ASSERT_TRUE(edge_edge_contact(box, wb, 1, eb, box, wa, 0, ea, 1e-6, swapped, &appl));
  EXPECT_NEAR((swapped.normal - Vec3(0, 0, -1)).norm(), 0, 1e-12);
  EXPECT_NEAR(swapped.gap, 0.01, 1e-12);
  // Parallel edges give no contact (docs/peg.md "Tricky cases" item 4).
  EXPECT_FALSE(edge_edge_contact(box, wa, 0, ea, box, wa, 1, ea, 1e-6, c));
}

// FEAS_vf branches on the top face (z = 0.5, [−0.5, 0.5]²) of a unit box with φ = 0.4, δ = 0.0025,
// proximity 0.1.
TEST(PegGeometry3d, VertexFaceFeasibilityBranches) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 1));
  const WorldPolyhedron w = placed(box, Pose3{});
  const int top = find_face(w, Vec3(0, 0, 1));
  ASSERT_GE(top, 0);
  auto feas = [&](Vec3 p) { return vertex_face_feasibility(p, box, w, top, 0.1, 0.4, 0.0025); };
  // Projects inside: feasible iff ψ ≥ −δ.
  EXPECT_TRUE(feas({0.1, 0.2, 0.55}).feasible);
  EXPECT_TRUE(feas({0.1, 0.2, 0.499}).feasible);
  EXPECT_FALSE(feas({0.1, 0.2, 0.49}).feasible);
  EXPECT_TRUE(feas({0.1, 0.2, 0.5}).inside);
  // Outside across the edge x = 0.5: feasible iff asin(ψ/D) ≥ −φ.
  const auto level = feas({0.55, 0, 0.5});
  EXPECT_FALSE(level.inside);
  EXPECT_NEAR(level.outside, 0.05, 1e-14);
  EXPECT_TRUE(level.feasible);
  EXPECT_TRUE(feas({0.55, 0, 0.48}).feasible);   // asin(−0.02/0.0539) = −0.38
  EXPECT_FALSE(feas({0.55, 0, 0.47}).feasible);  // asin(−0.03/0.0583) = −0.54
  // Beyond a corner the nearest feature is the corner (Voronoi), not an edge.
  const auto corner = feas({0.53, 0.53, 0.5});
  EXPECT_NEAR(corner.outside, 0.03 * std::sqrt(2.0), 1e-14);
  EXPECT_NEAR(corner.distance, 0.03 * std::sqrt(2.0), 1e-14);
  // asin(−0.03/√(0.03²·3)) = −0.615 < −0.4 from the corner; the nearest-edge rule would have
  // seen asin(−0.03/√(2·0.03²)) = −0.785 as well, so take a case where they differ:
  // ψ = −0.02: corner → asin(−0.02/0.0480) = −0.430 (infeasible), edge → asin(−0.02/0.036) = −0.59.
  EXPECT_FALSE(feas({0.53, 0.53, 0.48}).feasible);
  // ψ = −0.015: corner → asin(−0.015/0.0459) = −0.333 (feasible), the nearest-edge distance
  // (0.03) would give asin(−0.015/0.0335) = −0.464 (infeasible): the authors' defect (docs/peg.md
  // "Defects not replicated" item 7).
  EXPECT_TRUE(feas({0.53, 0.53, 0.485}).feasible);
  // Proximity: farther than 0.1 from the polygon.
  EXPECT_FALSE(feas({0.1, 0.2, 0.61}).feasible);
  EXPECT_FALSE(feas({0.62, 0, 0.5}).feasible);
}

Contact with_gap(Real gap) {
  Contact c;
  c.gap = gap;
  return c;
}

TEST(PegGeometry3d, PrimaryHeuristics) {
  // Vertex against faces: the smallest ψ among ψ ≥ −1e−4.
  const Contact cs[4] = {with_gap(0.03), with_gap(-0.02), with_gap(0.001), with_gap(-5e-5)};
  const int all[4] = {0, 1, 2, 3};
  EXPECT_EQ(primary_vertex_faces(cs, all, 1e-4), 3);
  const int some[3] = {0, 1, 2};
  EXPECT_EQ(primary_vertex_faces(cs, some, 1e-4), 2);
  // None qualifies: the least violated.
  const Contact deep[3] = {with_gap(-0.3), with_gap(-0.1), with_gap(-0.2)};
  const int three[3] = {0, 1, 2};
  EXPECT_EQ(primary_vertex_faces(deep, three, 1e-4), 1);
  EXPECT_EQ(primary_vertex_faces(deep, std::span<const int>(), 1e-4), -1);
  // Vertex–edge pair.
  EXPECT_TRUE(vertex_edge_primary_is_first(with_gap(0.001), with_gap(0.02), 0.005));
  EXPECT_FALSE(vertex_edge_primary_is_first(with_gap(0.02), with_gap(0.001), 0.005));
  EXPECT_FALSE(vertex_edge_primary_is_first(with_gap(-0.01), with_gap(-0.004), 0.005));
  EXPECT_TRUE(vertex_edge_primary_is_first(with_gap(-0.01), with_gap(-0.02), 0.005));
}

// ψ of a vertex–face / edge–edge contact as a function of B's pose, differentiated along a
// twist ξ = (v, ω) of B: dψ/dt must equal G_Bᵀ ξ (docs/collision.md); the same for A with G_A.
template <class GapFn>
void check_jacobian(const Pose3& pa, const Pose3& pb, GapFn gap, const Contact& c) {
  Vec6 ga, gb;
  contact_jacobian(c, 3, pa.position, pb.position, ga, gb);
  const Vec6 xi = (Vec6() << 0.3, -0.7, 0.2, 0.9, 0.4, -0.6).finished();
  auto moved = [&](const Pose3& p, Real t) {
    Pose3 out = p;
    out.position += t * xi.head<3>();
    const Vec3 w = t * xi.tail<3>();
    out.orientation =
        (Quat(Eigen::AngleAxisd(w.norm(), w.normalized())) * p.orientation).normalized();
    return out;
  };
  const Real t = 1e-6;
  const Real d_b = (gap(pa, moved(pb, t)) - gap(pa, moved(pb, -t))) / (2 * t);
  const Real d_a = (gap(moved(pa, t), pb) - gap(moved(pa, -t), pb)) / (2 * t);
  EXPECT_NEAR(d_b, gb.dot(xi), 1e-7);
  EXPECT_NEAR(d_a, ga.dot(xi), 1e-7);
}

TEST(PegGeometry3d, ContactBuildersMatchFiniteDifferences) {
  const ConvexPolyhedron a = make_icosahedron(0.5);
  const ConvexPolyhedron b = make_box(Vec3(1, 0.8, 0.6));
  const Pose3 pa{Vec3(0.1, 0.2, 0.9), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()))};
  const Pose3 pb{Vec3(0, 0, 0), Quat(Eigen::AngleAxisd(0.3, Vec3(-1, 0.5, 2).normalized()))};
  const int v = 3, f = 2;
  auto vf_gap = [&](const Pose3& qa, const Pose3& qb) {
    return vertex_face_contact(qa.apply(a.vertices[v]), 0, v, b, placed(b, qb), 1, f).gap;
  };
  const WorldPolyhedron wa = placed(a, pa), wb = placed(b, pb);
  const Contact vf = vertex_face_contact(wa.vertices[v], 0, v, b, wb, 1, f);
  EXPECT_NEAR(vf.gap, vf_gap(pa, pb), 1e-15);
  check_jacobian(pa, pb, vf_gap, vf);

  int checked = 0;
  for (int ea = 0; ea < a.num_edges() && checked < 3; ++ea)
    for (int eb = 0; eb < b.num_edges() && checked < 3; ++eb) {
      Contact ee;
      if (!edge_edge_contact(a, wa, 0, ea, b, wb, 1, eb, 1e-6, ee)) continue;
      const PolyhedronEdge &xa = a.edges[ea], &xb = b.edges[eb];
      const SegmentClosestPoints cp = closest_points_segments(
          wa.vertices[xa.tail], wa.vertices[xa.head], wb.vertices[xb.tail], wb.vertices[xb.head]);
      // Interior closest points only: at a clamped end p_b − p_a is not along n̂ and the
      // linearisation G is not the derivative of this ψ.
      if (!(cp.s > 0.05 && cp.s < 0.95 && cp.t > 0.05 && cp.t < 0.95)) continue;
      // Keep the normal of the base configuration: ψ = n̂·(p_b − p_a) of the closest points.
      auto ee_gap = [&](const Pose3& qa, const Pose3& qb) {
        Contact k;
        edge_edge_contact(a, placed(a, qa), 0, ea, b, placed(b, qb), 1, eb, 1e-6, k);
        return k.normal.dot(ee.normal) > 0 ? k.gap : -k.gap;
      };
      check_jacobian(pa, pb, ee_gap, ee);
      ++checked;
    }
  EXPECT_EQ(checked, 3);
}

}  // namespace
}  // namespace exactsim::peg_geometry_3d_test
