// Internal: the detection stage of step() (docs/stepping.md stage 2).
#pragma once

#include "exactsim/stepping/step.h"

namespace exactsim {

// Fills ws.constraints.contacts for the present bodies with contact distance eps (place_bodies
// must have run). The contacts' body_a/body_b are colliders (stepping/world.h) until
// map_contacts_to_bodies.
void detect_contacts(const World& world, const State& state, Real h, Real eps, Workspace& ws);
void detect_contacts_3d(const World& world, const State& state, Real h, Real eps, Workspace& ws);

// Removes the pairs that never collide (BodyPair or std::pair<int, int>): two colliders of one
// body (the parts of a compound body) and two bodies joined by a joint (docs/joints.md).
template <class Pair>
void drop_pairs_that_never_collide(const World& world, std::vector<Pair>& pairs) {
  if (world.parts.empty() && world.joints.empty()) return;
  std::erase_if(pairs, [&](const Pair& p) {
    const auto [a, b] = p;
    const int body_a = world.collider_body(a), body_b = world.collider_body(b);
    return body_a == body_b || bodies_joined(world, body_a, body_b);
  });
}

// After the constraint generators: each contact's colliders go to part_a/part_b and their bodies
// to body_a/body_b, which the solve, the islands and the results index.
void map_contacts_to_bodies(const World& world, std::vector<Contact>& contacts);

// place_bodies without the 2D predicted configuration: what the end-of-step metrics need.
void place_current_bodies(const World& world, const State& state, Workspace& ws);

// ws.end_pairs: every pair (i < j) of present colliders of two bodies, not both static, whose boxes
// overlap, sorted; the one broad phase of the overlap metric and the penetration watchdog
// (docs/stepping.md stage 7). from_detection: this step's detect_contacts ran on the same
// present flags, and its broad phase (ws.boxes2 / ws.boxes3, ws.pairs) serves as the cover of
// overlapping_box_pairs (exact whatever the bodies did since; a body that left its detection
// box is swept on its own). Otherwise a full sweep.
void find_overlapping_pairs(const World& world, const State& state, Workspace& ws,
                            bool from_detection);

}  // namespace exactsim
