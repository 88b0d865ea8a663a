// The stepper's cross-step memory (snapshot.h, docs/stepping.md "Resuming a run"): the State
// and a StepperMemory captured after N steps, restored into a fresh or a used Workspace, continue
// bit for bit as the run that never stopped.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "exactsim/stepping/adaptive_step.h"
#include "exactsim/stepping/snapshot.h"
#include "stepping/planar_sim.h"

namespace exactsim::snapshot_test {
namespace {

using planar_test::Sim;

std::uint64_t hash_state(const State& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const VecX* x : {&s.q, &s.v}) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(x->data());
    for (std::size_t i = 0; i < static_cast<std::size_t>(x->size()) * sizeof(Real); ++i) {
      h ^= bytes[i];
      h *= 0x100000001b3ULL;
    }
  }
  return h;
}

std::vector<Vec2> turned_box(Vec2 centre, Real w, Real h, Real angle) {
  const Eigen::Rotation2Dd r(angle);
  std::vector<Vec2> v;
  for (const Vec2& c : {Vec2(-w, -h), Vec2(w, -h), Vec2(w, h), Vec2(-w, h)})
    v.push_back(centre + r * (0.5 * c));
  return v;
}

// Six boxes dropped tilted into a frictional bin (PEG, μ = 0.5): from the first contacts on every
// step solves LCPs that the warm start guesses from the step before.
Sim pile() {
  Sim s;
  s.world.contact.model = ContactModel::kPeg;
  s.world.contact.friction = 0.5;
  s.add(planar_test::box(-1.2, -0.2, 1.2, 0), true);
  s.add(planar_test::box(-1.2, 0, -1, 1.5), true);
  s.add(planar_test::box(1, 0, 1.2, 1.5), true);
  for (int i = 0; i < 6; ++i)
    s.add(turned_box(Vec2(-0.6 + 0.25 * i, 0.2 + 0.15 * i), 0.2, 0.12, 0.3 * i + 0.2), false);
  return s;
}

struct Continuation {
  std::vector<std::uint64_t> hashes;  // of (q, ν) after each step
  long pivots = 0;                    // Lemke's, over the steps
};

Continuation go_on(const World& world, State& state, Workspace& ws, long first, int steps) {
  Continuation c;
  for (long k = first; k < first + steps; ++k) {
    const StepReport r = advance(world, state, ws, 0.005, k);
    c.hashes.push_back(hash_state(state));
    c.pivots += r.solver.pivots;
  }
  return c;
}

TEST(StepperMemory, RestoredMemoryContinuesBitForBit) {
  constexpr int kBefore = 80, kAfter = 60;
  Sim sim = pile();
  go_on(sim.world, sim.state, sim.ws, 0, kBefore);
  const State saved = sim.state;
  const StepperMemory memory = capture(sim.ws);
  ASSERT_FALSE(memory.warm_start.empty()) << "no warm start to carry: the test means nothing";
  const Continuation straight = go_on(sim.world, sim.state, sim.ws, kBefore, kAfter);
  ASSERT_GT(straight.pivots, 0);

  // Into a fresh workspace, and into the one that went on (its memory is of a later step).
  Workspace fresh;
  for (Workspace* ws : {&fresh, &sim.ws}) {
    State state = saved;
    restore(memory, *ws);
    const Continuation again = go_on(sim.world, state, *ws, kBefore, kAfter);
    EXPECT_EQ(again.hashes, straight.hashes);
    EXPECT_EQ(again.pivots, straight.pivots);
  }

  // Without the memory the solves start cold: what capture() keeps is what carries over.
  Workspace cold;
  State state = saved;
  EXPECT_NE(go_on(sim.world, state, cold, kBefore, kAfter).pivots, straight.pivots);
}

TEST(StepperMemory, EveryFieldIsCapturedAndRestored) {
  Workspace ws;
  ws.warm.previous = {{3, true, 0.25}, {7, false, 0}};
  ws.penetration_scan.max_depth = 0.125;
  ws.halves_left = 5;
  ws.halves_span = 16;
  const StepperMemory m = capture(ws);
  Workspace other;
  restore(m, other);
  ASSERT_EQ(other.warm.previous.size(), 2u);
  EXPECT_EQ(other.warm.previous[0].name, 3u);
  EXPECT_TRUE(other.warm.previous[0].basic);
  EXPECT_EQ(other.warm.previous[0].z, 0.25);
  EXPECT_EQ(other.warm.previous[1].name, 7u);
  EXPECT_EQ(other.penetration_scan.max_depth, 0.125);
  EXPECT_EQ(other.halves_left, 5);
  EXPECT_EQ(other.halves_span, 16);
}

}  // namespace
}  // namespace exactsim::snapshot_test
