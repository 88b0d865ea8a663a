// Face patches (collision/face_patch.h, docs/collision.md "Face patches"): two polyhedra face to
// face get the contacts at the corners of their faces' overlap, each a true feature record.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "exactsim/collision/face_patch.h"

namespace exactsim::face_patch_test {
namespace {

WorldPolyhedron on(const ConvexPolyhedron& shape, const Vec3& x, Real angle = 0,
                   const Vec3& axis = Vec3::UnitZ()) {
  WorldPolyhedron w;
  place(shape, Pose3{x, Quat(Eigen::AngleAxisd(angle, axis))}, w);
  return w;
}

struct Patch {
  bool found = false;
  std::vector<Contact> contacts;
};

// A = the upper box (body 0), B = the lower one (body 1), ε = 1 mm.
Patch patch(const ConvexPolyhedron& upper, const WorldPolyhedron& wu, const ConvexPolyhedron& lower,
            const WorldPolyhedron& wl, Real epsilon = 0.001, Real reach = 0) {
  Patch p;
  PatchScratch scratch;
  p.found = face_patch_contacts(upper, wu, 0, lower, wl, 1, epsilon, reach, p.contacts, scratch);
  return p;
}

int count(const Patch& p, ContactType type, int first_body) {
  return static_cast<int>(std::count_if(p.contacts.begin(), p.contacts.end(), [&](const Contact& c) {
    return c.type == type && c.body_a == first_body;
  }));
}

TEST(FacePatch, ABoxOnABoxIsItsFourCorners) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 1));
  const Patch p = patch(box, on(box, Vec3(0, 0, 1.0002)), box, on(box, Vec3::Zero()));
  ASSERT_TRUE(p.found);
  ASSERT_EQ(p.contacts.size(), 4u);
  for (const Contact& c : p.contacts) {
    EXPECT_TRUE(c.patch);
    EXPECT_EQ(c.type, ContactType::kVertexFace);
    EXPECT_EQ(c.body_a, 0);
    EXPECT_NEAR(c.gap, 0.0002, 1e-12);
    EXPECT_NEAR(c.normal.z(), -1, 1e-12);  // from the upper box down into the lower one
  }
}

TEST(FacePatch, ATurnedSquareOverASquareIsTheOctagonOfTheirEdgesCrossings) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 1));
  const Patch p = patch(box, on(box, Vec3(0, 0, 1.0005), M_PI / 4), box, on(box, Vec3::Zero()));
  ASSERT_TRUE(p.found);
  ASSERT_EQ(p.contacts.size(), 8u);
  for (const Contact& c : p.contacts) {
    EXPECT_EQ(c.type, ContactType::kEdgeEdge);
    EXPECT_NEAR(c.gap, 0.0005, 1e-12);
    EXPECT_NEAR(std::abs(c.normal.z()), 1, 1e-12);
    EXPECT_LT(c.normal.z(), 0);
    EXPECT_NEAR(std::abs(c.point_a.x()) + std::abs(c.point_a.y()), 0.5 * std::sqrt(2.0), 1e-9);
  }
}

TEST(FacePatch, TheSmallerFaceGivesItsCornersWhicheverBodyItIs) {
  const ConvexPolyhedron big = make_box(Vec3(2, 2, 1)), small = make_box(Vec3(0.4, 0.4, 0.4));
  const Patch a = patch(small, on(small, Vec3(0.3, -0.2, 0.7)), big, on(big, Vec3::Zero()));
  ASSERT_TRUE(a.found);
  EXPECT_EQ(count(a, ContactType::kVertexFace, 0), 4);  // the small box's corners on B's face
  EXPECT_EQ(a.contacts.size(), 4u);
  const Patch b = patch(big, on(big, Vec3(0.1, 0.1, 0.7)), small, on(small, Vec3::Zero()));
  ASSERT_TRUE(b.found);
  EXPECT_EQ(count(b, ContactType::kVertexFace, 1), 4);  // B's corners under A's face, B first
  EXPECT_EQ(b.contacts.size(), 4u);
  for (const Contact& c : b.contacts) EXPECT_NEAR(c.normal.z(), 1, 1e-12);  // from B up into A
}

TEST(FacePatch, NoPatchWhenTiltedApartOrNotFacing) {
  const ConvexPolyhedron box = make_box(Vec3(1, 1, 1)), floor = make_box(Vec3(4, 4, 1));
  const WorldPolyhedron wf = on(floor, Vec3(0, 0, -0.5));
  // Tilted 2° (beyond kPatchCosine), lifted 2 mm (beyond ε), 2 mm inside (beyond ε).
  EXPECT_FALSE(patch(box, on(box, Vec3(0, 0, 0.52), 0.035, Vec3::UnitX()), floor, wf).found);
  EXPECT_FALSE(patch(box, on(box, Vec3(0, 0, 0.502)), floor, wf).found);
  EXPECT_FALSE(patch(box, on(box, Vec3(0, 0, 0.498)), floor, wf).found);
  // Lifted 2 mm but closing 3 mm in the step: within ε + reach in front.
  EXPECT_TRUE(patch(box, on(box, Vec3(0, 0, 0.502)), floor, wf, 0.001, 0.003).found);
  // Resting on the floor with a reach of 10 m: the box's top face also faces the floor's bottom
  // face (2 m apart, through both bodies), but only the faces that touch are the patch.
  const Patch resting = patch(box, on(box, Vec3(0, 0, 0.5)), floor, wf, 0.001, 10);
  ASSERT_TRUE(resting.found);
  for (const Contact& c : resting.contacts) EXPECT_NEAR(c.point_a.z(), 0, 1e-12);
  // Beside the floor: faces antiparallel in plane but their projections do not overlap.
  EXPECT_FALSE(patch(box, on(box, Vec3(3, 0, 0.5)), floor, wf).found);
}

}  // namespace
}  // namespace exactsim::face_patch_test
