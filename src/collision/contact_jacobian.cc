#include "exactsim/collision/contact_jacobian.h"

#include <string>

#include "exactsim/math/error.h"

namespace exactsim {

void direction_jacobian(const Vec3& direction, const Vec3& p_a, const Vec3& p_b, int dimension,
                        const Vec3& x_a, const Vec3& x_b, Vec6& g_a, Vec6& g_b) {
  g_a.setZero();
  g_b.setZero();
  if (dimension == 2) {
    // Planar: angular entry r ×₂ d (docs/collision.md "Conventions").
    const Vec2 d = direction.head<2>();
    const Vec2 r_a = (p_a - x_a).head<2>();
    const Vec2 r_b = (p_b - x_b).head<2>();
    g_a.head<2>() = -d;
    g_a[2] = cross2(r_a, -d);
    g_b.head<2>() = d;
    g_b[2] = cross2(r_b, d);
  } else if (dimension == 3) {
    // Spatial: angular block r × d with world-frame ω.
    g_a.head<3>() = -direction;
    g_a.tail<3>() = (p_a - x_a).cross(-direction);
    g_b.head<3>() = direction;
    g_b.tail<3>() = (p_b - x_b).cross(direction);
  } else {
    throw InputError("contact Jacobian: dimension must be 2 or 3, got " +
                     std::to_string(dimension));
  }
}

void contact_jacobian(const Contact& contact, int dimension, const Vec3& x_a, const Vec3& x_b,
                      Vec6& g_a, Vec6& g_b) {
  direction_jacobian(contact.normal, contact.point_a, contact.point_b(), dimension, x_a, x_b, g_a,
                     g_b);
}

}  // namespace exactsim
