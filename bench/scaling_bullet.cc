// bench_scaling's Bullet runner (compiled only when CMake found Bullet: EXACTSIM_HAVE_BULLET): the
// scene as the peer benchmark maps it (peers/bullet_world.h), with bench_scaling's settings.
#include <algorithm>
#include <chrono>

#include "peers/bullet_world.h"
#include "scaling_run.h"
#include "scaling_scene.h"

namespace exactsim::bench {

bool bullet_available() { return true; }
const char* bullet_precision() { return peers::bullet_precision(); }

void run_bullet(const Scene& scene, int steps, double margin, double thickness, bool sleep,
                const StepCallback& on_step, EndSample& end) {
  const World& w = scene.world;
  const int d = w.dimension;
  const Real h = scene.step;
  const peers::PeerScene mapped = peers::map_scene(scene, thickness);
  peers::BulletSettings settings;
  settings.margin = margin;
  settings.sleep = sleep;
  settings.sleep_speed = w.stepping.sleep_speed;
  settings.sleep_time = w.stepping.sleep_time;
  peers::BulletWorld bw(mapped, settings);
  std::vector<int> dynamic;
  for (int i = 0; i < w.body_count(); ++i) {
    bw.add_body(i);
    if (!w.bodies[i].is_static) dynamic.push_back(i);
  }

  using Clock = std::chrono::steady_clock;
  for (int k = 0; k < steps; ++k) {
    const auto t0 = Clock::now();
    const int taken = bw.step(h);
    StepSample s;
    s.wall = std::chrono::duration<double>(Clock::now() - t0).count();
    s.substeps = taken;
    s.contacts = bw.contact_points();
    if (!on_step(s)) break;
  }

  const Aabb3 box = container_bounds(scene);
  const Vec3 lo = box.lo, hi = box.hi;
  const int up = d == 3 ? 2 : 1;
  double height_sum = 0;
  for (int i : dynamic) {
    const btRigidBody& b = bw.body(i);
    const btVector3 p = b.getCenterOfMassPosition();
    const Vec3 c(p.x(), p.y(), p.z());
    height_sum += c[up];
    end.max_speed = std::max<double>(end.max_speed, b.getLinearVelocity().length());
    bool out = false;
    for (int a = 0; a < d; ++a) out |= c[a] < lo[a] - 0.5 || c[a] > hi[a] + 0.5;
    end.escaped += out;
  }
  end.mean_height = dynamic.empty() ? 0 : height_sum / static_cast<double>(dynamic.size());
}

}  // namespace exactsim::bench
