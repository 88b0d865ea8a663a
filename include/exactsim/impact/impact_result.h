// The result of one impact and its log of rounds and intervals
// (docs/impact-problem.md "Output additions").
#pragma once

#include <string>
#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

// A contact's role in one impact round (paper §3b, Table 2).
enum class ContactPhase { kCompressing, kExpanding, kObserving };

// Normal row of a contact during one interval: kActive (compressing, impulse unknown, v_N → 0),
// kKnown (expanding, impulse given by Poisson), kOff (compressing but released by the active set,
// or observing).
enum class NormalState { kActive, kKnown, kOff };

// Tangential rows during one interval (paper eqs. 2.7–2.9).
enum class FrictionState { kOff, kRolling, kSliding, kImpending };

// What limited an interval's step length α (PLUS paper eqs. 2.12–2.14).
enum class StepLimit {
  kWhole,              // α = 1: the phase ends with this interval
  kRollingTransition,  // α = α_CP: a sliding contact's slip reaches the rolling disc (eq. 2.13)
  kEndInRollingDisc,   // α = α_CP because the whole interval would end inside the disc (Simbody)
  kDirectionChange,    // α = α_DC: the sliding direction turned by θ_max (eq. 2.14)
  kAlphaMin,           // α_DC was raised to α_min
};

// Where a contact went from sliding to rolling during the impact.
enum class Transition { kNone, kCompression, kExpansion };

const char* to_string(ContactPhase p);
const char* to_string(NormalState s);
const char* to_string(FrictionState s);
const char* to_string(StepLimit s);
const char* to_string(Transition t);

struct IntervalLog {
  Real alpha = 1.0;  // step length applied
  StepLimit limit = StepLimit::kWhole;
  int limiting_contact = -1;  // contact whose α_k was the minimum (−1 when α = 1)
  int active_set_passes = 0;  // active-set solves (Algorithm 1 loop passes)
  int newton_iterations = 0;  // impending-slip Newton iterations, summed over passes
  int newton_failures = 0;    // passes where Newton did not converge: friction kept on the cone
                              // along the guessed direction (linearised solution)
  std::vector<NormalState> normal;      // per contact
  std::vector<FrictionState> friction;  // per contact
  VecX impulse;  // (rows) impulse applied in this interval, expansion included
};

struct RoundLog {
  std::vector<ContactPhase> phase;  // per contact
  std::vector<Real> cor;            // per contact, e from the velocities at the round's start
  std::vector<Real> expansion;      // per contact, Poisson expansion impulse applied this round
  std::vector<IntervalLog> intervals;
  VecX impulse;                      // (rows) total impulse of the round
  Real kinetic_energy_before = 0.0;  // change since the impact began, at the round's start (J)
  Real kinetic_energy_after = 0.0;   // … and at its end
};

struct ContactSummary {
  Transition transition = Transition::kNone;
  Vec3 compression_impulse = Vec3::Zero();  // (t1, t2, n) accumulated while compressing
  Vec3 expansion_impulse = Vec3::Zero();    // (t1, t2, n) accumulated while expanding
};

struct ImpactResult {
  VecX impulse;   // (rows) total impulse per row over the whole impact
  VecX velocity;  // (rows) constraint-space velocity after it
  int rounds = 0;
  int intervals = 0;
  // Rounds whose Poisson expansion was scaled down so that the impact does not gain kinetic
  // energy (docs/plus.md "Energy through the rounds").
  int expansions_scaled = 0;
  std::vector<ContactSummary> contacts;
  Real kinetic_energy_change = 0.0;  // J, ½ πᵀ (v_before + v_after)
  bool converged = true;             // false when the impact stopped early; stop_reason says why
  std::string stop_reason;           // "" when converged
  std::string model;                 // "plus-rounds", "plus-simultaneous", "plus-mixed", "newton"
  std::vector<RoundLog> log;         // empty unless options.record_log
};

}  // namespace exactsim
