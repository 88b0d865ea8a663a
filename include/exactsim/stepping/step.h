// One Stewart–Trinkle time step and its report (docs/stepping.md).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "exactsim/collision/face_patch.h"
#include "exactsim/collision/sweep_and_prune.h"
#include "exactsim/contact/constraint_set.h"
#include "exactsim/contact/peg_scratch_2d.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/metrics/overlap.h"
#include "exactsim/metrics/penetration_depth.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "exactsim/stepping/friction_on_demand.h"
#include "exactsim/stepping/islands.h"
#include "exactsim/stepping/position_projection.h"
#include "exactsim/stepping/projected_gauss_seidel.h"
#include "exactsim/stepping/stewart_trinkle.h"
#include "exactsim/stepping/swept_crossing.h"
#include "exactsim/stepping/warm_start.h"
#include "exactsim/stepping/working_set.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

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
};

const char* to_string(StepStatus status);

// A failed solve: the step's contact impulses are not certified physical.
inline bool is_failed_solve(StepStatus s) {
  return s == StepStatus::kSolverFailed || s == StepStatus::kEnergyGain;
}

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
  Real projection = 0;       // budget: the projection's lift, StepReport::projection_lift
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
  Real projection_lift =
      0;  // J: Σ m |g| |Δx| of the projection's moves (EnergyBalance::projection)
  int approach_stopped_rows = 0;  // pushed-out rows whose approach the projection then stopped
  int substeps = 1;               // advance(): sub-steps the step was split into (adaptive_step.h)
  Real overlap = 0;               // total exact overlap area (m²) / volume (m³) after the step
  Real kinetic_energy = 0, potential_energy = 0;  // J, after the step
  StepTimings seconds;
  // PEG general form (PegOptions::general_form, 2D): primaries moved by primary switching, and
  // whether no consistent set of primaries was found (then status is kSolverFailed).
  int primary_switches = 0;
  bool general_form_failed = false;
};

// The impulse a contact carried over the step (N·s, on body B; A receives the opposite).
struct ContactImpulse {
  Real normal = 0;               // along n̂
  Vec3 friction = Vec3::Zero();  // Σ β_r d_r of its friction cone
};

// The scratch of solving one island (step() stages 4–6): one per thread that solves islands
// (StepOptions::threads; docs/stepping.md "Parallel islands").
struct IslandWorkspace {
  // The island being solved (after the step: the last one this lane solved), its MLCP and
  // solution.
  ConstraintSet island;              // its constraints over its own contacts
  std::vector<int> island_contacts;  // index in `constraints` of each of island's contacts
  std::vector<int> contact_local;    // scratch of extract_island
  MlcpLayout layout;
  SparseMlcp problem;  // the island's MLCP in body space (stewart_trinkle.h)
  // Islands up to StepOptions::dense_max_unknowns: the MLCP written out dense and the dense
  // solvers' buffers (docs/solvers.md "Large islands: the sparse path").
  bool dense = false;
  Mlcp mlcp;
  MlcpScratch solver;
  MlcpSolution solution;
  WarmStart warm;  // the guess, and the bases this lane remembered this step
  std::vector<FrictionDirection> friction_current;  // the friction directions this lane remembered
  std::vector<Vec3> cone_impulses;  // scratch: the friction impulse of each cone of the island
  GaussSeidelScratch gauss_seidel;  // large islands' active-set guess
  FrictionOnDemand friction;        // large islands' sub-problem of loaded cones
  PositionProjectionScratch projection;
  SparseMlcpScratch sparse;  // the sparse solve's buffers (solvers/sparse_mlcp.h)
  WorkingSet working;        // the sparse path's working set (working_set.h)
  SparseLemkeScratch lemke;  // the sparse Lemke's basis and buffers (solvers/sparse_lemke.h)
};

// W = M⁻¹ and the free velocities W c of the island's last solve (the dense reduction's or the
// sparse solve's).
const BlockDiagonal& inverse_mass(const IslandWorkspace& ws);
const VecX& free_velocity(const IslandWorkspace& ws);

// Per-step scratch, reused between steps (docs/stepping.md "Memory": no reallocation in the steady
// state). Its IslandWorkspace part is the calling thread's; `lanes` are the other threads'.
struct Workspace : IslandWorkspace {
  // The placed geometry, by collider (stepping/world.h): a compound body's parts after the bodies.
  std::vector<WorldPolygon> polygons, predicted_polygons;  // (n_colliders) 2D
  std::vector<WorldPolyhedron> polyhedra;                  // (n_colliders) 3D
  std::vector<Aabb2> boxes2;
  std::vector<Aabb3> boxes3;
  std::vector<Real> motion;   // (n_colliders) per-step displacement bound of the body, 3D
  std::vector<Pose3> poses3;  // (n_colliders) the body's pose
  std::vector<const ConvexPolyhedron*> shapes3;
  std::vector<std::uint8_t> is_static;         // (n_colliders) of the body
  std::vector<std::uint8_t> collider_present;  // (n_colliders) the body is present
  std::vector<BodyPair> pairs;
  BroadPhaseScratch broad_phase;
  PatchScratch patch;  // 3D detection's face patches
  ConstraintSet constraints;
  PegScratch2d peg2d;
  PegScratch3d peg3d;
  std::vector<unsigned char> contact_marks;
  IslandPartition islands;
  std::vector<StepReport> island_reports;  // (islands) each island's own report
  std::vector<IslandWorkspace> lanes;      // (threads − 1) parallel islands
  // Parallel islands: the islands by decreasing size (the order threads take them in), and
  // where each island's remembered bases are (lane, first row, end row in that lane's
  // warm.current), to gather them in island order.
  std::vector<int> island_order;
  std::vector<std::array<int, 3>> island_rows;
  // Per contact of `constraints`: the impulse of the applied solves (zero where the island's
  // solve failed and was not recovered).
  std::vector<ContactImpulse> contact_impulses;
  std::vector<int> body_island;   // (n_bodies) the island that moved the body this step, −1: none
  std::vector<Real> island_rest;  // (islands) scratch of settle_sleepers
  IntersectionScratch intersection;
  IntersectionPolyhedron overlap_polytope;  // 3D Corrective: one pair's overlap region
  PenetrationScratch penetration;
  ScenePenetration penetration_scan;
  // The end-of-step metrics' one broad phase (overlap and watchdog; docs/stepping.md stage 7):
  // the placed shapes' boxes and the sorted pairs whose boxes overlap.
  std::vector<Aabb2> end_boxes2;
  std::vector<Aabb3> end_boxes3;
  BoxPairScratch end_sweep;
  std::vector<std::pair<int, int>> end_pairs;
  std::vector<Vec2> centres2;  // (n_colliders) watchdog: a point inside each collider
  std::vector<Vec3> centres3;
  std::vector<int> out_of_bounds;
  std::vector<State> saved_states;  // advance(): the start of each split level
  VecX start_q;                     // the configuration at the start of the step, after spawning
  std::vector<FrictionDirection> friction_previous;  // the last step's, sorted by contact
  CrossingScratch crossing;
};

// The contact distance ε for step size h: ContactOptions::epsilon when set, else
// min(max(h/2, 0.8 mm), w/2) with w the thinnest shape's minimum_width(), so that ε never
// reaches across a thin body (docs/collision.md "ε parameters and defaults").
Real contact_epsilon(const World& world, Real h);

// Advances `state` by h: spawn → detect → constraints → assemble → solve + verify → velocities →
// positions → report. On a failed solve the step is reported as failed; with
// StepOptions::continue_on_solver_failure the velocities come from the regularised problem
// (report.regularisation), otherwise the bodies of the failed problem fly free this step.
StepReport step(const World& world, State& state, Workspace& ws, Real h, long step_index);

// The same with the contact distance ε given instead of contact_epsilon(world, h): ε of
// detection and of the watchdog. advance() takes its sub-steps with the ε of the user's step, so
// that splitting never narrows the contact band (docs/penetration.md "Any step size").
StepReport step(const World& world, State& state, Workspace& ws, Real h, long step_index,
                Real contact_distance);

// Whether `body` has joined by the start of a step at `time`: a body joins at the first step whose
// start time is >= its spawn time, to round-off of h (docs/scene-format.md); step() adds it first.
bool has_spawned(const Body& body, Real time, Real h);

// Places every present body's shape in the world (and the 2D predicted configuration).
void place_bodies(const World& world, const State& state, Real h, Workspace& ws);

// Exact total overlap of the current configuration (the paper's metric).
Real measure_overlap(const World& world, const State& state, Workspace& ws);

// The box a dynamic body's centre must stay in: the AABB of the static (not kinematic) bodies grown
// on every side by its largest side (at least 1 m). Empty (lo > hi) when the scene has no static
// body.
Aabb3 scene_bounds(const World& world, const Workspace& ws);

}  // namespace exactsim
