// Axis-aligned bounding boxes, the broad phase's filter
// (docs/collision.md "Broad phase").
#pragma once

#include <span>

#include "exactsim/math/types.h"

namespace exactsim {

// Closed box [lo, hi]. Boxes that merely touch count as overlapping: the broad phase must
// not drop a pair whose shapes touch.
struct Aabb2 {
  Vec2 lo = Vec2::Zero();
  Vec2 hi = Vec2::Zero();

  bool overlaps(const Aabb2& o) const {
    return lo.x() <= o.hi.x() && o.lo.x() <= hi.x() && lo.y() <= o.hi.y() && o.lo.y() <= hi.y();
  }
  // The box grown by r on every side (r ≥ 0; the contact distance ε in the broad phase).
  Aabb2 inflated(Real r) const { return {lo.array() - r, hi.array() + r}; }
};

struct Aabb3 {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Zero();

  bool overlaps(const Aabb3& o) const {
    return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
  }
  Aabb3 inflated(Real r) const { return {lo.array() - r, hi.array() + r}; }
};

// Smallest box holding every point; points must be non-empty.
inline Aabb2 bounding_box(std::span<const Vec2> points) {
  Aabb2 box{points.front(), points.front()};
  for (const Vec2& p : points) {
    box.lo = box.lo.cwiseMin(p);
    box.hi = box.hi.cwiseMax(p);
  }
  return box;
}

inline Aabb3 bounding_box(std::span<const Vec3> points) {
  Aabb3 box{points.front(), points.front()};
  for (const Vec3& p : points) {
    box.lo = box.lo.cwiseMin(p);
    box.hi = box.hi.cwiseMax(p);
  }
  return box;
}

}  // namespace exactsim
