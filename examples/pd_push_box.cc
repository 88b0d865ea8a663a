// A PD controller pushes a box across a floor to a target: each step it reads the box's position
// and velocity and applies a force (docs/api.md "Driving the bodies").
#include <cstdio>

#include <exactsim/exactsim.h>

using namespace exactsim;

int main() {
  Scene scene = make_scene(3, 0.01);  // h = 10 ms: a 100 Hz controller
  scene.world.contact.friction = 0.2;
  add_body(scene, {.name = "floor",
                   .shape = make_box(Vec3(4, 4, 0.2)),
                   .is_static = true,
                   .position = {0, 0, -0.1}});
  const int box = add_body(scene, {.name = "box",
                                   .shape = make_box(Vec3(0.2, 0.2, 0.2)),
                                   .density = 500,
                                   .position = {0, 0, 0.1}});
  Simulation sim(scene);
  const Vec3 target(1.0, 0.5, 0.1);
  const Real kp = 2000, kd = 180;  // N/m, N s/m (critically damped)
  for (int k = 0; k < 300; ++k) {  // 3 s
    Vec3 f = kp * (target - sim.position(box)) - kd * sim.velocity(box);  // the control law
    f.z() = 0;                                                            // push in the plane
    sim.apply_force(box, f);  // for the next step; applied again every step
    sim.step();
  }
  const Vec3 x = sim.position(box);
  const Real error = (target - x).head<2>().norm(), m = sim.world().bodies[box].mass;
  std::printf("t = %.2f s: box at (%.4f, %.4f) m, speed %.4f m/s\n", sim.time(), x.x(), x.y(),
              sim.velocity(box).norm());
  std::printf(
      "%.2f mm short of the target, where kp |e| = %.2f N no longer beats friction "
      "mu m g = %.2f N\n",
      error * 1000, kp * error, 0.2 * m * 9.81);
}
