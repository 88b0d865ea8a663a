// World placement, translation and recentring: the placed copy is the rigid image of the body
// (vertices, planes, edge vectors), its AABB is tight, and its storage is reused.
#include <gtest/gtest.h>

#include <random>

#include "exactsim/geometry/polyhedron.h"

namespace exactsim {
namespace {

TEST(PolyhedronPlacement, PlaceIsTheRigidImage) {
  std::mt19937_64 rng(3);
  const ConvexPolyhedron p = random_convex_polyhedron(rng);
  Pose3 pose;
  pose.position = Vec3(1, -2, 0.5);
  pose.orientation = Quat(Eigen::AngleAxisd(0.9, Vec3(1, 1, -2).normalized()));
  WorldPolyhedron w;
  place(p, pose, w);
  ASSERT_EQ(w.vertices.size(), p.vertices.size());
  for (int i = 0; i < p.num_vertices(); ++i)
    EXPECT_LT((w.vertices[i] - pose.apply(p.vertices[i])).norm(), 1e-15);
  for (int f = 0; f < p.num_faces(); ++f) {
    EXPECT_LT((w.face_normals[f] - pose.rotate(p.faces[f].normal)).norm(), 1e-15);
    for (int v : p.faces[f].vertices)
      EXPECT_NEAR(w.face_normals[f].dot(w.vertices[v]), w.face_offsets[f], 1e-14);
  }
  for (int e = 0; e < p.num_edges(); ++e) {
    EXPECT_LT((w.edge_t1[e] - pose.rotate(p.edges[e].t1)).norm(), 1e-15);
    EXPECT_LT((w.edge_t2[e] - pose.rotate(p.edges[e].t2)).norm(), 1e-15);
    EXPECT_LT((w.edge_orientation[e] - pose.rotate(p.edges[e].orientation)).norm(), 1e-15);
  }
  for (int k = 0; k < 3; ++k) {
    Real lo = w.vertices[0][k], hi = lo;
    for (const Vec3& v : w.vertices) lo = std::min(lo, v[k]), hi = std::max(hi, v[k]);
    EXPECT_EQ(w.aabb.lo[k], lo);
    EXPECT_EQ(w.aabb.hi[k], hi);
  }
  // Same shape again: no reallocation.
  const Vec3* data = w.vertices.data();
  const Vec3* normals = w.face_normals.data();
  pose.position.x() += 1;
  place(p, pose, w);
  EXPECT_EQ(w.vertices.data(), data);
  EXPECT_EQ(w.face_normals.data(), normals);
}

TEST(PolyhedronPlacement, TranslatedAndRecentred) {
  const ConvexPolyhedron box = make_box(Vec3(1, 2, 3));
  const ConvexPolyhedron moved = translated(box, Vec3(4, 5, 6));
  for (int f = 0; f < moved.num_faces(); ++f)
    for (int v : moved.faces[f].vertices)
      EXPECT_NEAR(moved.faces[f].normal.dot(moved.vertices[v]), moved.faces[f].offset, 1e-14);
  EXPECT_LT((polyhedron_mass_properties(moved, 1).centroid - Vec3(4, 5, 6)).norm(), 1e-14);
  const ConvexPolyhedron back = recentred(moved);
  EXPECT_LT(polyhedron_mass_properties(back, 1).centroid.norm(), 1e-14);
  for (int i = 0; i < box.num_vertices(); ++i)
    EXPECT_LT((back.vertices[i] - box.vertices[i]).norm(), 1e-14);
}

}  // namespace
}  // namespace exactsim
