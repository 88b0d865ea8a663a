#include "exactsim/events/free_motion.h"

#include "exactsim/dynamics/free_rotation.h"

namespace exactsim {

void rk4_free_step(const World& world, State& s, Real h) {
  if (h <= 0.0) return;
  const Vec3& g = world.gravity;
  for (int b = 0; b < world.body_count(); ++b) {
    if (world.bodies[b].is_static) continue;
    // Translation: the RK4 stages of ẋ = v, v̇ = g (exact for constant g).
    const Vec3 x = body_position(s, b), v = body_velocity(s, b);
    const Vec3 v2 = v + 0.5 * h * g, v4 = v + h * g;
    Quat q = body_orientation(s, b);
    Vec3 w = body_angular_velocity(s, b);
    rk4_rotation_step(world.bodies[b].inertia, q, w, h);
    set_body_pose(s, b, x + h / 6.0 * (v + 2.0 * v2 + 2.0 * v2 + v4), q);
    set_body_velocity(s, b, v + h / 6.0 * (g + 2.0 * g + 2.0 * g + g), w);
  }
}

}  // namespace exactsim
