// The World: bodies, shapes and model options, owned as flat arrays (docs/api.md "Layers").
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "exactsim/collision/proximity_rule.h"
#include "exactsim/contact/peg_options.h"
#include "exactsim/dynamics/body.h"
#include "exactsim/dynamics/integrate.h"
#include "exactsim/geometry/compound.h"
#include "exactsim/geometry/half_space.h"
#include "exactsim/geometry/placed_collider.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/geometry/sphere.h"
#include "exactsim/impact/impact_problem.h"
#include "exactsim/solvers/lcp.h"
#include "exactsim/stepping/joint.h"
#include "exactsim/stepping/memory_budget.h"

namespace exactsim {

enum class ContactModel {
  kStandard,    // every detected feature pair is a unilateral constraint (PEG paper eqs. 3–9)
  kPeg,         // polytopal exact geometry: U, I and X constraints (docs/peg.md)
  kCorrective,  // the archived "Corrective" baseline: one contact per overlapping pair, found
                // by the separating-axis test after penetration (docs/collision.md, docs/peg3d.md)
};

const char* to_string(ContactModel m);

enum class Stabilisation { kSplit, kVelocity };

const char* to_string(Stabilisation s);

// Impacts inside the time step (docs/impacts.md).
enum class ImpactModel {
  kNone,  // every collision is perfectly inelastic: PEG's ψ/h stops the body at the surface
  kPlus,  // located impacts resolved by PLUS (stepping/located_impact.h)
};

const char* to_string(ImpactModel m);

struct ImpactStepOptions {
  ImpactModel model = ImpactModel::kNone;
  // Poisson COR e_min, capture and plastic speeds (impact/restitution.h, PLUS paper Fig. 2). A
  // contact closing faster than the capture speed is an impact; slower ones are persistent
  // contact. Nominal: e = 0.5 at every impact speed above 0.01 m/s.
  RestitutionLaw restitution{0.5, 0.01, 0.01};
  // PLUS's own options (v_transition 0.1 m/s, θ_max 0.01 rad, induced impacts in rounds);
  // record_log is ignored (off).
  ImpactOptions plus;
  // Contacts within this distance (m) of each other take part in an impact together.
  Real proximity = 1e-6;
  // Impacts resolved per step at most; the rest of a step past it is stepped inelastically and
  // the step report says so (ImpactReport::capped).
  int max_impacts_per_step = 16;
};

struct ContactOptions {
  ContactModel model = ContactModel::kStandard;
  Real friction = 0;  // Coulomb μ of a pair without body-level values (pair rule: √(μ_A μ_B))
  int friction_directions = 4;  // k of the polyhedral cone in 3D (2D always uses 2: ±t̂)
  // Proximity distance ε in m. NaN selects the default max(h/2, 0.8 mm); in 2D a feature
  // pair is also detected when it is within ε in the configuration predicted by h ν
  // (docs/collision.md), in 3D ε is widened per pair by the relative displacement bound h(|v_rel| +
  // |ω| r) (docs/peg.md "Tricky cases" item 11).
  Real epsilon = std::numeric_limits<Real>::quiet_NaN();
  Real epsilon_edge = std::numeric_limits<Real>::quiet_NaN();  // 3D edge–edge ε_ee; NaN = ε
  bool predict_motion = true;  // use the predicted configuration / displacement bound above
  // How overlap is pushed out (docs/robustness.md "Stabilisation"):
  //  kSplit (default): the velocity LCP asks only that penetrating contacts stop approaching
  //    (rows use max(ψ/h, 0)), so no push-out enters the velocities and the energy balance has
  //    no stabilisation budget; after the positions are updated, a frictionless position LCP on
  //    the same Jacobians moves the bodies out of the predicted overlap (a pseudo-velocity that
  //    is not kept: split impulse).
  //  kVelocity: the paper's ψ/h in the velocity LCP (PEG paper ≈ eq. 7), capped by
  //    max_stabilisation_speed. Deep overlaps are pushed out at up to that speed, and the push
  //    stays in the velocities: the kinetic energy it adds grows with the body's mass.
  Stabilisation stabilisation = Stabilisation::kSplit;
  // Cap (m/s) of the push-out speed (docs/peg.md "Tricky cases" item 10): with kVelocity rows use
  // max(ψ/h, −cap); with kSplit it caps the position correction's pseudo-velocity. +∞: off.
  Real max_stabilisation_speed = std::numeric_limits<Real>::infinity();
  // 2D: kSwept (default) catches vertices that cross the ±ε band within one step; the authors'
  // kCurrentOrPredicted misses them ("Tricky cases" item 11) and is kept for paper-literal runs.
  ProximityRule proximity = ProximityRule::kSwept;
  // The standard model in 3D: a vertex–face or edge–edge pair within ε is a contact only where its
  // applicability (APPL_vf, APPL_ee: docs/peg3d.md "Tests and their definitions") is at least
  // this, PEG's ε_θ (docs/collision.md "Applicable pairs"); −1: every pair within ε.
  Real min_applicability = -0.4;
  PegOptions peg;  // used with ContactModel::kPeg
  ImpactStepOptions impact;
};

// The lower bound −cap of the rows' ψ/h term in the velocity LCP: cap = max_stabilisation_speed
// with kVelocity, 0 with kSplit (docs/robustness.md "Stabilisation").
Real velocity_stabilisation_cap(const ContactOptions& options);

struct StepOptions {
  RotationUpdate rotation = RotationUpdate::kExponential;
  bool continue_on_solver_failure = false;  // otherwise a failed solve ends the run (non-zero exit)
  bool measure_overlap = true;              // exact overlap of all pairs at the end of every step
  // Divergence bounds (docs/robustness.md): a body faster than these after a step ends the run
  // as a numerical failure (StepStatus::kDiverged), as does non-finite state.
  Real max_speed = 1e4;          // m/s, linear speed of the centre of mass
  Real max_angular_speed = 1e5;  // rad/s
  // Check every solved step's energy balance (StepReport::energy); a violation is a failed solve.
  bool check_energy = true;
  // The penetration watchdog after every step (StepReport::max_penetration and the deep pairs;
  // docs/penetration.md): exact depths of the pairs whose boxes overlap. Off, advance() steps at
  // the fixed h, as the papers' experiments did: it splits no step, for a penetration or a failed
  // solve.
  bool watch_penetration = true;
  // advance() splits a step that makes a new deep penetration into halves, up to 2^this
  // sub-steps (docs/penetration.md "Any step size"), and a step whose solve fails down to
  // eighth steps (docs/stepping.md "When a solve fails"); 0 never splits.
  int max_step_splits = 5;
  // After a whole step whose solve failed and was taken again as halves, advance() takes this many
  // steps as halves from their start, without the whole step first; each whole step that fails
  // again doubles the count (at most 64), each that certifies lowers it by one, down to this
  // (docs/stepping.md "Halves after a failed solve"). 0: every step tries the whole step first.
  int halves_after_failed_solve = 4;
  // Solve each island of the step (bodies linked by constraints) as its own MLCP (docs/stepping.md
  // "Islands"); false: one MLCP over all constrained bodies, as the papers did.
  bool islands = true;
  // Start each island's solve from the complementary basis of the previous step's solve on the
  // same contacts (docs/stepping.md "Warm start"); the result is verified like a cold solve.
  bool warm_start = true;
  // An island whose MLCP has at least this many unknowns first runs up to gauss_seidel_sweeps
  // sweeps of projected Gauss–Seidel in body space, and Lemke starts from the active set it finds
  // (docs/stepping.md "Iterate, then certify"); the answer is verified like any other. 0: never.
  int gauss_seidel_min_unknowns = 200;
  int gauss_seidel_sweeps = 300;
  // An island whose MLCP has at least this many unknowns is solved with the friction unknowns of
  // the cones expected to carry load only, in rounds that add any other cone that takes an impulse;
  // the left-out cones are completed (β = 0, σ from ν) and the whole MLCP is verified
  // (docs/stepping.md "Friction on demand"). 0: never.
  int friction_on_demand_min_unknowns = 200;
  // Islands with at most this many LCP unknowns are solved dense (the MLCP written out, Lemke on
  // the reduced LCP); larger ones sparse, in body space (docs/solvers.md "Large islands: the sparse
  // path"). 0: every island sparse; −1: by dimension, model and motion (dense_max_unknowns(World)).
  int dense_max_unknowns = -1;
  // Threads that solve the islands of a step in parallel (docs/stepping.md "Parallel islands"),
  // the calling one included; 0: one per core. The result is bit for bit the serial one's.
  int threads = 1;
  // Sleeping (docs/stepping.md "Sleeping"): an island whose bodies have all moved slower than
  // sleep_speed (m/s, at every point: |v| + |ω| r) for sleep_time (s) has its velocities zeroed
  // and is left out of the solve, frozen, until an awake body joins its island or the caller sets
  // a velocity of one of its bodies. Off by default: it changes the trajectory.
  bool sleep = false;
  Real sleep_speed = 0.01;
  Real sleep_time = 0.5;
  // The memory budget (docs/input-validation.md "Memory budget"): a step whose dense contact
  // problem (estimated before it is allocated, memory_budget.h) would need more throws
  // MemoryBudgetError. CLI --memory-budget, scene stepping.memory_budget_gib.
  std::uint64_t memory_budget_bytes = kDefaultMemoryBudgetBytes;  // 4 GiB
};

// A convex part of a compound body beyond its first (Body::shape), given in the body's frame.
struct BodyPart {
  int body = -1;
  int shape = -1;  // index into the World's polygons (2D), polyhedra or spheres (3D)
  ShapeKind kind = ShapeKind::kPolytope;
};

// The World's collision geometry is indexed by collider: collider i < body_count() is body i's
// shape, and collider body_count() + k is parts[k]. Detection and the PEG constraints run on
// colliders; a contact's bodies are mapped to the colliders' bodies before the solve, and its
// colliders kept in Contact::part_a/part_b (docs/api.md "Compound bodies").
struct World {
  int dimension = 2;
  Vec3 gravity = Vec3(0, -9.81, 0);  // m/s² (2D uses x, y)
  std::vector<Body> bodies;
  std::vector<ConvexPolygon> polygons;      // shapes of 2D bodies, by Body::shape
  std::vector<ConvexPolyhedron> polyhedra;  // shapes of 3D bodies, by Body::shape
  std::vector<Sphere> spheres;              // 3D bodies of ShapeKind::kSphere, by Body::shape
  std::vector<HalfSpace> half_spaces;       // the planes of ShapeKind::kHalfSpace bodies, in order
  std::vector<BodyPart> parts;              // compound bodies' further parts, by body
  std::vector<Joint> joints;                // bilateral constraints (docs/joints.md)
  ContactOptions contact;
  SolverOptions solver;
  StepOptions stepping;

  int body_count() const { return static_cast<int>(bodies.size()); }
  int collider_count() const { return body_count() + static_cast<int>(parts.size()); }
  int collider_body(int c) const { return c < body_count() ? c : parts[c - body_count()].body; }
  int collider_shape(int c) const {
    return c < body_count() ? bodies[c].shape : parts[c - body_count()].shape;
  }
  ShapeKind collider_kind(int c) const {
    return c < body_count() ? bodies[c].kind : parts[c - body_count()].kind;
  }
  // A sphere collider's sphere (null for a polytope), and its radius (m; 0 for a polytope).
  const Sphere* collider_sphere(int c) const {
    return collider_kind(c) == ShapeKind::kSphere ? &spheres[collider_shape(c)] : nullptr;
  }
  Real collider_radius(int c) const {
    const Sphere* s = collider_sphere(c);
    return s != nullptr ? s->radius : 0;
  }
};

// The split stabilisation's slop (m), 1e-12 ε: the position projection runs when a predicted gap
// is below −slop, so that resting contact ends every step at round-off (docs/robustness.md
// "Stabilisation"); only overlaps at the round-off of the gaps themselves are left.
Real split_slop(const World& world, Real h);

// The largest island (LCP unknowns) solved dense: stepping.dense_max_unknowns, or where that is −1,
// 1,000 in 3D and 300 in 2D, and for a `moving` island of PEG 50 in 3D and 70 in 2D, where the
// sparse path is the faster and no resting contact needs the dense path's exact basis
// (docs/solvers.md "The threshold").
int dense_max_unknowns(const World& world, bool moving = false);

// The largest distance of a vertex of body i's shape (every part of a compound body) from its
// centre of mass (body frame): a point of the body moves at most |Δx| + |Δθ| r when the body
// moves by (Δx, Δθ).
Real bounding_radius(const World& world, int i);

// Whether a joint joins bodies a and b (in either order): such pairs never collide
// (docs/joints.md "Collisions").
bool bodies_joined(const World& world, int a, int b);

// The convex parts of body i: 1 + Body::extra_parts, part 0 being Body::shape; part_shape gives
// the shape index of part k.
inline int part_count(const World& w, int i) { return 1 + w.bodies[i].extra_parts; }
inline int part_shape(const World& w, int i, int k) {
  const Body& b = w.bodies[i];
  return k == 0 ? b.shape : w.parts[b.first_part + k - 1].shape;
}
inline ShapeKind part_kind(const World& w, int i, int k) {
  const Body& b = w.bodies[i];
  return k == 0 ? b.kind : w.parts[b.first_part + k - 1].kind;
}

// Puts the next body's shapes (body index w.body_count(), pushed after this call) into the world:
// the first part becomes b.shape, the others World::parts of the body (b.first_part,
// b.extra_parts). The parts are in the body's frame, origin at its centre of mass.
void add_body_shapes(World& w, Body& b, std::vector<ConvexPolygon> parts);
void add_body_shapes(World& w, Body& b, std::vector<ConvexPolyhedron> parts);
void add_body_shapes(World& w, Body& b, std::vector<SpatialPart> parts);
// A static body that is a half-space (3D): its stand-in box becomes b.shape (half_space_box).
void add_body_shapes(World& w, Body& b, const HalfSpace& half_space);
// Body i's half-space, or null unless it is one.
const HalfSpace* body_half_space(const World& w, int i);

// 3D collider c placed at its body's pose into `out`: its polyhedron, or its sphere.
PlacedCollider3 place_collider(const World& w, int c, const Pose3& body_pose, WorldPolyhedron& out);

// A complete simulation description: what a scene file holds.
struct Scene {
  std::string name;
  World world;
  State initial;
  Real step = 0.005;    // h, s
  Real duration = 1.0;  // s; the run takes round(duration / step) steps
  // Body name → index, kept by add_body (api/body_spec.h) so that adding a body is O(1); it is
  // rebuilt when it does not cover the bodies, and validate_scene checks the names anyway.
  std::unordered_map<std::string, int> body_index;
  int step_count() const;
};

}  // namespace exactsim
