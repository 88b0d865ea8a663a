#include "exactsim/events/event_simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "exactsim/dynamics/integrate.h"
#include "exactsim/events/free_motion.h"
#include "exactsim/impact/plus.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();

// Resolves an impact among the proximal contacts if one of them approaches; returns whether
// one did.
bool resolve_impact(EventSimulation& sim, const std::vector<SphereContact>& proximal) {
  if (proximal.empty()) return false;
  const ImpactProblem problem =
      contact_impact_problem(sim.world, sim.state, proximal, sim.options.impact);
  bool approaching = false;
  for (size_t k = 0; k < proximal.size(); ++k)
    approaching = approaching || problem.velocity(3 * k + 2) < -sim.options.v_persist;
  if (!approaching) return false;
  ImpactEvent event;
  event.time = sim.time;
  event.contacts = proximal;
  event.energy_before = mechanical_energy(sim.world, sim.state);
  solve_plus(problem, sim.workspace, event.result);
  apply_contact_impulse(sim.world, sim.state, proximal, event.result.impulse);
  event.energy_after = mechanical_energy(sim.world, sim.state);
  sim.impacts.push_back(std::move(event));
  return true;
}

// Persistent contact: zero-restitution PLUS on the velocity a semi-implicit Euler step produced.
void persistent_step(EventSimulation& sim, const std::vector<SphereContact>& proximal, Real h) {
  const World& w = sim.world;
  for (int b = 0; b < w.body_count(); ++b)
    if (!w.bodies[b].is_static) integrate_free_velocity(w.bodies[b], sim.state, b, h, w.gravity);
  ImpactProblem problem =
      contact_impact_problem(sim.world, sim.state, proximal, sim.options.impact);
  for (ContactLaw& law : problem.contacts) law.restitution = RestitutionLaw::constant(0.0);
  problem.options.record_log = false;
  ImpactResult result;
  solve_plus(problem, sim.workspace, result);
  apply_contact_impulse(sim.world, sim.state, proximal, result.impulse);
  for (int b = 0; b < w.body_count(); ++b)
    if (!w.bodies[b].is_static) integrate_position(sim.state, b, h, RotationUpdate::kExponential);
  ++sim.persistent_steps;
}

// Smallest gap over the watched candidate pairs (find_contacts(∞) enumerates pairs in a fixed
// order, so indices are stable across trial states).
Real watched_min_gap(const World& world, const State& state, const std::vector<char>& watched) {
  const std::vector<SphereContact> all = find_contacts(world, state, kInf);
  Real g = kInf;
  for (size_t i = 0; i < all.size(); ++i)
    if (watched[i]) g = std::min(g, all[i].gap);
  return g;
}

// Free flight with event location by bisection on the step length. Pairs touching at the step
// start (gap ≤ gap_tolerance) and separating are not watched: they just left an impact.
void free_step(EventSimulation& sim, Real h) {
  const World& world = sim.world;
  const State start = sim.state;
  const Real tol = sim.options.gap_tolerance;
  const std::vector<SphereContact> all = find_contacts(world, start, kInf);
  std::vector<char> watched(all.size(), 1);
  if (!all.empty()) {
    const VecX v = contact_jacobian(world, start, all) * start.v;
    for (size_t i = 0; i < all.size(); ++i) watched[i] = all[i].gap > tol || v(3 * i + 2) < 0.0;
  }
  auto trial = [&](Real tau) {
    sim.state = start;
    rk4_free_step(world, sim.state, tau);
    return watched_min_gap(world, sim.state, watched);
  };
  if (trial(h) >= -tol) {
    sim.time += h;
    ++sim.free_steps;
    return;
  }
  Real lo = 0.0, hi = h;  // gap(lo) ≥ −tol > gap(hi)
  Real g_lo = watched_min_gap(world, start, watched);
  for (int it = 0; it < 200 && g_lo > tol && hi - lo > 1e-15 * std::max(1.0, sim.time); ++it) {
    const Real mid = 0.5 * (lo + hi);
    const Real g = trial(mid);
    if (g < -tol) {
      hi = mid;
    } else {
      lo = mid;
      g_lo = g;
    }
  }
  trial(lo);
  sim.time += lo;
  ++sim.free_steps;
  ++sim.located_events;
}

}  // namespace

void advance(EventSimulation& sim, Real t_end,
             const std::function<void(const EventSimulation&)>& observer) {
  check_world(sim.world, sim.state);
  const EventOptions& o = sim.options;
  if (!(o.max_step > 0.0) || !(o.gap_tolerance > 0.0) || !(o.proximity >= o.gap_tolerance) ||
      !(o.v_persist >= 0.0))
    throw InputError(
        "event options: need max_step > 0, gap_tolerance > 0, proximity >= "
        "gap_tolerance and v_persist >= 0");
  int stalled = 0;
  while (sim.time < t_end) {
    const Real h = std::min(o.max_step, t_end - sim.time);
    std::vector<SphereContact> proximal = find_contacts(sim.world, sim.state, o.proximity);
    resolve_impact(sim, proximal);
    bool persistent = false;
    if (!proximal.empty()) {
      const MatX G = contact_jacobian(sim.world, sim.state, proximal);
      const VecX v = G * sim.state.v;
      for (size_t k = 0; k < proximal.size(); ++k)
        persistent = persistent || v(3 * k + 2) <= o.v_persist;
    }
    const Real t_before = sim.time;
    if (persistent) {
      persistent_step(sim, proximal, h);
      sim.time += h;
    } else {
      free_step(sim, h);
    }
    // An event located at the step start makes no progress; a stall means a contact that
    // neither impacts nor persists (should not happen): fail loudly instead of looping.
    stalled = sim.time > t_before ? 0 : stalled + 1;
    if (stalled > 100)
      throw std::runtime_error("event simulation stalled at t = " + std::to_string(sim.time));
    if (observer) observer(sim);
  }
}

}  // namespace exactsim
