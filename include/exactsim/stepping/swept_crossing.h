// The watchdog's check of the motion between the start and the end of a step (docs/penetration.md
// "Crossings"): a pair that overlaps deeper than ε somewhere along the step's motion, but was not
// that deep at its start, crossed through each other, whatever the end of the step shows.
#pragma once

#include <cstdint>
#include <vector>

#include "exactsim/collision/sweep_and_prune.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/stepping/step_report.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

struct Workspace;
struct StepReport;

// A body's motion over the step: from its start pose to its end pose (positions linear, the
// rotation along the geodesic).
struct SweptMotion {
  Vec3 x0 = Vec3::Zero(), dx = Vec3::Zero();
  Quat q0 = Quat::Identity(), q1 = Quat::Identity();  // 3D; q1 on q0's side (q0·q1 >= 0)
  Real theta0 = 0, dtheta = 0;                        // 2D
  Real angle = 0;                                     // rotation over the step, rad
  Real radius = 0;                                    // bounding radius about the centre of mass
  // Bound of how far any point of the body moves over the step.
  Real reach() const { return dx.norm() + angle * radius; }
};

struct CrossingScratch {
  std::vector<SweptMotion> motions;  // (n_bodies)
  std::vector<std::uint8_t> fast;    // (n_bodies) dynamic, reach > ε/2
  std::vector<Aabb2> boxes2;
  std::vector<Aabb3> boxes3;
  std::vector<BodyPair> pairs;
  BroadPhaseScratch broad_phase;
  WorldPolygon polygons[2];
  WorldPolyhedron polyhedra[2];
  PlacedCollider3 colliders[2];  // the two placed 3D colliders (polyhedra[k])
};

// For the present bodies of `state` (the end of a step of size h) and `start_q` (their
// configuration at its start, after spawning): every pair, not both static, that moves more than
// ε/2 relative to each other is sampled along the interpolated motion, at most ε/2 of relative
// motion apart, within the interval where their bounding spheres meet. A pair whose exact
// penetration depth at a sample exceeds ε and its depth at the start by 1 % of ε crossed: the
// first such sample is appended to report.crossings. Pairs that move less are the end-of-step
// watchdog's. ws: the placed shapes of the end of the step (place_current_bodies).
void find_crossings(const World& world, const State& state, const VecX& start_q, Real h, Real eps,
                    Workspace& ws, StepReport& report);

}  // namespace exactsim
