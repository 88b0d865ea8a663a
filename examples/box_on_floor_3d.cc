// A box dropped on a floor comes to rest; the contact forces carry its weight m g.
#include <cmath>
#include <cstdio>

#include <exactsim/exactsim.h>

using namespace exactsim;

int main() {
  Scene scene = make_scene(3, 0.005);  // 3D, h = 5 ms, gravity 9.81 m/s² along −z, PEG contact
  scene.world.contact.friction = 0.5;
  add_body(scene, {.name = "floor", .shape = make_box(Vec3(2, 2, 0.2)), .is_static = true,
                   .position = {0, 0, -0.1}});
  add_body(scene, {.name = "box", .shape = make_box(Vec3(0.2, 0.2, 0.2)), .density = 500,
                   .position = {0, 0, 0.2}});
  Simulation sim(scene);
  sim.run(1.0);
  double total = 0;
  for (const ContactResult& c : sim.contacts()) {
    const double f = c.normal_impulse / sim.step_size();  // mean force over the step, N
    std::printf("contact at (%+.3f, %+.3f, %+.3f) m: %.4f N\n", c.point.x(), c.point.y(),
                c.point.z(), f);
    total += std::abs(c.normal.z()) * f;
  }
  std::printf("t = %.2f s: contact force %.4f N, m g = %.4f N\n", sim.time(), total,
              sim.world().bodies[1].mass * 9.81);
}
