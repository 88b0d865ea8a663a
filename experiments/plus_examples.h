// The PLUS paper's Examples 1–3 as event-driven simulations at t = 0 (their world and state,
// default EventOptions) and as impact problems at first touch
// (Uchida, Sherman & Delp 2015 §4a–c, Table A1; docs/plus.md).
#pragma once

#include "exactsim/events/event_simulation.h"
#include "exactsim/events/world.h"
#include "exactsim/impact/impact_problem.h"

namespace exactsim {

// Table A1: e_min for μ = 0.125, 0.225, 0.325.
Real example1_min_cor(Real mu);

// The paper's Table A1 restitution (v_capture 0.01 m/s, v_plastic 0.1 m/s) with e_min.
ContactLaw plus_table_a1_law(Real mu, Real e_min);

// A "childproof brick": a 0.4 × 0.6 × 0.8 m box of mass 2 kg (inertia diag(0.167, 0.133,
// 0.0867) kg m², Table A1) with spheres of radius 0.1 m welded at its 8 vertices, all with `law`.
// Body 0; its centre at the origin; the ground z ≤ 0 is body 1.
EventSimulation childproof_brick(const Quat& orientation, const ContactLaw& law);

// Example 1: the brick rotated by π/4 about x then π/6 about the (body) y axis; one vertex
// sphere touches the ground z = 0 when `height` = 0, and arrives there with the pre-impact
// velocity [−5, 0, −5.74] m/s and no spin (the brick starts `height` m higher, falling under
// gravity).
EventSimulation example1_simulation(Real mu, Real height);
ImpactProblem example1_problem(Real mu, Real theta_max);

// Example 2: the brick axis-aligned (0.8 m side vertical), landing on its four lowest vertex
// spheres at once with [−2, 0, −8.84] m/s; μ = 0.2, e_min = 0.414. (The paper's Table S1 with the
// exact orientation is not in our copy; this pose has the four-point simultaneity it describes.)
EventSimulation example2_simulation(Real height);
ImpactProblem example2_problem();

// Example 3: Newton's cradle, five frictionless balls of radius 0.25 m and mass 1 kg in a row
// along −x, COR 1; ball 1 moves at [−2, 0, 0] m/s towards the four touching balls. `gap` is
// ball 1's initial distance from ball 2 (0: touching, the impact problem). No gravity.
EventSimulation example3_simulation(Real gap);
ImpactProblem example3_problem(InducedImpacts model);

// Event options used for the examples' simulations (proximity 1e-6 m, gap tolerance 1e-10 m).
EventOptions example_event_options(const ImpactOptions& impact);

}  // namespace exactsim
