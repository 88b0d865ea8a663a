// An impact problem: PLUS's input stripped of geometry (docs/impact-problem.md), and its options.
//
// Sign convention (the PLUS paper's, docs/plus.md): a positive normal impulse pushes the bodies
// apart, v_N < 0 approaches, and an impulse π changes constraint-space velocities by v ← v + A π.
// Contact k owns rows 3k, 3k+1 (two orthonormal tangents of its frame) and 3k+2 (its normal);
// bilateral rows follow all contact rows.
#pragma once

#include <vector>

#include "exactsim/impact/restitution.h"
#include "exactsim/math/types.h"

namespace exactsim {

// Per-contact material of one proximal contact.
struct ContactLaw {
  Real friction = 0.0;  // Coulomb μ (dimensionless, ≥ 0); 0 = frictionless (no tangential rows)
  RestitutionLaw restitution;
};

// How impacts induced during an impact are handled (docs/plus.md "The solver as implemented",
// rounds, simultaneous and mixed models).
enum class InducedImpacts {
  kRounds,        // the paper's impact rounds (Simbody "Sequential"): observers wait a round
  kSimultaneous,  // every proximal contact participates at once (Simbody default; Fig. 14 row C)
  kMixed,  // Simbody "Mixed": mixed_rounds rounds as kRounds, then one last round in which every
           // proximal contact takes part with COR 0 (the rest of the impact inelastic)
};

// What the interval step length does when the whole interval would end inside the rolling disc
// ‖v_T‖ ≤ v_transition (docs/plus.md "The solver as implemented", step length).
enum class StepLengthRule {
  kClosestPoint,  // step to α_CP (Simbody; reproduces the paper's Fig. 10 interval counts)
  kWholeStep,     // take α = 1 (the paper's text after eq. 2.13)
};

struct ImpactOptions {
  Real v_transition = 0.1;  // m/s, sliding-to-rolling transition speed (Table A1)
  Real theta_max = 0.01;    // rad, largest sliding-direction change per interval (Table A1)
  Real alpha_min = 0.0;     // lower bound of α_DC (paper eq. 2.14); 0 = none (Simbody)
  Real v_observe = 1e-9;  // m/s, contacts with v_N ≥ −v_observe observe a round (round-off guard)
  int max_rounds = 1000;       // impact rounds before giving up (result.converged = false)
  int max_intervals = 100000;  // intervals per impact before giving up
  StepLengthRule step_length = StepLengthRule::kClosestPoint;
  InducedImpacts induced_impacts = InducedImpacts::kRounds;
  int mixed_rounds = 5;  // kMixed: the rounds before the last (Simbody's MaxInducedImpactsPerStep)
  bool record_log = true;  // fill ImpactResult::log (rounds, intervals); off for speed
};

struct ImpactProblem {
  std::vector<ContactLaw> contacts;  // every listed contact is proximal
  int bilateral_rows = 0;            // free impulses, velocity driven to zero
  MatX delassus;  // (n × n) A = G M⁻¹ Gᵀ, symmetric PSD, n = 3·contacts + bilateral
  VecX velocity;  // (n) constraint-space velocity before the impact
  ImpactOptions options;

  int rows() const { return 3 * static_cast<int>(contacts.size()) + bilateral_rows; }
};

// Throws InputError naming the field (`contacts[1].friction: …`, `delassus: …`) when sizes,
// values or options are invalid: non-finite numbers, A not symmetric or not PSD (relative
// tolerance 1e-9 of its largest diagonal), μ < 0, e_min ∉ [0, 1], v_capture > v_plastic, ….
void check_impact_problem(const ImpactProblem& problem);

// Exact change of the bodies' kinetic energy caused by impulse π: ½ πᵀ (v_before + v_after)
// with v_after = v_before + A π (docs/impact-problem.md).
Real kinetic_energy_change(const MatX& delassus, const VecX& v_before, const VecX& impulse);

}  // namespace exactsim
