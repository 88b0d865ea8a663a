// The working set of a large island (docs/solvers.md "Large islands: the sparse path"): its MLCP is
// solved on the contacts and friction cones expected to matter, with every other unknown at the
// value that keeps its own rows complementary, and the answer is certified on the whole MLCP.
//
// Units are the impulse-carrying rows with what belongs to them: a U row, or an I row with its
// slacks (PEG paper eq. 20); cones are a contact's β rows and σ, in the set with their unit. A
// left-out unit has p = 0 and its slacks at their closed form c_s = max(−(ψ̇_1 − ψ̇_s +
// Σ_{r<s} c_r), 0) (forward substitution through E_I1), so its slack rows hold; its own row must
// then be w >= 0 (the contact does not close). Its cones have β = 0 and σ = max(0, −min_r G_rᵀν),
// so their β rows hold, and their σ rows μ p − Σ β = 0 too. Units whose row closes join the set
// and the set is solved again: z = 0 outside the set is then part of a solution of the whole
// problem, certified by verify_sparse_mlcp on all of it.
#pragma once

#include <vector>

#include "exactsim/contact/constraint_set.h"
#include "exactsim/solvers/sparse_lemke.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "exactsim/stepping/stewart_trinkle.h"

namespace exactsim {

struct WorkingSet {
  std::vector<char> unit_in;           // (units: U and I rows) in the set, with their cones
  std::vector<int> unit_of_row;        // (m) the unit a row belongs to (a cone's: its contact's)
  std::vector<int> cone_of_row;        // (m) the cone a β or σ row belongs to, −1: none
  std::vector<int> slack_begin;        // (I rows + 1) their slacks' first z index
  std::vector<char> slacks_in;         // (I rows) the I's slacks are in the set with it
  std::vector<int> columns;            // (set unknowns) the full z index of each
  std::vector<int> sub_of;             // (m) the set's index of a full unknown, −1: left out
  SparseMlcp problem;                  // the MLCP on the set
  MlcpSolution solution;               // of the set's problem
  MlcpSolution near;                   // the last round's answer on this round's set (ν, z)
  MlcpSolution last;                   // last step's answer on this round's set (ν, z)
  std::vector<bool> guess;    // the last round's solved basis mapped to the set (block pivoting)
  std::vector<bool> basis;    // the last round's basis, full size
  std::vector<bool> from;     // that basis mapped to the set (the start of Lemke's pivoting)
  std::vector<char> solved;   // (m) rows whose part's last answer was a solved basis
  // The set's parts (docs/solvers.md "The working set's parts") and one part's problem, start and
  // answer; the set's basis and each part's verdict (solved basis or not).
  MlcpParts parts;
  SparseMlcp part;
  SparseMlcpScratch part_scratch;  // (the caller's scratch stays the whole problem's: W c)
  MlcpSolution part_solution, part_near, part_last;
  std::vector<bool> part_from, part_guess, part_active, active;
  std::vector<char> part_solved;
  VecX free_motion;           // W c: ν of the bodies no row of the set touches
  std::vector<char> joined;   // (m) scratch: rows that joined the set this round
  VecX b;                     // the full problem's free rows Hᵀ W c + r
  int rounds = 0;             // solves of the last island
  int slacks_joined = 0;      // I's of the last island whose slacks joined after the first set
};

// Solves the island's MLCP `full` (layout, constraints `set`) on a working set: first the units
// that `guess` (full size, last step's basis by contact; null: none) names or that the free
// motion closes (b_i < 0), then rounds that add what the whole problem's rows reject, and with
// them the units whose row is open by less than `margin` (a speed; docs/solvers.md "The working
// set"). `last_z` (full size, last step's impulses by contact; null: none) is the interior
// point's start after its stalled starts (SolverOptions::diagnostics.rescue_from_last_answer),
// and the first round's first start where diagnostics.first_round_from_last_answer is set. Its
// sparse Lemke runs stop after lemke_pivots_per_unknown pivots per unknown of their problem (0:
// the sparse Lemke's own budget). out holds the whole problem's (ν, z, w) and its certificate; s
// its basis (full size).
void solve_on_working_set(const SparseMlcp& full, const MlcpLayout& layout,
                          const ConstraintSet& set, const SolverOptions& options,
                          const std::vector<bool>* guess, const VecX* last_z, Real margin,
                          Real lemke_pivots_per_unknown, WorkingSet& s, SparseMlcpScratch& scratch,
                          SparseLemkeScratch& lemke, MlcpSolution& out);

}  // namespace exactsim
