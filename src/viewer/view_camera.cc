#include "exactsim/viewer/view_camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace exactsim {

Real ViewCamera::shade(const Vec3& world_normal) const {
  return 0.35 + 0.65 * std::max<Real>(0, world_normal.dot(light));
}

ViewCamera default_camera(const World& world, Real azimuth_deg, Real elevation_deg) {
  ViewCamera c;
  if (world.dimension == 2) return c;
  const Vec3 g = world.gravity;
  c.up = g.norm() > 0 ? Vec3(-g / g.norm()) : Vec3::UnitZ();
  // The world axis least aligned with up, made perpendicular to it.
  Eigen::Index k = 0;
  c.up.cwiseAbs().minCoeff(&k);
  Vec3 h = Vec3::Unit(k);
  c.horizontal = (h - h.dot(c.up) * c.up).normalized();
  const Vec3 side = c.up.cross(c.horizontal);
  const Real az = azimuth_deg * std::numbers::pi / 180, el = elevation_deg * std::numbers::pi / 180;
  c.toward_camera =
      std::cos(el) * (std::cos(az) * c.horizontal + std::sin(az) * side) + std::sin(el) * c.up;
  c.right = (-c.toward_camera).cross(c.up).normalized();
  c.screen_up = c.right.cross(-c.toward_camera);
  c.light = (c.toward_camera + 0.6 * c.up + 0.3 * c.right).normalized();
  return c;
}

ViewBox view_box(const std::vector<std::vector<Vec2>>& dynamic_points,
                 const std::vector<std::vector<Vec2>>& static_points) {
  auto bounds = [](const std::vector<std::vector<Vec2>>& sets, ViewBox& b) {
    bool any = false;
    for (const auto& pts : sets)
      for (const Vec2& p : pts) {
        if (!any) b.lo = b.hi = p;
        b.lo = b.lo.cwiseMin(p);
        b.hi = b.hi.cwiseMax(p);
        any = true;
      }
    return any;
  };
  ViewBox box{Vec2(-1, -1), Vec2(1, 1)};
  ViewBox dyn = box, stat = box;
  const bool has_dyn = bounds(dynamic_points, dyn);
  const bool has_stat = bounds(static_points, stat);
  if (!has_dyn && !has_stat) return box;
  if (!has_dyn) {
    box = stat;
  } else {
    box = dyn;
    if (has_stat) {
      // Static extent clipped to the moving bodies' box grown to twice its size.
      const Vec2 half = (dyn.hi - dyn.lo).cwiseMax(Vec2::Constant(1e-9)) / 2;
      const Vec2 near_lo = dyn.centre() - 2 * half, near_hi = dyn.centre() + 2 * half;
      const Vec2 lo = stat.lo.cwiseMax(near_lo), hi = stat.hi.cwiseMin(near_hi);
      if ((lo.array() <= hi.array()).all()) {
        box.lo = box.lo.cwiseMin(lo);
        box.hi = box.hi.cwiseMax(hi);
      }
    }
  }
  const Real size = std::max({box.width(), box.height(), 1e-9});
  const Vec2 margin = Vec2::Constant(0.08 * size);
  box.lo -= margin;
  box.hi += margin;
  return box;
}

}  // namespace exactsim
