#include "exactsim/geometry/placed_collider.h"

namespace exactsim {

void place(const Sphere& sphere, const Pose3& pose, WorldPolyhedron& out) {
  const Vec3 centre = pose.apply(sphere.centre);
  out.vertices.assign(1, centre);
  out.face_normals.clear();
  out.face_offsets.clear();
  out.edge_t1.clear();
  out.edge_t2.clear();
  out.edge_orientation.clear();
  const Vec3 r = Vec3::Constant(sphere.radius);
  out.aabb = Aabb3{centre - r, centre + r};
}

}  // namespace exactsim
