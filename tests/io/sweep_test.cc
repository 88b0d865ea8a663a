// Sweeps: the two quartile definitions on hand-computed samples, and the executor's contract —
// every job runs once, results are published atomically, finished runs are never redone.
#include "experiments/sweep.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(QuartilesTest, MedianOfHalvesAndTrueQuartilesOddSample) {
  // median 5; below {1,2,3,4} → 2.5, above {6,7,8,9} → 7.5; type 7: positions 2 and 6 → 3, 7.
  const std::vector<Real> v = {9, 1, 8, 2, 7, 3, 6, 4, 5};
  const Quartiles h = quartiles_median_of_halves(v);
  EXPECT_DOUBLE_EQ(h.median, 5);
  EXPECT_DOUBLE_EQ(h.q1, 2.5);
  EXPECT_DOUBLE_EQ(h.q3, 7.5);
  const Quartiles t = quartiles_interpolated(v);
  EXPECT_DOUBLE_EQ(t.median, 5);
  EXPECT_DOUBLE_EQ(t.q1, 3);
  EXPECT_DOUBLE_EQ(t.q3, 7);
}

TEST(QuartilesTest, EvenSample) {
  // median 2.5; halves {1,2} and {3,4} → 1.5, 3.5; type 7: positions 0.75, 2.25 → 1.75, 3.25.
  const std::vector<Real> v = {4, 2, 3, 1};
  const Quartiles h = quartiles_median_of_halves(v);
  EXPECT_DOUBLE_EQ(h.median, 2.5);
  EXPECT_DOUBLE_EQ(h.q1, 1.5);
  EXPECT_DOUBLE_EQ(h.q3, 3.5);
  const Quartiles t = quartiles_interpolated(v);
  EXPECT_DOUBLE_EQ(t.median, 2.5);
  EXPECT_DOUBLE_EQ(t.q1, 1.75);
  EXPECT_DOUBLE_EQ(t.q3, 3.25);
}

TEST(QuartilesTest, TiesAtTheMedianAreInNeitherHalf) {
  // Many exact zeros (the Corrective baseline's overlap before contact): median 0, nothing
  // below it so Q1 = 0; above {1, 2} → 1.5, whereas the true q3 (position 4.5) is 0.5.
  const std::vector<Real> v = {0, 2, 0, 0, 1, 0, 0};
  const Quartiles h = quartiles_median_of_halves(v);
  EXPECT_DOUBLE_EQ(h.median, 0);
  EXPECT_DOUBLE_EQ(h.q1, 0);
  EXPECT_DOUBLE_EQ(h.q3, 1.5);
  const Quartiles t = quartiles_interpolated(v);
  EXPECT_DOUBLE_EQ(t.q1, 0);
  EXPECT_DOUBLE_EQ(t.q3, 0.5);
}

TEST(QuartilesTest, SingleValueAndAllEqual) {
  for (const std::vector<Real>& v : {std::vector<Real>{3}, std::vector<Real>{2, 2, 2, 2}}) {
    const Quartiles h = quartiles_median_of_halves(v);
    const Quartiles t = quartiles_interpolated(v);
    EXPECT_EQ(h.q1, v[0]);
    EXPECT_EQ(h.q3, v[0]);
    EXPECT_EQ(t.q1, v[0]);
    EXPECT_EQ(t.q3, v[0]);
  }
}

TEST(QuartilesTest, QuantileEndsAreMinAndMax) {
  const std::vector<Real> v = {5, -1, 3, 10};
  EXPECT_EQ(quantile(v, 0), -1);
  EXPECT_EQ(quantile(v, 1), 10);
  EXPECT_DOUBLE_EQ(quantile(v, 0.5), 4);
}

TEST(QuartilesTest, BadSamplesAreInputErrors) {
  EXPECT_THROW(quartiles_median_of_halves({}), InputError);
  EXPECT_THROW(quartiles_interpolated({}), InputError);
  EXPECT_THROW(quartiles_median_of_halves({1, NAN, 2}), InputError);
  EXPECT_THROW(quantile({1, 2}, 1.5), InputError);
  EXPECT_THROW(quantile({1, 2}, NAN), InputError);
}

class SweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("exactsim_sweep_test_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Jobs that count their executions and return their index.
  std::vector<SweepJob> counting_jobs(int n, std::atomic<int>& calls) {
    std::vector<SweepJob> jobs;
    for (int i = 0; i < n; ++i)
      jobs.push_back({"job" + std::to_string(i), json{{"i", i}}, [i, &calls] {
                        ++calls;
                        return json{{"value", i * i}};
                      }});
    return jobs;
  }

  fs::path dir_;
};

TEST_F(SweepTest, RunsEveryJobOnceInParallelAndWritesItsFile) {
  std::atomic<int> calls{0};
  const auto jobs = counting_jobs(12, calls);
  std::vector<int> seen;
  const SweepOutcome o = run_sweep(jobs, {dir_.string(), 3}, [&](const SweepProgress& p) {
    seen.push_back(p.done);
    EXPECT_EQ(p.total, 12);
    EXPECT_FALSE(p.skipped);
  });
  EXPECT_EQ(calls, 12);
  EXPECT_EQ(o.ran, 12);
  EXPECT_EQ(o.skipped, 0);
  ASSERT_EQ(seen.size(), 12u);
  for (int k = 0; k < 12; ++k) EXPECT_EQ(seen[k], k + 1);  // progress counts in order
  for (int i = 0; i < 12; ++i) {
    const auto r = read_sweep_result(dir_.string(), jobs[i]);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ((*r)["value"], i * i);
  }
  for (const auto& e : fs::directory_iterator(dir_))  // no temporary file left behind
    EXPECT_EQ(e.path().extension(), ".json") << e.path();
}

TEST_F(SweepTest, ResumeSkipsFinishedRunsAndRedoesOnlyTheMissing) {
  std::atomic<int> calls{0};
  const auto jobs = counting_jobs(5, calls);
  run_sweep(jobs, {dir_.string(), 2});
  ASSERT_EQ(calls, 5);
  fs::remove(sweep_file(dir_.string(), "job3"));  // as if interrupted before job3 finished

  std::vector<std::string> skipped;
  const SweepOutcome o = run_sweep(jobs, {dir_.string(), 2}, [&](const SweepProgress& p) {
    if (p.skipped) {
      skipped.push_back(p.job->name);
      ASSERT_NE(p.result, nullptr);  // the stored result is handed back
      EXPECT_EQ((*p.result)["value"],
                json(p.job->params["i"].get<int>() * p.job->params["i"].get<int>()));
    }
  });
  EXPECT_EQ(calls, 6);  // only job3 ran again
  EXPECT_EQ(o.ran, 1);
  EXPECT_EQ(o.skipped, 4);
  EXPECT_EQ(skipped.size(), 4u);
}

TEST_F(SweepTest, IncompleteCorruptOrForeignFilesAreRedone) {
  std::atomic<int> calls{0};
  auto jobs = counting_jobs(3, calls);
  fs::create_directories(dir_);
  // job0: a truncated file (a killed writer that bypassed the rename); job1: valid JSON
  // without the completion mark; job2: complete but written for other params.
  std::ofstream(sweep_file(dir_.string(), "job0")) << R"({"params": {"i": 0}, "resu)";
  std::ofstream(sweep_file(dir_.string(), "job1")) << R"({"params": {"i": 1}, "result": {}})";
  std::ofstream(sweep_file(dir_.string(), "job2"))
      << R"({"params": {"i": 2, "h": 0.5}, "result": {"value": -1}, "complete": true})";
  const SweepOutcome o = run_sweep(jobs, {dir_.string(), 1});
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(o.skipped, 0);
  EXPECT_EQ((*read_sweep_result(dir_.string(), jobs[2]))["value"], 4);
}

TEST_F(SweepTest, AJobThatThrowsWritesNothingAndTheOthersGoOn) {
  std::atomic<int> calls{0};
  auto jobs = counting_jobs(4, calls);
  jobs[1].run = []() -> json { throw std::runtime_error("model not available"); };
  const SweepOutcome o = run_sweep(jobs, {dir_.string(), 2});
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(o.failed, 1);
  ASSERT_EQ(o.errors.size(), 1u);
  EXPECT_NE(o.errors[0].find("job1: model not available"), std::string::npos);
  EXPECT_FALSE(fs::exists(sweep_file(dir_.string(), "job1")));
  EXPECT_FALSE(read_sweep_result(dir_.string(), jobs[1]).has_value());
}

TEST_F(SweepTest, CostlierJobsStartFirstAndUnknownCostsKeepTheirOrder) {
  std::atomic<int> calls{0};
  auto jobs = counting_jobs(5, calls);
  jobs[1].cost = 10, jobs[3].cost = 30, jobs[4].cost = 20;  // jobs 0 and 2: unknown (0)
  std::vector<std::string> order;
  run_sweep(jobs, {dir_.string(), 1},
            [&](const SweepProgress& p) { order.push_back(p.job->name); });
  EXPECT_EQ(order, (std::vector<std::string>{"job3", "job4", "job1", "job0", "job2"}));
}

TEST_F(SweepTest, BadOptionsAreInputErrors) {
  std::atomic<int> calls{0};
  auto jobs = counting_jobs(2, calls);
  EXPECT_THROW(run_sweep(jobs, {"", 1}), InputError);
  EXPECT_THROW(run_sweep(jobs, {dir_.string(), -1}), InputError);
  jobs[1].name = jobs[0].name;
  EXPECT_THROW(run_sweep(jobs, {dir_.string(), 1}), InputError);
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace exactsim
