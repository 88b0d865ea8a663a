// 3D narrow phase: vertex–face and edge–edge potential contacts (docs/collision.md "Narrow phase:
// detection rules") on hand-built configurations, frame invariance, determinism and parallel edges.
#include "exactsim/collision/polyhedron_contacts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <utility>

#include "exactsim/collision/closest_points.h"
#include "exactsim/collision/edge_edge.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

WorldPolyhedron placed(const ConvexPolyhedron& shape, const Pose3& pose) {
  WorldPolyhedron w;
  place(shape, pose, w);
  return w;
}

int count_type(const std::vector<Contact>& cs, ContactType t) {
  int n = 0;
  for (const Contact& c : cs) n += c.type == t;
  return n;
}

Pose3 pose(const Vec3& x, Real angle = 0, const Vec3& axis = Vec3::UnitZ()) {
  return Pose3{x, Quat(Eigen::AngleAxisd(angle, axis.normalized()))};
}

TEST(PolyhedronContacts, CubeOnFloorGivesFourVertexFaceContacts) {
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1)), floor = make_box(Vec3(10, 10, 1));
  const WorldPolyhedron wc = placed(cube, pose(Vec3(0, 0, 0.5)));
  const WorldPolyhedron wf = placed(floor, pose(Vec3(0, 0, -0.5)));
  std::vector<Contact> cs;
  polyhedron_contacts(cube, wc, 0, floor, wf, 1, {0.01, 0.01, 1e-6}, cs);
  ASSERT_EQ(cs.size(), 4u);
  for (const Contact& c : cs) {
    EXPECT_EQ(c.type, ContactType::kVertexFace);
    EXPECT_EQ(c.body_a, 0);
    EXPECT_NEAR(c.point_a.z(), 0.0, 1e-15);
    EXPECT_NEAR(c.gap, 0.0, 1e-15);
    EXPECT_NEAR(c.distance, 0.0, 1e-15);
    EXPECT_LT((c.normal - Vec3(0, 0, -1)).norm(), 1e-15);
    EXPECT_NEAR(floor.faces[c.feature_b].normal.z(), 1.0, 1e-15);  // the floor's top face
  }
  // Lifted by 2ε: nothing.
  cs.clear();
  polyhedron_contacts(cube, placed(cube, pose(Vec3(0, 0, 0.52))), 0, floor, wf, 1,
                      {0.01, 0.01, 1e-6}, cs);
  EXPECT_TRUE(cs.empty());
}

TEST(PolyhedronContacts, NearlyFlatEdgesGiveNoEdgeEdgeContacts) {
  // A floor whose top is two faces meeting at a ridge along y with normals 0.008 rad apart
  // (η̂_1·η̂_2 > 0.995: "nearly flat", docs/geometry3d.md). The cube's bottom edges along x cross the
  // ridge at distance 0, but the ridge is face interior: only the 4 vertex–face contacts.
  const Real r = 0.02;
  std::vector<Vec3> pts;
  for (Real x : {-5.0, 5.0}) {
    for (Real y : {-5.0, 5.0}) {
      pts.push_back(Vec3(x, y, -1));
      pts.push_back(Vec3(x, y, 0));
    }
  }
  pts.push_back(Vec3(0, -5, r));
  pts.push_back(Vec3(0, 5, r));
  const ConvexPolyhedron floor = polyhedron_from_points(pts);
  int flat = 0;
  for (const PolyhedronEdge& e : floor.edges) flat += e.nearly_flat;
  ASSERT_EQ(flat, 1);
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  std::vector<Contact> cs;
  polyhedron_contacts(cube, placed(cube, pose(Vec3(0, 0, 0.5 + r))), 0, floor,
                      placed(floor, Pose3{}), 1, {0.01, 0.01, 1e-6}, cs);
  EXPECT_EQ(count_type(cs, ContactType::kEdgeEdge), 0);
  EXPECT_EQ(count_type(cs, ContactType::kVertexFace), 4);
  // Bottom vertices at x = ±0.5 sit 0.1 r above the faces sloping by r/5.
  for (const Contact& c : cs) EXPECT_NEAR(c.gap, 0.1 * r / std::sqrt(1 + (r / 5) * (r / 5)), 1e-12);
}

// A roof whose two faces meet at a ridge along y at x = 0, sloping by kRoofSlope (2°: normals
// 4° apart, nearly flat), 2 m wide, on a 0.5 m base.
constexpr Real kRoofSlope = 2 * M_PI / 180;
ConvexPolyhedron make_roof() {
  std::vector<Vec3> pts;
  for (Real y : {-2.0, 2.0}) {
    for (Real x : {-1.0, 1.0}) {
      pts.push_back(Vec3(x, y, -0.5));
      pts.push_back(Vec3(x, y, 0));
    }
    pts.push_back(Vec3(0, y, std::tan(kRoofSlope)));
  }
  return polyhedron_from_points(pts);
}

// The index of the shape's one nearly flat edge, −1 unless it has exactly one.
int only_flat_edge(const ConvexPolyhedron& shape) {
  int ridge = -1, flat = 0;
  for (int e = 0; e < shape.num_edges(); ++e)
    if (shape.edges[e].nearly_flat) ridge = e, ++flat;
  return flat == 1 ? ridge : -1;
}

TEST(PolyhedronContacts, ABarOverANearlyFlatRidgeIsAnEdgeEdgeContact) {
  // A roof whose two faces meet at a ridge along y, sloping by 2° (normals 4° apart: nearly flat),
  // and a 1 m bar of 5 cm section turned 45° about its axis (x), lying across the ridge with its
  // lowest edge d below the ridge (d < 0: above it). The bar's end vertices stay above the roof
  // (it falls by 0.5 tan 2° = 17.5 mm over the half-length), so no vertex of either body is inside
  // the other, and the flat ridge is no edge to the ordinary rule: the bar could sink across it
  // with every vertex outside. As a sharp edge pointing into the ridge (APPL_ee > 0), it gets the
  // pair's ee record, crossed or not (docs/collision.md "Flat ridges"); the crossing rule alone
  // acts only below 0.1 ε_ee (5 mm here), so d = 3 mm would sink unconstrained.
  const Real slope = kRoofSlope, H = std::tan(slope);
  const ConvexPolyhedron roof = make_roof();
  const int ridge = only_flat_edge(roof);
  ASSERT_GE(ridge, 0);
  const ConvexPolyhedron bar = make_box(Vec3(1.0, 0.05, 0.05));
  // The whole scene turned 30° about the ridge (y), so that the bodies' boxes overlap while the bar
  // is above the ridge (ridge records are built only there, as crossings are).
  const Eigen::AngleAxis<Real> turn(M_PI / 6, Vec3::UnitY());
  const Pose3 roof_pose{Vec3::Zero(), Quat(turn)};
  const WorldPolyhedron w_roof = placed(roof, roof_pose);
  const PolyhedronContactOptions opt{0.05, 0.05, 1e-6};
  for (const Real d : {0.01, 0.003, -0.003}) {
    const Pose3 bar_pose = pose(Vec3(0, 0, H - d + 0.05 * std::sqrt(0.5)), M_PI / 4, Vec3::UnitX());
    const WorldPolyhedron w_bar =
        placed(bar, Pose3{turn * bar_pose.position, Quat(turn) * bar_pose.orientation});
    ASSERT_TRUE(w_bar.aabb.overlaps(w_roof.aabb));
    std::vector<Contact> ee;
    edge_edge_contacts(bar, w_bar, 0, roof, w_roof, 1, opt.epsilon_ee, opt.parallel_sine, ee);
    EXPECT_TRUE(ee.empty()) << d;  // the ordinary rule alone: no contact
    std::vector<Contact> cs;
    polyhedron_contacts(bar, w_bar, 0, roof, w_roof, 1, opt, cs);
    ASSERT_EQ(count_type(cs, ContactType::kEdgeEdge), 1) << d;
    const Contact& c = cs.back();
    EXPECT_EQ(c.type, ContactType::kEdgeEdge);
    EXPECT_EQ(c.body_a, 0);
    EXPECT_EQ(c.feature_b, ridge);
    EXPECT_NEAR(c.gap, -d, 1e-12) << d;  // crossed: ψ < 0, the roof leaves downwards along n̂
    EXPECT_NEAR(c.distance, std::abs(d), 1e-12) << d;
    EXPECT_LT((c.normal - turn * Vec3(0, 0, -1)).norm(), 1e-12) << d;
    EXPECT_LT((c.point_a - turn * Vec3(0, 0, H - d)).norm(), 1e-12) << d;
  }
}

TEST(PolyhedronContacts, AnEdgeLyingInTheRidgeFacesPlaneKeepsItsContact) {
  // The roof of the test above (faces sloping by 2°, normals 4° apart) and its bar turned 45°
  // about its axis, with its lowest edge lying in the plane of the right face: on that face from
  // its right end, over the ridge for its last 0.3 m. The edge crosses the ridge at distance 0,
  // and their normal is the right face's, at the end of the ridge's Gauss arc: APPL_ee = 0 up to
  // round-off. Turned about the ridge by ±1e-9 rad (a body at rest turns by round-off from step
  // to step), the bar keeps its edge–edge contact on the ridge; without it, the bar pivots on its
  // right end and its edge sinks across the ridge. Turned 8° (the normal 8° past the arc's end,
  // twice the arc's widening), the ridge is no contact (docs/collision.md "Flat ridges").
  const Real slope = kRoofSlope, H = std::tan(slope);
  const ConvexPolyhedron roof = make_roof();
  const int ridge = only_flat_edge(roof);
  ASSERT_GE(ridge, 0);
  const WorldPolyhedron w_roof = placed(roof, Pose3{});
  const ConvexPolyhedron bar = make_box(Vec3(1.0, 0.05, 0.05));
  const Vec3 on_ridge(0, 0, H);
  const PolyhedronContactOptions opt{0.05, 0.05, 1e-6};
  const Vec3 right_face_normal(std::sin(slope), 0, std::cos(slope));
  auto ridge_contacts = [&](Real tilt) {
    const Quat turn = Quat(Eigen::AngleAxis<Real>(slope + tilt, Vec3::UnitY())) *
                      Quat(Eigen::AngleAxis<Real>(M_PI / 4, Vec3::UnitX()));
    // The lowest edge's ends (the two vertices deepest along the right face's normal), moved so
    // that the edge crosses the ridge 0.3 m from its left end.
    const WorldPolyhedron turned = placed(bar, Pose3{Vec3::Zero(), turn});
    std::vector<Vec3> v = turned.vertices;
    std::sort(v.begin(), v.end(), [&](const Vec3& p, const Vec3& q) {
      return p.dot(right_face_normal) < q.dot(right_face_normal);
    });
    const Vec3 left = v[0].x() < v[1].x() ? v[0] : v[1], right = v[0].x() < v[1].x() ? v[1] : v[0];
    const Vec3 centre = on_ridge - (left + 0.3 * (right - left));
    std::vector<Contact> cs;
    polyhedron_contacts(bar, placed(bar, Pose3{centre, turn}), 0, roof, w_roof, 1, opt, cs);
    std::vector<Contact> on;
    for (const Contact& c : cs)
      if (c.type == ContactType::kEdgeEdge && c.feature_b == ridge) on.push_back(c);
    return on;
  };
  for (const Real tilt : {-1e-9, 0.0, 1e-9}) {
    const std::vector<Contact> on = ridge_contacts(tilt);
    ASSERT_EQ(on.size(), 1u) << tilt;
    for (const Contact& c : on) {
      EXPECT_NEAR(c.gap, 0.0, 1e-12) << tilt;
      EXPECT_LT((c.normal + right_face_normal).norm(), 1e-8) << tilt;  // from the bar into the roof
    }
  }
  EXPECT_TRUE(ridge_contacts(8 * M_PI / 180).empty());
}

// A: unit cube turned 45° about x (lowest feature: an edge along x); B: unit cube turned 45°
// about y (highest feature: an edge along y). The two edges cross with vertical offset `gap`.
struct CrossingEdges {
  ConvexPolyhedron cube = make_box(Vec3(1, 1, 1));
  Pose3 upper, lower;
  explicit CrossingEdges(Real gap) {
    const Real half_diagonal = std::sqrt(0.5);
    upper = pose(Vec3(0.1, -0.05, half_diagonal + gap), M_PI / 4, Vec3::UnitX());
    lower = pose(Vec3(0, 0, -half_diagonal), M_PI / 4, Vec3::UnitY());
  }
};

TEST(PolyhedronContacts, CrossingEdgesGiveOneEdgeEdgeContactPointingFromAToB) {
  const Real gap = 0.02;
  const CrossingEdges s(gap);
  const PolyhedronContactOptions opt{0.05, 0.05, 1e-6};
  std::vector<Contact> cs;
  // Upper body as A: n̂ points down, from A to B.
  polyhedron_contacts(s.cube, placed(s.cube, s.upper), 0, s.cube, placed(s.cube, s.lower), 1, opt,
                      cs);
  ASSERT_EQ(cs.size(), 1u);
  const Contact up = cs[0];
  EXPECT_EQ(up.type, ContactType::kEdgeEdge);
  EXPECT_NEAR(up.gap, gap, 1e-12);
  EXPECT_NEAR(up.distance, gap, 1e-12);
  EXPECT_LT((up.normal - Vec3(0, 0, -1)).norm(), 1e-12);
  EXPECT_LT((up.point_a - Vec3(0, -0.05, gap)).norm(), 1e-12);  // on A's edge above B's
  // Lower body as A: the same contact seen from the other side (role swap, docs/collision.md
  // "Conventions").
  cs.clear();
  polyhedron_contacts(s.cube, placed(s.cube, s.lower), 5, s.cube, placed(s.cube, s.upper), 3, opt,
                      cs);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].body_a, 5);
  EXPECT_EQ(cs[0].body_b, 3);
  EXPECT_EQ(cs[0].feature_a, up.feature_b);
  EXPECT_EQ(cs[0].feature_b, up.feature_a);
  EXPECT_NEAR(cs[0].gap, gap, 1e-12);
  EXPECT_LT((cs[0].normal + up.normal).norm(), 1e-12);
  EXPECT_LT((cs[0].point_a - up.point_b()).norm(), 1e-12);
  // Interpenetrating edges: ψ < 0, the normal keeps its A → B orientation.
  const CrossingEdges deep(-0.03);
  cs.clear();
  polyhedron_contacts(deep.cube, placed(deep.cube, deep.upper), 0, deep.cube,
                      placed(deep.cube, deep.lower), 1, opt, cs);
  ASSERT_EQ(count_type(cs, ContactType::kEdgeEdge), 1);
  for (const Contact& c : cs) {
    if (c.type != ContactType::kEdgeEdge) continue;
    EXPECT_NEAR(c.gap, -0.03, 1e-12);
    EXPECT_LT((c.normal - Vec3(0, 0, -1)).norm(), 1e-12);
  }
}

TEST(EdgeEdgeNormal, SignAttainsTheLargerApplicabilityTerm) {
  // e_a × e_b = +z in all cases below; A hangs below its edge, B sits above its edge, so the
  // classical normal from A to B is +z.
  const Real h = std::sqrt(0.5);
  const Vec3 e_a(1, 0, 0), e_b(0, 1, 0);
  const Vec3 tb1 = Vec3(1, 0, 1).normalized(), tb2 = Vec3(-1, 0, 1).normalized();
  // The cube edge of docs/geometry3d.md "Conventions" (t_1 = (0,1,0), t_2 = (0,0,−1)): a = (0, −1),
  // b = (−h, −h); terms min(a, b) = −1 (for −n) and min(−a, −b) = 0 (for +n).
  const EdgeEdgeNormal n =
      edge_edge_normal(e_a, Vec3(0, 1, 0), Vec3(0, 0, -1), e_b, tb1, tb2, 1e-6);
  ASSERT_FALSE(n.parallel);
  EXPECT_LT((n.normal - Vec3(0, 0, 1)).norm(), 1e-15);
  EXPECT_NEAR(n.applicability, 0.0, 1e-15);
  // A ridge (both faces sloping down at 45°): strictly applicable, APPL = h.
  const Vec3 ta1 = Vec3(0, 1, -1).normalized(), ta2 = Vec3(0, -1, -1).normalized();
  const EdgeEdgeNormal r = edge_edge_normal(e_a, ta1, ta2, e_b, tb1, tb2, 1e-6);
  EXPECT_LT((r.normal - Vec3(0, 0, 1)).norm(), 1e-15);
  EXPECT_NEAR(r.applicability, h, 1e-15);
  // Same edges, A's edge reversed (e_a × e_b = −z): the chosen normal is still +z.
  const EdgeEdgeNormal rev = edge_edge_normal(-e_a, ta1, ta2, e_b, tb1, tb2, 1e-6);
  EXPECT_LT((rev.normal - Vec3(0, 0, 1)).norm(), 1e-15);
  EXPECT_NEAR(rev.applicability, h, 1e-15);
  // Swapping the roles flips the normal (it points from the new A to the new B).
  const EdgeEdgeNormal m = edge_edge_normal(e_b, tb1, tb2, e_a, ta1, ta2, 1e-6);
  EXPECT_LT((m.normal + r.normal).norm(), 1e-15);
  EXPECT_NEAR(m.applicability, r.applicability, 1e-15);
  // Parallel edges: no normal, APPL = −1, never NaN.
  const EdgeEdgeNormal p = edge_edge_normal(e_a, ta1, ta2, 2 * e_a, tb1, tb2, 1e-6);
  EXPECT_TRUE(p.parallel);
  EXPECT_EQ(p.applicability, -1);
  EXPECT_TRUE(p.normal.allFinite());
}

TEST(PolyhedronContacts, AlignedBoxesHaveNoNanAndNoParallelEdgeContacts) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 1));
  const WorldPolyhedron lower = placed(box, Pose3{});
  // Face to face, so each is a patch (collision/face_patch.h), whose vertex–face contacts are the
  // corners of the faces' overlap: aligned, the four of the upper box (4); shifted along x, two of
  // each box's corners, of which the two on the shared sides count as edge crossings (2); shifted
  // in x and y and lifted 1 mm, one corner of each body over the other's face (2).
  const std::pair<Vec3, int> cases[] = {
      {Vec3(0, 0, 1), 4}, {Vec3(0.3, 0, 1), 2}, {Vec3(0.3, 0.2, 1.001), 2}};
  for (const auto& [offset, expected_vf] : cases) {
    std::vector<Contact> cs;
    polyhedron_contacts(box, placed(box, pose(offset)), 0, box, lower, 1, {0.01, 0.01, 1e-6}, cs);
    EXPECT_EQ(count_type(cs, ContactType::kVertexFace), expected_vf);
    for (const Contact& c : cs) {
      EXPECT_TRUE(c.point_a.allFinite() && c.normal.allFinite() && std::isfinite(c.gap));
      EXPECT_NEAR(c.normal.norm(), 1.0, 1e-15);
      if (c.type == ContactType::kEdgeEdge) {
        const Vec3 ea = box.edge_vector(c.feature_a), eb = box.edge_vector(c.feature_b);
        EXPECT_GT(ea.cross(eb).norm(), 0.5);  // only perpendicular pairs; parallel ones skipped
      }
    }
  }
}

TEST(PolyhedronContacts, VertexFaceDistanceIsToThePolygon) {
  // A vertex beside the floor's top face (outside its boundary), above its plane: in range of
  // the plane but not of the polygon → no contact; moved over the face → contact.
  const ConvexPolyhedron floor = make_box(Vec3(2, 2, 1));
  const WorldPolyhedron wf = placed(floor, pose(Vec3(0, 0, -0.5)));
  const ConvexPolyhedron tetra = polyhedron_from_points(
      std::vector<Vec3>{Vec3(0, 0, 0), Vec3(1, 0, 1), Vec3(-1, 0, 1), Vec3(0, 1, 1)});
  std::vector<Contact> cs;
  polyhedron_contacts(tetra, placed(tetra, pose(Vec3(1.05, 0, 0.005))), 0, floor, wf, 1,
                      {0.02, 0.0, 1e-6}, cs);
  for (const Contact& c : cs)
    EXPECT_FALSE(c.body_a == 0 && floor.faces[c.feature_b].normal.z() > 0.5);
  cs.clear();
  polyhedron_contacts(tetra, placed(tetra, pose(Vec3(1.01, 0, 0.005))), 0, floor, wf, 1,
                      {0.02, 0.0, 1e-6}, cs);
  bool top = false;
  for (const Contact& c : cs) {
    if (c.body_a == 0 && floor.faces[c.feature_b].normal.z() > 0.5) {
      top = true;
      EXPECT_NEAR(c.gap, 0.005, 1e-12);                         // to the plane
      EXPECT_NEAR(c.distance, std::hypot(0.01, 0.005), 1e-12);  // to the face's edge
    }
  }
  EXPECT_TRUE(top);
}

std::vector<Contact> random_pair_contacts(const ConvexPolyhedron& a, const Pose3& pa,
                                          const ConvexPolyhedron& b, const Pose3& pb, Real eps) {
  std::vector<Contact> cs;
  polyhedron_contacts(a, placed(a, pa), 0, b, placed(b, pb), 1, {eps, eps, 1e-6}, cs);
  return cs;
}

TEST(PolyhedronContacts, FrameInvarianceAndDeterminism) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::size_t total_vf = 0, total_ee = 0;
  for (int trial = 0; trial < 15; ++trial) {
    const ConvexPolyhedron a = random_convex_polyhedron(rng), b = random_convex_polyhedron(rng);
    const Vec3 axis_a(u(rng), u(rng), u(rng)), axis_b(u(rng), u(rng), u(rng));
    const Pose3 pa = pose(Vec3(u(rng), u(rng), u(rng)) * 0.2, 3 * u(rng), axis_a);
    const Pose3 pb = pose(Vec3(0.8, 0, 0) + Vec3(u(rng), u(rng), u(rng)) * 0.2, 3 * u(rng), axis_b);
    const Quat r(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()));
    const Vec3 t(5 * u(rng), 5 * u(rng), 5 * u(rng));
    const Pose3 pa2{r * pa.position + t, r * pa.orientation},
        pb2{r * pb.position + t, r * pb.orientation};
    const Real eps = 0.15;
    const auto c1 = random_pair_contacts(a, pa, b, pb, eps);
    const auto c2 = random_pair_contacts(a, pa2, b, pb2, eps);
    const auto c3 = random_pair_contacts(a, pa, b, pb, eps);
    ASSERT_EQ(c1.size(), c3.size());
    for (std::size_t k = 0; k < c1.size(); ++k) {
      EXPECT_EQ(c1[k].feature_a, c3[k].feature_a);
      EXPECT_EQ(c1[k].feature_b, c3[k].feature_b);
      EXPECT_EQ(c1[k].gap, c3[k].gap);
      EXPECT_EQ(c1[k].point_a, c3[k].point_a);
      EXPECT_EQ(c1[k].normal, c3[k].normal);
    }
    ASSERT_EQ(c1.size(), c2.size()) << "trial " << trial;
    for (std::size_t k = 0; k < c1.size(); ++k) {
      EXPECT_EQ(c1[k].type, c2[k].type);
      EXPECT_EQ(c1[k].body_a, c2[k].body_a);
      EXPECT_EQ(c1[k].feature_a, c2[k].feature_a);
      EXPECT_EQ(c1[k].feature_b, c2[k].feature_b);
      EXPECT_NEAR(c1[k].gap, c2[k].gap, 1e-12);
      EXPECT_NEAR(c1[k].distance, c2[k].distance, 1e-12);
      EXPECT_LT((r * c1[k].point_a + t - c2[k].point_a).norm(), 1e-11);
      EXPECT_LT((r * c1[k].normal - c2[k].normal).norm(), 1e-11);
      total_vf += c1[k].type == ContactType::kVertexFace;
      total_ee += c1[k].type == ContactType::kEdgeEdge;
    }
    // Documented order: vf from A's vertices, vf from B's vertices, then ee.
    for (std::size_t k = 1; k < c1.size(); ++k) {
      const auto key = [](const Contact& c) {
        return std::tuple(static_cast<int>(c.type), c.body_a, c.feature_a, c.feature_b);
      };
      EXPECT_LT(key(c1[k - 1]), key(c1[k]));
    }
  }
  EXPECT_GT(total_vf, 10u);
  EXPECT_GT(total_ee, 10u);
}

// A domino leaning on the next, their side faces in one plane (docs/collision.md "Applicable
// pairs"): the leaning domino's top front edge lies on the upright's broad face, 10 µm inside it.
// Its two top vertices are also within ε of the upright's side faces, and its side edges cross the
// upright's vertical edges in those planes: records with normals ±ŷ at one point, whose features
// face away from each other (APPL −1). With min_applicability −0.4 they go, and the records that
// carry the lean stay, in any frame.
TEST(PolyhedronContacts, InapplicablePairsOfCoplanarSideFacesAreLeftOut) {
  const ConvexPolyhedron domino = make_box(Vec3(0.05, 0.25, 0.5));
  const Real tilt = 0.3;
  const Quat lean(Eigen::AngleAxisd(tilt, Vec3::UnitY()));
  const Vec3 corner = lean * Vec3(0.025, 0, 0.25);  // the top front edge's middle, from the centre
  const Vec3 leaning = Vec3(-0.025 + 1e-5, 0, 0.4) - corner;
  const Quat frames[] = {Quat::Identity(),
                         Quat(Eigen::AngleAxisd(1.1, Vec3(0.3, -0.8, 0.52).normalized()))};
  for (const Quat& frame : frames) {
    const WorldPolyhedron upright = placed(domino, Pose3{frame * Vec3(0, 0, 0.25), frame});
    const WorldPolyhedron leaner = placed(domino, Pose3{frame * leaning, frame * lean});
    const Vec3 side = frame * Vec3::UnitY(), broad = frame * Vec3::UnitX();
    const auto contacts = [&](Real min_applicability) {
      PolyhedronContactOptions o{0.01, 0.01, 1e-6};
      o.min_applicability = min_applicability;
      std::vector<Contact> cs;
      polyhedron_contacts(domino, leaner, 0, domino, upright, 1, o, cs);
      return cs;
    };
    const auto along = [](const std::vector<Contact>& cs, ContactType t, const Vec3& d) {
      int n = 0;
      for (const Contact& c : cs) n += c.type == t && std::abs(c.normal.dot(d)) > 0.99;
      return n;
    };
    const std::vector<Contact> every = contacts(-1), applicable = contacts(-0.4);
    EXPECT_GE(along(every, ContactType::kVertexFace, side), 2);
    EXPECT_GE(along(every, ContactType::kEdgeEdge, side), 2);
    EXPECT_EQ(along(applicable, ContactType::kVertexFace, side), 0);
    EXPECT_EQ(along(applicable, ContactType::kEdgeEdge, side), 0);
    // The two top vertices on the broad face.
    EXPECT_EQ(along(applicable, ContactType::kVertexFace, broad), 2);
    EXPECT_EQ(along(applicable, ContactType::kVertexFace, broad),
              along(every, ContactType::kVertexFace, broad));
  }
  // A box corner over a floor, its edges leaving the floor's plane upward: APPL_vf > 0, kept.
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1)), floor = make_box(Vec3(10, 10, 1));
  const Quat tipped =
      Quat(Eigen::AngleAxisd(0.6, Vec3::UnitX())) * Quat(Eigen::AngleAxisd(0.5, Vec3::UnitY()));
  const WorldPolyhedron wc = placed(cube, Pose3{Vec3::Zero(), tipped});
  Real lowest = std::numeric_limits<Real>::infinity();
  for (const Vec3& v : wc.vertices) lowest = std::min(lowest, v.z());
  const WorldPolyhedron lifted = placed(cube, Pose3{Vec3(0, 0, 0.001 - lowest), tipped});
  PolyhedronContactOptions o{0.01, 0.01, 1e-6};
  o.min_applicability = -0.4;
  std::vector<Contact> cs;
  polyhedron_contacts(cube, lifted, 0, floor, placed(floor, pose(Vec3(0, 0, -0.5))), 1, o, cs);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].gap, 0.001, 1e-12);
}

TEST(PolyhedronContacts, RejectsBadOptionsAndMismatchedPlacement) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 1));
  const WorldPolyhedron w = placed(box, Pose3{});
  std::vector<Contact> cs;
  EXPECT_THROW(polyhedron_contacts(box, w, 0, box, w, 1, {-1, 0.1, 1e-6}, cs), InputError);
  EXPECT_THROW(polyhedron_contacts(box, w, 0, box, w, 1,
                                   {0.1, std::numeric_limits<Real>::infinity(), 1e-6}, cs),
               InputError);
  PolyhedronContactOptions o;
  o.min_applicability = -1.5;
  EXPECT_THROW(polyhedron_contacts(box, w, 0, box, w, 1, o, cs), InputError);
  const ConvexPolyhedron ico = make_icosahedron(0.5);
  EXPECT_THROW(polyhedron_contacts(ico, w, 0, box, w, 1, {}, cs), InputError);
}

}  // namespace
}  // namespace exactsim
