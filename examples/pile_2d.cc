// A small 2D pile: twelve polygons dropped into a box, PEG contact with friction. Prints the
// pile's state after 2 s: contacts, overlap (the papers' accuracy metric), energy, and the check
// that the floor and walls carry the pile's weight.
#include <cmath>
#include <cstdio>

#include <exactsim/exactsim.h>

using namespace exactsim;

int main() {
  Scene scene = make_scene(2, 0.005, 2.0);
  scene.world.contact.friction = 0.4;
  add_body(scene, {.name = "floor",
                   .shape = make_box(Vec2(1.4, 0.2)),
                   .is_static = true,
                   .position = {0, -0.1}});
  add_body(scene, {.name = "left",
                   .shape = make_box(Vec2(0.2, 1.5)),
                   .is_static = true,
                   .position = {-0.6, 0.75}});
  add_body(scene, {.name = "right",
                   .shape = make_box(Vec2(0.2, 1.5)),
                   .is_static = true,
                   .position = {0.6, 0.75}});
  double weight = 0;
  for (int i = 0; i < 12; ++i) {
    const int body = add_body(scene, {.shape = make_regular_polygon(3 + i % 4, 0.08),
                                      .density = 500,
                                      .position = {-0.3 + 0.2 * (i % 4), 0.15 + 0.2 * (i / 4)},
                                      .angle = 0.4 * i});
    weight += scene.world.bodies[body].mass * 9.81;
  }
  Simulation sim(scene);
  int failed = 0;
  sim.run(scene.duration, [&](const Simulation& s) {
    failed += s.last_report().status != StepStatus::kOk;
    return true;
  });
  // Force of the static bodies (0–2) on the pile, upward.
  double support = 0;
  for (const ContactResult& c : sim.contacts()) {
    const Vec3 impulse = c.normal_impulse * c.normal + c.friction_impulse;  // on B
    if (c.body_a <= 2 && c.body_b > 2) support += impulse.y() / sim.step_size();
    if (c.body_b <= 2 && c.body_a > 2) support -= impulse.y() / sim.step_size();
  }
  const StepReport& r = sim.last_report();
  std::printf("t = %.2f s: %ld steps, %d failed solves, %d contacts (U %d, I %d, X %d)\n",
              sim.time(), sim.steps_taken(), failed, r.potential_contacts, r.unilateral,
              r.intercontact, r.cross);
  std::printf("overlap %.3g m^2, kinetic energy %.3g J\n", sim.overlap(), sim.kinetic_energy());
  std::printf("support %.3f N, weight %.3f N, ratio %.4f\n", support, weight, support / weight);
}
