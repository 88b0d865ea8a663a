// Which pairs of bodies overlap in a replay frame, and by how much: the per-pair terms of the
// papers' overlap metric (exactsim/metrics/overlap.h), so the viewer can colour the pairs.
#pragma once

#include <vector>

#include "exactsim/viewer/results.h"

namespace exactsim {

struct PairOverlap {
  int a = 0, b = 0;  // body indices, a < b
  Real overlap = 0;  // exact intersection area (m², 2D) or volume (m³, 3D), > 0
};

// Every present pair, not both static, whose shapes' interiors intersect in frame f.
std::vector<PairOverlap> pair_overlaps(const World& world, const ReplayFrame& f);

// Area (2D) or volume (3D) of body i's shape: the scale the page compares an overlap with.
Real body_size(const World& world, int i);

// Part k of 3D body i as drawn: its polyhedron, for a sphere a polyhedron of 16 × 8 facets
// inscribed in it, for a half-space the box of it within 5 m of its plane's point nearest the
// body origin (drawing only; kept per shape).
const ConvexPolyhedron& drawn_polyhedron(const World& world, int i, int k);

}  // namespace exactsim
