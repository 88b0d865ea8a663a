// Builds against the installed exactsim with find_package(exactsim) and the one public header,
// and does real work: a box dropped on a floor comes to rest on it.
#include <exactsim/exactsim.h>

#include <cmath>
#include <cstdio>

int main() {
  using namespace exactsim;
  Scene scene = make_scene(3, 0.01);
  add_body(scene, {.name = "floor",
                   .shape = make_box(Vec3(2, 2, 0.2)),
                   .is_static = true,
                   .position = {0, 0, -0.1}});
  const int box = add_body(scene, {.name = "box",
                                   .shape = make_box(Vec3(0.2, 0.2, 0.2)),
                                   .density = 500,
                                   .position = {0, 0, 0.3}});
  Simulation sim(scene);
  const StepReport& r = sim.step(100);
  const Real z = sim.position(box).z();
  std::printf("exactsim consumer: box at z = %.6f m after %ld steps, status %s\n", z,
              sim.steps_taken(), to_string(r.status));
  return r.status == StepStatus::kOk && std::abs(z - 0.1) < 1e-6 ? 0 : 1;
}
