// The authors' archived 2D pouring bodies (docs/peg2d-experiment.md "Protocol"; data/ holds a copy
// of the authors' archive) are valid ConvexPolygons: every one survives the hull under
// kRequireConvex with its vertices and their CCW order intact, and the set statistics match those
// quoted in the spec.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "exactsim/geometry/polygon.h"

namespace exactsim {
namespace {

std::vector<std::vector<Vec2>> load_body_sets() {
  std::ifstream in(EXACTSIM_SOURCE_DIR "/data/peg2d_pouring_body_sets.json");
  if (!in) return {};
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::vector<std::vector<Vec2>> polygons;
  for (const auto& [name, set] : doc.at("sets").items()) {
    for (const auto& body : set) {
      std::vector<Vec2> v;
      for (const auto& xy : body.at("verts_local")) v.emplace_back(xy.at(0), xy.at(1));
      polygons.push_back(std::move(v));
    }
  }
  return polygons;
}

TEST(PolygonBodySets, ArchivedPolygonsAreStrictlyConvexAndKeepTheirVertices) {
  const std::vector<std::vector<Vec2>> polygons = load_body_sets();
  ASSERT_EQ(polygons.size(), 250u) << "10 sets of 25 bodies in " EXACTSIM_SOURCE_DIR "/data";
  std::map<int, int> count_by_vertices;
  Real min_area = INFINITY, max_area = 0, sum_area = 0;
  for (std::size_t b = 0; b < polygons.size(); ++b) {
    const std::vector<Vec2>& given = polygons[b];
    const ConvexPolygon p = polygon_from_points(given, HullInput::kRequireConvex);
    ASSERT_EQ(p.size(), static_cast<int>(given.size())) << "body " << b;
    // Same vertices in the same cyclic order (the hull may start at another vertex).
    const auto start = std::find(given.begin(), given.end(), p.vertices[0]);
    ASSERT_NE(start, given.end()) << "body " << b;
    const std::size_t offset = static_cast<std::size_t>(start - given.begin());
    for (std::size_t i = 0; i < given.size(); ++i) {
      EXPECT_EQ(p.vertices[i], given[(i + offset) % given.size()]) << "body " << b;
    }
    // The body origin (mean of the generating points) lies strictly inside.
    for (int i = 0; i < p.size(); ++i) EXPECT_LT(p.edge_normals[i].dot(-p.vertices[i]), 0);
    const Real area = polygon_mass_properties(p, 1.0).area;
    min_area = std::min(min_area, area);
    max_area = std::max(max_area, area);
    sum_area += area;
    ++count_by_vertices[p.size()];
  }
  // The archive: counts 19/63/99/49/20 for 4..8 vertices, area 0.0135–0.0447 (mean 0.0273).
  const std::map<int, int> expected = {{4, 19}, {5, 63}, {6, 99}, {7, 49}, {8, 20}};
  EXPECT_EQ(count_by_vertices, expected);
  EXPECT_NEAR(min_area, 0.0135, 5e-5);
  EXPECT_NEAR(max_area, 0.0447, 5e-5);
  EXPECT_NEAR(sum_area / 250, 0.0273, 5e-5);
}

}  // namespace
}  // namespace exactsim
