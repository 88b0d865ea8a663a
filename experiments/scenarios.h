// Scenario builders for the papers' pouring experiments
// (docs/peg2d-experiment.md, docs/peg3d-experiment.md, "Protocol").
#pragma once

#include <cstdint>
#include <string>

#include "exactsim/stepping/world.h"

namespace exactsim {

// The 2D container of the PEG paper's pour: floor x ∈ [−1, 1], y ∈ [−0.4, 0]; walls x ∈ [∓1.2,
// ∓0.8], y ∈ [−0.4, 1.6] (three static rectangles overlapping at the corners), gravity 9.8 m/s²,
// frictionless, ψ/h stabilisation; polygons spawned one every round(0.25/h) steps from step 1,
// odd ones at (−0.5, 0.8) moving right at 0.7 m/s, even ones at (0.5, 0.8) moving left.
struct Pour2dOptions {
  Real step = 0.005;    // h, s
  Real duration = 5.0;  // s
  int bodies = 20;      // how many polygons of the set are dropped (the paper: 20 of 25)
  ContactModel model = ContactModel::kStandard;
};

// Spawning rule of the pours (docs/peg2d-experiment.md "Protocol"): body k (0-based) joins at
// step k · round(period / h), i.e. at time spawn_time(k, h, period).
Real spawn_time(int k, Real h, Real period);

// Appends a body with its initial pose and velocity to a scene (absent until it spawns; 2D uses
// position x, y and the angle of `orientation` about z). Returns its index.
int append_body(Scene& scene, Body body, const Vec3& position, const Quat& orientation,
                const VecX& velocity);

// Set 'a'…'j' of the authors' archived body sets (data/peg2d_pouring_body_sets.json).
Scene pour2d_archived(const std::string& body_sets_file, char set, const Pour2dOptions& options);
// The same scene with polygons drawn by the paper's recipe (docs/geometry2d.md "Random convex
// polygons") from std::mt19937_64(seed).
Scene pour2d_random(std::uint64_t seed, const Pour2dOptions& options);

// The 3D container of the PEG paper's pour (five static boxes, wall thickness 0.25, interior
// x ∈ [−4.875, 4.875], y ∈ [−1.875, 1.875], floor top z = 0), gravity 9.81 m/s², frictionless;
// one body spawned every round(0.5/h) steps at (3, 0, 2) with v = (−5, 0, 0).
struct Pour3dOptions {
  Real step = 0.005;
  Real duration = 5.0;
  int bodies = 10;
  ContactModel model = ContactModel::kStandard;
};

// The archived protocol: regular icosahedra of circumradius 0.5, m = 0.5 kg, J = 0.1309 I₃,
// all in the orientation 0.2 rad about (1, 2, 3)/√14.
Scene pour3d_icosahedra(const Pour3dOptions& options);
// Random convex hulls of 15 uniform points in a unit cube scaled to diameter 1 (the spec's
// proposal for ten initial conditions), density 1000 kg/m³, from std::mt19937_64(seed).
Scene pour3d_random(std::uint64_t seed, const Pour3dOptions& options);

}  // namespace exactsim
