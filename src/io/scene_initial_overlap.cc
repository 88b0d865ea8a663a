// Deep interpenetration at load: docs/input-validation.md, "Overlap at load".
#include "exactsim/io/scene_initial_overlap.h"

#include <algorithm>

#include "exactsim/geometry/sphere.h"
#include "exactsim/metrics/collider_pair.h"
#include "exactsim/metrics/overlap.h"

namespace exactsim {
namespace {

// Over colliders (stepping/world.h): a compound body's parts are checked one by one against the
// other bodies' parts, never against each other, and a deep pair is reported by its bodies.
template <class Box, class Measure, class Intersect>
InitialOverlapCheck check(const World& world, std::span<const Box> boxes,
                          std::span<const std::uint8_t> is_static,
                          std::span<const std::uint8_t> present, Real min_fraction, int max_pairs,
                          long budget, Measure&& measure, Intersect&& intersect) {
  InitialOverlapCheck out;
  BoxSweepScratch scratch;
  for_each_overlapping_box_pair(boxes, is_static, present, scratch, [&](int a, int b) {
    const int body_a = world.collider_body(a), body_b = world.collider_body(b);
    if (body_a == body_b || bodies_joined(world, body_a, body_b)) return true;
    if (++out.box_pairs > budget) {
      out.too_dense = true;
      return false;
    }
    const Real smaller = std::min(measure(a), measure(b));
    const Real common = intersect(a, b);
    if (common > min_fraction * smaller) {
      out.deep.push_back({std::min(body_a, body_b), std::max(body_a, body_b), common / smaller});
      if (static_cast<int>(out.deep.size()) >= max_pairs) return false;
    }
    return true;
  });
  std::sort(out.deep.begin(), out.deep.end(), [](const InitialOverlap& x, const InitialOverlap& y) {
    return x.a < y.a || (x.a == y.a && x.b < y.b);
  });
  out.deep.erase(std::unique(out.deep.begin(), out.deep.end(),
                             [](const InitialOverlap& x, const InitialOverlap& y) {
                               return x.a == y.a && x.b == y.b;
                             }),
                 out.deep.end());
  return out;
}

}  // namespace

InitialOverlapCheck find_initial_overlaps(const World& world, const State& initial,
                                          Real min_fraction, int max_pairs,
                                          int max_pairs_per_body) {
  const int n = world.collider_count();
  std::vector<std::uint8_t> is_static(n), present(n);
  for (int i = 0; i < n; ++i) {
    const Body& b = world.bodies[world.collider_body(i)];
    is_static[i] = b.is_static;
    present[i] = b.spawn_time == 0;
  }
  const long budget = static_cast<long>(max_pairs_per_body) * n + 10000;
  if (world.dimension == 2) {
    std::vector<WorldPolygon> placed(n);
    std::vector<Aabb2> boxes(n);
    std::vector<Real> area(n);
    for (int i = 0; i < n; ++i) {
      const auto q = initial.q_of(world.collider_body(i));
      place(world.polygons[world.collider_shape(i)], Pose2{q.head<2>(), q[2]}, placed[i]);
      boxes[i] = placed[i].aabb;
      area[i] = polygon_area(world.polygons[world.collider_shape(i)].vertices);
    }
    return check<Aabb2>(
        world, boxes, is_static, present, min_fraction, max_pairs, budget,
        [&](int i) { return area[i]; },
        [&](int a, int b) {
          return polygon_intersection_area(placed[a].vertices, placed[b].vertices);
        });
  }
  std::vector<Pose3> poses(n);
  std::vector<Aabb3> boxes(n);
  std::vector<Real> volume(n);
  std::vector<WorldPolyhedron> placed(n);
  std::vector<PlacedCollider3> colliders(n);
  for (int i = 0; i < n; ++i) {
    const auto q = initial.q_of(world.collider_body(i));
    poses[i] = Pose3{q.head<3>(), Quat(q[3], q[4], q[5], q[6])};
    colliders[i] = place_collider(world, i, poses[i], placed[i]);
    boxes[i] = placed[i].aabb;
    volume[i] = colliders[i].is_sphere()
                    ? sphere_mass_properties(colliders[i].radius, 1.0).volume
                    : polyhedron_mass_properties(*colliders[i].shape, 1.0).volume;
  }
  IntersectionScratch scratch;
  return check<Aabb3>(
      world, boxes, is_static, present, min_fraction, max_pairs, budget,
      [&](int i) { return volume[i]; },
      [&](int a, int b) {
        return intersection_volume(colliders[a], poses[a], colliders[b], poses[b], &scratch);
      });
}

}  // namespace exactsim
