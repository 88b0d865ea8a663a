// One Stewart–Trinkle time step and its report (docs/stepping.md).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "exactsim/collision/face_patch.h"
#include "exactsim/collision/sweep_and_prune.h"
#include "exactsim/collision/vertex_edge.h"
#include "exactsim/contact/constraint_set.h"
#include "exactsim/contact/peg.h"
#include "exactsim/contact/peg_scratch_2d.h"
#include "exactsim/geometry/placed_collider.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/metrics/overlap.h"
#include "exactsim/metrics/penetration_depth.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "exactsim/stepping/friction_on_demand.h"
#include "exactsim/stepping/islands.h"
#include "exactsim/stepping/located_impact.h"
#include "exactsim/stepping/position_projection.h"
#include "exactsim/stepping/projected_gauss_seidel.h"
#include "exactsim/stepping/step_report.h"
#include "exactsim/stepping/stewart_trinkle.h"
#include "exactsim/stepping/swept_crossing.h"
#include "exactsim/stepping/warm_start.h"
#include "exactsim/stepping/working_set.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

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
  // Islands up to dense_max_unknowns(World): the MLCP written out dense and the dense
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

// A pair of colliders with a candidate contact more than 0.01 ε deep (docs/penetration.md "The
// depth witness").
struct WitnessPair {
  int a = -1, b = -1;  // colliders, a < b
  Real row = 0;  // the deepest constraint's overlap: a U's −ψ, an I's −max ψ of its members
};

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
  std::vector<const ConvexPolyhedron*> shapes3;  // (n_colliders) null for a sphere
  std::vector<Real> radius3;  // (n_colliders) a sphere's radius (polyhedra[c]: place()), 0
  std::vector<std::uint8_t> is_static;         // (n_colliders) of the body
  std::vector<std::uint8_t> collider_present;  // (n_colliders) the body is present
  std::vector<BodyPair> pairs;
  BroadPhaseScratch broad_phase;
  PatchScratch patch;  // 3D detection's face patches
  ConstraintSet constraints;
  std::vector<WitnessPair> witness_pairs;  // PEG: the pairs the depth witness rows measured
  std::vector<Contact> sphere_contacts;  // PEG 3D: the spheres' contacts, set aside while it runs
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
  // Per joint of the world: λ of its rows in this step's applied solves (N·s or N·m·s; rows
  // past the joint's count, and joints whose island's solve failed, zero).
  std::vector<Vec6> joint_lambda;
  // Per joint of the world, over the user's step (advance(): its parts, split sub-steps and
  // impacts; step() called alone: its own): what its rows put on body A (api/joint_results.h),
  // and the configuration the step started from, where the reactions' anchors are reported.
  std::vector<JointImpulse> joint_impulses;
  VecX joint_impulses_q;
  State joint_start;  // scratch: the step's start configuration, where its joint rows are taken
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
  std::vector<std::vector<JointImpulse>> saved_joint_impulses;  // and its joint impulses
  Real user_step = 0;  // advance(): the user's step h while it is taken (its parts' joint time)
  // advance(): a failed solve of the (sub-)step being taken is taken again as halves
  // (docs/stepping.md "When a solve fails"), so a sparse island skips its costliest attempt
  // (docs/solvers.md "The solve policy").
  bool retakes_failed_solve = false;
  // advance(): the steps still to be taken as halves from their start after a whole step whose
  // solve failed, and how many the next such failure sets (0: StepOptions::
  // halves_after_failed_solve); docs/stepping.md "Halves after a failed solve".
  int halves_left = 0;
  int halves_span = 0;
  VecX start_q;                     // the configuration at the start of the step, after spawning
  std::vector<FrictionDirection> friction_previous;  // the last step's, sorted by contact
  CrossingScratch crossing;
  ImpactScratch impact;  // ImpactModel::kPlus: locating and resolving impacts
};

// Collider c of a 3D workspace's placed geometry (place_bodies has run).
inline PlacedCollider3 placed_collider(const Workspace& ws, int c) {
  return placed_collider(ws.shapes3[c], ws.polyhedra[c], ws.radius3[c]);
}

// The contact distance ε for step size h: ContactOptions::epsilon when set, else
// min(max(h/2, 0.8 mm), w/2) with w the thinnest shape's minimum_width(), so that ε never
// reaches across a thin body (docs/collision.md "ε parameters and defaults").
Real contact_epsilon(const World& world, Real h);

// Advances `state` by h: spawn → detect → constraints → assemble → solve + verify → velocities →
// positions → report. On a failed solve the step is reported as failed; with
// StepOptions::continue_on_solver_failure the velocities come from the regularised problem
// (report.regularisation) where it verifies; otherwise the bodies of the failed problem fly free
// this step (report.islands_flown_free).
StepReport step(const World& world, State& state, Workspace& ws, Real h, long step_index);

// Starts the joints' impulses of a user's step (Workspace::joint_impulses) at state: zero, their
// anchors reported at its configuration. advance() calls it once per user step; step() taken on
// its own (Workspace::user_step 0) at its start.
void start_joint_impulses(const World& world, const State& state, Workspace& ws);

// The same with the contact distance ε given instead of contact_epsilon(world, h): ε of
// detection and of the watchdog. advance() takes its sub-steps with the ε of the user's step, so
// that splitting never narrows the contact band (docs/penetration.md "Any step size").
StepReport step(const World& world, State& state, Workspace& ws, Real h, long step_index,
                Real contact_distance);

// Whether `body` has joined by the start of a step at `time`: a body joins at the first step whose
// start time is >= its spawn time, to round-off of h (docs/scene-format.md); step() adds it first.
bool has_spawned(const Body& body, Real time, Real h);

// Marks present the bodies that have joined by state.time (has_spawned); returns how many. step()
// does this first.
int spawn_bodies(const World& world, State& state, Real h);

// Places every present body's shape in the world (and the 2D predicted configuration).
void place_bodies(const World& world, const State& state, Real h, Workspace& ws);

// Exact total overlap of the current configuration (the paper's metric).
Real measure_overlap(const World& world, const State& state, Workspace& ws);

// The first present dynamic body whose state is not finite or faster than the divergence bounds
// (StepOptions::max_speed, max_angular_speed), −1 if none: what ends a run as kDiverged.
int first_diverged_body(const World& world, const State& state);

// The end-of-step metrics of a state, by the step's own code (docs/stepping.md, stage 7): the
// total exact overlap and the watchdog's largest exact penetration depth, for a state that did
// not come from step() (a trajectory read back, another engine's run: bench/peers/).
struct StateMetrics {
  Real overlap = 0;          // m² (2D) / m³ (3D), as StepReport::overlap
  Real max_penetration = 0;  // m, as StepReport::max_penetration
};
StateMetrics measure_state(const World& world, const State& state, Workspace& ws);

// The box a dynamic body's centre must stay in: the AABB of the static (not kinematic) bodies,
// half-spaces aside, and of the joints' world anchors, grown on every side by its largest side (at
// least 1 m) plus the joints' reach (the sum of their anchors' offsets from the bodies' centres).
// Empty (lo > hi) when the scene has neither such a body nor a joint to the world: then nothing
// bounds the scene and no body leaves it.
Aabb3 scene_bounds(const World& world, const Workspace& ws);

}  // namespace exactsim
