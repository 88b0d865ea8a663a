// The structures a user builds first (docs/robustness.md "Structures"): every contact in them is
// static or nearly so, so they are the easiest LCPs there are, and each must run to its end under
// both models. Floor 4 × 4 × 0.2 m (top at z = 0), gravity 9.81 m/s² along −z.
#pragma once

#include <string>

#include "exactsim/stepping/world.h"

namespace exactsim {

struct StructureOptions {
  Real step = 0.005;  // s
  Real duration = 2;  // s
  ContactModel model = ContactModel::kPeg;
};

// A semicircular arch of 9 voussoirs (inner radius 0.5 m, outer 0.65 m, 0.3 m deep, stone 2400
// kg/m³) standing on the floor, μ = 0.7: it must stand.
Scene arch3d(const StructureOptions& o);
// A 5-layer tower of 3 blocks per layer, crossed layer to layer (blocks 0.3 × 0.1 × 0.06 m,
// 600 kg/m³), μ = 0.5: it must stand.
Scene jenga3d(const StructureOptions& o);
// A pyramid of 0.2 m cubes, 4 × 4 + 3 × 3 + 2 × 2 + 1 = 30, each layer on the corners of four
// below (600 kg/m³), μ = 0.5: it must stand.
Scene cube_pyramid3d(const StructureOptions& o);
// 12 dominoes (0.05 × 0.25 × 0.5 m, 600 kg/m³) 0.3 m apart, x = −1.8 … 1.5 m on the floor, the
// first tipped at 2 rad/s, μ = 0.5: the chain falls, each domino onto the next.
Scene dominoes3d(const StructureOptions& o);
// 8 boxes of 0.2 m (2 × 2 × 2) at rest in a bin whose inside is 0.41 m wide (600 kg/m³), μ = 0.5;
// meant for h = 0.05: they must stay at rest.
Scene tight_bin3d(const StructureOptions& o);

// The builder of the structure named arch3d, jenga3d, cube-pyramid3d, dominoes3d or tight-bin3d
// (the stress campaign's families and `exactsim run --scenario`'s names); null for another name.
using StructureBuilder = Scene (*)(const StructureOptions&);
StructureBuilder structure_builder(const std::string& name);

}  // namespace exactsim
