// Sphere–half-space and sphere–sphere contacts and their Jacobian rows (3 per contact:
// two tangents, then the normal), in the world's generalized velocity space.
#pragma once

#include <vector>

#include "exactsim/events/world.h"
#include "exactsim/impact/impact_problem.h"

namespace exactsim {

// Spheres are numbered as welded_spheres(world) lists them (events/world.h); half-spaces as
// World::half_spaces.
struct SphereContact {
  int sphere_a = -1;            // −1 for a half-space contact
  int half_space = -1;          // −1 for a sphere–sphere contact
  int sphere_b = 0;             // the follower: the normal points from A (or the ground) towards B
  int body_a = -1, body_b = 0;  // A's body (the half-space's) and B's
  Vec3 point = Vec3::Zero();    // m, world, midway through the gap
  Vec3 normal = Vec3::UnitZ();  // unit, world
  Vec3 tangent1 = Vec3::UnitX(), tangent2 = Vec3::UnitY();  // (t1, t2, n) right-handed
  Real gap = 0.0;  // m, signed distance of the surfaces (< 0: penetration)
  ContactLaw law;
};

// The contact frame's tangents, a fixed rule so frames are reproducible: t1 is world x projected
// onto the tangent plane (world y when the normal is within ~26° of x), t2 = n × t1. For the
// ground normal +z this is (x, y): the paper's Fig. 1 axes.
void tangent_frame(const Vec3& normal, Vec3& t1, Vec3& t2);

// Every sphere–half-space pair and every pair of spheres on different bodies whose gap is at
// most `max_gap` (pass +infinity for all candidate pairs), in a fixed order.
std::vector<SphereContact> find_contacts(const World& world, const State& state, Real max_gap);

// Smallest gap over all candidate pairs (+infinity if there are none).
Real min_gap(const World& world, const State& state);

// (3·contacts × 6·bodies) G: relative velocity of B's point minus A's along t1, t2, n.
MatX contact_jacobian(const World& world, const State& state,
                      const std::vector<SphereContact>& contacts);

// The contacts' impact problem: A = G M⁻¹ Gᵀ, v = G u, laws from the contacts.
ImpactProblem contact_impact_problem(const World& world, const State& state,
                                     const std::vector<SphereContact>& contacts,
                                     const ImpactOptions& options);

// u ← u + M⁻¹ Gᵀ π.
void apply_contact_impulse(const World& world, State& state,
                           const std::vector<SphereContact>& contacts, const VecX& impulse);

}  // namespace exactsim
