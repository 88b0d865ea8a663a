// Scenes of the stress campaign (`exactsim stress`, docs/robustness.md "Stress campaign"):
// frictional pours of awkward random hulls, frictional box stacks, and boxes on inclines. Every
// builder is deterministic: the same options (and seed) give a bit-identical Scene.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "exactsim/stepping/world.h"

namespace exactsim {

// ---- Awkward random hulls --------------------------------------------------------------------

// The shape families of the hull pours. Every hull is built from 8–12 points drawn on the
// boundary of an axis-aligned box (3D: on its faces; 2D: on a rectangle's edges), each side
// getting at least one point, every point pushed off its side by a uniform jitter of at most
// 1e-4 m along the side's normal: the hull is a triangulated (3D) / many-vertex (2D) shape whose
// faces (edges) on one side of the box are nearly coplanar (collinear), dihedral angles within
// ~1e-3 rad of flat.
enum class HullKind {
  kBlocky,     // box sides 2D 0.2 × 0.2, 3D 0.6 × 0.6 × 0.6
  kSliver,     // one side 20× smaller than the others: 2D 0.3 × 0.015, 3D 0.8 × 0.8 × 0.04
  kElongated,  // 5:1: 2D 0.3 × 0.06, 3D 1.0 × 0.2 × 0.2
};
const char* to_string(HullKind kind);

// Box side lengths of a kind (2D: x, y; z unused).
Vec3 hull_kind_extent(HullKind kind, int dimension);

inline constexpr Real kHullJitter = 1e-4;  // m, off the box side (both signs)

// One hull, from `points` (8–12) boundary points drawn from rng; redrawn until every edge is at
// least min_edge (2D 0.01 m, 3D 0.02 m). Body frame: the box is centred at the origin (callers
// recentre on the centroid).
ConvexPolygon stress_hull_polygon(std::mt19937_64& rng, HullKind kind);
ConvexPolyhedron stress_hull_polyhedron(std::mt19937_64& rng, HullKind kind);

struct HullPourOptions {
  Real step = 0.005;
  Real duration = 5.0;
  int bodies = -1;  // −1: the container's default (2D 20, 3D 10)
  ContactModel model = ContactModel::kPeg;
  Real friction = 0.3;
  // Masses are log-uniform in [min_mass, mass_ratio · min_mass]; body 1 gets min_mass, body 2
  // mass_ratio · min_mass exactly (so the ratio is reached), density = mass / volume.
  Real mass_ratio = 100;
  Real min_mass = -1;  // −1: 2D 0.05 kg, 3D 1 kg
};

// The pour2d container and spawn protocol (scenarios.h Pour2dOptions: spawn every 0.25 s at
// (∓0.5, 0.8), ±0.7 m/s), μ = friction, polygons of the three kinds in turn (kind = k mod 3,
// 8–12 points), random orientation, random density as above. mt19937_64(seed).
Scene hull_pour2d(std::uint64_t seed, const HullPourOptions& options);
// The pour3d container and spawn protocol (scenarios.h Pour3dOptions: spawn every 0.5 s at
// (3, 0, 2), v = (−5, 0, 0), ε = 0.1), μ = friction, hulls of the three kinds in turn, random
// orientation (uniform quaternion), random density as above.
Scene hull_pour3d(std::uint64_t seed, const HullPourOptions& options);

// hull_pour3d's container and spawn protocol with spheres among the hulls (docs/robustness.md
// "The runs"): body k is a ball of radius 0.03–0.12 m (k % 3 == 0), a clump of two or three
// touching balls in a row (k % 3 == 1) or a random hull (k % 3 == 2), masses as hull_pour3d's
// (ratio 100), each spinning at up to 10 rad/s about a random axis as it enters.
Scene ball_pour3d(std::uint64_t seed, const HullPourOptions& options);

// ---- Box stacks on a static floor (3D) -------------------------------------------------------

struct StackOptions {
  Real step = 0.005;
  Real duration = 3.0;
  ContactModel model = ContactModel::kPeg;
  std::uint64_t seed = 1;  // tower and pyramid: the small offsets and twists
};

// The 4-box offset stack of Determinism.BoxStack3d / Peg3dCases.FrictionlessBoxStackComesToRest:
// floor 10 × 10 × 1 (top z = 0), boxes 0.5 × 0.4 × 0.3, density 400, box i (0-based) at
// (0.03 i, −0.02 i, 0.16 + 0.32 i), orientation (1, 0, 0, 0.05 i) normalised, ω = (0, 0.1 i, 0);
// μ = 0.4 with 6 friction directions. (No seed: the geometry is the tests'.)
Scene box_stack3d(const StackOptions& options);
// Ten boxes 0.4 × 0.4 × 0.2 (density 400) in a column: box i's bottom at 0.002 + 0.202 i (2 mm
// gaps), centre offset uniformly by up to ±1 cm in x and y and twisted by up to ±0.03 rad about
// z; μ = 0.5 (4 friction directions).
Scene box_tower3d(const StackOptions& options);
// Fifteen boxes 0.4 × 0.4 × 0.2 (density 400) in a 5-4-3-2-1 pyramid in the x–z plane: layer L
// (0-based) holds 5 − L boxes at x = 0.45 (j − (4 − L)/2), bottom at 0.002 + 0.202 L; each box
// offset by up to ±5 mm in x and y and twisted by up to ±0.02 rad about z; μ = 0.5.
Scene box_pyramid3d(const StackOptions& options);

// ---- A box on an incline ---------------------------------------------------------------------

struct InclineOptions {
  int dimension = 2;
  Real angle_deg = 20;  // θ
  // μ = tan θ + friction_offset: below tan θ (< 0) the box slides, above (> 0) it sticks.
  Real friction_offset = -0.05;
  Real step = 0.005;
  Real duration = 1.0;
  ContactModel model = ContactModel::kPeg;
};

// A static slab (2D 10 × 1, 3D 10 × 4 × 1) tilted by θ (2D: about z; 3D: about y), its top
// surface through the origin, and a box (2D 0.4 × 0.2, 3D 0.4 × 0.4 × 0.2, density 500) resting
// on it at the origin, tilted with it, 10 µm above the surface, at rest. g = 9.81.
Scene incline_scene(const InclineOptions& options);
// Unit vector pointing down the slope (world frame; 2D: z = 0).
Vec3 incline_downhill(const InclineOptions& options);
// μ of the scene: tan θ + friction_offset.
Real incline_friction(const InclineOptions& options);
// The closed form: the box's acceleration along incline_downhill, g (sin θ − μ cos θ) when that
// is positive (slides), else 0 (sticks).
Real incline_acceleration(const InclineOptions& options);

}  // namespace exactsim
