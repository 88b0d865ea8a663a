// Planar chains of links joined by pin (revolute) joints with axes along world y, moving in the
// x–z plane (docs/joints.md), in reduced (joint) coordinates, with compliant sphere–ground
// contacts; and the PLUS impact problem of a chain either in joint coordinates or in maximal
// coordinates with the pins as bilateral rows of the Delassus operator
// (docs/joints.md "Impacts on a chain: PLUS with bilateral rows").
//
// Angle convention (docs/compliant.md "The examples", Ex. 4, Simbody style): θ_k is pin k's
// coordinate — link 0 from hanging straight down, link k relative to link k−1, positive swinging a
// hanging link toward +x. Absolute angle φ_j = Σ_{k≤j} θ_k; link j points along s(φ_j) = (sin φ_j,
// −cos φ_j) in (x, z).
#pragma once

#include <vector>

#include "exactsim/compliant/material.h"
#include "exactsim/compliant/ode_system.h"
#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/impact_result.h"
#include "exactsim/math/types.h"

namespace exactsim {

// Mass welded to a link: a point `along` m from the link's pin along the link (and `across` m
// perpendicular, toward +φ), with mass [kg] and inertia about its COM and the y axis [kg m²].
struct ChainBody {
  int link = 0;
  Real along = 0.0, across = 0.0;  // m
  Real mass = 1.0;                 // kg, > 0
  Real inertia = 0.0;              // kg m², ≥ 0
};

// A contact sphere welded to a link at `along` m from its pin; it touches only the ground z = 0.
struct ChainSphere {
  int link = 0;
  Real along = 0.0;            // m
  Real radius = 0.25;          // m, > 0
  CompliantMaterial material;  // compliant side
  ContactLaw plus_law;         // PLUS side (μ, restitution)
};

struct PinChain {
  Vec2 base = Vec2::Zero();   // (x, z) of pin 0 [m]
  std::vector<Real> lengths;  // pin k → pin k+1 along link k [m]; one per link
  std::vector<ChainBody> bodies;
  std::vector<ChainSphere> spheres;
  CompliantMaterial ground;      // the half-space z ≤ 0
  Real gravity = -9.81;          // g_z [m/s²]
  Real transition_speed = 0.01;  // Stribeck v_tr [m/s]
};

// Throws InputError naming the field (`bodies[1].link: …`).
void check_pin_chain(const PinChain& chain);

// (x, z) of pins 0 … n (pin n = the free end of the last link) [m].
std::vector<Vec2> pin_positions(const PinChain& chain, const VecX& theta);
// (x, z) of a point `along`/`across` on link j [m].
Vec2 chain_point(const PinChain& chain, const VecX& theta, int link, Real along, Real across);
// (2 × n) Jacobian of a world point p welded to `link`: column k ≤ link is perp(p − pin_k).
Eigen::Matrix<Real, 2, Eigen::Dynamic> chain_point_jacobian(const PinChain& chain,
                                                            const VecX& theta, int link,
                                                            const Vec2& p);
MatX chain_mass_matrix(const PinChain& chain, const VecX& theta);
Real chain_kinetic_energy(const PinChain& chain, const VecX& theta, const VecX& rate);
Real chain_potential_energy(const PinChain& chain, const VecX& theta);  // gravity only [J]
Real chain_max_penetration(const PinChain& chain, const VecX& theta);   // m (< 0: gap)

// y = (θ, θ̇, D_HC, D_friction, W) as in rigid_compliant.h; contact off with with_contact = false.
OdeSystem pin_chain_system(const PinChain& chain, bool with_contact = true);

enum class ChainImpactForm {
  kJointCoordinates,  // A = G M(θ)⁻¹ Gᵀ over the joint rates
  kBilateralRows,     // maximal coordinates (v_x, v_z, φ̇ per link), 2 pin rows per joint
};

struct ChainImpactOutcome {
  ImpactResult result;                 // PLUS result (contact rows: x, y, z; bilateral after)
  VecX rates_after;                    // θ̇⁺ [rad/s]
  Real joint_velocity_residual = 0.0;  // max |pin relative velocity| after (bilateral form) [m/s]
};

// PLUS on every sphere within `touch` m of the ground, with the spheres' plus_law.
ChainImpactOutcome resolve_chain_impact(const PinChain& chain, const VecX& theta, const VecX& rate,
                                        const ImpactOptions& options, ChainImpactForm form,
                                        Real touch = 1e-9);

}  // namespace exactsim
