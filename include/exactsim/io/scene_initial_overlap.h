// Deep interpenetration at load (docs/input-validation.md, "Overlap at load"): a scene whose
// bodies start deeply inside each other has no meaningful first step (200 coincident boxes
// made one step take 30 s), so the reader rejects it, naming the pairs.
#pragma once

#include <vector>

#include "exactsim/stepping/world.h"

namespace exactsim {

struct InitialOverlap {
  int a = 0, b = 0;   // body indices, a < b
  Real fraction = 0;  // exact intersection / the smaller body's area (2D) or volume (3D)
};

struct InitialOverlapCheck {
  std::vector<InitialOverlap> deep;  // the first pairs found (at most max_pairs)
  // More pairs of bodies had overlapping bounding boxes than the work budget
  // (max_pairs_per_body per body present) allows: the scene is absurdly dense.
  bool too_dense = false;
  long box_pairs = 0;  // pairs whose bounding boxes overlap that were examined
};

// Pairs of bodies present at t = 0 (spawn_time 0), not both static, whose exact intersection
// exceeds min_fraction of the smaller one's area or volume. Sort-and-sweep over the boxes
// (metrics/overlap.h), stopping after max_pairs deep pairs or when the box pairs exceed
// max_pairs_per_body times the body count plus 10,000: bounded work for any scene.
InitialOverlapCheck find_initial_overlaps(const World& world, const State& initial,
                                          Real min_fraction, int max_pairs,
                                          int max_pairs_per_body = 64);

}  // namespace exactsim
