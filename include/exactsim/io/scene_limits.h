// Accepted ranges of the quantities in scene files (docs/input-validation.md, "Accepted
// ranges"). The readers (scene_json.cc, event_scene_json.cc), add_body and Simulation reject a
// value outside its range through the scene rules (scene_rules.h), with the place and the reason.
// The ranges are wide enough for any physical scene and narrow enough that no product the
// simulation forms (m v², m r², h v, …) leaves the double range or loses the shape to round-off.
#pragma once

#include "exactsim/math/types.h"

namespace exactsim::limits {

// Lengths (m): a shape's size (largest side of its bounding box; radius for spheres and
// regular shapes), and the magnitude of every coordinate (positions, vertices, centres).
inline constexpr Real kMinSize = 1e-5;
inline constexpr Real kMaxSize = 1e5;
inline constexpr Real kMaxCoordinate = 1e6;
// A shape's area (2D) or volume (3D) is at least this fraction of size² (size³): no needles or
// sheets whose mass properties vanish in round-off.
inline constexpr Real kMinFullness = 1e-9;

// Mass properties.
inline constexpr Real kMinDensity = 1e-3;  // kg/m² (2D) or kg/m³ (3D)
inline constexpr Real kMaxDensity = 1e6;
inline constexpr Real kMinMass = 1e-9;  // kg, given or from density
inline constexpr Real kMaxMass = 1e9;
// Inertia (planar value, or each principal moment in 3D) relative to m r², r = the shape's
// largest vertex distance from the body origin. Any rigid body within radius r has principal
// moments ≤ m r²; the factor 2 leaves room for rounded published values.
inline constexpr Real kMinInertiaRatio = 1e-9;
inline constexpr Real kMaxInertiaRatio = 2.0;

// Motion and loads.
inline constexpr Real kMaxAngle = 1e4;              // rad, |θ| of a 2D body (cos/sin stay exact)
inline constexpr Real kMaxSpeed = 1e5;              // m/s, |v|
inline constexpr Real kMaxAngularSpeed = 1e6;       // rad/s, |ω|
inline constexpr Real kMaxGravity = 1e4;            // m/s², |g|
inline constexpr Real kMaxFriction = 100;           // Coulomb μ
inline constexpr Real kMinContactDistance = 1e-12;  // m, ε and ε_ee
inline constexpr Real kMaxContactDistance = 1e3;
inline constexpr Real kMaxSolverTolerance = 1;  // relative tolerances lie in (0, 1]

// Time. The step h lies in [kMinStep, kMaxStep] and does not exceed a non-zero duration; the
// run takes at most kMaxSteps steps; spawn times lie in [0, kMaxTime].
inline constexpr Real kMinStep = 1e-9;  // s
inline constexpr Real kMaxStep = 10;    // s
inline constexpr Real kMaxTime = 1e9;   // s
inline constexpr Real kMaxSteps = 1e9;

// Deep interpenetration at load (docs/input-validation.md, "Overlap at load"): two bodies
// present at t = 0 whose exact intersection exceeds this fraction of the smaller one's area
// (volume) make the scene an input error.
inline constexpr Real kMaxInitialOverlapFraction = 0.5;

// The parts of a compound body meet only at their boundaries: two parts whose exact intersection
// exceeds this fraction of the smaller one's area (volume) are an input error.
inline constexpr Real kMaxPartOverlapFraction = 1e-9;

// Counts: bodies in a scene, points of one shape (polygon, hull or mesh vertices), convex parts of
// one compound body, directions of a 3D friction cone.
inline constexpr int kMaxBodies = 100000;
inline constexpr int kMaxVertices = 10000;
inline constexpr int kMaxParts = 256;
inline constexpr int kMinFrictionDirections = 3;
inline constexpr int kMaxFrictionDirections = 64;

// Names (scene and bodies): 1 to kMaxNameLength bytes, no control characters (below 0x20 or
// 0x7f), none of , " ' \ and no leading or trailing space.
inline constexpr int kMaxNameLength = 256;

// The memory budget (docs/input-validation.md, "Memory budget"), in GiB (2^30 bytes): scene
// stepping.memory_budget_gib and CLI --memory-budget lie in [kMinMemoryBudgetGib,
// kMaxMemoryBudgetGib] (about 1 MiB to 1 PiB).
inline constexpr Real kMinMemoryBudgetGib = 1e-3;
inline constexpr Real kMaxMemoryBudgetGib = 1e6;

// Threads solving a step's islands (docs/stepping.md "Parallel islands"): scene
// stepping.threads, CLI --threads and Python Scene.threads lie in [0, kMaxThreads] (0: one per
// core).
inline constexpr int kMaxThreads = 1024;

}  // namespace exactsim::limits
