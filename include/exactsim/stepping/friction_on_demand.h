// Friction on demand (docs/stepping.md "Friction on demand"): a large island's MLCP is solved with
// the friction unknowns (β, σ) of only those cones whose contact is expected to carry impulse; the
// other cones are completed afterwards and the whole MLCP is verified.
//
// Why it is exact: σ enters only its own cone's β rows, and β = 0 adds no impulse. A cone left
// out gets β = 0 and σ = max(0, −min_r (G_rᵀν)_r), so its β rows are w = G_βᵀν + σ ≥ 0 with β = 0,
// and its σ row is w_σ = μ p ≥ 0; complementarity σ·μp = 0 holds when its normal impulse p is 0.
// A cone whose p came out positive is added and the sub-problem solved again. Whatever the rounds
// end with is certified on the full MLCP (verify_mlcp), never on the sub-problem alone.
#pragma once

#include <vector>

#include "exactsim/solvers/mlcp.h"
#include "exactsim/stepping/stewart_trinkle.h"

namespace exactsim {

struct FrictionOnDemand {
  std::vector<bool> keep;    // (full cones) the cone's β, σ are unknowns of the sub-problem
  std::vector<int> columns;  // (sub unknowns) the full z index of each
  std::vector<int> sub_of;   // (full unknowns) the sub-problem's index, −1: left out; scratch
  MlcpLayout layout;         // the sub-problem's (its cones are the kept ones, in full order)
  Mlcp mlcp;
  MlcpSolution solution;         // of the sub-problem
  std::vector<bool> basis;       // a full-size basis or guess mapped to the sub-problem, scratch
  std::vector<bool> full_basis;  // the sub-problem's final basis mapped back to full size
  VecX z;                        // scratch: a full-size vector mapped to the sub-problem
  BlockDiagonal W;               // M⁻¹
  VecX nu_free;                  // W c: the free-flight velocities
  int pivots = 0;                // Lemke pivots of the rounds of the last island
};

// Initial choice of cones: those whose normal row had a positive impulse in the previous step
// (`previous_z`, full size, or nullptr), those the free flight closes, (Hᵀ W c + r)_n <= 0, and
// those touching (ψ/h <= 0.1 m/s).
void choose_friction_cones(const MlcpLayout& full, const Mlcp& mlcp, const VecX* previous_z,
                           FrictionOnDemand& f);

// The sub-MLCP with the cones f.keep only (f.layout, f.mlcp, f.columns).
void select_friction_cones(const MlcpLayout& full, const Mlcp& mlcp, FrictionOnDemand& f);

// full[columns[i]] = sub[i]; the others 0.
void scatter_to_full(const std::vector<int>& columns, const VecX& sub, Eigen::Index full_size,
                     VecX& full);
// sub[i] = full[columns[i]] (a basis, a guess or a start vector).
template <typename Full, typename Sub>
void gather_from_full(const std::vector<int>& columns, const Full& full, Sub& sub) {
  sub.resize(static_cast<Eigen::Index>(columns.size()));
  for (std::size_t i = 0; i < columns.size(); ++i) sub[i] = full[columns[i]];
}

// Adds to f.keep every cone left out whose normal impulse in the full z is positive; returns how
// many.
int add_loaded_cones(const MlcpLayout& full, const VecX& z, FrictionOnDemand& f);

// σ of every cone left out, from ν: max(0, −min_r G_rᵀν) (z holds β = 0 and σ = 0 there).
void complete_left_out_cones(const MlcpLayout& full, const Mlcp& mlcp, const FrictionOnDemand& f,
                             const VecX& nu, VecX& z);

}  // namespace exactsim
