// The scene of bench_scaling: a pour of N random convex hulls, placed
// without overlap on a grid above the floor of a static box sized for N, left to fall.
// Deterministic: the same options give a bit-identical Scene on every platform.
#pragma once

#include <cstdint>

#include "exactsim/geometry/aabb.h"
#include "exactsim/stepping/world.h"

namespace exactsim::bench {

struct ScalingSceneOptions {
  int dimension = 3;
  int bodies = 100;  // N
  std::uint64_t seed = 1;
  // Each body is the convex hull of `points` uniform points on a sphere (3D) / circle (2D) of
  // `radius`; -1: 14 in 3D, 8 in 2D (14 points on a circle make a near-disk whose edges are
  // mostly shorter than min_edge: 8 keep the rejection rate low).
  int points = -1;
  Real radius = 0.1;     // m
  Real min_edge = 0.02;  // m: hulls with a shorter edge are redrawn (> 2ε at h = 0.01)
  Real density = 1000;   // kg/m³ (2D: a slab of `thickness`, i.e. 100 kg/m² at 0.1 m)
  Real thickness = 0.1;  // m, 2D only: the slab (and Bullet's prism) thickness
  Real spacing = 0.25;   // m between grid slots (> 2 radius: no initial overlap)
  Real jitter = 0.02;    // m, uniform offset of each centre in every axis (< spacing/2 − radius)
  Real friction = 0.3;   // μ
  Real step = 0.01;      // h, s
  Real wall = 0.2;       // m, thickness of the floor and walls
};

// The grid: `layers` layers of `side` (3D: side × side) slots, layers = ceil(N^(1/d) / 2),
// side = ceil((N / layers)^(1/(d−1))): a footprint about twice as wide as the stack is high,
// so that the whole pile is in contact within ~0.5 s. Bodies fill the slots layer by layer.
struct ScalingGrid {
  int layers = 0, side = 0;
};
ScalingGrid scaling_grid(int dimension, int bodies);

// The scene: g = 9.81 m/s² (−z in 3D, −y in 2D); a static floor whose top is at 0 and four (3D)
// / two (2D) walls of thickness `wall`, the interior side · spacing wide and layers · spacing +
// 0.5 m high; N dynamic hulls recentred on their centroid, random orientation (uniform
// quaternion / angle), at rest, all present from step 0 (spawn time 0); PEG, μ = friction,
// every other option the library's default. Variates are (rng() >> 11) · 2⁻⁵³ from
// std::mt19937_64(seed), as in the library's random generators.
Scene scaling_scene(const ScalingSceneOptions& options);

// Half the side lengths of static body i's box (its shape's vertex bounds; 2D: z = 0).
Vec3 static_half_extents(const Scene& scene, int i);
// The box around the container's static bodies (2D: z = 0), from the initial state.
Aabb3 container_bounds(const Scene& scene);

}  // namespace exactsim::bench
