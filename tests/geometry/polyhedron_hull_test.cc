// Convex hulls as planar-face polyhedra: known point sets give the expected face structure
// (a cube has 6 quads, never triangulation diagonals), random clouds satisfy every structural
// invariant, and bad input is rejected with a message naming the problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <set>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"
#include "input_error.h"

namespace exactsim {

// Every structural invariant of docs/geometry3d.md; shared with the other polyhedron tests.
void ExpectWellFormedPolyhedron(const ConvexPolyhedron& p) {
  const int nv = p.num_vertices(), ne = p.num_edges(), nf = p.num_faces();
  ASSERT_GE(nv, 4);
  EXPECT_EQ(nv - ne + nf, 2) << "Euler characteristic";
  Real size = 0;
  for (const Vec3& a : p.vertices)
    for (const Vec3& b : p.vertices) size = std::max(size, (a - b).norm());
  const Real tol = 1e-9 * size;
  Vec3 mean = Vec3::Zero();
  for (const Vec3& v : p.vertices) mean += v;
  mean /= nv;

  std::vector<int> faces_at(nv, 0);
  for (int f = 0; f < nf; ++f) {
    const PolyhedronFace& face = p.faces[f];
    const int n = static_cast<int>(face.vertices.size());
    ASSERT_GE(n, 3);
    ASSERT_EQ(face.edges.size(), face.vertices.size());
    EXPECT_NEAR(face.normal.norm(), 1, 1e-14);
    EXPECT_LT(face.normal.dot(mean) - face.offset, -tol) << "normal points outward";
    for (int i = 0; i < n; ++i) {
      const int v = face.vertices[i], w = face.vertices[(i + 1) % n];
      ++faces_at[v];
      EXPECT_NEAR(face.normal.dot(p.vertices[v]), face.offset, tol) << "face " << f << " planar";
      // CCW from outside and strictly convex: every corner turns left about the normal.
      const Vec3& u = p.vertices[face.vertices[(i + n - 1) % n]];
      EXPECT_GT((p.vertices[v] - u).cross(p.vertices[w] - p.vertices[v]).dot(face.normal), 0);
      const PolyhedronEdge& e = p.edges[face.edges[i]];
      EXPECT_TRUE((e.tail == v && e.head == w && e.face1 == f) ||
                  (e.tail == w && e.head == v && e.face2 == f))
          << "face " << f << " edge " << i;
    }
    for (int v = 0; v < nv; ++v) EXPECT_LE(face.normal.dot(p.vertices[v]) - face.offset, tol);
  }
  for (int v = 0; v < nv; ++v) EXPECT_GE(faces_at[v], 3) << "vertex " << v << " is a corner";

  std::set<std::pair<int, int>> undirected;
  for (int e = 0; e < ne; ++e) {
    const PolyhedronEdge& edge = p.edges[e];
    EXPECT_TRUE(undirected.insert(std::minmax(edge.tail, edge.head)).second) << "edge listed once";
    ASSERT_NE(edge.face1, edge.face2);
    const Vec3 ev = p.edge_vector(e);
    const Vec3& n1 = p.faces[edge.face1].normal;
    const Vec3& n2 = p.faces[edge.face2].normal;
    EXPECT_LT(n1.dot(n2), 1 - 1e-12) << "no edge between coplanar faces (planar-face decision)";
    EXPECT_EQ(edge.nearly_flat, n1.dot(n2) > kFlatEdgeThreshold);
    for (const Vec3* t : {&edge.t1, &edge.t2, &edge.orientation}) {
      EXPECT_NEAR(t->norm(), 1, 1e-14);
      EXPECT_NEAR(t->dot(ev), 0, 1e-12 * ev.norm());
    }
    EXPECT_NEAR(edge.t1.dot(n1), 0, 1e-12);
    EXPECT_NEAR(edge.t2.dot(n2), 0, 1e-12);
    // Pointing into the face: towards the face's vertex mean.
    for (auto [t, f] : {std::pair{edge.t1, edge.face1}, std::pair{edge.t2, edge.face2}}) {
      Vec3 c = Vec3::Zero();
      for (int v : p.faces[f].vertices) c += p.vertices[v];
      c /= static_cast<Real>(p.faces[f].vertices.size());
      EXPECT_GT(t.dot(c - p.vertices[edge.tail]), 0);
    }
    EXPECT_LT((edge.orientation - (edge.t1 - edge.t2).normalized()).norm(), 1e-12);
  }

  ASSERT_EQ(p.vertex_edges.size(), static_cast<size_t>(nv));
  ASSERT_EQ(p.vertex_neighbours.size(), static_cast<size_t>(nv));
  ASSERT_EQ(p.vertex_faces.size(), static_cast<size_t>(nv));
  for (int v = 0; v < nv; ++v) {
    const auto& edges = p.vertex_edges[v];
    const int k = static_cast<int>(edges.size());
    ASSERT_EQ(p.vertex_neighbours[v].size(), edges.size());
    ASSERT_EQ(p.vertex_faces[v].size(), edges.size());
    EXPECT_EQ(k, faces_at[v]);
    for (int i = 0; i < k; ++i) {
      const PolyhedronEdge& e = p.edges[edges[i]];
      const int u = p.vertex_neighbours[v][i];
      EXPECT_TRUE((e.tail == v && e.head == u) || (e.head == v && e.tail == u));
      // Both ways: v is a neighbour of u.
      const auto& back = p.vertex_neighbours[u];
      EXPECT_NE(std::find(back.begin(), back.end(), v), back.end());
      // The face between edges i and i+1 holds both, and the turn is CCW seen from outside.
      const int f = p.vertex_faces[v][i];
      const auto& fe = p.faces[f].edges;
      EXPECT_NE(std::find(fe.begin(), fe.end(), edges[i]), fe.end());
      EXPECT_NE(std::find(fe.begin(), fe.end(), edges[(i + 1) % k]), fe.end());
      const Vec3 a = p.vertices[u] - p.vertices[v];
      const Vec3 b = p.vertices[p.vertex_neighbours[v][(i + 1) % k]] - p.vertices[v];
      EXPECT_GT(a.cross(b).dot(p.faces[f].normal), 0);
    }
  }
  int incidences = 0;
  for (const auto& edges : p.vertex_edges) incidences += static_cast<int>(edges.size());
  EXPECT_EQ(incidences, 2 * ne);
}

namespace {

void ExpectContainsAll(const ConvexPolyhedron& p, std::span<const Vec3> points, Real tol) {
  for (const Vec3& q : points) EXPECT_LE(max_face_distance(p, q), tol);
}

std::vector<Vec3> CubeCorners(Real s) {
  std::vector<Vec3> c;
  for (int k = 0; k < 8; ++k) c.emplace_back(k & 1 ? s : 0, k & 2 ? s : 0, k & 4 ? s : 0);
  return c;
}

TEST(PolyhedronHull, TetrahedronHasFourTriangles) {
  const std::vector<Vec3> pts{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.1, 0.1, 0.1}};
  const ConvexPolyhedron p = polyhedron_from_points(pts);
  ExpectWellFormedPolyhedron(p);
  EXPECT_EQ(p.num_vertices(), 4);  // the interior point is dropped
  EXPECT_EQ(p.num_edges(), 6);
  EXPECT_EQ(p.num_faces(), 4);
  for (const auto& f : p.faces) EXPECT_EQ(f.vertices.size(), 3u);
  ExpectContainsAll(p, pts, 1e-15);
}

TEST(PolyhedronHull, CubeHasSixQuadFacesAndNoDiagonals) {
  std::vector<Vec3> pts = CubeCorners(2.0);
  // Face centres, edge midpoints and the centre are not vertices and must not split faces.
  pts.push_back({1, 1, 0});
  pts.push_back({1, 1, 2});
  pts.push_back({0, 1, 1});
  pts.push_back({1, 0, 0});
  pts.push_back({2, 2, 1});
  pts.push_back({1, 1, 1});
  pts.push_back({2, 2, 2});  // duplicate corner
  const ConvexPolyhedron p = polyhedron_from_points(pts);
  ExpectWellFormedPolyhedron(p);
  EXPECT_EQ(p.num_vertices(), 8);
  EXPECT_EQ(p.num_edges(), 12);
  EXPECT_EQ(p.num_faces(), 6);
  for (const auto& f : p.faces) EXPECT_EQ(f.vertices.size(), 4u);
  for (const auto& e : p.edges) {
    EXPECT_NEAR((p.vertices[e.head] - p.vertices[e.tail]).norm(), 2, 1e-15) << "only cube edges";
    EXPECT_FALSE(e.nearly_flat);
  }
  // Vertices keep the input order (the first 8 inputs are the corners).
  for (int i = 0; i < 8; ++i) EXPECT_EQ(p.vertices[i], pts[i]);
  ExpectContainsAll(p, pts, 1e-15);
}

TEST(PolyhedronHull, RotatedCubeWithRoundOffStillHasQuadFaces) {
  // Rotation leaves the corners of each face coplanar only to round-off: the merge tolerance
  // must still produce one face per side.
  const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  std::vector<Vec3> pts;
  for (const Vec3& c : CubeCorners(1.0)) pts.push_back(q * (c + Vec3(10, -3, 7)));
  const ConvexPolyhedron p = polyhedron_from_points(pts);
  ExpectWellFormedPolyhedron(p);
  EXPECT_EQ(p.num_faces(), 6);
  EXPECT_EQ(p.num_edges(), 12);
}

TEST(PolyhedronHull, IcosahedronFromItsTwelveVertices) {
  const Real phi = std::numbers::phi;
  std::vector<Vec3> pts;
  for (Real a : {-1.0, 1.0})
    for (Real b : {-phi, phi}) {
      pts.emplace_back(0, a, b);
      pts.emplace_back(a, b, 0);
      pts.emplace_back(b, 0, a);
    }
  const ConvexPolyhedron p = polyhedron_from_points(pts);
  ExpectWellFormedPolyhedron(p);
  EXPECT_EQ(p.num_vertices(), 12);
  EXPECT_EQ(p.num_edges(), 30);
  EXPECT_EQ(p.num_faces(), 20);
  for (const auto& v : p.vertex_edges) EXPECT_EQ(v.size(), 5u);
}

TEST(PolyhedronHull, IntegerGridKeepsOnlyTheEightCorners) {
  // 4×4×4 lattice: 56 boundary points, most of them on faces or edges.
  std::vector<Vec3> pts;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) pts.emplace_back(i, j, k);
  const ConvexPolyhedron p = polyhedron_from_points(pts);
  ExpectWellFormedPolyhedron(p);
  EXPECT_EQ(p.num_vertices(), 8);
  EXPECT_EQ(p.num_faces(), 6);
}

TEST(PolyhedronHull, OctahedronAndPrismHaveTheirFaceCounts) {
  const std::vector<Vec3> octa{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  const ConvexPolyhedron o = polyhedron_from_points(octa);
  ExpectWellFormedPolyhedron(o);
  EXPECT_EQ(o.num_faces(), 8);
  // Hexagonal prism: 2 hexagons + 6 quads.
  std::vector<Vec3> prism;
  for (int k = 0; k < 6; ++k)
    for (Real z : {0.0, 0.5})
      prism.emplace_back(std::cos(k * std::numbers::pi / 3), std::sin(k * std::numbers::pi / 3), z);
  const ConvexPolyhedron h = polyhedron_from_points(prism);
  ExpectWellFormedPolyhedron(h);
  EXPECT_EQ(h.num_faces(), 8);
  EXPECT_EQ(h.num_edges(), 18);
  int hexagons = 0;
  for (const auto& f : h.faces) hexagons += f.vertices.size() == 6;
  EXPECT_EQ(hexagons, 2);
}

TEST(PolyhedronHull, RandomCloudsSatisfyAllInvariants) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int trial = 0; trial < 150; ++trial) {
    const int n = 4 + trial % 40;
    std::vector<Vec3> pts(n);
    for (Vec3& p : pts) p = Vec3(u(rng), u(rng), u(rng));
    if (trial % 3 == 0)
      for (Vec3& p : pts) p = p.normalized() * 2.5 + Vec3(100, 0, 0);  // all on a sphere, offset
    const ConvexPolyhedron p = polyhedron_from_points(pts);
    SCOPED_TRACE(trial);
    ExpectWellFormedPolyhedron(p);
    ExpectContainsAll(p, pts, 1e-12 * 200);
    // Every hull vertex is an input point.
    for (const Vec3& v : p.vertices) EXPECT_NE(std::find(pts.begin(), pts.end(), v), pts.end());
  }
}

TEST(PolyhedronHull, PointsScatteredOnTheFacesDoNotSplitThem) {
  // Corners of a rotated box plus many random points on its faces and edges: still 8 corners
  // and 6 quads, whatever qhull's triangulation of the crowded faces was.
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<Real> u(-1, 1);
  const Quat q(Eigen::AngleAxisd(0.3, Vec3(2, -1, 1).normalized()));
  const Vec3 half(1.0, 0.5, 0.25);
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<Vec3> pts;
    for (int k = 0; k < 8; ++k)
      pts.push_back(q * Vec3(k & 1 ? half.x() : -half.x(), k & 2 ? half.y() : -half.y(),
                             k & 4 ? half.z() : -half.z()));
    for (int i = 0; i < 60; ++i) {
      Vec3 p(u(rng), u(rng), u(rng));
      p[i % 3] = i % 2 ? 1 : -1;                        // on a face
      if (i % 5 == 0) p[(i + 1) % 3] = i % 4 ? 1 : -1;  // on an edge
      pts.push_back(q * p.cwiseProduct(half));
    }
    const ConvexPolyhedron p = polyhedron_from_points(pts);
    ExpectWellFormedPolyhedron(p);
    EXPECT_EQ(p.num_vertices(), 8);
    EXPECT_EQ(p.num_faces(), 6);
    ExpectContainsAll(p, pts, 1e-14);
  }
}

TEST(PolyhedronHull, NearlyCoplanarPointsMergeWithinTheTolerance) {
  // A point raised 1e-12 (relative) above the top face of a cube is within the merge tolerance:
  // it is dropped and the top stays one quad. Raised 1e-3 it is a genuine apex.
  for (Real h : {1e-12, 1e-3}) {
    std::vector<Vec3> pts = CubeCorners(1.0);
    pts.emplace_back(0.5, 0.5, 1 + h);
    const ConvexPolyhedron p = polyhedron_from_points(pts);
    ExpectWellFormedPolyhedron(p);
    EXPECT_EQ(p.num_vertices(), h < 1e-9 ? 8 : 9);
    EXPECT_EQ(p.num_faces(), h < 1e-9 ? 6 : 9);
    ExpectContainsAll(p, pts, 1e-9);
  }
}

TEST(PolyhedronHull, FlatEdgesAreMarkedWithTheThreshold) {
  // A very low pyramid on a square: the four slanted faces meet the base at a steep angle but
  // each other at an almost flat one (η̂₁·η̂₂ > 0.995).
  std::vector<Vec3> pts{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}, {0, 0, 0.05}};
  const ConvexPolyhedron p = polyhedron_from_points(pts);
  ExpectWellFormedPolyhedron(p);
  int flat = 0;
  for (const auto& e : p.edges) flat += e.nearly_flat;
  EXPECT_EQ(flat, 4);  // the four apex edges
  PolyhedronHullOptions strict;
  strict.flat_threshold = 0.9999;
  int flat_strict = 0;
  for (const auto& e : polyhedron_from_points(pts, strict).edges) flat_strict += e.nearly_flat;
  EXPECT_EQ(flat_strict, 0);
}

TEST(PolyhedronHull, BadInputsAreRejectedWithTheirReason) {
  const Real nan = std::nan("");
  const Real inf = std::numeric_limits<Real>::infinity();
  const std::vector<Vec3> three{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(three); }).find("fewer than 4 points"),
            std::string::npos);
  std::vector<Vec3> with_nan = CubeCorners(1);
  with_nan[3].y() = nan;
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(with_nan); }).find("point 3 has a NaN"),
            std::string::npos);
  std::vector<Vec3> with_inf = CubeCorners(1);
  with_inf[5].z() = inf;
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(with_inf); }).find("infinite"), std::string::npos);
  const std::vector<Vec3> same(5, Vec3(1, 2, 3));
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(same); }).find("coincide"), std::string::npos);
  std::vector<Vec3> line;
  for (int i = 0; i < 6; ++i) line.emplace_back(i, 2 * i, -i);
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(line); }).find("collinear"), std::string::npos);
  std::vector<Vec3> plane;
  for (int i = 0; i < 6; ++i) plane.emplace_back(i, i * i, 3 * i - i * i);  // z = 3x − y
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(plane); }).find("coplanar"), std::string::npos);
  // Found by fuzz_mesh (a binary STL): coordinates from 1e-38 to 1e34 pass the degeneracy
  // checks, but every point lies within the tolerance of the others' hull.
  const std::vector<Vec3> wide{
      {1.8904313398730096e+23, 2.9764441255472076e+29, 1.2871493647727938e+31},
      {1.8464881834820027e+25, 4.5384728474391502e+30, 2.1039985115139816e-19},
      {2.386948771529969e-18, 2.7256407708232214e+20, 2.7946390837080254e+20},
      {1.7864549842763718e+25, 2.0070291781573542e+29, 5.1467845539320809e+31},
      {4.1578701059262849e+21, 1.2414578481376319e+28, 2.737577596819939e+20},
      {1.4918507370244733e-19, 8.5282937998202534e-33, 2.3914616621569052e-18},
      {1.3355732519926278e-08, 4.2267376789817172e-38, 1.7864549842763718e+25},
      {1.1754264660235275e-32, 6.7110867228821947e+22, 2.0170121982979052e-19},
      {1.359163211952725e-19, 7.0071739013690022e+32, 1.8615590189516027e+34},
      {1.5003133116787736e-19, 1.1027864987408766e-32, 8.8183271795827523e-10},
      {2.3310420260713727e-09, 1.7590422885161884e+22, 4.7425035602469661e+30},
      {2.1039985115139816e-19, 1.4918429822062306e-19, 1.7721096975810457e+28}};
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(wide); }).find("coplanar within the hull"),
            std::string::npos);
  PolyhedronHullOptions bad;
  bad.relative_tolerance = 0;
  EXPECT_NE(ErrorOf([&] { polyhedron_from_points(CubeCorners(1), bad); }).find("relative_tol"),
            std::string::npos);
}

}  // namespace
}  // namespace exactsim
