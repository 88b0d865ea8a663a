// What one step reports (docs/stepping.md "The step report"): its status, the solve's
// certificate, the energy balance, the watchdog's findings and the timings. Status apart from
// statistics: `status` says whether the step may be trusted, the rest says what it did.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "exactsim/math/types.h"
#include "exactsim/metrics/penetration_result.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {

// A pair that crossed during a step: the first sample of the motion at which it was deeper than
// ε (stepping/swept_crossing.h, docs/penetration.md "Crossings").
struct SweptCrossing {
  int body_a = -1, body_b = -1;  // body_a < body_b
  Real time = 0;                 // s, of the sample
  Real depth = 0;                // m, exact penetration depth there
};

enum class StepStatus {
  kOk,
  kSolverFailed,  // the MLCP solve did not verify; see report.solver
  // The solve verified, but the kinetic energy of its bodies rose beyond gravity's work and the
  // stabilisation budget (report.energy): a failed solve, treated like kSolverFailed.
  kEnergyGain,
  // Non-finite state or a speed beyond StepOptions::max_speed / max_angular_speed after the
  // step (report.diverged_body): a numerical failure; the run cannot go on.
  kDiverged,
  // The penetration watchdog (docs/penetration.md): after the step a pair overlaps deeper than
  // the contact distance ε, a pair crossed deeper than ε during the step's motion, or a dynamic
  // body's centre lies inside a static body (report.deep_penetrations, report.crossings,
  // report.centres_inside_static). The run stops unless continued.
  kDeepPenetration,
  // An impact (docs/impacts.md) did not certify: a friction impulse left its cone or the kinetic
  // energy rose (report.impacts.failure says which): a failed solve.
  kImpactFailed,
};

const char* to_string(StepStatus status);

// advance(): why a step was taken again as two halves (docs/penetration.md "Any step size",
// docs/stepping.md "When a solve fails"), from the report of the attempt it discarded.
struct SplitCause {
  enum class Kind : std::uint8_t {
    kNone,         // not split
    kFailedSolve,  // no attempt certified, or the energy balance failed
    kDeepPair,     // a new pair deeper than ε after the step: the deepest
    kCrossing,     // a pair that crossed deeper than ε during the step: the first found
  };
  Kind kind = Kind::kNone;
  int body_a = -1, body_b = -1;  // kDeepPair, kCrossing; body_a < body_b
  Real depth = 0;                // m
  PenetrationResult pair;        // kDeepPair: the exact depth, its direction and features
  // The discarded whole step's effort: its solves' pivots (sparse Lemke's included) and the wall
  // seconds of its stages, which no stage of the step's report holds.
  int pivots = 0;
  double seconds = 0;
};

const char* to_string(SplitCause::Kind kind);

// A failed solve: the step's contact impulses are not certified physical.
inline bool is_failed_solve(StepStatus s) {
  return s == StepStatus::kSolverFailed || s == StepStatus::kEnergyGain ||
         s == StepStatus::kImpactFailed;
}

// The impacts a step resolved (docs/impacts.md "The certificate"), summed over them.
struct ImpactReport {
  int count = 0;              // impacts resolved
  Real first_time = std::numeric_limits<Real>::quiet_NaN();  // s: the run's time of the first
  int contacts = 0;           // contacts of the largest impact
  int rounds = 0;             // PLUS rounds, all impacts
  int intervals = 0;          // PLUS intervals, all impacts
  // J, kinetic energy change through the impacts: at most kinematic_work + energy_tolerance when
  // certified (docs/impacts.md "The certificate").
  Real energy_change = 0;
  Real energy_tolerance = 0;  // J, the round-off allowance it was checked against, summed
  Real kinematic_work = 0;    // J, the kinematic bodies' work on the impacts' bodies, summed
  Real cone_excess = 0;  // largest |π_T| − μ π_N over the impacts' contacts (≤ round-off)
  bool capped = false;   // past ImpactStepOptions::max_impacts_per_step: stepped inelastically
  // Impacts PLUS did not finish within its round and interval budgets (ImpactOptions::max_rounds,
  // max_intervals): velocities left as they were, the rest of the step inelastic; the first
  // one's reason.
  int fallbacks = 0;
  std::string fallback_reason;
  std::string failure;  // status kImpactFailed: why
};

// The energy certificate of a solved step (docs/robustness.md "Energy balance"), over the bodies
// of the MLCP, in J. The velocity solve: for the Stewart–Trinkle MLCP with H = G on impulse rows,
//   T(ν⁺) − T(ν*) = −zᵀr − zᵀDz − ½ zᵀGᵀWGz <= Σ z_j max(0, −r_j),
// where ν* = W c is the free-flight velocity: contacts and friction only dissipate, except for
// the ψ/h push-out of rows with negative gap, whose work is the stated budget. The whole step:
// kinetic plus potential energy at its end (positions projected, velocities corrected) may exceed
// that at its start by no more than the push-out budget and the projection's lift budget
// Σ m |g| |Δx| (the most potential energy its moves can add; zero when nothing overlaps).
struct EnergyBalance {
  bool checked = false;
  Real before = 0;         // T(ν) at the start of the step
  Real free_flight = 0;    // T(ν*) = before + gravity's work over the free step
  Real after = 0;          // T(ν⁺)
  Real stabilisation = 0;  // budget Σ z_j max(0, −r_j) over impulse-carrying rows, r_j less k_j
  Real tolerance = 0;      // round-off and the LCP tolerance's share
  // Work the kinematic bodies do on the island (signed; docs/robustness.md "Energy balance"):
  // −Σ z_j k_j over the impulse-carrying rows (U, carrying I, friction), k_j the row's kinematic
  // rate (MlcpLayout::kinematic_rate), i.e. minus the impulse on each kinematic body · its
  // velocity.
  Real kinematic_work = 0;
  // The whole step (checked with `checked` once the step is applied).
  Real total_before = 0;     // T + V at the start of the step + the applied forces' work
  Real total_after = 0;      // T + V at its end
  Real projection = 0;       // budget: StepReport::projection_lift + approach_joint_work
  Real total_tolerance = 0;  // `tolerance` and the round-off of the energies' sums
  Real excess() const {      // <= tolerance to pass
    return after - (free_flight + stabilisation + kinematic_work);
  }
  bool ok() const { return !checked || excess() <= tolerance; }
  Real total_excess() const {
    return total_after - (total_before + stabilisation + kinematic_work + projection);
  }
  bool step_ok() const { return !checked || total_excess() <= total_tolerance; }
};

// What one attempt of an island's solve policy runs (docs/solvers.md "The solve policy").
enum class SolveAttemptKind {
  kDenseBrief,   // the dense path, Lemke with its own retries but not the stack's fallbacks,
                 // within one pivot per unknown a run
  kDense,        // the dense path with the whole stack ("Fallback policy")
  kWorkingSet,   // the sparse path's working set, in rounds
  kSparseLemke,  // the sparse Lemke on the whole MLCP, from last step's basis
};

const char* to_string(SolveAttemptKind kind);

// One attempt of an island's solve, as StepReport::attempts records it.
struct SolveAttempt {
  int island = 0;  // the island's index in the step
  SolveAttemptKind kind = SolveAttemptKind::kDense;
  SolveStatus status = SolveStatus::kNumerical;  // its certificate's (kSolved: certified)
  SolveMethod method = SolveMethod::kNone;       // the method its answer came from
  int unknowns = 0;                              // unknowns it solved (a working set's last size)
  int pivots = 0, iterations = 0;                // its effort
  double seconds = 0;                            // wall
};

struct StepTimings {  // wall seconds per stage
  double detect = 0, constraints = 0, assemble = 0, solve = 0, integrate = 0, metrics = 0;
  double total() const { return detect + constraints + assemble + solve + integrate + metrics; }
};

struct StepReport {
  long step = 0;  // 0-based index of the step just taken
  Real time = 0;  // s, at the end of the step
  StepStatus status = StepStatus::kOk;
  int bodies_present = 0;
  int spawned = 0;  // bodies that joined at the start of this step
  int potential_contacts = 0;
  int unilateral = 0, intercontact = 0, cross = 0;  // constraint counts (U, I incl. X, X)
  int unused_contacts = 0;  // potential contacts in no constraint (PEG: inapplicable ones)
  // PEG: U's added for pairs deeper than their constraints see (docs/penetration.md "The depth
  // witness").
  int depth_witnesses = 0;
  // PEG's constraints differ from the standard model's on the same contacts (an I/X constraint
  // or a dropped contact): the step had an SM trap to remove (docs/stepping.md "The step
  // report", PEG paper Fig. 22).
  bool peg_changed = false;
  int active_bodies = 0;
  int lcp_size = 0;            // unknowns of the reduced LCPs, summed over the islands
  int islands = 0;             // independent MLCPs the step solved (docs/stepping.md "Islands")
  int largest_island_lcp = 0;  // unknowns of the largest island's LCP
  // Unknowns the solves worked on, summed over the islands: lcp_size less what the sparse path's
  // working sets left out (docs/solvers.md "Large islands: the sparse path").
  int solved_unknowns = 0;
  // Islands whose dense solve did not certify and that the sparse path's working set then solved
  // (docs/solvers.md "Large islands: the sparse path"); their certificates' primary_status is the
  // dense attempt's.
  int rescued_islands = 0;
  // Every attempt of the islands whose first attempt did not certify, in order (empty when
  // every island certified at its first; docs/solvers.md "The solve policy").
  std::vector<SolveAttempt> attempts;
  // Sleeping (StepOptions::sleep, docs/stepping.md "Sleeping"): islands left out of the solve
  // because all their bodies sleep, and the bodies asleep after the step.
  int islands_asleep = 0;
  int bodies_asleep = 0;
  bool solver_called = false;
  SolveCertificate solver;  // meaningful when solver_called
  // Projected Gauss–Seidel sweeps before the solve, summed over the islands that iterated
  // (StepOptions::gauss_seidel_min_unknowns; docs/stepping.md "Iterate, then certify").
  int gauss_seidel_sweeps = 0;
  // Friction cones solved without their unknowns and completed afterwards, summed over the
  // islands (StepOptions::friction_on_demand_min_unknowns; docs/stepping.md "Friction on demand");
  // with a failed solve, the cones left out of the sub-problem that ran out of pivots.
  int friction_cones_left_out = 0;
  // Warm Lemke runs restarted without a wrongly guessed impulse after a secondary ray, summed over
  // the islands (docs/solvers.md "Fallback policy", ray restart).
  int ray_restarts = 0;
  bool solution_applied =
      false;                // the solve's ν⁺ was used (certified, or recovered when continued)
  Real regularisation = 0;  // δ of N + δI when a failed step was recovered (continue_on_failure)
  // Islands whose solve failed and was not recovered, summed over the step's parts: their bodies
  // flew free, ν + h M⁻¹F, through their contacts (docs/stepping.md "When a solve fails").
  int islands_flown_free = 0;
  EnergyBalance energy;     // of the solve that was used (when solver_called)
  int diverged_body = -1;   // status kDiverged: the first body with non-finite or runaway state
  // The penetration watchdog after the step (StepOptions::watch_penetration): the exact largest
  // penetration depth of any pair (m), the pairs deeper than ε, dynamic centres inside static
  // bodies, and dynamic bodies whose centre left the scene's bounds (scene_bounds()).
  Real max_penetration = 0;
  std::vector<PenetratingPair> deep_penetrations;
  std::vector<SweptCrossing> crossings;  // pairs that crossed during the step (swept_crossing.h)
  std::vector<CentreInsideStatic> centres_inside_static;
  std::vector<int> bodies_out_of_bounds;
  // Split stabilisation (docs/robustness.md): the deepest overlap the velocity step still
  // predicted (m, 0 when none), whether the position LCP ran (that depth beyond the slop) and
  // verified, how many rows' push-out it left out as contradictory (only kept from deepening), and
  // the factor α of a push-out scaled down to the projection's move bound (position_projection.h).
  Real projection_depth = 0;
  bool projection_ran = false;
  bool projection_solved = false;
  int projection_relaxed_rows = 0;
  Real projection_scale = 1;  // α < 1 when the push-out was scaled down to its move bound
  // The position LCP's rows, and those its certified answer was solved on (a working set: the
  // rows left out have p_i = 0).
  int projection_rows = 0, projection_set_rows = 0;
  Real projection_lift =
      0;  // J: Σ m |g| |Δx| of the projection's moves (EnergyBalance::projection)
  int approach_stopped_rows = 0;  // pushed-out rows whose approach the projection then stopped
  // J: with joints, the work of the joint impulses that hold them through that correction, at
  // the joint rows' velocity Jᵀν⁺ = −φ/τ (at least 0; EnergyBalance::projection).
  Real approach_joint_work = 0;
  int substeps = 1;               // advance(): sub-steps the step was split into (adaptive_step.h)
  int retaken_failed_solves = 0;  // advance(): (sub-)steps whose failed solve was taken as halves
  // advance(): taken as halves from its start, after a whole step whose solve failed
  // (StepOptions::halves_after_failed_solve; docs/stepping.md "Halves after a failed solve")
  bool halves_from_start = false;
  SplitCause split;  // advance(): why the step was split (the first split of a step in parts)
  ImpactReport impacts;           // ImpactModel::kPlus: the step's located impacts
  Real overlap = 0;               // total exact overlap area (m²) / volume (m³) after the step
  Real kinetic_energy = 0, potential_energy = 0;  // J, after the step
  StepTimings seconds;
  // PEG general form (PegOptions::general_form, 2D): primaries moved by primary switching, and
  // whether no consistent set of primaries was found (then status is kSolverFailed).
  int primary_switches = 0;
  bool general_form_failed = false;
};

}  // namespace exactsim
