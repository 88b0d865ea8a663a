// The memory budget (docs/input-validation.md "Memory budget"): a step's dense contact problem
// is estimated before it is allocated, and a step over the budget throws MemoryBudgetError.
#include "exactsim/stepping/memory_budget.h"

#include <gtest/gtest.h>

#include <string>

#include "planar_sim.h"

namespace exactsim {
namespace {

using planar_test::box;
using planar_test::Sim;

// n unit boxes in a row on a static floor, 1 mm apart (within ε of each other), μ = 0.5: every
// box has floor and neighbour contacts, each with a friction cone. Their island is solved dense
// (the budget bounds the dense path's memory; a 2D island of more than 300 unknowns is otherwise
// solved sparse).
Sim row_of_boxes(int n) {
  Sim s;
  s.world.contact.model = ContactModel::kStandard;
  s.world.contact.friction = 0.5;
  s.world.stepping.dense_max_unknowns = 2000;
  s.add(box(-1, -1, 1.01 * n + 1, 0), true);
  for (int i = 0; i < n; ++i) s.add(box(1.001 * i, 0, 1.001 * i + 1, 1), false);
  return s;
}

TEST(MemoryBudget, EstimateGrowsQuadraticallyAndCountsTheLongDoubleRetryOnlyWhenItRuns) {
  SolverOptions o;
  const double a = lcp_solve_bytes(100, o), b = lcp_solve_bytes(200, o);
  EXPECT_GT(b / a, 3.5);
  EXPECT_LT(b / a, 4.5);
  // Lemke's tableau alone is n(n+1) doubles: the estimate covers at least that and the matrix.
  EXPECT_GE(a, 8.0 * (100 * 101 + 100 * 100));
  SolverOptions no_retry = o;
  no_retry.diagnostics.extended_precision_retry = false;
  EXPECT_LT(lcp_solve_bytes(100, no_retry), a);
  // Above n = (max_pivot_work / 4)^(1/3) = 1000 the solver skips the long-double retry.
  EXPECT_EQ(lcp_solve_bytes(2000, no_retry), lcp_solve_bytes(2000, o));
  EXPECT_GT(step_lcp_bytes(60, 400, 100, o), lcp_solve_bytes(400, o));
  // From revised_min_size unknowns Lemke keeps G and C (k × k, k <= n), not the n × (n+1)
  // tableau and the n × n refactorisation, and M's compressed columns (12 bytes for each of at
  // most revised_sparse_density · n² nonzeros): n(n+1) doubles fewer, 3n² bytes more at the
  // default 0.25, and still at least 2n² and M.
  SolverOptions dense = no_retry;
  dense.diagnostics.revised_min_size = 0;
  EXPECT_EQ(lcp_solve_bytes(100, dense), lcp_solve_bytes(100, no_retry));  // below 128
  EXPECT_NEAR(lcp_solve_bytes(2000, dense) - lcp_solve_bytes(2000, no_retry),
              8.0 * 2000 * 2001 - 3.0 * 2000 * 2000, 1.0);
  SolverOptions uncompressed = no_retry;
  uncompressed.diagnostics.revised_sparse_density = 0;
  EXPECT_NEAR(lcp_solve_bytes(2000, no_retry) - lcp_solve_bytes(2000, uncompressed),
              3.0 * 2000 * 2000, 1.0);
  EXPECT_GE(lcp_solve_bytes(2000, no_retry), 8.0 * 3 * 2000 * 2000);
  // Fischer–Burmeister's 4n² doubles only where it runs: up to n = (fb_max_work)^(1/3) ≈ 2714.
  SolverOptions no_fallback = no_retry;
  no_fallback.fallback = false;
  EXPECT_NEAR(lcp_solve_bytes(2000, no_retry) - lcp_solve_bytes(2000, no_fallback),
              8.0 * 4 * 2000 * 2000, 1.0);
  EXPECT_EQ(lcp_solve_bytes(3000, no_retry), lcp_solve_bytes(3000, no_fallback));
}

TEST(MemoryBudget, CheckThrowsOnlyAboveTheBudgetAndSaysWhatAndHowMuch) {
  EXPECT_NO_THROW(check_memory_budget(1024, 1024, "x"));
  try {
    check_memory_budget(3.0 * 1073741824.0, 1u << 30, "the thing");
    FAIL() << "no MemoryBudgetError";
  } catch (const MemoryBudgetError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the thing needs an estimated 3 GiB"), std::string::npos) << what;
    EXPECT_NE(what.find("memory budget of 1 GiB"), std::string::npos) << what;
    EXPECT_NE(what.find("--memory-budget"), std::string::npos) << what;
    EXPECT_EQ(e.needed_bytes(), 3ull << 30);
    EXPECT_EQ(e.budget_bytes(), 1ull << 30);
  }
  EXPECT_EQ(format_bytes(512.0 * 1024 * 1024), "512 MiB");
  EXPECT_EQ(format_bytes(100), "100 bytes");
  EXPECT_EQ(memory_budget_from_gib(0.5), 1ull << 29);
  EXPECT_EQ(StepOptions{}.memory_budget_bytes, 4ull << 30);
}

TEST(MemoryBudget, AStepOverTheBudgetThrowsBeforeAllocatingAndOneWithinItRuns) {
  // The problem's size from a step under the default budget.
  Sim probe = row_of_boxes(12);
  const StepReport r = probe.step(0.005);
  ASSERT_TRUE(r.solver_called);
  ASSERT_GT(r.lcp_size, 100);
  const int nv = 3 * r.active_bodies;
  const double need =
      step_lcp_bytes(nv, r.lcp_size, r.unilateral + r.intercontact, probe.world.solver);

  // One byte short: the step throws, names the problem, and has not allocated G, H, D.
  Sim s = row_of_boxes(12);
  s.world.stepping.memory_budget_bytes = static_cast<std::uint64_t>(need) - 1;
  try {
    s.step(0.005);
    FAIL() << "no MemoryBudgetError";
  } catch (const MemoryBudgetError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the step's contact problem (" + std::to_string(r.lcp_size) +
                        " unknowns, 12 bodies in contact)"),
              std::string::npos)
        << what;
    EXPECT_EQ(e.budget_bytes(), s.world.stepping.memory_budget_bytes);
  }
  EXPECT_EQ(s.ws.mlcp.D.nonZeros(), 0);
  EXPECT_EQ(s.ws.solver.reduced.M.size(), 0);

  // Exactly the estimate: the step runs, and what it keeps is within the estimate.
  Sim t = row_of_boxes(12);
  t.world.stepping.memory_budget_bytes = static_cast<std::uint64_t>(need) + 1;
  const StepReport ok = t.step(0.005);
  EXPECT_EQ(ok.lcp_size, r.lcp_size);
  EXPECT_EQ(ok.status, r.status);
  const double kept =
      8.0 * (t.ws.mlcp.G.size() + t.ws.mlcp.H.size() + t.ws.mlcp.D.nonZeros() +
             t.ws.solver.WG.size() + t.ws.solver.reduced.M.size() + t.ws.solver.lcp.tableau.size());
  EXPECT_LE(kept, need);
}

TEST(DenseThreshold, ByDefaultA2DIslandAbove300UnknownsIsSolvedSparse) {
  // docs/solvers.md "The threshold": 1,000 unknowns in 3D, 300 in 2D, and under PEG 50 and 70
  // for an island in motion, unless the field is set (then for every island).
  World w;
  for (const ContactModel model : {ContactModel::kStandard, ContactModel::kPeg}) {
    w.contact.model = model;
    const bool peg = model == ContactModel::kPeg;
    w.dimension = 3;
    EXPECT_EQ(dense_max_unknowns(w), 1000);
    EXPECT_EQ(dense_max_unknowns(w, true), peg ? 50 : 1000);
    w.dimension = 2;
    EXPECT_EQ(dense_max_unknowns(w), 300);
    EXPECT_EQ(dense_max_unknowns(w, true), peg ? 70 : 300);
  }
  w.stepping.dense_max_unknowns = 0;
  EXPECT_EQ(dense_max_unknowns(w), 0);
  EXPECT_EQ(dense_max_unknowns(w, true), 0);
  // The row of twelve boxes (one island of more than 300 unknowns): no dense MLCP by default,
  // the dense one with the field at 2,000; certified either way.
  for (const int field : {-1, 2000}) {
    Sim s = row_of_boxes(12);
    s.world.stepping.dense_max_unknowns = field;
    const StepReport r = s.step(0.005);
    ASSERT_GT(r.lcp_size, 300);
    EXPECT_TRUE(r.solver.ok()) << field;
    EXPECT_EQ(s.ws.mlcp.D.nonZeros() > 0, field == 2000) << field;
  }
}

TEST(DenseThreshold, APegIslandInMotionAboveItsCrossoverIsSolvedSparse) {
  // Three PEG boxes on a floor, one island of 70–300 unknowns: at rest it is solved dense (no
  // basis of its resting contacts is left to the interior point); with the last box sliding at
  // 1 m/s, faster than |g| h, sparse. Both certified.
  for (const bool moving : {false, true}) {
    Sim s;
    s.world.contact.model = ContactModel::kPeg;
    s.world.contact.friction = 0.5;
    s.add(box(-1, -1, 4, 0), true);
    for (int i = 0; i < 3; ++i)
      s.add(box(1.001 * i, 0, 1.001 * i + 1, 1), false, Vec2(i == 2 && moving ? 1.0 : 0.0, 0));
    const StepReport r = s.step(0.005);
    ASSERT_GT(r.lcp_size, dense_max_unknowns(s.world, true)) << moving;
    ASSERT_LE(r.lcp_size, dense_max_unknowns(s.world)) << moving;
    EXPECT_TRUE(r.solver.ok()) << moving;
    EXPECT_EQ(s.ws.mlcp.D.nonZeros() > 0, !moving) << moving;
  }
}

TEST(MemoryBudget, TheSparsePathsProjectionIsCheckedForItsOwnRows) {
  // Twelve boxes 1 cm into the floor, every island on the sparse path (no dense MLCP, no
  // estimate of one): the split projection's sparse QP over the island's normal rows is what the
  // budget checks, before it forms G_S.
  const auto sunk = [] {
    Sim s;
    s.world.contact.model = ContactModel::kStandard;
    s.world.contact.friction = 0.5;
    s.world.stepping.dense_max_unknowns = 0;
    s.add(box(-1, -1, 1.01 * 12 + 1, 0), true);
    for (int i = 0; i < 12; ++i) s.add(box(1.001 * i, -0.01, 1.001 * i + 1, 0.99), false);
    return s;
  };
  Sim within = sunk();
  const StepReport r = within.step(0.005);
  ASSERT_TRUE(r.projection_ran);
  ASSERT_TRUE(r.projection_solved);
  // (Each box is an island of its own; all alike.)
  const int rows = static_cast<int>(within.ws.projection.rows.size());
  ASSERT_GT(rows, 0);
  const double need =
      projection_qp_bytes(3 * static_cast<double>(within.ws.layout.active_bodies.size()), rows);

  Sim over = sunk();
  over.world.stepping.memory_budget_bytes = static_cast<std::uint64_t>(need) - 1;
  try {
    over.step(0.005);
    FAIL() << "no MemoryBudgetError";
  } catch (const MemoryBudgetError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the split projection's QP (" + std::to_string(rows) + " rows"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace exactsim
