// APPL_ve and the 2D primary heuristic (docs/peg.md "Algorithm" steps 1 and 6).
#include "exactsim/contact/peg_applicability.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "exactsim/contact/peg_primary.h"
#include "exactsim/geometry/pose.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

WorldPolygon placed(const ConvexPolygon& shape, const Vec2& x, Real theta) {
  WorldPolygon out;
  place(shape, Pose2{x, theta}, out);
  return out;
}

// The angle oracle: APPL is the cosine between η̂ and the edge at v that turns most towards B.
Real appl_by_angles(const WorldPolygon& p, int v, const Vec2& eta) {
  const int n = static_cast<int>(p.vertices.size());
  Real worst = 10;
  for (int u : {(v + n - 1) % n, (v + 1) % n}) {
    const Vec2 d = p.vertices[u] - p.vertices[v];
    const Real angle = std::atan2(d.y(), d.x()) - std::atan2(eta.y(), eta.x());
    worst = std::min(worst, std::cos(angle));
  }
  return worst;
}

TEST(PegApplicability, BoxCornerOnAFloorIsJustApplicable) {
  // Bottom-left corner of an axis-aligned box against a floor edge (η̂ = +y): one edge runs along
  // the floor (cos 90° = 0), the other away from it (cos 0° = 1): APPL = 0, Latombe's boundary.
  const WorldPolygon box = placed(make_box(Vec2(1, 1)), Vec2(0, 0.5), 0);
  EXPECT_NEAR(vertex_edge_applicability(box, 0, Vec2(0, 1)), 0.0, 1e-15);
}

TEST(PegApplicability, TipAgainstFloorAndWall) {
  // A diamond's bottom tip: both edges rise at 45°. Against a floor (η̂ = +y) it is applicable
  // (cos 45°); against a wall on its right (η̂ = −x) one edge points into the wall (−cos 45°).
  const WorldPolygon diamond =
      placed(make_regular_polygon(4, 1, -std::numbers::pi / 2), Vec2(0, 1), 0);
  ASSERT_LT(std::abs(diamond.vertices[0].x()), 1e-15);  // vertex 0 is the bottom tip
  EXPECT_NEAR(vertex_edge_applicability(diamond, 0, Vec2(0, 1)), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(vertex_edge_applicability(diamond, 0, Vec2(-1, 0)), -std::sqrt(0.5), 1e-15);
}

TEST(PegApplicability, MatchesTheAngleOracleAndIsFrameInvariant) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const ConvexPolygon shape = random_convex_polygon(rng);
    const Real theta = 0.1 * trial, phi = 0.37 * trial;
    const WorldPolygon p = placed(shape, Vec2(0.3, -0.2), theta);
    const WorldPolygon q = placed(shape, Vec2(-1.1, 2.0), theta + phi);  // whole scene rotated
    const Vec2 eta(std::cos(1.3 * trial), std::sin(1.3 * trial));
    const Vec2 eta_rotated = Eigen::Rotation2D<Real>(phi) * eta;
    for (int v = 0; v < shape.size(); ++v) {
      const Real a = vertex_edge_applicability(p, v, eta);
      EXPECT_NEAR(a, appl_by_angles(p, v, eta), 1e-12);
      EXPECT_NEAR(a, vertex_edge_applicability(q, v, eta_rotated), 1e-12);
      EXPECT_GE(a, -1.0);
      EXPECT_LE(a, 1.0);
    }
  }
}

TEST(PegApplicability, RejectsBadInput) {
  const WorldPolygon box = placed(make_box(Vec2(1, 1)), Vec2(0, 0), 0);
  EXPECT_THROW(vertex_edge_applicability(box, 4, Vec2(0, 1)), InputError);
  EXPECT_THROW(vertex_edge_applicability(box, -1, Vec2(0, 1)), InputError);
  std::vector<WorldPolygon> polygons = {box, box};
  Contact c;
  c.body_a = 0, c.body_b = 2, c.feature_a = 0, c.feature_b = 0;
  std::vector<Real> out;
  EXPECT_THROW(vertex_edge_applicability(polygons, std::vector<Contact>{c}, out), InputError);
  c.body_b = 1, c.type = ContactType::kVertexFace;
  EXPECT_THROW(vertex_edge_applicability(polygons, std::vector<Contact>{c}, out), InputError);
  c.type = ContactType::kVertexEdge, c.feature_b = 9;
  EXPECT_THROW(vertex_edge_applicability(polygons, std::vector<Contact>{c}, out), InputError);
}

Contact with_gap(Real gap) {
  Contact c;
  c.gap = gap;
  return c;
}

TEST(PegPrimary, SwapsOnlyAwayFromAViolatedContactToANonViolatedOne) {
  const Real tol = 1e-3;
  EXPECT_FALSE(swap_primary_2d(with_gap(0.01), with_gap(0.02), tol));     // first not violated
  EXPECT_FALSE(swap_primary_2d(with_gap(-0.5e-3), with_gap(0.02), tol));  // within tolerance
  EXPECT_TRUE(swap_primary_2d(with_gap(-0.002), with_gap(0.01), tol));
  EXPECT_TRUE(swap_primary_2d(with_gap(-0.002), with_gap(-0.5e-3), tol));
  EXPECT_FALSE(swap_primary_2d(with_gap(-0.002), with_gap(-0.0015), tol));  // other violated too
  EXPECT_FALSE(swap_primary_2d(with_gap(-0.002), with_gap(-0.002), tol));   // tie keeps first
}

}  // namespace
}  // namespace exactsim
