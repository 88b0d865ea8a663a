// A world's hinge chain as the compliant reference's pin chain (docs/joints.md "Compliant pin
// chains"): the chain is described once, by the world's bodies and joints (the scene a time
// stepper runs), and the compliant reference takes its joint coordinates from it.
#pragma once

#include <vector>

#include "exactsim/compliant/pin_chain.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// The compliant side of a converted chain: the materials the world does not hold.
struct ChainMaterials {
  CompliantMaterial spheres;     // every sphere of the chain
  CompliantMaterial ground;      // the half-space
  Real transition_speed = 0.01;  // Stribeck v_tr [m/s]
};

struct ChainFromWorld {
  PinChain chain;
  VecX theta, rate;              // the joint coordinates and rates of `state` [rad, rad/s]
  std::vector<int> link_bodies;  // the world body of link k (its hinge's moving side)
  // The chain's plane in the world: a chain point (x, z) is origin + x e_x + z e_z; e_y is minus
  // the hinge axis, so that θ̇ is the spin about the axis.
  Vec3 origin = Vec3::Zero(), e_x = Vec3::UnitX(), e_y = Vec3::UnitY(), e_z = Vec3::UnitZ();
};

// The serial chain of a 3D world's revolute joints: one joint to the world (pin 0), each next one
// joining the last link to a new body, every hinge axis parallel and perpendicular to gravity.
// Bodies welded to a link by fixed joints are masses of that link (ChainBody: the COM's distance
// along and across the link, mass, inertia about the axis), and their spheres (alone or compound
// parts, centred on the link's line) its contact spheres, with the world's μ and restitution
// against the ground and `materials.spheres`. The ground is the world's one half-space, whose
// outward normal is against gravity. A link's direction is from its pin to the next pin; the last
// link's from its pin to its centre of mass, its length the farthest of its masses and spheres.
// Only spheres touch the ground in the compliant chain: the links' other shapes do not. InputError
// naming the body or joint for a world that is not such a chain.
ChainFromWorld pin_chain_from_world(const World& world, const State& state,
                                    const ChainMaterials& materials);

}  // namespace exactsim
