// The split stabilisation's position step (docs/robustness.md "Stabilisation"): after the
// velocity step has stopped every penetrating contact from approaching (rows max(ψ/h, 0)), a
// frictionless position LCP on the same Jacobians moves the bodies out of the overlap that the
// step still predicts. Its pseudo-velocity changes positions only, so the push-out can add no
// kinetic energy (split impulse).
#pragma once

#include <vector>

#include <span>
#include <utility>

#include "exactsim/metrics/penetration_depth.h"
#include "exactsim/solvers/dual_active_set.h"
#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "exactsim/stepping/world.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {

struct IslandWorkspace;
struct StepReport;

// The bodies' shapes as placed at the start of the step (the detection's placement): what the
// projection measures the overlaps it removes on.
struct StartPlacement {
  std::span<const WorldPolygon> polygons;            // 2D, by body
  std::span<const ConvexPolyhedron* const> shapes3;  // 3D, by body
  std::span<const WorldPolyhedron> polyhedra;        // 3D, by body
  std::span<const Real> radius3;                     // 3D, by body: a sphere's radius, 0
};

struct PositionProjectionScratch {
  std::vector<int> all_rows;   // z indices of the impulse-carrying normal rows (U, carrying I)
  VecX all_q;                  // their b_p (relaxed push-outs at 0)
  std::vector<char> in_set;    // (all_rows) in the working set of the position LCP
  std::vector<int> set_index;  // (rows) the index into all_rows of each set row
  // The interior point's working set: its rows' z indices, b_p and answer.
  std::vector<int> set_rows;
  VecX set_q, set_z;
  std::vector<int> rows;       // z indices of the set's rows
  std::vector<int> slot;       // z index → its row of the position LCP (−1: none)
  Lcp lcp;                     // N_p = G_Sᵀ W G_S, b_p = predicted gap rates
  SparseColMatX sparse_g;      // G_S (all rows, or the working set's)
  std::vector<Eigen::Triplet<Real>> triplets;
  VecX no_force;               // c = 0 of the QP
  DualActiveSetScratch dual;
  VecX z, w;                     // p and N_p p + b_p
  std::vector<bool> active;      // the QP's active rows, for the polish
  LcpScratch solver;             // the polish's and the Lemke fallback's buffers
  LcpSolution lemke;             // the Lemke fallback's answer
  SolveCertificate certificate;  // of p on (N_p, b_p)
  VecX impulse, nu;              // G_S p and the pseudo-velocity W G_S p
  // The QP as a body-space MLCP (M p = G_S z, w = G_Sᵀ p + b_p) for the interior point, and
  // whether s.z is its answer (interior: every z_i > 0, tiny where its row is not tight).
  SparseMlcp qp;
  SparseMlcpScratch qp_scratch;
  VecX qp_nu, qp_w;
  bool interior = false;
  // stop_approach: the pushed rows that still approach (indices into rows), their LCP
  // (N_A, G_Aᵀν⁺), G_A, and the answer δ, λ (λ empty when no correction was applied).
  // The bodies at the step's end: M, M⁻¹, ν⁺ and W G_A.
  std::vector<int> pushed, pushed_rows;  // (pushed_rows: their z indices)
  Lcp approach;
  SparseColMatX ga;
  VecX delta, lambda;
  BlockDiagonal end_mass, end_inverse_mass;
  VecX end_nu;
  // An island with joints: W_c = W − W J (JᵀWJ)⁺ JᵀW, the inverse mass with the joint rows J held
  // (dense: such islands are on the dense path), J, and the approach LCP's answer.
  MatX held_inverse_mass, joint_columns, w_joint_columns;
  Eigen::CompleteOrthogonalDecomposition<MatX> joint_block;
  LcpSolution held;
  // The exact penetration depth of the body pairs with a row behind its plane, at the start of the
  // step (pair → depth), and the depth computation's buffers.
  std::vector<std::pair<std::pair<int, int>, Real>> pair_depths;
  PenetrationScratch penetration;
};

// For the solve in ws (state: positions already advanced with ν⁺, velocities ν⁺): predicted gap
// ψ⁺ = max(ψ, −d) + h Gᵀν⁺ of every impulse-carrying normal row, d the exact penetration depth of
// its body pair at the start of the step (`start`): a row behind its plane by more than the
// bodies overlap (a vertex beside a face, edges apart whose lines have passed) is no overlap to
// push out by that much; an I row's is the largest of its contacts'; when one is below
// −slop (split_slop(world, h)) solves 0 <= p ⊥ N_p p + b_p >= 0 with b_p = max(ψ⁺/h, −cap) for
// ψ⁺ < 0 and ψ⁺/h otherwise (cap = max_stabilisation_speed), then moves the positions by
// h W G_S p. The LCP is solved as the QP it is (solve_dual_active_set). When it is infeasible,
// with a Farkas vector y (y >= 0, G_S y = 0, b_pᵀ y < 0: the rows of a wedge asking for push-outs
// that no motion gives), the push-out of every penetrating row in y's support is relaxed to
// b_i = 0, so that row may not deepen but is not pushed out, and the QP is solved again
// (docs/robustness.md "Stabilisation"). What the QP leaves unsolved, Lemke solves from the relaxed
// b_p, relaxing the support of the ray it ends on, at most four rounds. No row ends deeper than
// predicted. No point of a body moves more than twice the deepest predicted overlap: a larger
// push-out (a nearly contradictory LCP verified with a long move) is scaled down to that bound.
// Then the velocities stop approaching the rows it pushed out of (a frictionless inelastic impulse
// on them, which only removes kinetic energy; report.approach_stopped_rows), so that positions
// follow velocities. Fills report.projection_* (projection_lift: Σ m |g| |Δx| of its moves, the
// most potential energy it can add); a projection that does not verify is skipped and reported.
void project_positions(const World& world, State& state, Real h, Real slop,
                       const StartPlacement& start, IslandWorkspace& ws, StepReport& report);

}  // namespace exactsim
