// The edge table of docs/geometry3d.md "Conventions" on hand-built shapes: the cube edge there (t1,
// t2, O_e), the cyclic vertex adjacency, and polyhedron_from_faces rejecting malformed topology.
#include <gtest/gtest.h>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"
#include "input_error.h"

namespace exactsim {

void ExpectWellFormedPolyhedron(const ConvexPolyhedron& p);  // polyhedron_hull_test.cc

namespace {

// Cube [0,1]×[0,1]×[−1,0] of docs/geometry3d.md with the top face first, so the edge (0,0,0) →
// (1,0,0) is walked tail → head by the top face (f1, η̂ = +z) and back by the front face (f2, η̂ =
// −y).
ConvexPolyhedron SpecCube(std::vector<std::vector<int>>* loops_out = nullptr) {
  std::vector<Vec3> v{{0, 0, 0},  {1, 0, 0},  {1, 1, 0},  {0, 1, 0},
                      {0, 0, -1}, {1, 0, -1}, {1, 1, -1}, {0, 1, -1}};
  std::vector<std::vector<int>> loops{
      {0, 1, 2, 3},  // top z = 0
      {0, 4, 5, 1},  // front y = 0
      {1, 5, 6, 2},  // x = 1
      {2, 6, 7, 3},  // y = 1
      {3, 7, 4, 0},  // x = 0
      {4, 7, 6, 5},  // bottom z = −1
  };
  if (loops_out) *loops_out = loops;
  return polyhedron_from_faces(v, loops);
}

TEST(PolyhedronAdjacency, SpecCubeEdgeVectors) {
  const ConvexPolyhedron cube = SpecCube();
  ExpectWellFormedPolyhedron(cube);
  const PolyhedronEdge& e = cube.edges[cube.faces[0].edges[0]];
  ASSERT_EQ(e.tail, 0);
  ASSERT_EQ(e.head, 1);
  EXPECT_EQ(e.face1, 0);
  EXPECT_EQ(e.face2, 1);
  EXPECT_LT((cube.faces[0].normal - Vec3(0, 0, 1)).norm(), 1e-15);
  EXPECT_LT((cube.faces[1].normal - Vec3(0, -1, 0)).norm(), 1e-15);
  EXPECT_LT((e.t1 - Vec3(0, 1, 0)).norm(), 1e-15);
  EXPECT_LT((e.t2 - Vec3(0, 0, -1)).norm(), 1e-15);
  EXPECT_LT((e.orientation - Vec3(0, 1, 1).normalized()).norm(), 1e-15);
  EXPECT_FALSE(e.nearly_flat);
  EXPECT_DOUBLE_EQ(cube.faces[0].offset, 0);
  EXPECT_DOUBLE_EQ(cube.faces[5].offset, 1);  // −z · (·, ·, −1)
}

TEST(PolyhedronAdjacency, HullOfTheSpecCubeGivesTheSameEdgeUpToDirection) {
  // The hull may store the edge reversed: then face1/face2 and t1/t2 swap and O_e flips, which
  // is the same geometry (O_e still points towards the f1 side).
  const ConvexPolyhedron cube = SpecCube();
  const ConvexPolyhedron hull = polyhedron_from_points(cube.vertices);
  ExpectWellFormedPolyhedron(hull);
  int found = 0;
  for (const PolyhedronEdge& e : hull.edges) {
    const Vec3 a = hull.vertices[e.tail], b = hull.vertices[e.head];
    const bool forward = a == Vec3(0, 0, 0) && b == Vec3(1, 0, 0);
    const bool backward = b == Vec3(0, 0, 0) && a == Vec3(1, 0, 0);
    if (!forward && !backward) continue;
    ++found;
    const Vec3 t_top = forward ? e.t1 : e.t2, t_front = forward ? e.t2 : e.t1;
    EXPECT_LT((t_top - Vec3(0, 1, 0)).norm(), 1e-15);
    EXPECT_LT((t_front - Vec3(0, 0, -1)).norm(), 1e-15);
    EXPECT_LT((e.orientation - (forward ? 1 : -1) * Vec3(0, 1, 1).normalized()).norm(), 1e-15);
  }
  EXPECT_EQ(found, 1);
}

TEST(PolyhedronAdjacency, VertexFansAreCyclicAndCounterClockwise) {
  const ConvexPolyhedron cube = SpecCube();
  // Vertex 0 = (0,0,0): neighbours (1,0,0), (0,1,0), (0,0,−1) in some rotation of the CCW order
  // seen from outside (from (−1,−1,1)): x → z-down → y ... determined by the faces between them.
  const auto& nb = cube.vertex_neighbours[0];
  ASSERT_EQ(nb.size(), 3u);
  // Face between consecutive neighbours contains both.
  for (int k = 0; k < 3; ++k) {
    const auto& loop = cube.faces[cube.vertex_faces[0][k]].vertices;
    EXPECT_NE(std::find(loop.begin(), loop.end(), nb[k]), loop.end());
    EXPECT_NE(std::find(loop.begin(), loop.end(), nb[(k + 1) % 3]), loop.end());
  }
  // Rotating so that neighbour 1 comes first, the CCW order is 1 (x), 3 (y), 4 (−z): the outward
  // corner direction (−1, −1, 1)·... sees x → y → −z as counter-clockwise.
  const auto it = std::find(nb.begin(), nb.end(), 1);
  ASSERT_NE(it, nb.end());
  const int at = static_cast<int>(it - nb.begin());
  EXPECT_EQ(nb[(at + 1) % 3], 3);
  EXPECT_EQ(nb[(at + 2) % 3], 4);
}

TEST(PolyhedronAdjacency, MalformedFacesAreRejected) {
  std::vector<std::vector<int>> loops;
  const ConvexPolyhedron cube = SpecCube(&loops);
  const auto err = [&](std::vector<std::vector<int>> l) {
    return ErrorOf([&] { polyhedron_from_faces(cube.vertices, l); });
  };
  auto missing = loops;
  missing.pop_back();
  EXPECT_NE(err(missing).find("only one face"), std::string::npos);
  auto reversed = loops;
  std::reverse(reversed[2].begin(), reversed[2].end());
  EXPECT_NE(err(reversed).find("same direction"), std::string::npos);
  auto small = loops;
  small[0] = {0, 1};
  EXPECT_NE(err(small).find("fewer than 3 vertices"), std::string::npos);
  auto bad_index = loops;
  bad_index[0][2] = 8;
  EXPECT_NE(err(bad_index).find("invalid vertex index"), std::string::npos);
  auto repeated = loops;
  repeated[0] = {0, 1, 0, 3};
  EXPECT_NE(err(repeated).find("repeats a vertex"), std::string::npos);
  // All faces inside out: closed and consistent, but every normal points inward.
  auto inverted = loops;
  for (auto& l : inverted) std::reverse(l.begin(), l.end());
  EXPECT_NE(err(inverted).find("outside the plane"), std::string::npos);
  // A bent "face": move one top vertex up.
  std::vector<Vec3> bent = cube.vertices;
  bent[2].z() = 0.1;
  EXPECT_NE(ErrorOf([&] { polyhedron_from_faces(bent, loops); }).find("not planar"),
            std::string::npos);
  std::vector<Vec3> nan = cube.vertices;
  nan[0].x() = std::nan("");
  EXPECT_NE(ErrorOf([&] { polyhedron_from_faces(nan, loops); }).find("finite"), std::string::npos);
}

}  // namespace
}  // namespace exactsim
