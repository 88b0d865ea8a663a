#include "exactsim/viewer/pair_overlaps.h"

#include <cmath>

namespace exactsim {

Real body_size(const World& world, int i) {
  const Body& b = world.bodies[i];
  if (world.dimension == 2) return std::abs(polygon_area(world.polygons[b.shape].vertices));
  return polyhedron_mass_properties(world.polyhedra[b.shape], 1.0).volume;
}

std::vector<PairOverlap> pair_overlaps(const World& world, const ReplayFrame& f) {
  std::vector<PairOverlap> out;
  const int n = world.body_count();
  auto skip = [&](int i, int j) {
    return !f.present[i] || !f.present[j] ||
           (world.bodies[i].is_static && world.bodies[j].is_static);
  };
  if (world.dimension == 2) {
    std::vector<WorldPolygon> placed(n);
    for (int i = 0; i < n; ++i)
      if (f.present[i]) place(world.polygons[world.bodies[i].shape], frame_pose2(f, i), placed[i]);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        if (skip(i, j) || !placed[i].aabb.overlaps(placed[j].aabb)) continue;
        const Real a = polygon_intersection_area(placed[i].vertices, placed[j].vertices);
        if (a > 0) out.push_back({i, j, a});
      }
    return out;
  }
  std::vector<Pose3> poses(n);
  std::vector<Aabb3> boxes(n);
  for (int i = 0; i < n; ++i) {
    if (!f.present[i]) continue;
    poses[i] = frame_pose3(f, i);
    const ConvexPolyhedron& s = world.polyhedra[world.bodies[i].shape];
    boxes[i] = {poses[i].apply(s.vertices[0]), poses[i].apply(s.vertices[0])};
    for (const Vec3& v : s.vertices) {
      const Vec3 p = poses[i].apply(v);
      boxes[i].lo = boxes[i].lo.cwiseMin(p);
      boxes[i].hi = boxes[i].hi.cwiseMax(p);
    }
  }
  IntersectionScratch scratch;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (skip(i, j) || !boxes[i].overlaps(boxes[j])) continue;
      const Real v = polyhedron_intersection_volume(
          world.polyhedra[world.bodies[i].shape], poses[i], world.polyhedra[world.bodies[j].shape],
          poses[j], nullptr, &scratch);
      if (v > 0) out.push_back({i, j, v});
    }
  return out;
}

}  // namespace exactsim
