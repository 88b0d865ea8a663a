// The MPI runner of sweeps (docs/sweeps.md "Runners"): under `mpirun -n K` (or `srun`), rank 0
// schedules the jobs of experiments/sweep.h and publishes their results, ranks 1 … K−1 run them.
// run_sweep_mpi and MpiSession are built with EXACTSIM_WITH_MPI (CMake finds MPI), into the
// exactsim-mpi command only (exactsim_sweep_mpi).
#pragma once

#include <cstdlib>
#include <functional>
#include <vector>

#include "experiments/sweep.h"

namespace exactsim {

// True when an MPI launcher (mpirun, mpiexec, srun with PMI/PMIx) started this process: its
// environment has the launcher's variables. Needs no MPI (a build without the runner refuses).
inline bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

// MPI_Init on construction, MPI_Finalize on destruction.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // The process ends without MPI_Finalize: after a rank was lost, its closing fence would wait
  // for that rank forever.
  void end_without_finalize() { finalize_ = false; }

 private:
  int rank_ = 0, size_ = 1;
  bool finalize_ = true;
};

// Every rank calls it with the same jobs (in the same order) and options. Rank 0 reports the
// jobs done earlier, hands the others out one at a time, costliest first, to whichever worker is
// free, writes each result as run_sweep does and calls on_done; it returns the outcome. A worker
// runs each job in a child process, so that a job that crashes (a signal) is reported as that
// job's error and the worker goes on; it returns an empty outcome. Needs at least 2 ranks.
SweepOutcome run_sweep_mpi(MpiSession& mpi, const std::vector<SweepJob>& jobs,
                           const SweepOptions& options,
                           const std::function<void(const SweepProgress&)>& on_done = {});

}  // namespace exactsim
