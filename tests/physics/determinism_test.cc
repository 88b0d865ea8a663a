// Determinism: the step is a pure function of (world, state) — no hidden global state, no
// uninitialised scratch, no order dependence on addresses (docs/stepping.md "Determinism"). Two
// runs of the same scene from fresh workspaces must produce bit-identical q and ν after every step,
// compared by FNV-1a-64 hashes of their bytes.
#include <cstdint>
#include <cstring>
#include <vector>

#include <cstdio>

#include <gtest/gtest.h>

#include "exactsim/metrics/energy.h"

#include "experiments/scenarios.h"
#include "experiments/stress_scenes.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test {
namespace {

std::uint64_t fnv1a(std::uint64_t hash, const VecX& x) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(x.data());
  for (std::size_t i = 0; i < static_cast<std::size_t>(x.size()) * sizeof(Real); ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// Hash of (q, ν) after each of `steps` steps; `multi_island` counts the steps that solved more
// than one island.
std::vector<std::uint64_t> trajectory_hashes(const Scene& scene, int steps, long* solver_calls,
                                             long* multi_island = nullptr) {
  Sim sim(scene);
  std::vector<std::uint64_t> hashes;
  *solver_calls = 0;
  for (int n = 0; n < steps; ++n) {
    const StepReport r = sim.advance();
    // The pour's standard model meets SM traps (infeasible LCPs, e.g. set 'a' at steps 245–296):
    // the run continues through them (regularised recovery) and must still be deterministic.
    *solver_calls += r.solver_called;
    if (multi_island != nullptr) *multi_island += r.islands > 1;
    hashes.push_back(fnv1a(fnv1a(0xcbf29ce484222325ULL, sim.state.q), sim.state.v));
  }
  return hashes;
}

void expect_deterministic(const Scene& scene, int steps) {
  long calls1 = 0, calls2 = 0;
  const auto first = trajectory_hashes(scene, steps, &calls1);
  const auto second = trajectory_hashes(scene, steps, &calls2);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t n = 0; n < first.size(); ++n)
    ASSERT_EQ(first[n], second[n]) << "runs diverge at step " << n;
  EXPECT_EQ(calls1, calls2);
  EXPECT_GT(calls1, steps / 4) << "too few contact steps for the test to mean anything";
  EXPECT_NE(first.front(), first.back()) << "nothing moved";
}

TEST(Determinism, Pouring2dSetA) {
  Pour2dOptions options;
  options.step = 0.005;
  options.duration = 300 * options.step;
  Scene scene =
      pour2d_archived(EXACTSIM_SOURCE_DIR "/data/peg2d_pouring_body_sets.json", 'a', options);
  scene.world.stepping.continue_on_solver_failure = true;
  expect_deterministic(scene, 300);
}

TEST(Determinism, IcosahedronPour3d) {
  Pour3dOptions options;
  options.step = 0.005;
  options.duration = 300 * options.step;  // three icosahedra in the container, before t ≈ 1.77 s
  expect_deterministic(pour3d_icosahedra(options), 300);
}

TEST(Determinism, BoxStack3d) {
  // Four boxes stacked with offsets and twists, μ = 0.4, k = 6, PEG: the frictional LCPs that
  // made Lemke cycle (docs/solvers.md) are solved at every step, twice identically.
  Sim probe(offset_box_stack_doc());
  probe.scene.world.contact.model =
      ContactModel::kPeg;  // the standard model's traps are infeasible
  expect_deterministic(probe.scene, 200);
  int failed = 0;
  for (int n = 0; n < 200; ++n) failed += is_failed_solve(probe.advance().status);
  EXPECT_EQ(failed, 0);
  const Real ke = kinetic_energy(probe.scene.world.bodies, probe.state);
  std::printf("[ stack ] 200 steps, %d failed solves, final kinetic energy %.3e J\n", failed, ke);
  EXPECT_LT(ke, 1e-2);  // it comes to rest
}

// Parallel islands (docs/stepping.md "Parallel islands"): the frictional pour of awkward hulls on
// 2 and 3 threads, with and without sleeping, steps bit for bit as on one.
TEST(Determinism, ParallelIslandsAreBitIdenticalToSerial) {
  for (const bool sleep : {false, true}) {
    HullPourOptions options;
    options.duration = 5.0;
    Scene scene = hull_pour3d(1, options);
    scene.world.stepping.continue_on_solver_failure = true;
    scene.world.stepping.sleep = sleep;
    long calls = 0, multi = 0;
    const auto serial = trajectory_hashes(scene, 800, &calls, &multi);
    EXPECT_GT(multi, 100) << "too few steps with several islands for the test to mean anything";
    for (const int threads : {2, 3}) {
      scene.world.stepping.threads = threads;
      long parallel_calls = 0;
      const auto parallel = trajectory_hashes(scene, 800, &parallel_calls);
      for (std::size_t n = 0; n < serial.size(); ++n)
        ASSERT_EQ(serial[n], parallel[n])
            << threads << " threads, sleep " << sleep << ": diverges at step " << n;
      EXPECT_EQ(parallel_calls, calls);
    }
  }
}

}  // namespace
}  // namespace exactsim::physics_test
