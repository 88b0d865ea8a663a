// 2D narrow phase: which vertex–edge pairs become potential contacts, and their ψ, n̂, p_a
// (docs/collision.md "Conventions"; docs/collision.md "Narrow phase: detection rules"), on
// hand-built configurations and the worked example of docs/peg.md.
#include "exactsim/collision/vertex_edge.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "exactsim/collision/contact_jacobian.h"
#include "exactsim/collision/corrective.h"
#include "exactsim/math/error.h"

namespace exactsim::vertex_edge_test {
namespace {

WorldPolygon placed(const ConvexPolygon& shape, const Pose2& pose) {
  WorldPolygon w;
  place(shape, pose, w);
  return w;
}

int find_vertex(const WorldPolygon& p, const Vec2& x) {
  for (int i = 0; i < static_cast<int>(p.vertices.size()); ++i) {
    if ((p.vertices[i] - x).norm() < 1e-12) return i;
  }
  return -1;
}

// Edge index of `p` running from vertex position `tail` to `head`.
int find_edge(const WorldPolygon& p, const Vec2& tail, const Vec2& head) {
  const int i = find_vertex(p, tail);
  const int n = static_cast<int>(p.vertices.size());
  if (i < 0 || (p.vertices[(i + 1) % n] - head).norm() > 1e-12) return -1;
  return i;
}

const Contact* find(const std::vector<Contact>& cs, int body_a, int feature_a, int feature_b) {
  for (const Contact& c : cs) {
    if (c.body_a == body_a && c.feature_a == feature_a && c.feature_b == feature_b) return &c;
  }
  return nullptr;
}

TEST(VertexEdge, SquareOnWideFloorTouchesWithItsTwoBottomVertices) {
  const WorldPolygon square = placed(make_box(Vec2(1, 1)), Pose2{Vec2(0, 0.5), 0});
  const WorldPolygon floor = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5), 0});
  std::vector<Contact> cs;
  vertex_edge_contacts(square, 0, floor, 1, 1e-3, cs);
  ASSERT_EQ(cs.size(), 2u);
  const int top = find_edge(floor, Vec2(2, 0), Vec2(-2, 0));
  ASSERT_GE(top, 0);
  for (const Contact& c : cs) {
    EXPECT_EQ(c.type, ContactType::kVertexEdge);
    EXPECT_EQ(c.body_a, 0);
    EXPECT_EQ(c.body_b, 1);
    EXPECT_EQ(c.feature_b, top);
    EXPECT_NEAR(c.point_a.y(), 0.0, 1e-15);
    EXPECT_NEAR(std::abs(c.point_a.x()), 0.5, 1e-15);
    EXPECT_NEAR(c.gap, 0.0, 1e-15);
    EXPECT_NEAR(c.distance, 0.0, 1e-15);
    EXPECT_LT((c.normal - Vec3(0, -1, 0)).norm(), 1e-15);  // from the square down into the floor
  }
  EXPECT_LT(cs[0].feature_a, cs[1].feature_a);  // documented order: A's vertices ascending
}

TEST(VertexEdge, SquareOnEqualWidthFloorAlsoSeesTheFloorCorners) {
  // Corners coincide: each bottom vertex of the square is within ε of the floor's top edge and
  // of a side edge; each top corner of the floor of the square's bottom edge and a side edge.
  const WorldPolygon square = placed(make_box(Vec2(1, 1)), Pose2{Vec2(0, 0.5), 0});
  const WorldPolygon floor = placed(make_box(Vec2(1, 1)), Pose2{Vec2(0, -0.5), 0});
  std::vector<Contact> cs;
  vertex_edge_contacts(square, 0, floor, 1, 1e-3, cs);
  ASSERT_EQ(cs.size(), 8u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(cs[k].body_a, k < 4 ? 0 : 1) << "square's vertices first, then the floor's";
    EXPECT_NEAR(cs[k].gap, 0.0, 1e-15);
    EXPECT_NEAR(cs[k].point_a.y(), 0.0, 1e-15);
  }
  const int sq_left = find_edge(square, Vec2(-0.5, 1), Vec2(-0.5, 0));
  const int floor_corner = find_vertex(floor, Vec2(-0.5, 0));
  const Contact* c = find(cs, 1, floor_corner, sq_left);
  ASSERT_NE(c, nullptr);
  EXPECT_LT((c->normal - Vec3(1, 0, 0)).norm(), 1e-15);  // −(outward normal of the left edge)
}

TEST(VertexEdge, GapThresholdIsTheSegmentDistance) {
  const Real eps = 1e-3;
  const WorldPolygon floor = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5), 0});
  std::vector<Contact> cs;
  vertex_edge_contacts(placed(make_box(Vec2(1, 1)), Pose2{Vec2(0, 0.5 + 0.5 * eps), 0}), 0, floor,
                       1, eps, cs);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_NEAR(cs[0].gap, 0.5 * eps, 1e-15);
  EXPECT_NEAR(cs[0].distance, 0.5 * eps, 1e-15);
  cs.clear();
  vertex_edge_contacts(placed(make_box(Vec2(1, 1)), Pose2{Vec2(0, 0.5 + 2 * eps), 0}), 0, floor, 1,
                       eps, cs);
  EXPECT_TRUE(cs.empty());
  // Penetrating by 0.5ε: ψ < 0, still a contact.
  vertex_edge_contacts(placed(make_box(Vec2(1, 1)), Pose2{Vec2(0, 0.5 - 0.5 * eps), 0}), 0, floor,
                       1, eps, cs);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_NEAR(cs[0].gap, -0.5 * eps, 1e-15);
  EXPECT_NEAR(cs[0].distance, 0.5 * eps, 1e-15);
}

TEST(VertexEdge, AVertexDeeperThanEpsilonGetsOnlyItsExitEdge) {
  // The square's bottom corners 0.1 m (100 ε) inside the floor, nearer to its top than to its
  // sides or bottom: each gets the one contact against its exit edge, the top (docs/collision.md
  // "Narrow phase"), with ψ = −0.1; nothing else is within ε.
  const Real eps = 1e-3;
  const WorldPolygon floor = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5), 0});
  const WorldPolygon square = placed(make_box(Vec2(1, 1)), Pose2{Vec2(0.3, 0.4), 0});
  std::vector<Contact> cs;
  vertex_edge_contacts(square, 0, floor, 1, eps, cs);
  const int top = find_edge(floor, Vec2(2, 0), Vec2(-2, 0));
  ASSERT_EQ(cs.size(), 2u);
  for (const Contact& c : cs) {
    EXPECT_EQ(c.body_a, 0);
    EXPECT_EQ(c.feature_b, top);
    EXPECT_NEAR(c.point_a.y(), -0.1, 1e-15);
    EXPECT_NEAR(c.gap, -0.1, 1e-15);
    EXPECT_NEAR(c.distance, 0.1, 1e-15);
  }
  // Near the floor's right end the right side is nearer: a corner 0.1 deep and 0.05 from the
  // side leaves through the side.
  cs.clear();
  const WorldPolygon near_end = placed(make_box(Vec2(1, 1)), Pose2{Vec2(1.45, 0.4), 0});
  vertex_edge_contacts(near_end, 0, floor, 1, eps, cs);
  const int right = find_edge(floor, Vec2(2, -1), Vec2(2, 0));
  const Contact* c = find(cs, 0, find_vertex(near_end, Vec2(1.95, -0.1)), right);
  ASSERT_NE(c, nullptr);
  EXPECT_NEAR(c->gap, -0.05, 1e-15);
  EXPECT_EQ(cs.size(), 2u);  // that corner's exit edge, and the left corner's top edge
}

TEST(VertexEdge, GapIsToTheLineNotTheSegment) {
  // A vertex beyond the end of an edge: ψ is its distance to the edge's line (docs/collision.md),
  // `distance` the Euclidean distance to the segment's end.
  const WorldPolygon floor = placed(make_box(Vec2(2, 1)), Pose2{Vec2(0, -0.5), 0});
  const ConvexPolygon tri =
      polygon_from_points(std::vector<Vec2>{Vec2(0, 0), Vec2(1, 0.5), Vec2(0.2, 1)});
  const WorldPolygon a = placed(tri, Pose2{Vec2(1.03, 0.04), 0});  // vertex at (1.03, 0.04)
  std::vector<Contact> cs;
  vertex_edge_contacts(a, 0, floor, 1, 0.1, cs);
  const int v = find_vertex(a, Vec2(1.03, 0.04));
  const int top = find_edge(floor, Vec2(1, 0), Vec2(-1, 0));
  const int right = find_edge(floor, Vec2(1, -1), Vec2(1, 0));
  const Contact* c_top = find(cs, 0, v, top);
  const Contact* c_right = find(cs, 0, v, right);
  ASSERT_NE(c_top, nullptr);
  ASSERT_NE(c_right, nullptr);
  EXPECT_NEAR(c_top->gap, 0.04, 1e-12);
  EXPECT_NEAR(c_right->gap, 0.03, 1e-12);
  EXPECT_NEAR(c_top->distance, 0.05, 1e-12);
  EXPECT_NEAR(c_right->distance, 0.05, 1e-12);
}

// docs/peg.md "The worked example": A's vertex v_a = (0.02, 0.03) just past B's apex v_b = (0, 0) —
// the SM trap. The numbers below are that example's table (independent prototype, 6 digits).
TEST(VertexEdge, WorkedExampleOfSpec39) {
  const std::vector<Vec2> b_pts{Vec2(1, -1), Vec2(0, 0), Vec2(-1, -1)};
  const WorldPolygon b = placed(polygon_from_points(b_pts), Pose2{});
  const Vec2 com(0.02, (0.53 + 0.03 + 0.53) / 3);
  std::vector<Vec2> a_local;
  for (const Vec2& p : {Vec2(-0.98, 0.53), Vec2(0.02, 0.03), Vec2(1.02, 0.53)}) {
    a_local.push_back(p - com);
  }
  const WorldPolygon a = placed(polygon_from_points(a_local), Pose2{com, 0});
  const int A = 0, B = 1;
  std::vector<Contact> cs;
  vertex_edge_contacts(a, A, b, B, 0.04, cs);
  ASSERT_EQ(cs.size(), 4u);

  const Vec2 v_a(0.02, 0.03), v_b(0, 0);
  const int ia = find_vertex(a, v_a), ib = find_vertex(b, v_b);
  const int b_in = find_edge(b, Vec2(1, -1), v_b), b_out = find_edge(b, v_b, Vec2(-1, -1));
  const int a_in = find_edge(a, Vec2(-0.98, 0.53), v_a),
            a_out = find_edge(a, v_a, Vec2(1.02, 0.53));
  const Contact* c1 = find(cs, A, ia, b_in);
  const Contact* c2 = find(cs, A, ia, b_out);
  const Contact* c3 = find(cs, B, ib, a_in);
  const Contact* c4 = find(cs, B, ib, a_out);
  ASSERT_TRUE(c1 && c2 && c3 && c4);

  EXPECT_NEAR(c1->gap, 0.035355, 1e-6);
  EXPECT_NEAR(c2->gap, 0.007071, 1e-6);
  EXPECT_NEAR(c3->gap, 0.035777, 1e-6);
  EXPECT_NEAR(c4->gap, 0.017889, 1e-6);
  EXPECT_LT((c1->normal - Vec3(-0.707107, -0.707107, 0)).norm(), 1e-6);
  EXPECT_LT((c2->normal - Vec3(0.707107, -0.707107, 0)).norm(), 1e-6);

  // G restricted to A (B static): A is the first body of C_1, C_2 and the second of C_3, C_4.
  const Vec3 x_a(com.x(), com.y(), 0), x_b(0, 0, 0);
  Vec6 g_a, g_b;
  const auto g_of_a = [&](const Contact& c) -> Vec3 {
    if (c.body_a == A) {
      contact_jacobian(c, 2, x_a, x_b, g_a, g_b);
      return g_a.head<3>();
    }
    contact_jacobian(c, 2, x_b, x_a, g_a, g_b);
    return g_b.head<3>();
  };
  EXPECT_LT((g_of_a(*c1) - Vec3(0.707107, 0.707107, 0.235702)).norm(), 2e-6);
  EXPECT_LT((g_of_a(*c2) - Vec3(-0.707107, 0.707107, -0.235702)).norm(), 2e-6);
  EXPECT_LT((g_of_a(*c3) - Vec3(0.447214, 0.894427, 0.144599)).norm(), 2e-6);
  EXPECT_LT((g_of_a(*c4) - Vec3(-0.447214, 0.894427, -0.180376)).norm(), 2e-6);

  // The trap: v_a lies above both of B's edge lines (ψ_1, ψ_2 > 0) although it is past the
  // apex; the segment distance of C_2 is to the apex, not to the line.
  EXPECT_NEAR(c2->distance, (v_a - v_b).norm(), 1e-12);
}

TEST(VertexEdge, PredictedConfigurationAddsContactsButValuesStayCurrent) {
  const Real eps = 1e-3;
  const ConvexPolygon box = make_box(Vec2(1, 1));
  const WorldPolygon floor = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5), 0});
  const WorldPolygon now = placed(box, Pose2{Vec2(0, 0.5 + 5 * eps), 0});
  // Falling: in the predicted configuration the bottom is 0.5ε above the floor.
  const WorldPolygon later = placed(box, Pose2{Vec2(0, 0.5 + 0.5 * eps), 0});
  std::vector<Contact> cs;
  vertex_edge_contacts(now, 0, floor, 1, eps, cs);
  EXPECT_TRUE(cs.empty());
  vertex_edge_contacts(now, later, 0, floor, floor, 1, eps, ProximityRule::kCurrentOrPredicted, cs);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_NEAR(cs[0].gap, 5 * eps, 1e-15);
  EXPECT_NEAR(cs[0].distance, 5 * eps, 1e-15);
  // The floor moving up instead (relative motion is what matters).
  cs.clear();
  const WorldPolygon floor_later =
      placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5 + 4.5 * eps), 0});
  vertex_edge_contacts(now, now, 0, floor, floor_later, 1, eps, ProximityRule::kCurrentOrPredicted,
                       cs);
  EXPECT_EQ(cs.size(), 2u);
  // Moving away: nothing in either configuration.
  cs.clear();
  vertex_edge_contacts(now, placed(box, Pose2{Vec2(0, 1), 0}), 0, floor, floor, 1, eps,
                       ProximityRule::kSwept, cs);
  EXPECT_TRUE(cs.empty());
  // Mismatched predicted polygon.
  const WorldPolygon triangle = placed(make_regular_polygon(3, 0.5), Pose2{});
  EXPECT_THROW(
      vertex_edge_contacts(now, triangle, 0, floor, floor, 1, eps, ProximityRule::kSwept, cs),
      InputError);
}

TEST(VertexEdge, SweptRuleCatchesAVertexThatJumpsAcrossTheBand) {
  // A box falling 20ε in one step: 5ε above the floor now, 15ε inside it in the predicted
  // configuration. Neither configuration is within ε, so the authors' rule misses the impact
  // and the vertex is never seen again (docs/peg.md "Tricky cases" item 11); the swept rule catches
  // it.
  const Real eps = 1e-3;
  const ConvexPolygon box = make_box(Vec2(1, 1));
  const WorldPolygon floor = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5), 0});
  const WorldPolygon now = placed(box, Pose2{Vec2(0, 0.5 + 5 * eps), 0});
  const WorldPolygon later = placed(box, Pose2{Vec2(0, 0.5 - 15 * eps), 0});
  std::vector<Contact> cs;
  vertex_edge_contacts(now, later, 0, floor, floor, 1, eps, ProximityRule::kCurrentOrPredicted, cs);
  EXPECT_TRUE(cs.empty());
  vertex_edge_contacts(now, later, 0, floor, floor, 1, eps, ProximityRule::kSwept, cs);
  ASSERT_EQ(cs.size(), 2u);
  for (const Contact& c : cs) {
    EXPECT_EQ(c.body_a, 0);
    EXPECT_NEAR(c.gap, 5 * eps, 1e-15);  // values from the current configuration
  }
  // The same relative motion with the floor rising instead: the rule sees relative motion.
  cs.clear();
  const WorldPolygon floor_later = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5 + 20 * eps), 0});
  vertex_edge_contacts(now, now, 0, floor, floor_later, 1, eps, ProximityRule::kSwept, cs);
  EXPECT_EQ(cs.size(), 2u);
  // Sliding parallel to the floor 1 m per step, 5ε above it: no contact either way.
  cs.clear();
  vertex_edge_contacts(now, placed(box, Pose2{Vec2(1, 0.5 + 5 * eps), 0}), 0, floor, floor, 1, eps,
                       ProximityRule::kSwept, cs);
  EXPECT_TRUE(cs.empty());
}

TEST(VertexEdge, RejectsBadEpsilon) {
  const WorldPolygon a = placed(make_box(Vec2(1, 1)), Pose2{});
  std::vector<Contact> cs;
  EXPECT_THROW(vertex_edge_contacts(a, 0, a, 1, -1.0, cs), InputError);
  EXPECT_THROW(vertex_edge_contacts(a, 0, a, 1, std::numeric_limits<Real>::quiet_NaN(), cs),
               InputError);
  EXPECT_DOUBLE_EQ(default_vertex_edge_epsilon(0.01), 0.005);
  EXPECT_DOUBLE_EQ(default_vertex_edge_epsilon(0.001), 0.0008);
}

TEST(VertexEdge, FrameInvarianceAndDeterminism) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::size_t total = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const ConvexPolygon pa = random_convex_polygon(rng), pb = random_convex_polygon(rng);
    const Pose2 qa{Vec2(u(rng), u(rng)) * 0.1, 3 * u(rng)},
        qb{Vec2(u(rng), u(rng)) * 0.1 + Vec2(0.2, 0), 3 * u(rng)};
    const Real phi = 3 * u(rng);
    const Vec2 t(5 * u(rng), 5 * u(rng));
    const Pose2 rot{Vec2::Zero(), phi};
    const Pose2 qa2{rot.rotate(qa.position) + t, qa.angle + phi};
    const Pose2 qb2{rot.rotate(qb.position) + t, qb.angle + phi};
    const Real eps = 0.05;
    std::vector<Contact> c1, c2, c3;
    vertex_edge_contacts(placed(pa, qa), 0, placed(pb, qb), 1, eps, c1);
    vertex_edge_contacts(placed(pa, qa2), 0, placed(pb, qb2), 1, eps, c2);
    vertex_edge_contacts(placed(pa, qa), 0, placed(pb, qb), 1, eps, c3);
    // Same call, bit-identical output.
    ASSERT_EQ(c1.size(), c3.size());
    for (std::size_t k = 0; k < c1.size(); ++k) {
      EXPECT_EQ(c1[k].feature_a, c3[k].feature_a);
      EXPECT_EQ(c1[k].gap, c3[k].gap);
      EXPECT_EQ(c1[k].normal, c3[k].normal);
    }
    // Moved frame: same features (a pair exactly at ε could flip; none in these draws), ψ and
    // distance unchanged, points and normals moved.
    ASSERT_EQ(c1.size(), c2.size()) << "trial " << trial;
    total += c1.size();
    for (std::size_t k = 0; k < c1.size(); ++k) {
      EXPECT_EQ(c1[k].body_a, c2[k].body_a);
      EXPECT_EQ(c1[k].feature_a, c2[k].feature_a);
      EXPECT_EQ(c1[k].feature_b, c2[k].feature_b);
      EXPECT_NEAR(c1[k].gap, c2[k].gap, 1e-12);
      EXPECT_NEAR(c1[k].distance, c2[k].distance, 1e-12);
      const Vec2 p = rot.rotate(c1[k].point_a.head<2>()) + t;
      const Vec2 n = rot.rotate(c1[k].normal.head<2>());
      EXPECT_LT((p - c2[k].point_a.head<2>()).norm(), 1e-12);
      EXPECT_LT((n - c2[k].normal.head<2>()).norm(), 1e-12);
      EXPECT_EQ(c2[k].point_a.z(), 0.0);
      EXPECT_NEAR(c2[k].normal.norm(), 1.0, 1e-15);
    }
  }
  EXPECT_GT(total, 30u);
}

}  // namespace
}  // namespace exactsim::vertex_edge_test

namespace exactsim::vertex_edge_test {
namespace {

TEST(Corrective, OneContactPerOverlappingPairAlongTheShallowestAxis) {
  const WorldPolygon floor = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5), 0});
  std::vector<Contact> cs;
  // Touching or apart: no contact (contacts appear only after penetration).
  corrective_contact_2d(placed(make_box(Vec2(1, 1)), Pose2{Vec2(0, 0.5), 0}), 0, floor, 1, cs);
  EXPECT_TRUE(cs.empty());
  // Sunk 0.01 m: ψ = −0.01, normal A → B points down into the floor, point inside the overlap.
  corrective_contact_2d(placed(make_box(Vec2(1, 1)), Pose2{Vec2(0.3, 0.49), 0}), 0, floor, 1, cs);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].gap, -0.01, 1e-12);
  EXPECT_LT((cs[0].normal - Vec3(0, -1, 0)).norm(), 1e-12);
  EXPECT_NEAR(cs[0].point_a.x(), 0.3, 1e-12);
  EXPECT_NEAR(cs[0].point_a.y(), -0.005, 1e-12);
}

}  // namespace
}  // namespace exactsim::vertex_edge_test
