#include "exactsim/geometry/half_space.h"

#include <cmath>
#include <limits>
#include <vector>

#include "exactsim/math/error.h"

namespace exactsim {

ConvexPolyhedron half_space_box(const HalfSpace& h, Real reach) {
  // An orthonormal frame (u, v, n); for an axis-aligned normal, coordinate axes (cross products
  // of axes are exact).
  const Vec3& n = h.normal;
  int smallest = 0;
  n.cwiseAbs().minCoeff(&smallest);
  Vec3 u = Vec3::Unit(smallest).cross(n);
  u /= u.norm();
  const Vec3 v = n.cross(u);
  const Vec3 top = h.offset * n;
  const Real r = reach;
  std::vector<Vec3> corners;
  for (const Real depth : {0.0, 2 * r})
    for (const Real a : {-r, r})
      for (const Real b : {-r, r}) corners.push_back(top + a * u + b * v - depth * n);
  return polyhedron_from_points(corners);
}

HalfSpace unit_half_space(const Vec3& normal, Real offset) {
  if (!normal.allFinite()) throw InputError("the half-space's normal must be finite");
  // Scaled by its largest component first: no square overflows or underflows.
  const Real largest = normal.cwiseAbs().maxCoeff();
  if (!(largest > 0)) throw InputError("the half-space's normal has zero length");
  if (!std::isfinite(offset)) throw InputError("the half-space's offset must be finite");
  const Vec3 scaled = normal / largest;
  constexpr Real kUlps = 4 * std::numeric_limits<Real>::epsilon();
  return {std::abs(normal.norm() - 1) <= kUlps ? normal : Vec3(scaled / scaled.norm()), offset};
}

}  // namespace exactsim
