// The view shared by the still picture and the replay page: 2D is the x–y plane; 3D an
// orthographic camera whose screen-up is against gravity, turned by an azimuth about that axis
// and raised by an elevation (docs/viewer.md). The page starts from the same camera.
#pragma once

#include <array>
#include <vector>

#include "exactsim/stepping/world.h"

namespace exactsim {

inline constexpr Real kOverlapHighlightFraction = 1e-3;  // red above 0.1 % of the smaller body
inline constexpr std::array<int, 3> kBackgroundColour = {247, 247, 242};
inline constexpr Real kDefaultAzimuthDeg = 35, kDefaultElevationDeg = 25;

struct ViewCamera {
  Vec3 up = Vec3::UnitZ();          // against gravity (z if there is none)
  Vec3 horizontal = Vec3::UnitX();  // azimuth 0 points the camera from +horizontal
  Vec3 right = Vec3::UnitX(), screen_up = Vec3::UnitY(), toward_camera = Vec3::UnitZ();
  Vec3 light = Vec3::UnitZ();

  Vec2 project(const Vec3& p) const { return Vec2(p.dot(right), p.dot(screen_up)); }
  Real depth(const Vec3& p) const { return p.dot(toward_camera); }  // larger = nearer
  Real shade(const Vec3& world_normal) const;                       // 0.35 … 1
};

// 2D: the identity view of the x–y plane. 3D: the default azimuth and elevation.
ViewCamera default_camera(const World& world, Real azimuth_deg = kDefaultAzimuthDeg,
                          Real elevation_deg = kDefaultElevationDeg);

struct ViewBox {
  Vec2 lo, hi;
  Real width() const { return hi.x() - lo.x(); }
  Real height() const { return hi.y() - lo.y(); }
  Vec2 centre() const { return (lo + hi) / 2; }
};

// What to show, in view-plane coordinates: the moving bodies' points with a margin, plus the part
// of the static bodies near them (a long floor does not shrink the bodies to dots).
ViewBox view_box(const std::vector<std::vector<Vec2>>& dynamic_points,
                 const std::vector<std::vector<Vec2>>& static_points);

}  // namespace exactsim
