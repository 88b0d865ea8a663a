// Sleeping (docs/stepping.md "Sleeping", StepOptions::sleep): islands at rest leave the solve.
// An island whose bodies have all moved slower than sleep_speed for sleep_time falls asleep: its
// velocities are zeroed, and while every body of its island sleeps it is not solved and does not
// move. It wakes, whole, when an awake body joins its island (a contact, or a PEG group, with a
// body that moves) or when the caller sets a velocity of one of its bodies.
#pragma once

#include <span>
#include <vector>

#include "exactsim/contact/constraint_set.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// Start of a step with sleeping on: sizes the state's sleep vectors (bodies awake), and wakes
// every sleeping body whose velocity is not zero (the caller set it).
void wake_moved_bodies(const World& world, State& state);

// Whether every dynamic body of `island` (the bodies of its contacts) sleeps. When some sleep and
// some are awake, the sleepers are woken and the island is solved: returns false.
bool island_sleeps(const World& world, const ConstraintSet& island, State& state);

// End of a step with sleeping on: the rest time of every awake body goes up by h while it moves
// slower than sleep_speed (else back to 0); the bodies of each island (body_island[b], −1: in
// none, on its own) whose every body has rested sleep_time fall asleep with zero velocity.
// `island_rest` is scratch. Returns the number of bodies asleep after the step.
int settle_sleepers(const World& world, State& state, Real h, std::span<const int> body_island,
                    int island_count, std::vector<Real>& island_rest);

}  // namespace exactsim
