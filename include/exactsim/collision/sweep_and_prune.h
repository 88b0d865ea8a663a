// Broad phase (docs/collision.md "Broad phase"): candidate body pairs whose AABBs overlap, by
// sort-and-sweep along x. The caller inflates the boxes (contact distance ε, predicted motion:
// see swept_aabb); pairs of two static bodies and pairs with an absent body are never reported.
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <vector>

#include "exactsim/geometry/aabb.h"

namespace exactsim {

// Candidate pair, a < b (body indices = positions in the caller's box array).
struct BodyPair {
  int a = 0;
  int b = 0;
  friend auto operator<=>(const BodyPair&, const BodyPair&) = default;
};

// Reused between calls so the sweep does not allocate once warmed up.
struct BroadPhaseScratch {
  std::vector<int> order;  // present bodies sorted by (lo.x, index)
};

// Appends every pair (i, j), i < j, with overlapping closed boxes, both present, not both
// static, to `out`; the appended pairs are sorted lexicographically (deterministic).
// is_static / present: one flag per box, or empty (= none static / all present).
// InputError for mismatched sizes, or a present box with NaN/inf bounds or lo > hi.
void sweep_and_prune(std::span<const Aabb2> boxes, std::span<const std::uint8_t> is_static,
                     std::span<const std::uint8_t> present, std::vector<BodyPair>& out,
                     BroadPhaseScratch& scratch);
void sweep_and_prune(std::span<const Aabb3> boxes, std::span<const std::uint8_t> is_static,
                     std::span<const std::uint8_t> present, std::vector<BodyPair>& out,
                     BroadPhaseScratch& scratch);

// Box covering a body in its current and its predicted configuration, grown by `margin`
// (the contact distance ε): what the 2D prediction rule (docs/collision.md "Narrow phase: detection
// rules") needs, and a cover of the motion over one step when `predicted` is the box after x + h v,
// θ + h ω. InputError if margin < 0 or not finite.
Aabb2 swept_aabb(const Aabb2& current, const Aabb2& predicted, Real margin);
Aabb3 swept_aabb(const Aabb3& current, const Aabb3& predicted, Real margin);

}  // namespace exactsim
