// 3D PEG constraint generation (docs/peg3d.md "Algorithm"): the configuration of each vertex and
// the U / I / X groups it yields, on hand-built two-body configurations. Body 0 is a static unit
// box (top face z = 0, x, y ∈ [−0.5, 0.5]); body 1 is dynamic.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "exactsim/collision/edge_edge.h"
#include "exactsim/collision/polyhedron_contacts.h"
#include "exactsim/collision/vertex_face.h"
#include "exactsim/contact/peg.h"
#include "input_error.h"

namespace exactsim {
namespace {

// A downward "spindle": apex (0, 0, −0.4), waist (±0.1, 0, 0), (0, ±0.1, 0), top (0, 0, 0.4).
// Its apex edges rise at 76° so that APPL_vf of the apex against a vertical face is −0.24.
ConvexPolyhedron spindle() {
  const Vec3 p[6] = {{0.1, 0, 0},  {-0.1, 0, 0}, {0, 0.1, 0},
                     {0, -0.1, 0}, {0, 0, 0.4},  {0, 0, -0.4}};
  return polyhedron_from_points(p);
}

struct Pair {
  std::array<ConvexPolyhedron, 2> shapes;
  std::array<Pose3, 2> poses;
  std::vector<WorldPolyhedron> placed = std::vector<WorldPolyhedron>(2);
  std::vector<const ConvexPolyhedron*> shape_ptrs;
  std::vector<std::uint8_t> is_static = {1, 0};
  ConstraintSet set;

  Pair(ConvexPolyhedron upper, const Pose3& pose)
      : shapes{translated(make_box(Vec3(1, 1, 1)), Vec3(0, 0, -0.5)), std::move(upper)},
        poses{Pose3{}, pose} {
    for (int i = 0; i < 2; ++i) place(shapes[i], poses[i], placed[i]);
    shape_ptrs = {&shapes[0], &shapes[1]};
  }

  // `patches` = false: every feature pair within ε, as detection gives when the faces are not a
  // patch (tilted beyond kPatchCosine), so that PEG's configurations see them.
  void build(Real epsilon, const PegOptions& options = {}, bool patches = true) {
    set.clear();
    PolyhedronContactOptions o;
    o.epsilon_vf = o.epsilon_ee = epsilon;
    if (patches) {
      polyhedron_contacts(shapes[0], placed[0], 0, shapes[1], placed[1], 1, o, set.contacts);
    } else {
      vertex_face_contacts(shapes[0], placed[0], 0, shapes[1], placed[1], 1, epsilon, set.contacts);
      vertex_face_contacts(shapes[1], placed[1], 1, shapes[0], placed[0], 0, epsilon, set.contacts);
      edge_edge_contacts(shapes[0], placed[0], 0, shapes[1], placed[1], 1, epsilon, 1e-6,
                         set.contacts);
    }
    build_peg_constraints_3d(shape_ptrs, placed, is_static, options, set);
  }
  int plain_intercontacts() const {
    return static_cast<int>(std::count_if(set.intercontacts.begin(), set.intercontacts.end(),
                                          [](const auto& ic) { return !ic.is_cross; }));
  }
};

Pose3 at(const Vec3& p) { return Pose3{p, Quat::Identity()}; }

// Face-to-face (docs/peg.md "Tricky cases" item 5): only the four vertex–face U's of the cube's
// bottom corners, which are all of the detected contacts (the standard model's set).
TEST(PegConstraints3d, FaceOnFaceGivesTheStandardUnilaterals) {
  Pair p(make_box(Vec3(0.4, 0.4, 0.4)), at(Vec3(0, 0, 0.2)));
  p.build(0.01);
  ASSERT_EQ(p.set.contacts.size(), 4u);
  EXPECT_TRUE(p.set.intercontacts.empty());
  EXPECT_EQ(p.set.unilateral, (std::vector<int>{0, 1, 2, 3}));
  for (const Contact& c : p.set.contacts) EXPECT_EQ(c.type, ContactType::kVertexFace);
}

// Vertex just past the box's top edge x = 0.5 and 5 mm below the top plane (the SM trap):
// I over the edge's two faces (top ψ = −0.005, side ψ = 0.02) plus the X's with the apex edges.
TEST(PegConstraints3d, VertexNearEdgeGivesIntercontactAndCrosses) {
  Pair p(spindle(), at(Vec3(0.52, 0, 0.395)));
  p.build(0.05);
  ASSERT_EQ(p.plain_intercontacts(), 1);
  const IntercontactConstraint& ic = p.set.intercontacts[0];
  ASSERT_EQ(ic.secondary_count, 1);
  const Contact& c1 = p.set.contacts[ic.primary];
  const Contact& c2 = p.set.contacts[p.set.secondaries[ic.first_secondary]];
  std::array<Real, 2> gaps = {c1.gap, c2.gap};
  std::sort(gaps.begin(), gaps.end());
  EXPECT_NEAR(gaps[0], -0.005, 1e-12);
  EXPECT_NEAR(gaps[1], 0.02, 1e-12);
  EXPECT_EQ(c1.body_a, 1);  // the apex owns both contacts
  EXPECT_EQ(c2.body_a, 1);
  // The side face (ψ = 0.02 ≥ −tol but not smaller than the top's) vs the top (ψ < −0.005):
  // the not-violated one is primary.
  EXPECT_NEAR(c1.gap, 0.02, 1e-12);
  // X's: the apex edges with APPL_ee > −0.1 against the box edge (here one), each an I over a
  // face contact and an ee contact.
  ASSERT_GE(p.set.cross_count(), 1);
  for (const IntercontactConstraint& x : p.set.intercontacts) {
    if (!x.is_cross) continue;
    EXPECT_TRUE(x.carries_impulse);  // X-code default
    const Contact& a = p.set.contacts[x.primary];
    const Contact& b = p.set.contacts[p.set.secondaries[x.first_secondary]];
    EXPECT_NE(a.type == ContactType::kEdgeEdge, b.type == ContactType::kEdgeEdge);
  }
  // No U on the apex (it is inside the I); ee contacts of apex edges are replaced by the X's.
  for (int u : p.set.unilateral) {
    const Contact& c = p.set.contacts[u];
    EXPECT_FALSE(c.type == ContactType::kEdgeEdge);
    EXPECT_FALSE(c.type == ContactType::kVertexFace && c.body_a == 1 && c.feature_a == 5);
  }
  // X-paper: the same groups, the X's carry no impulse.
  PegOptions paper;
  paper.cross = CrossRealisation::kImpulseFree;
  const int crosses = p.set.cross_count();
  p.build(0.05, paper);
  EXPECT_EQ(p.set.cross_count(), crosses);
  for (const auto& x : p.set.intercontacts) EXPECT_EQ(x.carries_impulse, !x.is_cross);
}

// Vertex past the corner (0.5, 0.5, 0): one I over the corner's three faces (k = 2) for the apex,
// and the corner's own configuration against the spindle; ≈ Eq. 38 X's only with the option.
TEST(PegConstraints3d, VertexNearVertexGivesIntercontactOverTheFaces) {
  Pair p(spindle(), at(Vec3(0.52, 0.52, 0.395)));
  p.build(0.05);
  int apex_groups = 0;
  for (const IntercontactConstraint& ic : p.set.intercontacts) {
    const Contact& c = p.set.contacts[ic.primary];
    if (c.body_a == 1 && c.feature_a == 5) {
      ++apex_groups;
      EXPECT_EQ(ic.secondary_count, 2);
      EXPECT_FALSE(ic.is_cross);
      EXPECT_NEAR(c.gap, 0.02, 1e-12);  // a side face: the nearest plane not violated
    }
  }
  EXPECT_EQ(apex_groups, 1);
  EXPECT_EQ(p.set.cross_count(), 0);
  PegOptions eq38;
  eq38.spatial.vertex_vertex_cross = true;
  p.build(0.05, eq38);
  EXPECT_GT(p.set.cross_count(), 0);
  for (const IntercontactConstraint& x : p.set.intercontacts) {
    if (!x.is_cross) continue;
    EXPECT_EQ(p.set.contacts[x.primary].type, ContactType::kVertexFace);
    EXPECT_EQ(p.set.contacts[p.set.secondaries[x.first_secondary]].type, ContactType::kEdgeEdge);
  }
}

// Flush support (docs/peg3d.md "Algorithm" step 4): a box 0.4 × 1 × 0.2 resting 1 mm above the
// unit box's top, across its edge x = 0.5, its sides y = ±0.5 flush with the unit box's. Each of
// the four corners on a flush edge (the unit box's (0.5, ±0.5, 0), the box's (0.3, ±0.5, 0.001))
// is a vertex–edge configuration whose side face its own edges point into: four U's on the
// supporting faces, no I or X. The authors' rule (flush_support off) gives each an I with X's.
// (Detection reports these faces as a patch, collision/face_patch.h; the configurations are
// built from every feature pair within ε, as for faces tilted beyond a patch's tolerance.)
TEST(PegConstraints3d, FlushSupportIsAUnilateralOnTheSupportingFace) {
  Pair p(make_box(Vec3(0.4, 1, 0.2)), at(Vec3(0.5, 0, 0.101)));
  p.build(0.01, {}, false);
  EXPECT_TRUE(p.set.intercontacts.empty());
  ASSERT_EQ(p.set.unilateral.size(), 4u);
  for (int u : p.set.unilateral) {
    const Contact& c = p.set.contacts[u];
    EXPECT_EQ(c.type, ContactType::kVertexFace);
    EXPECT_NEAR(std::abs(c.normal.z()), 1, 1e-12);  // the top / bottom face, not a side
    EXPECT_NEAR(c.gap, 0.001, 1e-12);
  }
  PegOptions authors;
  authors.spatial.flush_support = false;
  p.build(0.01, authors, false);
  EXPECT_EQ(p.plain_intercontacts(), 4);
  EXPECT_GT(p.set.cross_count(), 0);
}

// The same box 4 mm further in y: the two corners 4 mm inside the other body's face are still
// flush supports (U's), the two 4 mm past it (more than flush_support_overhang) keep the
// authors' I. Turned 0.2 rad about z (faces 11° apart, not flush): exactly the authors' groups.
TEST(PegConstraints3d, FlushSupportNeedsAlignedFacesAndAtMostTheOverhang) {
  PegOptions authors;
  authors.spatial.flush_support = false;
  Pair shifted(make_box(Vec3(0.4, 1, 0.2)), at(Vec3(0.5, 0.004, 0.101)));
  shifted.build(0.01, authors, false);
  EXPECT_EQ(shifted.plain_intercontacts(), 4);
  EXPECT_TRUE(shifted.set.unilateral.empty());
  shifted.build(0.01, {}, false);
  EXPECT_EQ(shifted.plain_intercontacts(), 2);
  EXPECT_EQ(shifted.set.unilateral.size(), 2u);
  for (const IntercontactConstraint& ic : shifted.set.intercontacts) {
    if (!ic.is_cross) {
      EXPECT_GT(shifted.set.contacts[ic.primary].distance, 0.004);
    }
  }

  Pair turned(make_box(Vec3(0.4, 1, 0.2)),
              Pose3{Vec3(0.5, 0, 0.101), Quat(Eigen::AngleAxisd(0.2, Vec3::UnitZ()))});
  turned.build(0.01, {}, false);
  const ConstraintSet ours = turned.set;
  EXPECT_GT(turned.plain_intercontacts(), 0);
  turned.build(0.01, authors, false);
  EXPECT_EQ(ours.unilateral, turned.set.unilateral);
  EXPECT_EQ(ours.intercontacts.size(), turned.set.intercontacts.size());
  EXPECT_EQ(ours.cross_count(), turned.set.cross_count());

  PegOptions bad;
  bad.spatial.flush_support_cosine = 1.5;
  EXPECT_NE(ErrorOf([&] { turned.build(0.01, bad, false); }).find("flush_support_cosine"),
            std::string::npos);
}

// Crossed edges (a box rolled 45° about y lying across the top edge of a box rolled 45° about
// x): one edge–edge U, no I.
TEST(PegConstraints3d, CrossedEdgesGiveEdgeEdgeUnilateral) {
  const Real r = std::sqrt(0.5);
  Pair p(make_box(Vec3(1, 1, 1)),
         Pose3{Vec3(0, 0, 2 * r + 0.004), Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY()))});
  p.shapes[0] = make_box(Vec3(1, 1, 1));
  p.poses[0] = Pose3{Vec3::Zero(), Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX()))};
  place(p.shapes[0], p.poses[0], p.placed[0]);
  p.build(0.01);
  EXPECT_TRUE(p.set.intercontacts.empty());
  ASSERT_EQ(p.set.unilateral.size(), 1u);
  const Contact& c = p.set.contacts[p.set.unilateral[0]];
  EXPECT_EQ(c.type, ContactType::kEdgeEdge);
  EXPECT_NEAR(c.gap, 0.004, 1e-12);
}

// Swapping which body is called A leaves the groups' structure unchanged (docs/peg.md "Tricky
// cases" item 12).
TEST(PegConstraints3d, BodyOrderDoesNotChangeTheGroups) {
  Pair p(spindle(), at(Vec3(0.52, 0.51, 0.395)));
  p.build(0.05);
  ConstraintSet swapped_set;
  PolyhedronContactOptions o;
  o.epsilon_vf = o.epsilon_ee = 0.05;
  polyhedron_contacts(p.shapes[1], p.placed[1], 1, p.shapes[0], p.placed[0], 0, o,
                      swapped_set.contacts);
  build_peg_constraints_3d(p.shape_ptrs, p.placed, p.is_static, {}, swapped_set);
  EXPECT_EQ(swapped_set.unilateral.size(), p.set.unilateral.size());
  EXPECT_EQ(swapped_set.intercontacts.size(), p.set.intercontacts.size());
  EXPECT_EQ(swapped_set.secondaries.size(), p.set.secondaries.size());
  EXPECT_EQ(swapped_set.cross_count(), p.set.cross_count());
}

TEST(PegConstraints3d, RejectsBadInput) {
  Pair p(spindle(), at(Vec3(0.52, 0, 0.395)));
  PegOptions bad;
  bad.spatial.proximity = -1;
  EXPECT_NE(ErrorOf([&] { p.build(0.05, bad); }).find("proximity"), std::string::npos);
  bad = {};
  bad.spatial.epsilon_theta = std::numeric_limits<Real>::quiet_NaN();
  EXPECT_NE(ErrorOf([&] { p.build(0.05, bad); }).find("finite"), std::string::npos);
  ConstraintSet set;
  Contact c;
  c.type = ContactType::kVertexFace;
  c.body_a = 1;
  c.body_b = 7;
  c.feature_a = 0;
  c.feature_b = 0;
  set.contacts.push_back(c);
  EXPECT_NE(ErrorOf([&] {
              build_peg_constraints_3d(p.shape_ptrs, p.placed, {}, {}, set);
            }).find("without a placed polyhedron"),
            std::string::npos);
  set.contacts[0].body_b = 0;
  set.contacts[0].feature_b = 99;
  EXPECT_NE(ErrorOf([&] {
              build_peg_constraints_3d(p.shape_ptrs, p.placed, {}, {}, set);
            }).find("outside its polyhedron"),
            std::string::npos);
}

}  // namespace
}  // namespace exactsim
