// `exactsim sweep`: run a sweep file's runs on threads or under MPI, resumably, and write its
// results table (docs/sweeps.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/memory_budget.h"
#include "experiments/sweep.h"
#include "experiments/sweep_engine.h"
#include "experiments/sweep_file.h"
#include "experiments/sweep_mpi.h"
#include "experiments/sweep_run.h"
#include "experiments/sweep_table.h"
#include "memory_budget_option.h"
#include "sweep_format.h"

namespace exactsim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct SweepArgs {
  std::string file, out, part, peers;
  int jobs = 0;
  double rank_timeout = SweepOptions{}.rank_timeout_seconds;
  double run_timeout = 0;
  std::vector<std::string> merge;
  bool quiet = false;
};

// "--part K/N": the runs whose index i (in expansion order) has i % N == K − 1.
std::pair<int, int> parse_part(const std::string& text) {
  int k = 0, n = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", &k, &n, &tail) != 2 || n < 1 || k < 1 || k > n)
    throw InputError("--part: expected K/N with 1 <= K <= N (e.g. 2/4), got '" + text + "'");
  return {k, n};
}

// Copies the results (and run folders) that `from` has and `out` lacks into `out`.
int merge_from(const std::vector<std::string>& from, const std::vector<SweepJob>& jobs,
               const std::string& out) {
  const std::string results = sweep_results_dir(out);
  fs::create_directories(results);
  int copied = 0;
  for (const SweepJob& job : jobs) {
    if (read_sweep_result(results, job)) continue;
    for (const std::string& dir : from) {
      if (!read_sweep_result(sweep_results_dir(dir), job)) continue;
      const fs::path target = sweep_file(results, job.name);
      fs::path tmp = target;
      tmp += ".tmp";
      fs::copy_file(sweep_file(sweep_results_dir(dir), job.name), tmp,
                    fs::copy_options::overwrite_existing);
      const fs::path run = sweep_run_dir(dir, job.name);
      if (fs::is_directory(run)) {
        fs::create_directories(sweep_run_dir(out, job.name));
        fs::copy(run, sweep_run_dir(out, job.name),
                 fs::copy_options::recursive | fs::copy_options::overwrite_existing);
      }
      fs::rename(tmp, target);
      ++copied;
      break;
    }
  }
  return copied;
}

// The progress line on stderr after each run: done, failed, remaining, time left.
std::function<void(const SweepProgress&)> progress_printer(const std::string& name, bool quiet) {
  struct State {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    int ran = 0, failed = 0;
  };
  auto s = std::make_shared<State>();
  return [s, name, quiet](const SweepProgress& p) {
    const bool failed = !p.result || !sweep_result_failure(*p.result).empty();
    s->failed += failed;
    if (p.skipped || quiet) return;
    ++s->ran;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - s->start).count();
    const int remaining = p.total - p.done;
    std::fprintf(stderr, "sweep %s: %d/%d done, %d failed, %d remaining, %s left (%s%s, %.1f s)\n",
                 name.c_str(), p.done, p.total, s->failed, remaining,
                 format_duration(elapsed / s->ran * remaining).c_str(), p.job->name.c_str(),
                 failed ? " failed" : "", p.wall_seconds);
  };
}

int sweep(const SweepArgs& a) {
  SweepSpec spec = read_sweep_file(a.file, data_dir());
  if (is_engine_sweep(spec)) {
    std::error_code ec;
    spec.peers_dir = a.peers.empty()
                         ? default_peers_dir(fs::read_symlink("/proc/self/exe", ec).string())
                         : a.peers;
    check_engine_drivers(spec);
  }
  spec.run_timeout_seconds = a.run_timeout;
  const std::vector<SweepPoint> points = expand_sweep(spec);
  const std::vector<SweepJob> all = sweep_jobs(spec, points, a.out);
  if (!a.merge.empty() && !a.part.empty()) throw InputError("--part: not with --merge");
  std::vector<SweepJob> jobs;
  if (a.part.empty()) {
    jobs = all;
  } else {
    const auto [k, n] = parse_part(a.part);
    for (std::size_t i = 0; i < all.size(); ++i)
      if (static_cast<int>(i % n) == k - 1) jobs.push_back(all[i]);
  }

  SweepOptions so;
  so.dir = sweep_results_dir(a.out);
  so.jobs = a.jobs;
  so.rank_timeout_seconds = a.rank_timeout;
  SweepOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  std::string runner = "threads";
  if (!a.merge.empty()) {
    runner = "merge";
    outcome.skipped = merge_from(a.merge, all, a.out);
  } else {
#ifdef EXACTSIM_WITH_MPI
    std::optional<MpiSession> mpi;
    if (launched_by_mpi()) mpi.emplace();
    if (mpi && mpi->size() > 1) {
      runner =
          "MPI, " + std::to_string(mpi->size() - 1) + (mpi->size() == 2 ? " worker" : " workers");
      set_memory_backstop(kDefaultMemoryBudgetBytes);
      outcome = run_sweep_mpi(*mpi, jobs, so, progress_printer(spec.name, a.quiet));
      if (mpi->rank() != 0) return 0;  // rank 0 reports and writes the table
    } else
#else
    if (launched_by_mpi())
      throw InputError(
          "started by an MPI launcher, but this command has no MPI runner: every rank would "
          "run the whole sweep; start exactsim-mpi instead (built beside exactsim when "
          "libopenmpi-dev is installed; docs/sweeps.md \"MPI\")");
#endif
    {
      set_memory_backstop(kDefaultMemoryBudgetBytes, sweep_threads(so, jobs.size()));
      outcome = run_sweep(jobs, so, progress_printer(spec.name, a.quiet));
    }
  }

  // The table from the files, so that a resumed or merged sweep reports what one uninterrupted
  // sweep does.
  std::vector<std::optional<json>> results;
  int with_result = 0, failed = 0;
  std::string failures, stops;
  for (const SweepJob& job : all) {
    results.push_back(read_sweep_result(so.dir, job));
    if (!results.back()) continue;
    ++with_result;
    const std::string why = sweep_result_failure(*results.back());
    if (!why.empty()) ++failed, failures += "* " + job.name + ": " + why + "\n";
    const std::string stop = sweep_result_stop(*results.back());
    if (!stop.empty()) stops += "* " + job.name + ": " + stop + "\n";
  }
  const SweepTable table = sweep_table(spec, points, results);
  std::string md = sweep_table_md(table, "Sweep " + spec.name);
  if (!failures.empty()) md += "\n## Failed runs\n\n" + failures;
  if (!stops.empty()) md += "\n## Stopped runs (docs/sweeps.md \"Stop rules\")\n\n" + stops;
  if (!outcome.errors.empty()) {
    md += "\n## Runs without a result (this invocation)\n\n";
    for (const std::string& e : outcome.errors) md += "* " + e + "\n";
  }
  write_text_file(fs::path(a.out) / "table.csv", sweep_table_csv(table));
  write_text_file(fs::path(a.out) / "table.md", md);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "sweep %s: %zu runs, %d with a result (%d failed), %zu without; this invocation (%s, "
      "%.1f s): %d ran, %d %s, %d without a result\n  table: %s/table.md, %s/table.csv\n",
      spec.name.c_str(), all.size(), with_result, failed, all.size() - with_result, runner.c_str(),
      wall, outcome.ran, outcome.skipped, a.merge.empty() ? "done earlier" : "merged",
      outcome.failed, a.out.c_str(), a.out.c_str());
  for (const std::string& e : outcome.errors)
    std::fprintf(stderr, "exactsim sweep: no result: %s\n", e.c_str());
  return outcome.failed ? 1 : 0;
}

}  // namespace

Action register_sweep(CLI::App& app) {
  auto a = std::make_shared<SweepArgs>();
  CLI::App* sub = app.add_subcommand(
      "sweep",
      "Run a sweep file: a scene file or scenario over axes of field values, on threads or "
      "under mpirun; resumable; writes DIR/table.csv and DIR/table.md (docs/sweeps.md)");
  sub->add_option("sweep", a->file, "Sweep file (JSON, docs/sweeps.md)")->required();
  sub->add_option("--out", a->out,
                  "Output folder: results/NAME.json per finished run, runs/NAME/ (with "
                  "record.trajectory), table.csv, table.md; a sweep resumes from it")
      ->required();
  sub->add_option("--jobs", a->jobs, "Parallel runs on threads (default: the number of cores)")
      ->check(at_least(0, "(0 = one per core)"));
  sub->add_option("--part", a->part,
                  "Run only part K of N (K/N: the runs whose index modulo N is K-1), e.g. one "
                  "part per machine; --merge joins the parts' folders");
  sub->add_option("--merge", a->merge,
                  "Run nothing: copy the finished runs of these output folders (of this sweep "
                  "file, e.g. its parts) into --out and write the table")
      ->expected(1, -1);
  sub->add_option("--peers", a->peers,
                  "Folder of the peer drivers peer_ENGINE for a sweep over engines (default: "
                  "bench/peers of the build tree beside this command; docs/peers.md)");
  sub->add_option("--rank-timeout", a->rank_timeout,
                  "MPI runner: a worker silent this many seconds is lost and its run reported "
                  "without a result (launch with mpirun --enable-recovery to go on without it; "
                  "default 60)")
      ->check(at_least(2, "(a working rank says it is alive every second)"));
  sub->add_option("--run-timeout", a->run_timeout,
                  "Seconds of wall time after which a run that has not finished is ended and "
                  "reported without a result (a hung run; the next invocation runs it again). "
                  "An exactsim run checks it after each step; a peer driver, and under MPI "
                  "every run's process, is killed at it (default 0: no bound)")
      ->check(at_least(0, "(0 = no bound)"));
  sub->add_flag("--quiet", a->quiet, "No progress lines");
  return [a] { return sweep(*a); };
}

}  // namespace exactsim::cli
