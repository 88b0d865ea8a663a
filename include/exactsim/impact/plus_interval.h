// One PLUS interval: the active-set least-squares solve of the paper's Table 1 / Algorithm 1
// (docs/plus.md "The solver as implemented": intervals, active set, impending slip).
//
// Unknowns are the impulses of the active rows: the normal row of every compressing contact
// whose normal has not been released, the two tangential rows of every non-observing frictional
// contact, and every bilateral row. Equations, one per unknown (paper sign convention):
//   normal (compressing)     A_N π = −r_N + target_N          drive v_N to its target (eq. 2.3)
//   rolling tangential       A_T π = −r_T                     stop the slip (eq. 2.7)
//   sliding tangential       π_T + μ π_N ŝ = 0, ŝ = t⁰/‖t⁰‖  (eqs. 2.8, 2.11)
//   impending tangential     π_T + μ π_N ê = 0, ê = end slip / ‖end slip‖  (eq. 2.9, Newton)
//   bilateral                A_b π = −r_b
// where r = v + A π_E is the velocity the remaining expansion impulses π_E would leave. A linear
// system is solved for its minimum-norm least-squares solution with a complete orthogonal
// decomposition (load spreading over redundant contacts); impending slip is solved by
// Newton with an analytic Jacobian and a backtracking line search started from that solution.
// A pulling normal impulse releases the contact's normal (and its friction), a rolling impulse
// outside the cone turns the contact impending; a rolling contact's friction is released before
// its normal.
#pragma once

#include <vector>

#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/impact_result.h"
#include "exactsim/impact/min_norm_solve.h"
#include "exactsim/math/types.h"

namespace exactsim {

// Scratch memory reused across intervals, rounds and impacts (no allocation once warm).
struct PlusWorkspace {
  // Per contact.
  std::vector<NormalState> normal;
  std::vector<FrictionState> friction;
  std::vector<Vec2> direction;  // ŝ (sliding) or initial guess of ê (impending)
  std::vector<Real> normal_violation, friction_violation;  // active-set check
  std::vector<int> col;  // first column of the contact's unknowns in the active system
  // Active system (m unknowns).
  std::vector<int> rows;   // problem row of each unknown
  std::vector<char> kind;  // equation kind of each unknown: 'L' linear, 'S' sliding, 'I' impending
  MatX B, J;
  VecX w, x, F, step, x_trial, F_trial, x_start;
  std::vector<int> linear, unit;  // unknowns with linear rows / with sliding-type (unit) rows
  std::vector<int> unit_normal;   // per unit row: complement column of its normal (−1: none)
  bool impending = false;         // some unknowns are impending-slip rows (Newton needed)
  MatX complement;                // B's Schur complement onto the linear rows
  VecX complement_rhs, complement_x;
  bool newton_failed = false;
  MinNormSolver solver;  // B⁺ w and Newton steps J⁺ F
  // Per row.
  VecX impulse;         // (rows) unknown impulse of the interval, full length
  VecX r;               // (rows) v + A π_E
  VecX expansion_rows;  // (rows) remaining π_E on normal rows
  VecX applied;         // (rows) s (impulse + π_E)
  VecX target;          // (rows) desired end velocities of normal rows (zero for PLUS)
  VecX scratch;
};

// Inputs that stay fixed through a round.
struct IntervalSetup {
  const MatX* delassus = nullptr;
  const std::vector<ContactLaw>* laws = nullptr;
  int bilateral_rows = 0;
  const std::vector<ContactPhase>* phase = nullptr;  // per contact, for this round
  const ImpactOptions* options = nullptr;
};

struct IntervalSolveStats {
  int passes = 0;
  int newton_iterations = 0;
  int newton_failures = 0;  // passes whose impending Newton did not converge (linearised kept)
};

// Classifies every contact at the start of an interval: normal Active / Known / Off
// from the phase, friction Sliding if ‖v_T‖ > v_transition else Rolling (Off if frictionless or
// observing); the start slip direction is frozen as ŝ.
void classify_interval(const IntervalSetup& setup, const VecX& v, PlusWorkspace& ws);

// Solves the interval's active-set problem. Needs ws.r = v + A π_E, ws.expansion_rows and
// ws.target set; leaves the unknown impulse in ws.impulse and the final states in ws.normal /
// ws.friction.
IntervalSolveStats solve_interval_active_set(const IntervalSetup& setup, PlusWorkspace& ws);

}  // namespace exactsim
