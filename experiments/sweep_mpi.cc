#include "experiments/sweep_mpi.h"

#include <mpi.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using nlohmann::json;

constexpr int kWork = 1, kStop = 2, kResult = 3, kAlive = 4, kEnd = 5;
// A worker says it is alive this often while its job runs (docs/sweeps.md "MPI": lost ranks).
constexpr int kAliveMilliseconds = 1000;

void send_alive() {
  char alive = 1;
  MPI_Send(&alive, 1, MPI_CHAR, 0, kAlive, MPI_COMM_WORLD);
}

// Runs the job in a child process and returns {"result": …} or {"error": why}: a crash of the
// job (a signal, an abort) ends the child, not the worker, and a child still running after
// job.timeout_seconds is killed (a hung run: the worker's word that it is alive comes from this
// process, not from the run). Says it is alive to rank 0 while the child runs.
json run_isolated(const SweepJob& job) {
  int fds[2];
  if (pipe(fds) != 0) return {{"error", std::string("pipe: ") + std::strerror(errno)}};
  const pid_t worker_pid = getpid();
  // Signals wait while the child is created and until it has reset its handlers (below): one
  // sent to the new process in between (a kill from outside) would otherwise meet the MPI
  // rank's handler.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  const pid_t pid = fork();
  if (pid < 0) {
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    close(fds[0]), close(fds[1]);
    return {{"error", std::string("fork: ") + std::strerror(errno)}};
  }
  if (pid == 0) {
    // A crash ends the run's process at once, for the worker to report. The handlers inherited
    // from the MPI rank print a backtrace from within the signal handler, which hangs when the
    // crash interrupted malloc (it dlopens libgcc_s and waits for the arena lock).
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, SIG_DFL);
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    // The run ends with its worker (a worker ended by MPI_Abort or by the launcher).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != worker_pid) _exit(4);  // the worker ended before the line above
    close(fds[0]);
    json out;
    try {
      out = {{"result", job.run()}};
    } catch (const std::exception& e) {
      out = {{"error", e.what()}};
    }
    const std::string text = out.dump();
    for (std::size_t at = 0; at < text.size();) {
      const ssize_t n = write(fds[1], text.data() + at, text.size() - at);
      if (n <= 0) _exit(3);
      at += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  close(fds[1]);
  std::string text;
  char buffer[1 << 16];
  auto said_alive = std::chrono::steady_clock::now();
  const RunDeadline deadline(job.timeout_seconds);
  bool timed_out = false;
  while (true) {
    if (deadline.passed()) {
      kill(pid, SIGKILL);
      timed_out = true;
      break;
    }
    pollfd readable{fds[0], POLLIN, 0};
    const int ready = poll(&readable, 1, kAliveMilliseconds);
    if (std::chrono::steady_clock::now() - said_alive >=
        std::chrono::milliseconds(kAliveMilliseconds)) {
      send_alive();
      said_alive = std::chrono::steady_clock::now();
    }
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    if (ready < 0) break;
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return {{"error", run_timeout_error(job.timeout_seconds) + "; killed"}};
  if (WIFSIGNALED(status))
    return {{"error", "the run crashed (signal " + std::to_string(WTERMSIG(status)) + ": " +
                          strsignal(WTERMSIG(status)) + ")"}};
  json out = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || out.is_discarded())
    return {{"error", "the run's process ended without a result (exit status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")"}};
  return out;
}

void send_index(int index, int to) {
  MPI_Send(&index, 1, MPI_INT, to, index < 0 ? kStop : kWork, MPI_COMM_WORLD);
}

// How a stopped worker ends (worker()): with MPI_Finalize or, after a rank was lost, without.
void send_end(bool finalize, int to) {
  int word = finalize ? 1 : 0;
  MPI_Send(&word, 1, MPI_INT, to, kEnd, MPI_COMM_WORLD);
}

// Runs the jobs rank 0 sends until it says stop; then waits for rank 0's word on how to end:
// true to finalize, false when a rank was lost.
bool worker(const std::vector<SweepJob>& jobs) {
  while (true) {
    int index = -1;
    MPI_Status status;
    MPI_Recv(&index, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kStop) {
      int finalize = 1;
      MPI_Recv(&finalize, 1, MPI_INT, 0, kEnd, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      return finalize != 0;
    }
    const auto start = std::chrono::steady_clock::now();
    json out = run_isolated(jobs.at(static_cast<std::size_t>(index)));
    out["job"] = index;
    out["wall_seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string text = out.dump();
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, kResult, MPI_COMM_WORLD);
  }
}

// Rank 0's part: hands the jobs out and records their results until every worker is done.
SweepOutcome schedule(MpiSession& mpi, SweepLedger& ledger, const std::vector<SweepJob>& jobs,
                      const SweepOptions& options) {
  const std::vector<const SweepJob*>& todo = ledger.todo();
  using Clock = std::chrono::steady_clock;
  // Per worker: the job it runs (-1: none), when it last said something, whether it is lost.
  std::vector<int> running(mpi.size(), -1);
  std::vector<Clock::time_point> heard(mpi.size(), Clock::now());
  std::vector<char> lost(mpi.size(), 0);
  std::size_t next = 0;
  int active = 0;
  auto hand_out = [&](int to) {
    if (next < todo.size()) {
      running[to] = static_cast<int>(todo[next++] - jobs.data());
      send_index(running[to], to);
      heard[to] = Clock::now();
      ++active;
    } else {
      send_index(-1, to);
    }
  };
  for (int w = 1; w < mpi.size(); ++w) hand_out(w);
  const auto silence = std::chrono::duration<double>(options.rank_timeout_seconds);
  while (active > 0) {
    // Polled with pauses rather than MPI_Probe, which spins: rank 0 then uses almost no CPU, and
    // K workers and rank 0 share K cores.
    MPI_Status status;
    int ready = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
    if (!ready) {
      // A worker silent for rank_timeout_seconds is lost: its job has no result (the next
      // invocation runs it again) and it gets no other.
      for (int w = 1; w < mpi.size(); ++w)
        if (running[w] >= 0 && Clock::now() - heard[w] > silence) {
          ledger.finish(jobs.at(static_cast<std::size_t>(running[w])), nullptr,
                        "rank " + std::to_string(w) + " was lost (no word from it for " +
                            std::to_string(static_cast<int>(options.rank_timeout_seconds)) + " s)",
                        0);
          running[w] = -1, lost[w] = 1, --active;
        }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    const int from = status.MPI_SOURCE;
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    std::string text(static_cast<std::size_t>(count), '\0');
    MPI_Recv(text.data(), count, MPI_CHAR, from, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    heard[from] = Clock::now();
    if (status.MPI_TAG != kResult || lost[from]) continue;  // alive, or late from a lost rank
    --active;
    running[from] = -1;
    const json out = json::parse(text);
    const SweepJob& job = jobs.at(out["job"].get<std::size_t>());
    const json* result = out.contains("result") ? &out["result"] : nullptr;
    ledger.finish(job, result, out.value("error", ""), out["wall_seconds"].get<double>());
    hand_out(from);
  }
  // A rank declared lost may only have been slow: it waits for work, and is told to stop too.
  // Then every worker learns how to end: MPI_Finalize's fence would wait for a lost rank forever.
  const bool any_lost = std::find(lost.begin(), lost.end(), 1) != lost.end();
  for (int w = 1; w < mpi.size(); ++w) {
    if (lost[w]) send_index(-1, w);
    send_end(!any_lost, w);
  }
  if (any_lost) mpi.end_without_finalize();
  return ledger.outcome();
}

}  // namespace

MpiSession::MpiSession() {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  // A message to a lost rank returns an error (ignored: that rank is done) instead of aborting.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() {
  if (finalize_) MPI_Finalize();
}

SweepOutcome run_sweep_mpi(MpiSession& mpi, const std::vector<SweepJob>& jobs,
                           const SweepOptions& options,
                           const std::function<void(const SweepProgress&)>& on_done) {
  if (mpi.size() < 2) throw InputError("sweep: the MPI runner needs at least 2 ranks");
  if (mpi.rank() != 0) {
    if (!worker(jobs)) mpi.end_without_finalize();
    return {};
  }
  // Rank 0: a failure to read the folder must still release the workers.
  std::optional<SweepLedger> ledger;
  try {
    ledger.emplace(jobs, options, on_done);
  } catch (...) {
    for (int w = 1; w < mpi.size(); ++w) send_index(-1, w), send_end(true, w);
    throw;
  }
  try {
    return schedule(mpi, *ledger, jobs, options);
  } catch (const std::exception& e) {
    // The workers wait for rank 0's word: without MPI_Abort they would wait forever. Every
    // finished run is in its file already.
    std::fprintf(stderr,
                 "exactsim sweep: rank 0: %s; ending every rank (MPI_Abort): the finished runs "
                 "are kept, and the same command resumes\n",
                 e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    throw;
  }
}

}  // namespace exactsim
