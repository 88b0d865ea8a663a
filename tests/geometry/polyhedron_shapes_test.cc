// Convenience shapes: boxes and icosahedra have their textbook structure; the random generator
// is reproducible, centred, scaled to its diameter and honours its sliver limits.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"
#include "input_error.h"

namespace exactsim {

void ExpectWellFormedPolyhedron(const ConvexPolyhedron& p);  // polyhedron_hull_test.cc

namespace {

TEST(PolyhedronShapes, BoxIsSixQuadsCentredAtTheOrigin) {
  const ConvexPolyhedron box = make_box(Vec3(2, 4, 6));
  ExpectWellFormedPolyhedron(box);
  EXPECT_EQ(box.num_vertices(), 8);
  EXPECT_EQ(box.num_edges(), 12);
  EXPECT_EQ(box.num_faces(), 6);
  for (const Vec3& v : box.vertices) EXPECT_EQ(v.cwiseAbs(), Vec3(1, 2, 3));
  for (const PolyhedronFace& f : box.faces) {
    EXPECT_EQ(f.vertices.size(), 4u);
    EXPECT_NEAR(f.normal.cwiseAbs().maxCoeff(), 1, 0);  // axis-aligned, exactly
    EXPECT_DOUBLE_EQ(f.offset, f.normal.cwiseAbs().dot(Vec3(1, 2, 3)));
  }
}

TEST(PolyhedronShapes, IcosahedronIsRegular) {
  const Real R = 0.5;
  const ConvexPolyhedron ico = make_icosahedron(R);
  ExpectWellFormedPolyhedron(ico);
  EXPECT_EQ(ico.num_vertices(), 12);
  EXPECT_EQ(ico.num_edges(), 30);
  EXPECT_EQ(ico.num_faces(), 20);
  for (const Vec3& v : ico.vertices) EXPECT_NEAR(v.norm(), R, 1e-15);
  const Real s = R / std::sin(2 * std::numbers::pi / 5);
  for (int e = 0; e < ico.num_edges(); ++e) EXPECT_NEAR(ico.edge_vector(e).norm(), s, 1e-15);
  for (const PolyhedronFace& f : ico.faces) EXPECT_EQ(f.vertices.size(), 3u);
  // Dihedral angle of the icosahedron: cos θ_between normals = √5/3.
  for (const PolyhedronEdge& e : ico.edges)
    EXPECT_NEAR(ico.faces[e.face1].normal.dot(ico.faces[e.face2].normal), std::sqrt(5.0) / 3,
                1e-15);
}

TEST(PolyhedronShapes, RandomPolyhedronIsReproducibleCentredAndScaled) {
  RandomPolyhedronOptions options;
  options.diameter = 1.5;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 a(seed), b(seed);
    const ConvexPolyhedron p = random_convex_polyhedron(a, options);
    const ConvexPolyhedron q = random_convex_polyhedron(b, options);
    ASSERT_EQ(p.vertices, q.vertices);
    ExpectWellFormedPolyhedron(p);
    EXPECT_LE(p.num_vertices(), options.points);
    EXPECT_LT(polyhedron_mass_properties(p, 1.0).centroid.norm(), 1e-15);
    Real diameter = 0;
    for (const Vec3& u : p.vertices)
      for (const Vec3& v : p.vertices) diameter = std::max(diameter, (u - v).norm());
    EXPECT_NEAR(diameter, 1.5, 1e-14);
  }
}

TEST(PolyhedronShapes, RandomPolyhedronHonoursSliverLimits) {
  RandomPolyhedronOptions options;
  options.min_edge_length = 0.15;
  options.max_face_angle_deg = 150;
  std::mt19937_64 rng(99);
  for (int i = 0; i < 5; ++i) {
    const ConvexPolyhedron p = random_convex_polyhedron(rng, options);
    for (int e = 0; e < p.num_edges(); ++e) EXPECT_GE(p.edge_vector(e).norm(), 0.15);
    for (const PolyhedronFace& f : p.faces) {
      const size_t n = f.vertices.size();
      for (size_t k = 0; k < n; ++k) {
        const Vec3 a = p.vertices[f.vertices[(k + n - 1) % n]] - p.vertices[f.vertices[k]];
        const Vec3 b = p.vertices[f.vertices[(k + 1) % n]] - p.vertices[f.vertices[k]];
        EXPECT_LE(std::acos(a.normalized().dot(b.normalized())) * 180 / std::numbers::pi,
                  150 + 1e-9);
      }
    }
  }
  // Impossible limits: every draw is rejected.
  RandomPolyhedronOptions impossible;
  impossible.min_edge_length = 2;  // longer than the diameter
  impossible.max_attempts = 5;
  EXPECT_NE(ErrorOf([&] { random_convex_polyhedron(rng, impossible); }).find("no draw out of 5"),
            std::string::npos);
}

TEST(PolyhedronShapes, BadParametersAreRejected) {
  EXPECT_NE(ErrorOf([] { make_box(Vec3(1, 0, 1)); }).find("make_box"), std::string::npos);
  EXPECT_NE(ErrorOf([] { make_box(Vec3(1, std::nan(""), 1)); }).find("positive and finite"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { make_icosahedron(-1); }).find("circumradius"), std::string::npos);
  std::mt19937_64 rng(1);
  const auto err = [&](auto set) {
    RandomPolyhedronOptions o;
    set(o);
    return ErrorOf([&] { random_convex_polyhedron(rng, o); });
  };
  EXPECT_NE(err([](auto& o) { o.points = 3; }).find("points"), std::string::npos);
  EXPECT_NE(err([](auto& o) { o.diameter = 0; }).find("diameter"), std::string::npos);
  EXPECT_NE(err([](auto& o) { o.min_edge_length = -1; }).find("min_edge_length"),
            std::string::npos);
  EXPECT_NE(err([](auto& o) { o.max_face_angle_deg = 200; }).find("max_face_angle_deg"),
            std::string::npos);
  EXPECT_NE(err([](auto& o) { o.max_attempts = 0; }).find("max_attempts"), std::string::npos);
}

}  // namespace
}  // namespace exactsim
