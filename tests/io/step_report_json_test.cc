// A step report's line in steps.jsonl (docs/scene-format.md "steps.jsonl"): the attempts of the
// solve policy (docs/solvers.md "The solve policy") under solver.attempts, in order, with every
// field; none when every island certified at its first attempt.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "exactsim/io/run.h"

namespace exactsim {
namespace {

StepReport solved_step() {
  StepReport r;
  r.solver_called = true;
  r.solver.status = SolveStatus::kSolved;
  r.solver.method = SolveMethod::kInteriorPoint;
  return r;
}

TEST(StepReportJson, AStepWhoseIslandsCertifiedAtOnceListsNoAttempts) {
  const nlohmann::json j = report_to_json(solved_step());
  ASSERT_TRUE(j.contains("solver"));
  EXPECT_FALSE(j["solver"].contains("attempts"));
}

TEST(StepReportJson, TheAttemptsOfARetriedIslandAreWrittenInOrder) {
  StepReport r = solved_step();
  r.attempts.push_back({.island = 2,
                        .kind = SolveAttemptKind::kDenseBrief,
                        .status = SolveStatus::kMaxIterations,
                        .method = SolveMethod::kLemke,
                        .unknowns = 240,
                        .pivots = 483,
                        .iterations = 0,
                        .seconds = 0.0125});
  r.attempts.push_back({.island = 2,
                        .kind = SolveAttemptKind::kWorkingSet,
                        .status = SolveStatus::kSolved,
                        .method = SolveMethod::kInteriorPoint,
                        .unknowns = 190,
                        .pivots = 0,
                        .iterations = 34,
                        .seconds = 0.05});
  const nlohmann::json a = report_to_json(r)["solver"]["attempts"];
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0]["island"], 2);
  EXPECT_EQ(a[0]["attempt"], "dense_brief");
  EXPECT_EQ(a[0]["status"], to_string(SolveStatus::kMaxIterations));
  EXPECT_EQ(a[0]["method"], "lemke");
  EXPECT_EQ(a[0]["unknowns"], 240);
  EXPECT_EQ(a[0]["pivots"], 483);
  EXPECT_EQ(a[0]["seconds"], 0.0125);
  EXPECT_EQ(a[1]["attempt"], "working_set");
  EXPECT_EQ(a[1]["status"], "solved");
  EXPECT_EQ(a[1]["method"], "interior point");
  EXPECT_EQ(a[1]["unknowns"], 190);
  EXPECT_EQ(a[1]["iterations"], 34);
}

TEST(StepReportJson, EveryAttemptKindHasItsName) {
  EXPECT_STREQ(to_string(SolveAttemptKind::kDenseBrief), "dense_brief");
  EXPECT_STREQ(to_string(SolveAttemptKind::kDense), "dense");
  EXPECT_STREQ(to_string(SolveAttemptKind::kWorkingSet), "working_set");
  EXPECT_STREQ(to_string(SolveAttemptKind::kSparseLemke), "sparse_lemke");
}

}  // namespace
}  // namespace exactsim
