// Spatial pose of a body frame: world point = position + R(orientation) · local
// (docs/geometry3d.md "Conventions").
// (Planar poses are in pose.h.)
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

struct Pose3 {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();  // unit quaternion, body → world

  // Body-frame point to world frame.
  Vec3 apply(const Vec3& local) const { return position + orientation * local; }
  // Body-frame direction to world frame (no translation).
  Vec3 rotate(const Vec3& v) const { return orientation * v; }
  // World point to body frame: Rᵀ (world − position).
  Vec3 inverse_apply(const Vec3& world) const {
    return orientation.conjugate() * (world - position);
  }
};

}  // namespace exactsim
