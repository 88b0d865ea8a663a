// PLUS impacts inside the time step (docs/impacts.md): the first contact that closes faster than
// the capture velocity during the step is located in time, the island is advanced to that instant
// by an ordinary step, PLUS resolves the impact on the pre-impact velocities at the touching pose,
// and the rest of the step follows as ordinary stepping.
#pragma once

#include <cstdint>
#include <vector>

#include "exactsim/collision/contact.h"
#include "exactsim/dynamics/body.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/impact_result.h"
#include "exactsim/impact/plus_interval.h"
#include "exactsim/math/types.h"
#include "exactsim/stepping/joint.h"
#include "exactsim/stepping/step_report.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

struct Workspace;  // stepping/step.h

// The first impact of the interval [0, T] from `state`, along the bodies' free flight
// (docs/impacts.md "The step"). A pair of flying bodies (no contact within the proximity at the
// interval's start; a static body flies) is followed along the exact parabola, as a step moves a
// body whose island carries no impulse; any other pair along the semi-implicit motion
// ν(t) = ν + t M⁻¹F, q(t) = q + t Γ ν(t), in which the MLCP's rows ψ/t + Gᵀν ≥ 0 see it reach
// ψ = 0 without impulse. Bodies joined to others move as their joint group does in a step of
// length t without contact impulses: ν(t) = ν + M⁻¹(tF + Jᵀλ) with the joint rows
// Jν(t) + φ/τ = 0 (docs/joints.md "Located impacts").
struct LocatedImpact {
  bool found = false;
  Real time = 0;       // s after the interval's start, the gap's root (gap ≥ 0 there)
  bool exact = false;  // the pair flies: located along the exact parabola
  Contact contact;     // the located contact's record at the start of the interval
};

// How the part of a step that ends at a located impact is stepped (set by advance() while it
// is): for a flying pair (LocatedImpact::exact) the pair's mutual contacts are left out, since the
// parabola reaches ψ = 0 only at the part's end and a row linearised at its start would stop the
// pair early; otherwise every body moves semi-implicitly, as the location predicted.
struct PartToImpact {
  bool active = false;
  bool exact = false;
  int body_a = -1, body_b = -1;  // the located pair
};

// Scratch of locating and resolving impacts (no allocation in the steady state).
struct ImpactScratch {
  PartToImpact to_impact;
  std::vector<std::uint8_t> flying;    // (n_bodies) no contact within the proximity, this interval
  State moved;                         // the bodies' free-flight state at a trial time
  std::vector<WorldPolygon> polygons;  // (2) the pair placed at the trial time, 2D
  std::vector<WorldPolyhedron> polyhedra;  // (2) … 3D
  std::vector<Contact> sphere_contacts;    // (≤ 1) a sphere's contact at the moved poses
  std::vector<Contact> detected;           // the contacts at the touching pose (body indices)
  std::vector<Contact> proximal;           // the impact's contacts
  std::vector<int> body_dof;   // (n_bodies) first velocity index of the body, −1: none
  std::vector<int> component;  // union–find over bodies
  // Joint groups (docs/joints.md "Located impacts"): union–find over the present joints' dynamic
  // bodies; joint_group[b] is b's root, −1 for a body joined to no present joint.
  std::vector<int> joint_parent;
  std::vector<int> joint_group;
  Real joint_time = 0;         // s: τ of the joint rows (ConstraintSet::joint_time)
  std::vector<int> group_dof;  // (n_bodies) a moved group's velocity index of the body
  std::vector<JointRow> joint_rows;
  MatX group_jacobian;  // (joint rows × group dofs) J of a moved group
  MatX group_w_jt;      // W Jᵀ
  VecX group_velocity;  // ν of a moved group
  VecX group_rate;      // φ/τ plus the kinematic bodies' share, per joint row
  MatX group_delassus;  // J W Jᵀ
  Eigen::CompleteOrthogonalDecomposition<MatX> group_solve;  // of J W Jᵀ (minimum-norm λ)
  MatX jacobian;               // (rows × dofs) G of the impact's contacts, then its joint rows
  MatX w_gt;                   // W Gᵀ
  ImpactProblem problem;
  PlusWorkspace plus;
  ImpactResult result;
};

// The contact of `contact`'s feature pair with both colliders at their free-flight poses at time t
// (exact parabola or semi-implicit, above; joined bodies with scratch's joint groups, as
// locate_first_impact sets them): ψ(t) and the record's point and normal there. False when the
// feature pair has no record at t (an edge–edge pair that became parallel).
bool contact_at(const World& world, const State& state, const Contact& contact, Real t, bool exact,
                ImpactScratch& scratch, Contact& out);

// Leaves the located pair's mutual contacts out of ws.constraints.contacts (colliders, as
// detection gives them) while a flying pair's part to its impact is stepped (PartToImpact).
void leave_out_located_pair(const World& world, Workspace& ws);

// Locates the earliest impact in [0, T] among `contacts` (collider indices, as detection gives
// them): a contact whose gap along the free flight reaches zero (root bracketed, then refined by
// the Illinois false position to |ψ| ≤ the location tolerance) while it closes faster than
// ContactOptions::impact.capture_velocity. Contacts with a kinematic body are persistent contact
// only (docs/impacts.md "Limits").
// Joined bodies follow their joint group with the rows' φ/τ, τ = max(t, joint_time) as the step
// takes them.
LocatedImpact locate_first_impact(const World& world, const State& state,
                                  const std::vector<Contact>& contacts, Real T, Real joint_time,
                                  ImpactScratch& scratch);

// A contact's coefficient of restitution: √(e_A e_B) of the bodies' (the scene's
// contact.impact.restitution where a body has none), as pair_friction combines μ
// (docs/impacts.md "Restitution per body").
Real pair_restitution(const World& world, int a, int b);

// A body's restitution law: its e, capture and plastic speeds (Body::restitution,
// capture_speed, plastic_speed), `scene`'s (contact.impact.restitution) where it has none.
RestitutionLaw restitution_law(const Body& body, const RestitutionLaw& scene);
RestitutionLaw body_restitution_law(const World& world, int b);

// A contact's restitution law: e = pair_restitution, the larger of the bodies' capture and
// plastic speeds.
RestitutionLaw pair_restitution_law(const World& world, int a, int b);

enum class ImpactOutcome {
  kResolved,  // PLUS's impulse applied and certified
  kNone,      // no contact within the proximity any more: nothing to resolve
  kFallback,  // PLUS stopped early (a round or interval budget): velocities unchanged, the rest
              // of the step is inelastic (ImpactReport::fallbacks)
  kFailed,    // the impulse did not certify (the kinetic energy rose or friction left its cone):
              // not applied, velocities unchanged
};

// Resolves the impact at the current pose: every contact within impact.proximity of the located
// pair's bodies and of the bodies linked to them through such contacts or through joints (the
// joint groups locate_first_impact found) takes part, and the joints of those bodies as bilateral
// rows (their velocity driven to zero); PLUS (impact/plus.h) on G ν with A = G M⁻¹ Gᵀ; ν ← ν + M⁻¹
// Gᵀ π. The impact's statistics are added to `report`; kFailed sets report.failure.
ImpactOutcome resolve_impact(const World& world, State& state, Workspace& ws,
                             const LocatedImpact& located, ImpactScratch& scratch,
                             ImpactReport& report);

}  // namespace exactsim
