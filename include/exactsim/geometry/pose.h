// Planar pose of a body frame: world point = position + R(angle) · local
// (docs/geometry2d.md "Conventions").
// (3D poses are in pose3.h.)
#pragma once

#include <cmath>

#include "exactsim/math/types.h"

namespace exactsim {

struct Pose2 {
  Vec2 position = Vec2::Zero();
  Real angle = 0;  // radians, counter-clockwise

  // Body-frame point to world frame.
  Vec2 apply(const Vec2& local) const { return position + rotate(local); }
  // Body-frame direction to world frame (no translation).
  Vec2 rotate(const Vec2& v) const {
    const Real c = std::cos(angle), s = std::sin(angle);
    return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
  }
  // World point to body frame: R(angle)ᵀ (world − position).
  Vec2 inverse_apply(const Vec2& world) const {
    const Real c = std::cos(angle), s = std::sin(angle);
    const Vec2 d = world - position;
    return Vec2(c * d.x() + s * d.y(), -s * d.x() + c * d.y());
  }
};

}  // namespace exactsim
