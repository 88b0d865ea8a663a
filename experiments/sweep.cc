#include "experiments/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include "exactsim/io/run.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

namespace fs = std::filesystem;

void check_sample(const std::vector<Real>& v, const char* what) {
  if (v.empty()) throw InputError(std::string(what) + ": empty sample");
  for (Real x : v)
    if (!std::isfinite(x)) throw InputError(std::string(what) + ": sample has a non-finite value");
}

// Atomic publication: a reader sees either no file or the whole file (rename is atomic on POSIX
// within one file system). The temporary name is the writer's own (process and thread), so that
// two writers of one file never write into each other's.
void write_atomically(const fs::path& path, const std::string& text) {
  fs::path tmp = path;
  tmp += "." + std::to_string(getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(tmp.string() + ": cannot write");
    out << text;
    out.flush();
    if (!out) throw InputError(tmp.string() + ": write failed");
  }
  fs::rename(tmp, path);
}

}  // namespace

std::string run_timeout_error(double timeout_seconds) {
  char text[96];
  std::snprintf(text, sizeof text, "the run did not finish within %g s (--run-timeout)",
                timeout_seconds);
  return text;
}

RunDeadline::RunDeadline(double timeout_seconds)
    : seconds_(timeout_seconds), start_(std::chrono::steady_clock::now()) {}

bool RunDeadline::passed() const {
  return seconds_ > 0 &&
         std::chrono::steady_clock::now() - start_ >= std::chrono::duration<double>(seconds_);
}

void RunDeadline::check() const {
  if (passed()) throw RunTimeout(run_timeout_error(seconds_));
}

std::string sweep_file(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / (name + ".json")).string();
}

std::optional<nlohmann::json> read_sweep_result(const std::string& dir, const SweepJob& job) {
  std::ifstream in(sweep_file(dir, job.name));
  if (!in) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("complete") || j["complete"] != true || !j.contains("params") ||
      j["params"] != job.params || !j.contains("result"))
    return std::nullopt;
  return std::move(j["result"]);
}

SweepLedger::SweepLedger(const std::vector<SweepJob>& jobs, const SweepOptions& options,
                         const std::function<void(const SweepProgress&)>& on_done)
    : dir_(options.dir), on_done_(on_done), total_(static_cast<int>(jobs.size())) {
  if (options.dir.empty()) throw InputError("sweep: no output folder given");
  if (options.jobs < 0) throw InputError("sweep: --jobs must be >= 0");
  std::unordered_set<std::string> names;
  for (const SweepJob& job : jobs)
    if (!names.insert(job.name).second) throw InputError("sweep: duplicate job name " + job.name);
  fs::create_directories(options.dir);
  for (const SweepJob& job : jobs) {
    if (const auto old = read_sweep_result(options.dir, job)) {
      ++outcome_.skipped;
      SweepProgress p;
      p.job = &job;
      p.result = &*old;
      p.skipped = true;
      p.done = ++done_;
      p.total = total_;
      if (on_done_) on_done_(p);
    } else {
      todo_.push_back(&job);
    }
  }
  std::stable_sort(todo_.begin(), todo_.end(),
                   [](const SweepJob* a, const SweepJob* b) { return a->cost > b->cost; });
}

void SweepLedger::finish(const SweepJob& job, const nlohmann::json* result, std::string error,
                         double wall_seconds) {
  SweepProgress p;
  p.job = &job;
  p.wall_seconds = wall_seconds;
  p.error = std::move(error);
  if (result && p.error.empty()) {
    try {
      const nlohmann::json file = {{"params", job.params}, {"result", *result}, {"complete", true}};
      write_atomically(sweep_file(dir_, job.name), file.dump());
      p.result = result;
    } catch (const std::exception& e) {
      p.error = e.what();
    }
  }
  std::lock_guard<std::mutex> guard(lock_);
  if (p.error.empty()) {
    ++outcome_.ran;
  } else {
    ++outcome_.failed;
    outcome_.errors.push_back(job.name + ": " + p.error);
  }
  p.done = ++done_;
  p.total = total_;
  if (on_done_) on_done_(p);
}

SweepOutcome SweepLedger::outcome() const {
  std::lock_guard<std::mutex> guard(lock_);
  return outcome_;
}

int sweep_threads(const SweepOptions& options, std::size_t todo) {
  const std::size_t wanted = options.jobs > 0 ? static_cast<std::size_t>(options.jobs)
                                              : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::min(wanted, std::max<std::size_t>(1, todo)));
}

SweepOutcome run_sweep(const std::vector<SweepJob>& jobs, const SweepOptions& options,
                       const std::function<void(const SweepProgress&)>& on_done) {
  SweepLedger ledger(jobs, options, on_done);
  const std::vector<const SweepJob*>& todo = ledger.todo();
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < todo.size(); i = next++) {
      const SweepJob& job = *todo[i];
      const auto start = std::chrono::steady_clock::now();
      nlohmann::json result;
      std::string error;
      try {
        result = job.run();
      } catch (const std::exception& e) {
        error = e.what();
      }
      ledger.finish(
          job, &result, std::move(error),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  };
  const int n = sweep_threads(options, todo.size());
  std::vector<std::thread> threads;
  for (int t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();  // the calling thread works too
  for (std::thread& t : threads) t.join();
  return ledger.outcome();
}

Quartiles quartiles_median_of_halves(std::vector<Real> v) {
  check_sample(v, "quartiles_median_of_halves");
  Quartiles q;
  q.median = median(v);
  std::vector<Real> below, above;
  for (Real x : v) {
    if (x < q.median) below.push_back(x);
    if (x > q.median) above.push_back(x);
  }
  q.q1 = below.empty() ? q.median : median(std::move(below));
  q.q3 = above.empty() ? q.median : median(std::move(above));
  return q;
}

Real quantile(std::vector<Real> v, Real p) {
  check_sample(v, "quantile");
  if (!(p >= 0 && p <= 1)) throw InputError("quantile: p must lie in [0, 1]");
  std::sort(v.begin(), v.end());
  const Real pos = p * static_cast<Real>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  const Real f = pos - static_cast<Real>(lo);
  return v[lo] + f * (v[hi] - v[lo]);
}

Quartiles quartiles_interpolated(std::vector<Real> v) {
  check_sample(v, "quartiles_interpolated");
  std::sort(v.begin(), v.end());
  Quartiles q;
  q.q1 = quantile(v, 0.25);
  q.median = quantile(v, 0.5);
  q.q3 = quantile(v, 0.75);
  return q;
}

}  // namespace exactsim
