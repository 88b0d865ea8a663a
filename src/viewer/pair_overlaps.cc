#include "exactsim/viewer/pair_overlaps.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <utility>

#include "exactsim/metrics/collider_pair.h"
#include "exactsim/metrics/overlap.h"

namespace exactsim {

namespace {

// The collider index of part k of body i (stepping/world.h).
int part_collider(const World& world, int i, int k) {
  return k == 0 ? i : world.body_count() + world.bodies[i].first_part + k - 1;
}

}  // namespace

const ConvexPolyhedron& drawn_polyhedron(const World& world, int i, int k) {
  if (const HalfSpace* h = body_half_space(world, i)) {
    // A half-space is drawn as a box reaching 5 m along its plane: the pictures frame the moving
    // bodies and show static ones only near them.
    thread_local std::map<std::array<Real, 4>, ConvexPolyhedron> drawn;
    const std::array<Real, 4> key{h->normal.x(), h->normal.y(), h->normal.z(), h->offset};
    auto it = drawn.find(key);
    if (it == drawn.end()) it = drawn.emplace(key, half_space_box(*h, 5.0)).first;
    return it->second;
  }
  if (part_kind(world, i, k) != ShapeKind::kSphere) return world.polyhedra[part_shape(world, i, k)];
  const Sphere& s = world.spheres[part_shape(world, i, k)];
  thread_local std::map<std::array<Real, 4>, ConvexPolyhedron> drawn;
  const std::array<Real, 4> key{s.radius, s.centre.x(), s.centre.y(), s.centre.z()};
  auto it = drawn.find(key);
  if (it == drawn.end()) {
    constexpr int kAround = 16, kRings = 8;
    const Real r = s.radius;
    std::vector<Vec3> points{s.centre + Vec3(0, 0, r), s.centre - Vec3(0, 0, r)};
    for (int ring = 1; ring < kRings; ++ring) {
      const Real polar = std::numbers::pi * ring / kRings;
      for (int a = 0; a < kAround; ++a) {
        const Real azimuth = 2 * std::numbers::pi * a / kAround;
        points.push_back(s.centre + r * Vec3(std::sin(polar) * std::cos(azimuth),
                                             std::sin(polar) * std::sin(azimuth), std::cos(polar)));
      }
    }
    it = drawn.emplace(key, polyhedron_from_points(points)).first;
  }
  return it->second;
}

Real body_size(const World& world, int i) {
  Real size = 0;
  for (int k = 0; k < part_count(world, i); ++k)
    size += world.dimension == 2
                ? std::abs(polygon_area(world.polygons[part_shape(world, i, k)].vertices))
            : part_kind(world, i, k) == ShapeKind::kSphere
                ? sphere_mass_properties(world.spheres[part_shape(world, i, k)].radius, 1.0).volume
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
  std::vector<std::vector<WorldPolyhedron>> placed(n);
  std::vector<std::vector<PlacedCollider3>> colliders(n);
  for (int i = 0; i < n; ++i) {
    if (!f.present[i]) continue;
    poses[i] = frame_pose3(f, i);
    placed[i].resize(part_count(world, i));
    colliders[i].resize(part_count(world, i));
    for (int k = 0; k < part_count(world, i); ++k) {
      colliders[i][k] = place_collider(world, part_collider(world, i, k), poses[i], placed[i][k]);
      const Aabb3& b = placed[i][k].aabb;
      boxes[i] = k == 0 ? b : Aabb3{boxes[i].lo.cwiseMin(b.lo), boxes[i].hi.cwiseMax(b.hi)};
    }
  }
  IntersectionScratch scratch;
  overlapping_box_pairs<Aabb3>(boxes, is_static, present, sweep, pairs);
  for (const auto& [i, j] : pairs) {
    Real v = 0;
    for (const PlacedCollider3& a : colliders[i])
      for (const PlacedCollider3& b : colliders[j])
        v += intersection_volume(a, poses[i], b, poses[j], &scratch);
    if (v > 0) out.push_back({i, j, v});
  }
  return out;
}

}  // namespace exactsim
