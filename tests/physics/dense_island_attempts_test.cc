// A dense island's attempts (docs/solvers.md "The solve policy"): an island of at
// least 200 unknowns tries Lemke briefly, then the working set, and only then the stack's
// fallbacks; a smaller island goes through the stack first and the working set last. Told apart
// here by a Lemke that cannot succeed (one pivot) and a Fischer–Burmeister fallback that can:
// which attempt answers, and that the answer certifies. A sparse island's dense attempt, last,
// runs only where its Lemke's work cap allows a pile's step.
#include <gtest/gtest.h>

#include "physics/physics_scene.h"

namespace exactsim::physics_test::dense_island_attempts {
namespace {

// `boxes` 0.5 × 0.4 × 0.3 boxes stacked face to face on a floor, with offsets, twists and spins (as
// offset_box_stack_doc), μ = 0.4, k = 6 cone directions, h = 5 ms, friction on demand off: one
// island, of 32 unknowns with one box and 304 with eight.
json stack_doc(int boxes) {
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {10.0, 10.0, 1.0}}}},
                              {"position", {0.0, 0.0, -0.5}}}});
  for (int i = 0; i < boxes; ++i)
    bodies.push_back({{"name", "box" + std::to_string(i)},
                      {"shape", {{"box", {0.5, 0.4, 0.3}}}},
                      {"density", 400},
                      {"position", {0.03 * (i % 4), -0.02 * (i % 4), 0.15 + 0.3 * i}},
                      {"orientation", {1.0, 0.0, 0.0, 0.05 * (i % 4)}},
                      {"angular_velocity", {0.0, 0.1 * (i % 4), 0.0}}});
  json doc = scene_doc(3, 0.005, bodies, json{{"friction", 0.4}, {"friction_directions", 6}});
  doc["stepping"] = {{"friction_on_demand_min_unknowns", 0}};
  return doc;
}

// The first step of the stack with every Lemke run held to one pivot, and Fischer–Burmeister (the
// stack's first fallback) allowed to run to convergence: the step must certify, on one island
// whose first attempt ran out of pivots. Returns the attempt that answered: the working set
// (rescued_islands = 1) or the stack's method.
struct Answer {
  int lcp_size;
  bool working_set;
  SolveMethod method;
  std::vector<SolveAttempt> attempts;  // the step report's record of them
};

Answer first_step_with_one_pivot(int boxes) {
  Sim sim(stack_doc(boxes));
  SolverOptions& solver = sim.scene.world.solver;
  solver.max_pivots = 1;
  solver.diagnostics.fb_stall_window = 0;
  solver.fb_max_iterations = 1000;
  const StepReport r = sim.advance();
  EXPECT_EQ(r.islands, 1);
  EXPECT_EQ(r.solver.primary_status, SolveStatus::kMaxIterations);
  EXPECT_EQ(r.status, StepStatus::kOk);
  EXPECT_TRUE(r.solver.ok());
  EXPECT_TRUE(r.solution_applied);
  return {r.lcp_size, r.rescued_islands == 1, r.solver.method, r.attempts};
}

TEST(DenseIslandAttempts, ALargeIslandGoesToTheWorkingSetBeforeTheStacksFallbacks) {
  const Answer a = first_step_with_one_pivot(8);
  ASSERT_GE(a.lcp_size, 200);
  EXPECT_TRUE(a.working_set);
  EXPECT_NE(a.method, SolveMethod::kFischerBurmeister);
  // The step report lists both attempts: the brief dense one out of pivots on the whole island,
  // then the working set that certified on a part of it.
  ASSERT_EQ(a.attempts.size(), 2u);
  EXPECT_EQ(a.attempts[0].kind, SolveAttemptKind::kDenseBrief);
  EXPECT_EQ(a.attempts[0].status, SolveStatus::kMaxIterations);
  EXPECT_EQ(a.attempts[0].unknowns, a.lcp_size);
  EXPECT_EQ(a.attempts[1].kind, SolveAttemptKind::kWorkingSet);
  EXPECT_EQ(a.attempts[1].status, SolveStatus::kSolved);
  EXPECT_GT(a.attempts[1].unknowns, 0);
  EXPECT_LE(a.attempts[1].unknowns, a.lcp_size);
  for (const SolveAttempt& t : a.attempts) {
    EXPECT_EQ(t.island, 0);
    EXPECT_GE(t.seconds, 0);
  }
}

TEST(DenseIslandAttempts, ASmallIslandGoesThroughTheStackFirst) {
  const Answer a = first_step_with_one_pivot(1);
  ASSERT_LT(a.lcp_size, 200);
  EXPECT_FALSE(a.working_set);
  EXPECT_EQ(a.method, SolveMethod::kFischerBurmeister);
  EXPECT_TRUE(a.attempts.empty());  // its first attempt, the whole stack, certified
}

// The same stack's first step as a sparse island (stepping.dense_max_unknowns 0) that no attempt
// can certify (a tolerance of 1e-30): its attempts are the working set and the sparse Lemke, and
// the dense path after them only where its Lemke may take n/2 pivots within max_pivot_work
// (n³/2 <= max_pivot_work).
std::vector<SolveAttempt> uncertifiable_sparse_step(Real max_pivot_work, int& unknowns) {
  Sim sim(stack_doc(8));
  sim.scene.world.stepping.dense_max_unknowns = 0;
  sim.scene.world.solver.tolerance = 1e-30;
  sim.scene.world.solver.max_pivot_work = max_pivot_work;
  const StepReport r = sim.advance();
  EXPECT_EQ(r.islands, 1);
  EXPECT_FALSE(r.solver.ok());
  unknowns = r.lcp_size;
  return r.attempts;
}

std::vector<SolveAttemptKind> kinds(const std::vector<SolveAttempt>& attempts) {
  std::vector<SolveAttemptKind> out;
  for (const SolveAttempt& a : attempts) out.push_back(a.kind);
  return out;
}

TEST(DenseIslandAttempts, ASparseIslandGoesDenseOnlyWhereLemkeMayTakeHalfAPivotPerUnknown) {
  int n = 0;
  const std::vector<SolveAttemptKind> uncapped = kinds(uncertifiable_sparse_step(0, n));
  ASSERT_GE(n, 200);
  const std::vector<SolveAttemptKind> all = {
      SolveAttemptKind::kWorkingSet, SolveAttemptKind::kSparseLemke, SolveAttemptKind::kDense};
  EXPECT_EQ(uncapped, all);
  const Real half_a_pivot_each = 0.5 * n * n * n;
  int m = 0;
  EXPECT_EQ(kinds(uncertifiable_sparse_step(half_a_pivot_each, m)), all);
  EXPECT_EQ(kinds(uncertifiable_sparse_step(0.99 * half_a_pivot_each, m)),
            std::vector<SolveAttemptKind>(all.begin(), all.end() - 1));
}

}  // namespace
}  // namespace exactsim::physics_test::dense_island_attempts
