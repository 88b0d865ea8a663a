// The archived standard-model baseline detection (docs/collision.md "Narrow phase: detection
// rules"): gap to the line below 0.07 and projection within 0.07 of the segment, no proximity to
// the segment required.
#include "exactsim/collision/standard_model_detection.h"

#include <gtest/gtest.h>

#include <limits>

#include "exactsim/collision/vertex_edge.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

WorldPolygon placed(const ConvexPolygon& shape, const Pose2& pose) {
  WorldPolygon w;
  place(shape, pose, w);
  return w;
}

TEST(StandardModelDetection, WorkedExampleOfSpec39GivesTheSameFourContacts) {
  const WorldPolygon b =
      placed(polygon_from_points(std::vector<Vec2>{Vec2(1, -1), Vec2(0, 0), Vec2(-1, -1)}), {});
  const Vec2 com(0.02, (0.53 + 0.03 + 0.53) / 3);
  std::vector<Vec2> a_local;
  for (const Vec2& p : {Vec2(-0.98, 0.53), Vec2(0.02, 0.03), Vec2(1.02, 0.53)}) {
    a_local.push_back(p - com);
  }
  const WorldPolygon a = placed(polygon_from_points(a_local), Pose2{com, 0});
  std::vector<Contact> sm, peg;
  standard_model_vertex_edge_contacts(a, 0, b, 1, {}, sm);
  vertex_edge_contacts(a, 0, b, 1, 0.04, peg);
  ASSERT_EQ(sm.size(), 4u);
  ASSERT_EQ(peg.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(sm[k].body_a, peg[k].body_a);
    EXPECT_EQ(sm[k].feature_a, peg[k].feature_a);
    EXPECT_EQ(sm[k].feature_b, peg[k].feature_b);
    EXPECT_EQ(sm[k].gap, peg[k].gap);
    EXPECT_EQ(sm[k].normal, peg[k].normal);
    EXPECT_EQ(sm[k].distance, peg[k].distance);
  }
}

TEST(StandardModelDetection, OverhangAndMarginsAndDepth) {
  const WorldPolygon floor = placed(make_box(Vec2(4, 1)), Pose2{Vec2(0, -0.5), 0});
  const ConvexPolygon box = make_box(Vec2(1, 1));
  // The square overhangs the floor's right end by 0.05: its right bottom vertex (2.05, 0) is a
  // contact with the top edge (ψ = 0, projected 0.05 past the end) and the side edge (ψ = 0.05).
  std::vector<Contact> cs;
  standard_model_vertex_edge_contacts(placed(box, Pose2{Vec2(1.55, 0.5), 0}), 0, floor, 1, {}, cs);
  int from_overhang = 0;
  for (const Contact& c : cs) {
    if (c.body_a == 0 && std::abs(c.point_a.x() - 2.05) < 1e-12) {
      ++from_overhang;
      EXPECT_NEAR(c.distance, 0.05, 1e-12);
    }
  }
  EXPECT_EQ(from_overhang, 2);
  // Projection 0.08 past the end: not a contact with the top edge any more.
  cs.clear();
  standard_model_vertex_edge_contacts(placed(box, Pose2{Vec2(1.58, 0.5), 0}), 0, floor, 1, {}, cs);
  for (const Contact& c : cs) EXPECT_LT(c.point_a.x(), 2.0 + 1e-12);
  // A square 0.1 deep in the floor: |ψ| ≥ 0.07, nothing from its bottom vertices.
  cs.clear();
  standard_model_vertex_edge_contacts(placed(box, Pose2{Vec2(0, 0.4), 0}), 0, floor, 1, {}, cs);
  EXPECT_TRUE(cs.empty());
  // 0.05 deep: both bottom vertices, ψ = −0.05.
  standard_model_vertex_edge_contacts(placed(box, Pose2{Vec2(0, 0.45), 0}), 0, floor, 1, {}, cs);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_NEAR(cs[0].gap, -0.05, 1e-12);
}

TEST(StandardModelDetection, RejectsBadOptions) {
  const WorldPolygon a = placed(make_box(Vec2(1, 1)), {});
  std::vector<Contact> cs;
  EXPECT_THROW(standard_model_vertex_edge_contacts(a, 0, a, 1, {-0.1, 0.07}, cs), InputError);
  EXPECT_THROW(standard_model_vertex_edge_contacts(
                   a, 0, a, 1, {0.07, std::numeric_limits<Real>::quiet_NaN()}, cs),
               InputError);
}

}  // namespace
}  // namespace exactsim
