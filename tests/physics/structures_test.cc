// The structures a user builds first (experiments/structures.h): each runs to its end under both
// models, without a failed solve, and does what it should (stands, rests, falls in a chain).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "exactsim/io/run.h"
#include "experiments/structures.h"

namespace exactsim::physics_test::structures {
namespace {

struct Outcome {
  RunSummary summary;
  State initial, last;
};

// sparse: every island on the sparse path (docs/solvers.md "Large islands: the sparse path").
Outcome run(Scene (*build)(const StructureOptions&), ContactModel model, Real h, Real duration,
            bool sparse = false) {
  StructureOptions o;
  o.model = model;
  o.step = h;
  o.duration = duration;
  Scene scene = build(o);
  if (sparse) scene.world.stepping.dense_max_unknowns = 0;
  Outcome out;
  out.initial = scene.initial;
  RunOptions ro;
  ro.progress = false;
  out.summary = run_scene(scene, ro, [&](const State& s, const StepReport&) { out.last = s; });
  EXPECT_FALSE(out.summary.failed) << scene.name << ": " << out.summary.failure;
  EXPECT_EQ(out.summary.solver_failures, 0) << scene.name;
  EXPECT_EQ(out.summary.deep_penetration_steps, 0) << scene.name;
  return out;
}

// The largest distance any body's centre moved from its start (m).
Real largest_move(const Outcome& o) {
  Real m = 0;
  for (int b = 1; b < o.last.body_count(); ++b)
    m = std::max(m, (o.last.q_of(b).head<3>() - o.initial.q_of(b).head<3>()).norm());
  return m;
}

constexpr ContactModel kModels[] = {ContactModel::kPeg, ContactModel::kStandard};

TEST(Structures, TheArchStands) {
  // Both models stopped with a failed solve at step 3 (PEG, after a 21 s solve) and 91.
  for (const ContactModel m : kModels) EXPECT_LT(largest_move(run(arch3d, m, 0.005, 1.0)), 1e-3);
}

TEST(Structures, TheJengaTowerStands) {
  // PEG took 50 ms per step at rest, the standard model 190 ms.
  for (const ContactModel m : kModels) EXPECT_LT(largest_move(run(jenga3d, m, 0.005, 1.0)), 1e-3);
}

TEST(Structures, EightBoxesRestInATightBinAtLargeSteps) {
  // h = 0.05: PEG failed at step 14, the standard model at its first step.
  for (const ContactModel m : kModels) {
    const Outcome o = run(tight_bin3d, m, 0.05, 2.0);
    EXPECT_LT(largest_move(o), 2e-3);
    EXPECT_LT(o.summary.kinetic_energy, 1e-9);
  }
}

TEST(Structures, DominoesFallInAChain) {
  const Outcome o = run(dominoes3d, ContactModel::kPeg, 0.005, 4.0);
  // The last domino is down: its centre fell from 0.25 m.
  EXPECT_LT(o.last.q_of(12)[2], 0.1);
}

// The sparse path (body-space solve on a working set, certified on the whole MLCP) on the same
// structures: they stand, rest and fall as on the dense path.
TEST(Structures, TheyStandAndFallOnTheSparsePathToo) {
  for (const ContactModel m : kModels) {
    SCOPED_TRACE(m == ContactModel::kPeg ? "PEG" : "standard");
    EXPECT_LT(largest_move(run(arch3d, m, 0.005, 1.0, true)), 1e-3);
    EXPECT_LT(largest_move(run(jenga3d, m, 0.005, 1.0, true)), 1e-3);
    const Outcome bin = run(tight_bin3d, m, 0.05, 2.0, true);
    EXPECT_LT(largest_move(bin), 2e-3);
    EXPECT_LT(bin.summary.kinetic_energy, 1e-9);
  }
  EXPECT_LT(run(dominoes3d, ContactModel::kPeg, 0.005, 4.0, true).last.q_of(12)[2], 0.1);
}

}  // namespace
}  // namespace exactsim::physics_test::structures
