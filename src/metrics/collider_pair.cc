#include "exactsim/metrics/collider_pair.h"

#include "exactsim/geometry/sphere.h"

namespace exactsim {

PenetrationResult penetration_depth(const PlacedCollider3& a, const PlacedCollider3& b,
                                    PenetrationScratch& scratch,
                                    const PenetrationOptions& options) {
  if (!a.is_sphere() && !b.is_sphere())
    return penetration_depth(*a.shape, *a.placed, *b.shape, *b.placed, scratch, options);
  // The sphere first: its proximity's normal points from it to the other shape.
  const bool a_first = a.is_sphere();
  const PlacedCollider3& s = a_first ? a : b;
  const PlacedCollider3& o = a_first ? b : a;
  const SphereProximity p = sphere_proximity(s, o);
  PenetrationResult r;
  r.dimension = 3;
  r.overlapping = p.gap < 0;
  r.depth = r.overlapping ? -p.gap : 0;
  r.direction = a_first ? p.normal : Vec3(-p.normal);
  r.feature = PenetrationFeature::kSphere;
  (a_first ? r.feature_b : r.feature_a) = o.is_sphere() ? -1 : p.face;
  return r;
}

Real intersection_volume(const PlacedCollider3& a, const Pose3& pose_a, const PlacedCollider3& b,
                         const Pose3& pose_b, IntersectionScratch* scratch) {
  if (!a.is_sphere() && !b.is_sphere())
    return polyhedron_intersection_volume(*a.shape, pose_a, *b.shape, pose_b, nullptr, scratch);
  const PlacedCollider3& s = a.is_sphere() ? a : b;
  const PlacedCollider3& o = a.is_sphere() ? b : a;
  if (o.is_sphere()) return sphere_sphere_overlap_volume(s.centre, s.radius, o.centre, o.radius);
  return sphere_polyhedron_overlap_volume(s.centre, s.radius, *o.shape, *o.placed);
}

Real interior_depth(const PlacedCollider3& c, const Vec3& p) {
  return c.is_sphere() ? c.radius - (p - c.centre).norm() : interior_depth(*c.placed, p);
}

}  // namespace exactsim
