#include "exactsim/stepping/sleep.h"

#include <algorithm>
#include <limits>

namespace exactsim {
namespace {

bool is_dynamic(const World& world, int b) { return b >= 0 && !world.bodies[b].is_static; }

// The largest speed of any point of body b: |v| + |ω| r (r: bounding_radius).
Real point_speed_bound(const World& world, const State& state, int b) {
  const auto v = state.v_of(b);
  const bool planar = world.dimension == 2;
  const Real linear = planar ? v.head<2>().norm() : v.head<3>().norm();
  const Real angular = planar ? std::abs(v[2]) : v.tail<3>().norm();
  return linear + angular * bounding_radius(world, b);
}

void wake(State& state, int b) {
  state.asleep[b] = 0;
  state.rest_time[b] = 0;
}

}  // namespace

void wake_moved_bodies(const World& world, State& state) {
  const std::size_t n = static_cast<std::size_t>(world.body_count());
  if (state.asleep.size() != n) state.asleep.assign(n, 0);
  if (state.rest_time.size() != n) state.rest_time.assign(n, 0);
  for (int b = 0; b < world.body_count(); ++b)
    if (state.asleep[b] && !state.v_of(b).isZero(0)) wake(state, b);
}

bool island_sleeps(const World& world, const ConstraintSet& island, State& state) {
  bool any_asleep = false, any_awake = false;
  for (const Contact& c : island.contacts)
    for (const int b : {c.body_a, c.body_b}) {
      if (world.bodies[b].kinematic && !state.v_of(b).isZero(0)) any_awake = true;  // it pushes
      if (!is_dynamic(world, b)) continue;
      (state.asleep[b] ? any_asleep : any_awake) = true;
    }
  if (!any_asleep) return false;
  if (!any_awake) return true;
  for (const Contact& c : island.contacts)
    for (const int b : {c.body_a, c.body_b})
      if (is_dynamic(world, b)) wake(state, b);
  return false;
}

int settle_sleepers(const World& world, State& state, Real h, std::span<const int> body_island,
                    int island_count, std::vector<Real>& island_rest) {
  const StepOptions& o = world.stepping;
  island_rest.assign(island_count, std::numeric_limits<Real>::infinity());
  for (int b = 0; b < world.body_count(); ++b) {
    if (!state.present[b] || world.bodies[b].is_static || state.asleep[b]) continue;
    const bool resting = point_speed_bound(world, state, b) < o.sleep_speed;
    state.rest_time[b] = resting ? state.rest_time[b] + h : 0;
    if (body_island[b] >= 0)
      island_rest[body_island[b]] = std::min(island_rest[body_island[b]], state.rest_time[b]);
  }
  // Within half a step of sleep_time: the rest time is a sum of h's.
  auto rested = [&](Real t) { return t + 0.5 * h >= o.sleep_time; };
  int asleep = 0;
  for (int b = 0; b < world.body_count(); ++b) {
    if (!state.present[b] || world.bodies[b].is_static) continue;
    if (!state.asleep[b]) {
      const int k = body_island[b];
      if (!rested(k >= 0 ? island_rest[k] : state.rest_time[b])) continue;
      state.asleep[b] = 1;
      state.v_of(b).setZero();
    }
    ++asleep;
  }
  return asleep;
}

}  // namespace exactsim
