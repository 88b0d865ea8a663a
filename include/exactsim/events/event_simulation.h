// Event-driven simulation with PLUS impacts (docs/plus.md "Event-driven method").
//
// Each step:
//  1. proximal contacts = pairs with gap ≤ proximity. If any approaches faster than v_persist,
//     it is an impact: PLUS resolves every proximal contact at once (observers included), with
//     the contacts' own restitution, and the impact is logged.
//  2. If a proximal contact remains that does not separate (v_N ≤ v_persist) the step is a
//     persistent-contact step (as Simbody's stepper does it, docs/plus.md): the time stepper's
//     free velocity (dynamics/integrate.h: gravity, and the gyroscopic term by the implicit
//     midpoint rule, which keeps energy and |L|), then PLUS with zero restitution on all proximal
//     contacts removes the approach the step created (friction by the same intervals), then
//     positions advance by the exponential map.
//  3. Otherwise the step is free flight: one RK4 step; if a contact's gap falls below
//     −gap_tolerance, the instant it closed is located by bisection on the step length (each
//     trial re-integrates one RK4 step from the step start) until the smallest gap lies in
//     [−gap_tolerance, gap_tolerance], and the state is advanced to that instant.
#pragma once

#include <functional>
#include <vector>

#include "exactsim/events/sphere_contacts.h"
#include "exactsim/events/world.h"
#include "exactsim/impact/impact_result.h"
#include "exactsim/impact/plus_interval.h"

namespace exactsim {

struct EventOptions {
  Real max_step = 1e-3;        // s, RK4 step in free flight and persistent-contact step
  Real gap_tolerance = 1e-10;  // m, event located when the closing gap is within ± this
  Real proximity = 1e-6;       // m, contacts this close take part in an impact (paper Fig. 6)
  Real v_persist = 1e-3;       // m/s, proximal contacts with v_N ≤ this are held as constraints
  ImpactOptions impact;        // PLUS options (θ_max, v_transition, rounds, …)
};

struct ImpactEvent {
  Real time = 0.0;                               // s
  std::vector<SphereContact> contacts;           // proximal contacts at the impact
  ImpactResult result;                           // PLUS result (impulses in the contacts' frames)
  Real energy_before = 0.0, energy_after = 0.0;  // J, mechanical energy
};

struct EventSimulation {
  World world = event_world();  // events/world.h: bodies of spheres, half-space ground
  State state = event_state();
  EventOptions options;
  Real time = 0.0;
  std::vector<ImpactEvent> impacts;
  int free_steps = 0, persistent_steps = 0, located_events = 0;
  PlusWorkspace workspace;
};

// Advances the simulation to t_end; calls `observer` after every step (if given).
void advance(EventSimulation& sim, Real t_end,
             const std::function<void(const EventSimulation&)>& observer = {});

}  // namespace exactsim
