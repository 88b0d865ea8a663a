// A step report's line in steps.jsonl (docs/scene-format.md "steps.jsonl"): the attempts of the
// solve policy (docs/solvers.md "The solve policy") under solver.attempts, in order, with every
// field; none when every island certified at its first attempt. The fields a sweep's series may
// record (docs/sweeps.md "What each run records") are the line's first-level numbers and strings
// that every step has.
#include <gtest/gtest.h>

#include <map>
#include <string>

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

// A failed step whose islands were not recovered says how many flew free, over all its parts
// and so also where its last part ran no solve; one recovered by regularisation gives its δ and
// none flown free (docs/stepping.md "When a solve fails").
TEST(StepReportJson, AFailedStepSaysWhichIslandsFlewFree) {
  StepReport r = solved_step();
  r.status = StepStatus::kSolverFailed;
  r.solver.status = SolveStatus::kRay;
  EXPECT_FALSE(report_to_json(r).contains("islands_flown_free"));
  r.islands_flown_free = 3;
  EXPECT_EQ(report_to_json(r)["islands_flown_free"], 3);
  r.solver_called = false;
  EXPECT_EQ(report_to_json(r)["islands_flown_free"], 3);
  r.solver_called = true;
  r.islands_flown_free = 0;
  r.regularisation = 1e-8;
  const nlohmann::json j = report_to_json(r);
  EXPECT_EQ(j["solver"]["recovered_with_regularisation"], 1e-8);
  EXPECT_FALSE(j.contains("islands_flown_free"));
}

TEST(StepReportJson, EveryAttemptKindHasItsName) {
  EXPECT_STREQ(to_string(SolveAttemptKind::kDenseBrief), "dense_brief");
  EXPECT_STREQ(to_string(SolveAttemptKind::kDense), "dense");
  EXPECT_STREQ(to_string(SolveAttemptKind::kWorkingSet), "working_set");
  EXPECT_STREQ(to_string(SolveAttemptKind::kSparseLemke), "sparse_lemke");
}

// Every first-level number, boolean or string of a line with every optional record, with the
// value report_to_json writes, against the scalars' table (report_scalars): the same names and
// values, and no optional field among them.
TEST(StepReportJson, TheSeriesFieldsAreTheLinesFirstLevelScalarsThatEveryStepHas) {
  StepReport plain;
  plain.step = 7;
  plain.time = 0.07;
  plain.status = StepStatus::kSolverFailed;
  plain.potential_contacts = 12;
  plain.unilateral = 9;
  plain.intercontact = 3;
  plain.lcp_size = 48;
  plain.overlap = 2.5e-9;
  plain.kinetic_energy = 1.25;
  plain.max_penetration = 1e-4;
  StepReport full = plain;  // with the optional first-level fields too
  full.bodies_asleep = 2;
  full.islands_asleep = 1;
  full.diverged_body = 3;
  full.substeps = 4;
  full.retaken_failed_solves = 1;
  full.halves_from_start = true;
  const auto scalars = [](const nlohmann::json& line) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& item : line.items())
      if (item.value().is_primitive() && !item.value().is_null()) out[item.key()] = item.value();
    return out;
  };
  std::map<std::string, nlohmann::json> table;
  for (const ReportScalar& f : report_scalars()) {
    EXPECT_EQ(find_report_scalar(f.name), &f) << f.name;
    table[f.name] = f.get(plain);
  }
  EXPECT_EQ(table, scalars(report_to_json(plain)));
  const std::map<std::string, nlohmann::json> with_optional = scalars(report_to_json(full));
  EXPECT_GT(with_optional.size(), table.size());
  for (const auto& [name, value] : with_optional)
    if (!table.contains(name)) {
      EXPECT_EQ(find_report_scalar(name), nullptr) << name;
    }
  EXPECT_EQ(table.at("status"), to_string(StepStatus::kSolverFailed));
  EXPECT_EQ(find_report_scalar("seconds"), nullptr);
  EXPECT_EQ(find_report_scalar("solver"), nullptr);
}

}  // namespace
}  // namespace exactsim
