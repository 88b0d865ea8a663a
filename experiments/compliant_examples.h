// The PLUS paper's Examples 1–4 with compliant contact (docs/compliant.md "The examples") and the
// drivers that run a compliant impact from first touch to separation.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "exactsim/compliant/integrator.h"
#include "exactsim/compliant/pin_chain.h"
#include "exactsim/compliant/rigid_compliant.h"
#include "exactsim/events/event_simulation.h"
#include "exactsim/impact/impact_problem.h"

namespace exactsim {

// Ex. 1: the brick at first touch, gravity off, v_COM = (−5, 0, −5.74) m/s; E = 10 GPa,
// c = 0.26 s/m, μ_s = μ_d = μ, v_tr = 0.01 m/s; the ground has the brick's material.
CompliantScene example1_compliant(Real mu, Real stiffness = 1e10);

// Ex. 2: the brick flat on four spheres, gravity off, v_COM = (−2, 0, −8.84) m/s, μ = 0.2,
// c = 0.15 s/m. Orientation R_y(π/2) (the main face, docs/compliant.md) unless given.
Quat example2_orientation();
CompliantScene example2_compliant(const Quat& orientation, Real stiffness = 1e10);
// The matching PLUS simulation (gravity off, at touch) and impact problem (e_min 0.414, Table
// A1).
EventSimulation example2_plus_simulation(const Quat& orientation);
ImpactProblem example2_plus_problem(const Quat& orientation, const ImpactOptions& options);

// Ex. 3: Newton's cradle, frictionless, E = 10 GPa, c = 0, ball 1 at (−2, 0, 0) m/s, touching.
CompliantScene example3_compliant();

// Ex. 4: the triple pendulum with a sphere on link 3's end; sphere and ground stiffness E [Pa],
// c = 0, μ = 0.1, PLUS COR 1. Initial pin angles (π/4, 3π/4, 5π/6), at rest.
PinChain example4_chain(Real stiffness);
VecX example4_initial_angles();

// A chain like Example 4's as a 3D time-stepping scene (docs/joints.md "Compliant pin chains"),
// at angles θ and rates θ̇, turned by `turn`: each link a 2 cm square bar with the link's first
// ChainBody's mass and inertia (about every axis through its middle), pinned by hinges along the
// turned z axis; links 0 and 1 lie 0.3 m in front of and behind the plane (the chain folds over
// itself at Example 4's angles), their centres of mass in it. The chain's sphere is a body of its
// own (its ChainBody's mass) welded to link 2 by a fixed joint; the ground is the turned
// half-space y ≤ 0, gravity along the turned −y; μ and the COR are the sphere's PLUS law, h 1 ms.
nlohmann::json example4_scene(const PinChain& chain, const VecX& theta, const VecX& rate,
                              const Quat& turn = Quat::Identity());

struct CompliantImpactOptions {
  IntegratorOptions integrator;    // spec: RKM, a = 1e-5 for Examples 1–3
  Real max_duration = 0.05;        // s, give up after this
  bool stop_at_separation = true;  // stop at the first accepted step with every depth ≤ 0
};

struct CompliantImpactResult {
  State state_after;                // the scene's state at the end
  Real duration = 0.0;              // s, from first touch to the end
  Real last_contact_time = 0.0;     // s, last accepted step that ended with a depth > 0
  Vec3 quadratures = Vec3::Zero();  // (D_HC, D_friction, W) [J]
  Real max_depth = 0.0;             // m, over accepted steps
  IntegratorStats stats;
  bool separated = false;
};

// Called after every accepted step with the integrator and the scene's state at it.
using CompliantObserver = std::function<void(const Integrator&, const State&)>;

CompliantImpactResult run_compliant_impact(const CompliantScene& scene,
                                           const CompliantImpactOptions& options,
                                           const CompliantObserver& observer = {});

// Ex. 4 procedure (docs/compliant.md "The examples", (a), (c), (d)).
struct ChainState {
  Real time = 0.0;  // s
  VecX theta, rate;
};
// Integrates the contact-free fall with RKM (accuracy) and localises first touch by bisection.
ChainState example4_first_touch(const PinChain& chain, const VecX& theta0, Real accuracy = 1e-10);
// Contact-free continuation with RKM (accuracy) to `duration` s later; returns the state.
ChainState chain_free_motion(const PinChain& chain, const ChainState& start, Real duration,
                             Real accuracy = 1e-10);

struct ChainCompliantRun {
  ChainState after;             // at contact end
  Real contact_duration = 0.0;  // s
  Real max_depth = 0.0;         // m
  IntegratorStats stats;
};
// Compliant contact from first touch until the sphere leaves the ground.
ChainCompliantRun chain_compliant_impact(const PinChain& chain, const ChainState& touch,
                                         const IntegratorOptions& integrator,
                                         Real max_duration = 0.1);

// Centre height of the chain's first sphere [m].
Real chain_sphere_height(const PinChain& chain, const VecX& theta);

}  // namespace exactsim
