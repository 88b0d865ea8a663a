// bench_scaling's step loops: exactsim (scaling.cc) and Bullet (scaling_bullet.cc, only when
// CMake found Bullet). Each runs in a forked child and reports every step through `on_step`.
#pragma once

#include <functional>
#include <string>

#include "exactsim/stepping/step.h"

namespace exactsim::bench {

struct StepSample {
  double wall = 0;     // s, the whole step call (exactsim: advance(); Bullet: stepSimulation())
  StepTimings stages;  // exactsim only
  int contacts = 0;    // exactsim: potential contacts; Bullet: contact-manifold points
  int lcp = 0;         // exactsim: unknowns of the reduced LCP (0 for Bullet)
  int solved = 0;      // exactsim: those the solves worked on (StepReport::solved_unknowns)
  bool failed_solve = false;
  // exactsim: islands of its failed solves not recovered by regularisation, their bodies in free
  // flight (StepReport::islands_flown_free)
  int flown_free = 0;
  int substeps = 1;  // exactsim: advance()'s sub-steps; Bullet: internal steps taken
  // exactsim: taken as halves from its start after a failed whole step (StepReport's
  // halves_from_start), not split
  bool halves_from_start = false;
  int status = 0;    // exactsim: StepStatus
  // exactsim's MLCP solve (of the sub-step reported): Lemke pivots, whether Fischer–Burmeister
  // or the long-double Lemke retry produced the answer.
  int pivots = 0;
  bool fallback = false, extended_precision = false;
};

// The scene's state at the end of a run: a sanity check that both engines simulate the same
// thing (heights of the centres of mass along the up axis, speeds).
struct EndSample {
  double mean_height = 0, max_speed = 0;
  int escaped = 0;  // dynamic bodies whose centre is outside the container (grown by 0.5 m)
};

// on_step returns false to stop the run (budget).
using StepCallback = std::function<bool(const StepSample&)>;

// Whether this binary has the Bullet runner, and its precision ("double" or "float").
bool bullet_available();
const char* bullet_precision();

// Runs `steps` steps of the scene in Bullet: the same hull vertices as btConvexHullShape (in the
// hull's principal axes, collision margin `margin`), the same masses and principal inertias, the
// static boxes as btBoxShape, per-body friction √μ (Bullet multiplies the two bodies' values:
// the pair gets μ), restitution 0, stepSimulation(h, 1, h), deactivation disabled unless `sleep`
// (then Bullet's sleeping thresholds from the scene's StepOptions::sleep_speed and sleep_time).
// 2D: prisms of `thickness` along z, linear factor (1, 1, 0), angular factor (0, 0, 1).
// Throws std::runtime_error when Bullet is not built in.
void run_bullet(const Scene& scene, int steps, double margin, double thickness, bool sleep,
                const StepCallback& on_step, EndSample& end);

}  // namespace exactsim::bench
