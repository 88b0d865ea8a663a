// PEG constraint generation in 2D (docs/peg.md "Algorithm"): the configuration cases, the primary
// heuristic, X realisations, dedupe rules ("Tricky cases" items 8, 12, 13) on small hand-placed
// scenes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>

#include "exactsim/collision/vertex_edge.h"
#include "exactsim/contact/peg.h"
#include "exactsim/contact/peg_applicability.h"
#include "exactsim/contact/standard_model.h"
#include "exactsim/geometry/pose.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

struct Scene2 {
  std::vector<WorldPolygon> polygons;
  std::vector<std::uint8_t> is_static;
  ConstraintSet set;

  int add(const std::vector<Vec2>& world_vertices, bool fixed) {
    Vec2 c = Vec2::Zero();
    for (const Vec2& p : world_vertices) c += p;
    c /= static_cast<Real>(world_vertices.size());
    std::vector<Vec2> local;
    for (const Vec2& p : world_vertices) local.push_back(p - c);
    WorldPolygon w;
    place(polygon_from_points(local, HullInput::kRequireConvex), Pose2{c, 0}, w);
    polygons.push_back(w);
    is_static.push_back(fixed);
    return static_cast<int>(polygons.size()) - 1;
  }
  // Potential contacts of every pair (a < b, not both static), as the stepper detects them.
  void detect(Real epsilon) {
    set.clear();
    for (int a = 0; a < static_cast<int>(polygons.size()); ++a)
      for (int b = a + 1; b < static_cast<int>(polygons.size()); ++b)
        if (!(is_static[a] && is_static[b]))
          vertex_edge_contacts(polygons[a], a, polygons[b], b, epsilon, set.contacts);
  }
  // Index of the contact (vertex `v` of body `vb`, edge `e` of body `eb`), −1 if not detected.
  int contact(int vb, int v, int eb, int e) const {
    for (int i = 0; i < static_cast<int>(set.contacts.size()); ++i) {
      const Contact& c = set.contacts[i];
      if (c.body_a == vb && c.feature_a == v && c.body_b == eb && c.feature_b == e) return i;
    }
    return -1;
  }
  int vertex_at(int body, const Vec2& p) const {
    for (int i = 0; i < static_cast<int>(polygons[body].vertices.size()); ++i)
      if ((polygons[body].vertices[i] - p).norm() < 1e-9) return i;
    return -1;
  }
  void build(const PegOptions& options = {}) {
    build_peg_constraints_2d(polygons, is_static, options, set);
  }
};

std::vector<Vec2> box(Real x0, Real y0, Real x1, Real y1) {  // CCW from the bottom-left corner
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

using Features = std::array<int, 4>;  // (vertex body, vertex, edge body, edge)
Features features(const ConstraintSet& set, int c) {
  const Contact& k = set.contacts[c];
  return {k.body_a, k.feature_a, k.body_b, k.feature_b};
}
// Constraints in body-name-independent terms, sorted: (primary, secondary, cross, impulse).
using Described = std::tuple<Features, Features, bool, bool>;
std::vector<Described> describe(const ConstraintSet& set, std::array<int, 2> rename = {0, 1}) {
  std::vector<Described> out;
  auto f = [&](int c) {
    Features x = features(set, c);
    x[0] = rename[x[0]], x[2] = rename[x[2]];
    return x;
  };
  for (const auto& ic : set.intercontacts)
    out.emplace_back(f(ic.primary), f(set.secondaries[ic.first_secondary]), ic.is_cross,
                     ic.carries_impulse);
  std::sort(out.begin(), out.end());
  return out;
}

// docs/peg.md "The worked example": B static apex v_b = (0, 0), A's tip v_a = (0.02, 0.03) just
// past it.
Scene2 worked_example(bool a_first = true) {
  Scene2 s;
  const std::vector<Vec2> a = {{-0.98, 0.53}, {0.02, 0.03}, {1.02, 0.53}};
  const std::vector<Vec2> b = {{1, -1}, {0, 0}, {-1, -1}};
  if (a_first)
    s.add(a, false), s.add(b, true);
  else
    s.add(b, true), s.add(a, false);
  s.detect(0.05);
  return s;
}

// Contact ids of PEG paper Fig. 5 for the worked example: vertex indices found by position.
struct WorkedIds {
  int c1, c2, c3, c4;
};
WorkedIds worked_ids(const Scene2& s, int body_a, int body_b) {
  const int va = s.vertex_at(body_a, Vec2(0.02, 0.03)), vb = s.vertex_at(body_b, Vec2(0, 0));
  return {s.contact(body_a, va, body_b, (vb + 2) % 3), s.contact(body_a, va, body_b, vb),
          s.contact(body_b, vb, body_a, (va + 2) % 3), s.contact(body_b, vb, body_a, va)};
}

TEST(PegConstraints2d, WorkedExampleDefaultsKeepOnlyTheApplicableI) {
  Scene2 s = worked_example();
  const WorkedIds id = worked_ids(s, 0, 1);
  ASSERT_EQ(s.set.contacts.size(), 4u);
  s.build();
  // APPL(C1) = APPL(C2) = −0.316 < ε_θ = −0.2: I(C1, C2) has an empty Cι and goes with both X's;
  // I(C3; C4) remains (docs/peg.md "Algorithm" step 6). It allows the same motion (free flight).
  EXPECT_TRUE(s.set.unilateral.empty());
  ASSERT_EQ(s.set.intercontacts.size(), 1u);
  EXPECT_EQ(s.set.intercontacts[0].primary, id.c3);
  EXPECT_EQ(s.set.secondaries, std::vector<int>{id.c4});
  EXPECT_TRUE(s.set.intercontacts[0].carries_impulse);
  EXPECT_EQ(s.set.cross_count(), 0);
}

TEST(PegConstraints2d, WorkedExampleRelaxedGivesTheFourConstraintsOfSection3_9) {
  Scene2 s = worked_example();
  const WorkedIds id = worked_ids(s, 0, 1);
  PegOptions o;
  o.epsilon_theta = -0.5;
  o.cross_keep_threshold = -0.5;
  o.canonical_cross_order = false;  // the authors' labelling: exactly the worked example's I1..I4
  s.build(o);
  ASSERT_EQ(s.set.intercontacts.size(), 4u);
  const std::array<std::array<int, 2>, 4> expected = {
      {{id.c1, id.c2}, {id.c3, id.c4}, {id.c1, id.c4}, {id.c2, id.c3}}};
  for (int j = 0; j < 4; ++j) {
    const auto& ic = s.set.intercontacts[j];
    EXPECT_EQ(ic.primary, expected[j][0]) << j;
    EXPECT_EQ(ic.secondary_count, 1);
    EXPECT_EQ(s.set.secondaries[ic.first_secondary], expected[j][1]) << j;
    EXPECT_EQ(ic.is_cross, j >= 2);
    EXPECT_TRUE(ic.carries_impulse);
  }
  EXPECT_TRUE(s.set.unilateral.empty());
  // Canonical X order: the larger gap leads, ψ3 = 0.0358 > ψ2 = 0.0071, so X(C3; C2).
  o.canonical_cross_order = true;
  s.build(o);
  EXPECT_EQ(s.set.intercontacts[3].primary, id.c3);
  EXPECT_EQ(s.set.secondaries[s.set.intercontacts[3].first_secondary], id.c2);
  // X-paper: the X's carry no impulse, the I's still do.
  o.cross = CrossRealisation::kImpulseFree;
  s.build(o);
  for (const auto& ic : s.set.intercontacts) EXPECT_EQ(ic.carries_impulse, !ic.is_cross);
  EXPECT_EQ(s.set.cross_count(), 2);
  // X-code with the default keep threshold −0.2 drops both X's (APPL(C1) = APPL(C2) = −0.316).
  o.cross = CrossRealisation::kImpulseCarrying;
  o.cross_keep_threshold = -0.2;
  s.build(o);
  EXPECT_EQ(s.set.intercontacts.size(), 2u);
  EXPECT_EQ(s.set.cross_count(), 0);
}

TEST(PegConstraints2d, BodyOrderDoesNotChangeTheConstraints) {
  PegOptions o;
  o.epsilon_theta = -0.5;
  o.cross_keep_threshold = -0.5;
  Scene2 ab = worked_example(true), ba = worked_example(false);
  ab.build(o);
  ba.build(o);
  EXPECT_EQ(describe(ab.set), describe(ba.set, {1, 0}));
  ab.build();
  ba.build();
  EXPECT_EQ(describe(ab.set), describe(ba.set, {1, 0}));
}

TEST(PegConstraints2d, BoxOnAFloorGivesTheStandardModelsUnilateralsInContactOrder) {
  Scene2 s;
  s.add(box(-5, -1, 5, 0), true);
  s.add(box(-0.5, 1e-4, 0.5, 1.0001), false);
  s.detect(0.01);
  ASSERT_EQ(s.set.contacts.size(), 2u);
  ConstraintSet standard = s.set;
  build_standard_constraints(standard);
  s.build();
  EXPECT_EQ(s.set.unilateral, standard.unilateral);
  EXPECT_TRUE(s.set.intercontacts.empty());
  EXPECT_TRUE(s.set.secondaries.empty());
}

TEST(PegConstraints2d, WrapAroundCornerMakesAVertexVertexConfiguration) {
  // A's top-right corner (vertex 2) diagonally below-left of B's corner v0 = (−0.5, −0.5): A's
  // vertex is near B's edges 3 and 0, one run across the index wrap (docs/peg.md "Tricky cases"
  // item 8).
  Scene2 s;
  s.add(box(-0.5, -0.5, 0.5, 0.5), true);         // body 0 = B
  s.add(box(-1.01, -1.02, -0.51, -0.52), false);  // body 1 = A
  s.detect(0.05);
  s.build();
  const int c1 = s.contact(1, 2, 0, 3), c2 = s.contact(1, 2, 0, 0);
  const int c3 = s.contact(0, 0, 1, 1), c4 = s.contact(0, 0, 1, 2);
  ASSERT_TRUE(c1 >= 0 && c2 >= 0 && c3 >= 0 && c4 >= 0);
  EXPECT_TRUE(s.set.unilateral.empty());
  // Gaps: ψ1 = 0.01, ψ2 = 0.02, ψ3 = 0.01, ψ4 = 0.02; every APPL = 0 (box corners).
  using D = Described;
  const auto f = [&](int c) { return features(s.set, c); };
  std::vector<D> expected = {D{f(c1), f(c2), false, true}, D{f(c3), f(c4), false, true},
                             D{f(c4), f(c1), true, true}, D{f(c2), f(c3), true, true}};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(describe(s.set), expected);
}

TEST(PegConstraints2d, ThinPlateSidesAreSeparateRuns) {
  // A diamond's tip 1 mm above a 1 cm plate: within ε of the top AND the bottom edge (not
  // adjacent: two runs). The bottom contact (ψ = −0.011 with the opposite normal, the standard
  // model's infeasible pair) is inapplicable and dropped; the top one is a U.
  Scene2 s;
  s.add(box(-1, -0.005, 1, 0.005), true);
  s.add({{0, 0.006}, {0.1, 0.106}, {0, 0.206}, {-0.1, 0.106}}, false);
  s.detect(0.05);
  const int tip = s.vertex_at(1, Vec2(0, 0.006));
  const int top = s.contact(1, tip, 0, 2), bottom = s.contact(1, tip, 0, 0);
  ASSERT_GE(top, 0);
  ASSERT_GE(bottom, 0);
  s.build();
  EXPECT_EQ(s.set.unilateral, std::vector<int>{top});
  EXPECT_TRUE(s.set.intercontacts.empty());
}

TEST(PegConstraints2d, ThinPlateEndIsVertexVertexAtBothCorners) {
  // A tip pointing left, 2 cm beyond the end of a 1 cm plate: near the bottom, end and top edges
  // (one run of three) and within ε of both end corners: two vertex–vertex configurations.
  Scene2 s;
  s.add(box(-1, -0.005, 0, 0.005), true);
  s.add({{0.02, 0}, {0.2, -0.1}, {0.2, 0.1}}, false);
  s.detect(0.05);
  s.build();
  EXPECT_GE(s.set.intercontacts.size(), 2u);
  // No contact is both a U and inside an I; each I pairs two contacts of the same body pair.
  for (const auto& ic : s.set.intercontacts) {
    const int sec = s.set.secondaries[ic.first_secondary];
    for (int u : s.set.unilateral) EXPECT_TRUE(u != ic.primary && u != sec);
    const Contact &p = s.set.contacts[ic.primary], &q = s.set.contacts[sec];
    EXPECT_EQ(std::min(p.body_a, p.body_b), std::min(q.body_a, q.body_b));
    EXPECT_EQ(std::max(p.body_a, p.body_b), std::max(q.body_a, q.body_b));
  }
  // The tip's contact with the end edge (ψ = 0.02, the only applicable one of the tip) is used.
  const int end_edge = s.contact(1, s.vertex_at(1, Vec2(0.02, 0)), 0, 1);
  bool used = false;
  for (const auto& ic : s.set.intercontacts)
    used |= ic.primary == end_edge || s.set.secondaries[ic.first_secondary] == end_edge;
  EXPECT_TRUE(used);
}

TEST(PegConstraints2d, MissingReverseContactsFallBackToTheMoreApplicableU) {
  // A tip 0.2 m from the apex of a sharp wedge, within ε of both of its long edges (one run
  // across the index wrap at the apex v_b) but farther than ε from v_b: C3 and C4 are not
  // detected, so the authors' fallback applies (docs/peg.md "Algorithm" step 5): a U on the more
  // applicable of C1, C2 (bottom edge: APPL −0.596 against −0.678 for the top edge), none on the
  // other.
  Scene2 s;
  s.add({{0, 0}, {1, -0.05}, {1, 0.05}}, true);
  s.add({{0.2, 0}, {0.5, -0.25}, {0.5, 0.2}}, false);
  s.detect(0.05);
  const int tip = s.vertex_at(1, Vec2(0.2, 0)), apex = s.vertex_at(0, Vec2(0, 0));
  ASSERT_EQ(apex, 0);
  const int bottom = s.contact(1, tip, 0, 0), top = s.contact(1, tip, 0, 2);
  ASSERT_GE(bottom, 0);
  ASSERT_GE(top, 0);
  for (const Contact& c : s.set.contacts) ASSERT_NE(c.body_a, 0);  // nothing from B's vertices
  s.build();
  EXPECT_EQ(s.set.unilateral, std::vector<int>{bottom});
  EXPECT_TRUE(s.set.intercontacts.empty());
}

TEST(PegConstraints2d, OverlapCoverGivesAnInsideVertexItsExitEdge) {
  // docs/peg.md "Algorithm" step 7. A's tip is 1 mm inside B below B's top edge (ε = 2.5 mm), and
  // its edge to v1 runs steeply down past B's right end: the tip's one contact, against the top
  // edge, is inapplicable (APPL −0.995 ≤ ε_θ), and nothing else is within ε (B's top corner is
  // 1 cm outside A). The paper's rule drops such a lone contact (an inapplicable contact of a
  // vertex outside is the SM trap, "The worked example"); this one really overlaps B, so the
  // cover makes it a U on its exit edge.
  Scene2 s;
  s.add(box(-1, -1, 0.01, 0), true);
  s.add({{0, -0.001}, {0.02, -0.2}, {-0.1, 0.5}}, false);
  s.detect(0.0025);
  ASSERT_EQ(s.set.contacts.size(), 1u);
  const int tip = s.vertex_at(1, Vec2(0, -0.001));
  const int top = s.contact(1, tip, 0, 2);
  ASSERT_EQ(top, 0);
  std::vector<Real> appl;
  vertex_edge_applicability(s.polygons, s.set.contacts, appl);
  EXPECT_LT(appl[top], PegOptions{}.epsilon_theta);
  s.build();
  EXPECT_TRUE(s.set.intercontacts.empty());
  EXPECT_EQ(s.set.unilateral, std::vector<int>{top});
}

TEST(PegConstraints2d, DuplicateContactRecordsAreIgnored) {
  Scene2 s;
  s.add(box(-0.5, -0.5, 0.5, 0.5), true);
  s.add(box(-1.01, -1.02, -0.51, -0.52), false);
  s.add(box(-0.3, 0.501, 0.3, 0.9), false);  // a plain U pair on top of B
  s.detect(0.05);
  s.build();
  const ConstraintSet once = s.set;
  const auto n = s.set.contacts.size();
  s.set.contacts.insert(s.set.contacts.end(), once.contacts.begin(), once.contacts.end());
  s.build();
  EXPECT_EQ(s.set.unilateral, once.unilateral);  // sorted, unique, first copies only
  EXPECT_EQ(s.set.secondaries, once.secondaries);
  ASSERT_EQ(s.set.intercontacts.size(), once.intercontacts.size());
  for (std::size_t j = 0; j < once.intercontacts.size(); ++j)
    EXPECT_EQ(s.set.intercontacts[j].primary, once.intercontacts[j].primary);
  for (int u : s.set.unilateral) EXPECT_LT(u, static_cast<int>(n));
  EXPECT_EQ(s.set.unilateral.size(), 2u);
}

// |Cι| of every I (docs/peg.md "Constraint types"): 2 exactly when both of its contacts are
// applicable. On the worked example with the defaults C1, C2 are inapplicable (APPL = −0.316), so
// I(C3, C4) is the only one and both of its contacts qualify; with ε_θ = −0.5 all four I's have
// |Cι| = 2. The general-form option only changes how the stepper solves, not the generated set.
TEST(PegConstraints2d, IotaCountMarksIsWhoseContactsAreAllApplicable) {
  PegOptions relaxed;
  relaxed.epsilon_theta = -0.5;
  relaxed.cross_keep_threshold = -0.5;
  for (const PegOptions& base : {PegOptions{}, relaxed}) {
    Scene2 s = worked_example();
    std::vector<Real> appl;
    vertex_edge_applicability(s.polygons, s.set.contacts, appl);
    s.build(base);
    const ConstraintSet plain = s.set;
    ASSERT_FALSE(plain.intercontacts.empty());
    for (const IntercontactConstraint& ic : plain.intercontacts) {
      const int other = plain.secondaries[ic.first_secondary];
      const bool both = appl[ic.primary] > base.epsilon_theta && appl[other] > base.epsilon_theta;
      EXPECT_EQ(ic.iota_count, both ? 2 : 1);
    }
    PegOptions general = base;
    general.general_form = true;
    s.build(general);
    EXPECT_EQ(describe(s.set), describe(plain));
    for (std::size_t j = 0; j < plain.intercontacts.size(); ++j)
      EXPECT_EQ(s.set.intercontacts[j].iota_count, plain.intercontacts[j].iota_count);
  }
  Scene2 s = worked_example();
  s.build(relaxed);
  EXPECT_EQ(s.set.intercontacts.size(), 4u);
  for (const IntercontactConstraint& ic : s.set.intercontacts) EXPECT_EQ(ic.iota_count, 2);
}

TEST(PegConstraints2d, RejectsBadOptionsAndContacts) {
  Scene2 s = worked_example();
  PegOptions o;
  o.epsilon_theta = std::numeric_limits<Real>::quiet_NaN();
  EXPECT_THROW(s.build(o), InputError);
  o = {};
  o.primary_tolerance = -1;
  EXPECT_THROW(s.build(o), InputError);
  std::vector<std::uint8_t> wrong_size = {0};
  EXPECT_THROW(build_peg_constraints_2d(s.polygons, wrong_size, {}, s.set), InputError);
  s.set.contacts[0].body_b = 7;
  EXPECT_THROW(s.build(), InputError);
}

}  // namespace
}  // namespace exactsim
