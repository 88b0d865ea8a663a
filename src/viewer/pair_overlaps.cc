#include "exactsim/viewer/pair_overlaps.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <utility>

#include "exactsim/metrics/collider_pair.h"
#include "exactsim/metrics/overlap.h"

namespace exactsim {

const ConvexPolyhedron& drawn_polyhedron(const World& world, int i, int k) {
  const Body& b = world.bodies[i];
  if (b.kind != ShapeKind::kSphere) return world.polyhedra[part_shape(world, i, k)];
  thread_local std::map<Real, ConvexPolyhedron> drawn;
  const Real r = world.spheres[b.shape].radius;
  auto it = drawn.find(r);
  if (it == drawn.end()) {
    constexpr int kAround = 16, kRings = 8;
    std::vector<Vec3> points{Vec3(0, 0, r), Vec3(0, 0, -r)};
    for (int ring = 1; ring < kRings; ++ring) {
      const Real polar = std::numbers::pi * ring / kRings;
      for (int a = 0; a < kAround; ++a) {
        const Real azimuth = 2 * std::numbers::pi * a / kAround;
        points.push_back(r * Vec3(std::sin(polar) * std::cos(azimuth),
                                  std::sin(polar) * std::sin(azimuth), std::cos(polar)));
      }
    }
    it = drawn.emplace(r, polyhedron_from_points(points)).first;
  }
  return it->second;
}

Real body_size(const World& world, int i) {
  Real size = 0;
  for (int k = 0; k < part_count(world, i); ++k)
    size += world.dimension == 2
                ? std::abs(polygon_area(world.polygons[part_shape(world, i, k)].vertices))
            : world.bodies[i].kind == ShapeKind::kSphere
                ? sphere_mass_properties(world.spheres[world.bodies[i].shape].radius, 1.0).volume
                : polyhedron_mass_properties(world.polyhedra[part_shape(world, i, k)], 1.0).volume;
  return size;
}

// Bodies i < j overlap by the sum over their parts' pairs (parts of one body meet only at their
// boundaries).
std::vector<PairOverlap> pair_overlaps(const World& world, const ReplayFrame& f) {
  std::vector<PairOverlap> out;
  const int n = world.body_count();
  // Candidate pairs (i < j, both present, not both static, boxes overlapping), sorted: the
  // metric's sort-and-sweep (metrics/overlap.h), not all n² pairs (a 100,000-body frame).
  std::vector<std::uint8_t> is_static(n);
  for (int i = 0; i < n; ++i) is_static[i] = world.bodies[i].is_static;
  const std::span<const std::uint8_t> present(f.present);
  BoxPairScratch sweep;
  std::vector<std::pair<int, int>> pairs;
  if (world.dimension == 2) {
    std::vector<std::vector<WorldPolygon>> placed(n);
    std::vector<Aabb2> boxes(n);
    for (int i = 0; i < n; ++i) {
      if (!f.present[i]) continue;
      placed[i].resize(part_count(world, i));
      for (int k = 0; k < part_count(world, i); ++k) {
        place(world.polygons[part_shape(world, i, k)], frame_pose2(f, i), placed[i][k]);
        const Aabb2& b = placed[i][k].aabb;
        boxes[i] = k == 0 ? b : Aabb2{boxes[i].lo.cwiseMin(b.lo), boxes[i].hi.cwiseMax(b.hi)};
      }
    }
    overlapping_box_pairs<Aabb2>(boxes, is_static, present, sweep, pairs);
    for (const auto& [i, j] : pairs) {
      Real a = 0;
      for (const WorldPolygon& pi : placed[i])
        for (const WorldPolygon& pj : placed[j])
          a += polygon_intersection_area(pi.vertices, pj.vertices);
      if (a > 0) out.push_back({i, j, a});
    }
    return out;
  }
  std::vector<Pose3> poses(n);
  std::vector<Aabb3> boxes(n);
  for (int i = 0; i < n; ++i) {
    if (!f.present[i]) continue;
    poses[i] = frame_pose3(f, i);
    if (world.bodies[i].kind == ShapeKind::kSphere) {
      const Vec3 r = Vec3::Constant(world.spheres[world.bodies[i].shape].radius);
      boxes[i] = {poses[i].position - r, poses[i].position + r};
      continue;
    }
    const Vec3 first = poses[i].apply(world.polyhedra[world.bodies[i].shape].vertices[0]);
    boxes[i] = {first, first};
    for (int k = 0; k < part_count(world, i); ++k)
      for (const Vec3& v : world.polyhedra[part_shape(world, i, k)].vertices) {
        const Vec3 p = poses[i].apply(v);
        boxes[i].lo = boxes[i].lo.cwiseMin(p);
        boxes[i].hi = boxes[i].hi.cwiseMax(p);
      }
  }
  IntersectionScratch scratch;
  overlapping_box_pairs<Aabb3>(boxes, is_static, present, sweep, pairs);
  WorldPolyhedron placed;  // a polyhedron beside a sphere
  auto collider = [&](int i, int k) {
    if (world.bodies[i].kind == ShapeKind::kSphere)
      return PlacedCollider3{nullptr, nullptr, poses[i].position,
                             world.spheres[world.bodies[i].shape].radius};
    return PlacedCollider3{&world.polyhedra[part_shape(world, i, k)], &placed, poses[i].position,
                           0};
  };
  for (const auto& [i, j] : pairs) {
    Real v = 0;
    for (int a = 0; a < part_count(world, i); ++a)
      for (int b = 0; b < part_count(world, j); ++b) {
        const PlacedCollider3 ca = collider(i, a), cb = collider(j, b);
        if (ca.is_sphere() != cb.is_sphere())  // the polyhedron's placement
          place(ca.is_sphere() ? *cb.shape : *ca.shape, ca.is_sphere() ? poses[j] : poses[i],
                placed);
        v += intersection_volume(ca, poses[i], cb, poses[j], &scratch);
      }
    if (v > 0) out.push_back({i, j, v});
  }
  return out;
}

}  // namespace exactsim
