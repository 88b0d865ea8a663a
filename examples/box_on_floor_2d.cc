// A 2D box dropped on a floor comes to rest; the contact forces carry its weight m g.
#include <cmath>
#include <cstdio>

#include <exactsim/exactsim.h>

using namespace exactsim;

int main() {
  Scene scene = make_scene(2, 0.01);  // 2D, h = 10 ms, gravity 9.81 m/s² along −y, PEG contact
  scene.world.contact.friction = 0.4;
  add_body(scene, {.name = "floor", .shape = make_box(Vec2(4, 1)), .is_static = true,
                   .position = {0, -0.5}});
  add_body(scene, {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 1000,
                   .position = {0, 0.2}, .angle = 0.3});
  Simulation sim(scene);
  sim.run(2.0);
  double total = 0;
  for (const ContactResult& c : sim.contacts()) {
    const double f = c.normal_impulse / sim.step_size();  // mean force over the step, N
    std::printf("contact at (%+.3f, %+.3f) m: %.4f N\n", c.point.x(), c.point.y(), f);
    total += std::abs(c.normal.y()) * f;
  }
  std::printf("t = %.2f s: contact force %.4f N, m g = %.4f N\n", sim.time(), total,
              sim.world().bodies[1].mass * 9.81);
}
