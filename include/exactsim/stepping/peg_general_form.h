// The general PEG intercontact form (PEG paper eqs. 20–23, |Cι| = 2) in 2D, solved by
// primary switching over the |Cι| = 1 MLCP (docs/peg.md "General form").
//
// In velocity units (ψ̇_i = ψ_i/h + G_iᵀν⁺ of the assembly) Eqs. 20 and 22 fix
// c_s = max(ψ̇_s − max(ψ̇_1..ψ̇_{s−1}), 0) and d_i = max(−ψ̇_i, 0), so that ψ̇_1 + Σ c = max_s ψ̇_s;
// what remains is
//   (21) max_s ψ̇_s >= 0,
//   (23) λ_i >= 0,  max_s ψ̇_s + d_i >= 0,  λ_i (max_s ψ̇_s + d_i) = 0   (i ∈ Cι),
// i.e. a force only on a Cι contact at zero gap that realises the max. A solution of the
// |Cι| = 1 problem with primary j is a solution of the general form iff, in every group,
// λ_j > 0 implies ψ̇_j = max ψ̇ (its slack c is zero).
#pragma once

#include "exactsim/stepping/step.h"

namespace exactsim {

// Eqs. 20–23 checked directly on the solved velocities (contact Jacobians recomputed from the
// contacts, not read from the MLCP) and the impulses of the I rows.
struct GeneralFormCertificate {
  int groups = 0;             // I and X constraints checked
  int general_groups = 0;     // of them, impulse-carrying with |Cι| = 2 (Eq. 23 with d_i)
  Real min_max_gap_rate = 0;  // min over groups of max_s ψ̇_s (Eq. 21: >= −tolerance), m/s
  Real min_impulse = 0;       // min λ (>= −tolerance)
  Real complementarity = 0;   // worst λ_i (max_s ψ̇_s + d_i) (Eq. 23; Eq. 24 when |Cι| = 1)
  Real tolerance = 0;         // m/s; products held to tolerance · max(1, Z), Z the impulse scale
  Real complementarity_bound = 0;  // tolerance · max(1, Z) (docs/solvers.md)
  bool ok() const {
    return min_max_gap_rate >= -tolerance && min_impulse >= -tolerance &&
           complementarity <= complementarity_bound;
  }
};

// Certifies the last solve in `ws` (ws.island, ws.layout, ws.solution; `state` as at the
// start of the step) against Eqs. 20–23 with the given tolerance (m/s).
GeneralFormCertificate certify_general_form(const World& world, const State& state,
                                            const IslandWorkspace& ws, Real h, Real tolerance);

// Groups of the last solve whose loaded primary is not at the max (λ_j c_j above the
// certificate's complementarity bound): the |Cι| = 1 answer is not a general-form answer there.
int inconsistent_primaries(const IslandWorkspace& ws);

// Called by step() after the first solve when PegOptions::general_form is set (2D PEG). Every
// |Cι| = 2 group whose loaded primary is not at the max gets its primary and secondary exchanged
// (the force moves to the contact realising the max), the step is re-assembled and re-solved,
// and so on until no group is inconsistent: the fixed point reached from the primary heuristic
// primaries is the selection rule. Fails (report.general_form_failed, status kSolverFailed) when
// an exchanged group is inconsistent again (moving back would cycle), after
// max_primary_switch_rounds re-solves, or when the answer fails certify_general_form. When the
// heuristic primaries are consistent nothing is re-solved: the step is bit-identical to the
// |Cι| = 1 form. report.primary_switches counts exchanges; report.solver is the last solve's.
void select_general_form_primaries(const World& world, const State& state, Real h,
                                   IslandWorkspace& ws, StepReport& report);

inline constexpr int max_primary_switch_rounds = 16;

}  // namespace exactsim
