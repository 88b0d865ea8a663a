// Assembly of the Stewart–Trinkle time-stepping MLCP from a constraint set (docs/solvers.md
// "Problem forms": the standard model, friction, PEG blocks), in the solver's form
//   M ν = G z + c,   w = Hᵀ ν + D z + r,   0 <= z ⊥ w >= 0.
#pragma once

#include <vector>

#include "exactsim/contact/constraint_set.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "exactsim/stepping/friction_directions.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// Where each unknown of z lives: z = (p_U | p_I | c_I | β | σ | λ_J), the joints' free
// multipliers λ_J last (SparseMlcp::bilateral, docs/joints.md).
struct MlcpLayout {
  std::vector<int> active_bodies;  // dynamic bodies in at least one constraint, ascending
  std::vector<int> block_of_body;  // (n_bodies) block index of a body in ν, −1 if not active
  int n_unilateral = 0, n_intercontact = 0, n_slack = 0;
  int n_friction_contacts = 0, friction_directions = 0;
  int n_bilateral = 0;                // joint rows, in the order of ConstraintSet::joints
  std::vector<int> friction_contact;  // (n_friction_contacts) contact index of each cone
  std::vector<int> friction_impulse;  // (n_friction_contacts) z index of the cone's normal impulse
  std::vector<Real> friction_mu;      // (n_friction_contacts)
  // (n_friction_contacts) each cone's contact_tangent() (3D) and first direction d_1
  // (friction_directions.h; zero in 2D).
  std::vector<Vec3> friction_tangent, friction_first;
  std::vector<std::pair<std::uint64_t, int>> patches;  // scratch: the cones by friction patch
  std::vector<Vec3> directions;  // scratch: one cone's directions while it is written
  std::vector<JointRow> joint_rows;  // scratch: the joints' rows while they are written
  struct Entry {
    int row, col, order;  // order: later entries at the same place replace earlier ones
    Real value;
  };
  std::vector<Entry> d_entries;  // scratch: D's entries while they are written
  // (size()) Each row's share of r from the kinematic bodies' prescribed velocities, Hᵀ-column
  // times ν_kin (docs/stepping.md "Kinematic bodies"); zero without kinematic bodies.
  VecX kinematic_rate;
  int p_begin() const { return 0; }
  int pi_begin() const { return n_unilateral; }
  int slack_begin() const { return pi_begin() + n_intercontact; }
  int beta_begin() const { return slack_begin() + n_slack; }
  int sigma_begin() const { return beta_begin() + n_friction_contacts * friction_directions; }
  int bilateral_begin() const { return sigma_begin() + n_friction_contacts; }
  int size() const { return bilateral_begin() + n_bilateral; }
};

// Pair friction: √(μ_A μ_B) of the bodies' coefficients (the scene default where a body has none).
Real pair_friction(const World& world, int a, int b);

// Builds the MLCP of one step of size h in body space (G and H as their columns' body blocks,
// solvers/sparse_mlcp.h). `layout` and `mlcp` are overwritten (storage reused).
// `previous_friction` (sorted by contact): the friction directions of the last step, which turn
// the cones of contacts without tangential motion or load (first_friction_direction).
void assemble_stewart_trinkle(const World& world, const State& state, const ConstraintSet& set,
                              Real h, MlcpLayout& layout, SparseMlcp& mlcp,
                              std::span<const FrictionDirection> previous_friction = {});
// The same, written out dense (tests, small problems).
void assemble_stewart_trinkle(const World& world, const State& state, const ConstraintSet& set,
                              Real h, MlcpLayout& layout, Mlcp& mlcp,
                              std::span<const FrictionDirection> previous_friction = {});

}  // namespace exactsim
