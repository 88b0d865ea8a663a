// The memory budget (docs/input-validation.md "Memory budget"). The allocations whose size a
// scene decides, and which grow without bound when the scene is absurd, are estimated before
// they are made: above StepOptions::memory_budget_bytes the step throws MemoryBudgetError (the
// CLI turns it into exit status 4) instead of exhausting the machine's memory.
//
// Today that is the dense part of a time step: the MLCP's G, H (n_v × m) and D (m × m), the
// reduction W G and N = Hᵀ W G + D, and the solvers' n × n buffers (Lemke's tableau and
// refactorisation, the polish LU, Fischer–Burmeister's Jacobian and normal matrix, the
// long-double retry, the regularised recovery and the split stabilisation's position LCP). Their
// sum is O(m²) and dominates a step's memory once m reaches the hundreds.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace exactsim {

struct SolverOptions;

// 4 GiB (StepOptions::memory_budget_bytes; CLI --memory-budget, scene
// stepping.memory_budget_gib).
inline constexpr std::uint64_t kDefaultMemoryBudgetBytes = std::uint64_t{4} << 30;

// GiB (2^30 bytes, as the scene and the CLI give it) to bytes, rounded; gib must be in the
// accepted range (limits::kMinMemoryBudgetGib … kMaxMemoryBudgetGib).
inline std::uint64_t memory_budget_from_gib(double gib) {
  return static_cast<std::uint64_t>(std::llround(gib * 1073741824.0));
}

// An allocation would exceed the memory budget. Not an InputError: the scene was valid, it grew
// (or is) too large for the budget it runs under.
class MemoryBudgetError : public std::runtime_error {
 public:
  MemoryBudgetError(const std::string& what, std::uint64_t needed, std::uint64_t budget)
      : std::runtime_error(what), needed_(needed), budget_(budget) {}
  std::uint64_t needed_bytes() const { return needed_; }
  std::uint64_t budget_bytes() const { return budget_; }

 private:
  std::uint64_t needed_, budget_;
};

// Upper estimate (bytes) of the dense buffers of one solve_lcp of an n-unknown LCP over all its
// paths (Lemke with refactorisation and polish, the long-double retry when `options` allow it
// at this n, Fischer–Burmeister), the LCP's own matrix included.
double lcp_solve_bytes(double n, const SolverOptions& options);

// Upper estimate (bytes) of the dense buffers of one Stewart–Trinkle step whose MLCP has n_v
// velocity unknowns and m complementarity unknowns, n_normal of them normal rows (the split
// stabilisation's position LCP): G, H, W G (n_v × m each), D and N (m × m), the velocity solve,
// the regularised recovery (continue_on_solver_failure) and the position LCP.
double step_lcp_bytes(double n_v, double m, double n_normal, const SolverOptions& options);

// Bytes of the split projection's position LCP on n rows (part of step_lcp_bytes; on the sparse
// path checked alone, for the rows of its working set).
double projection_lcp_bytes(double n_v, double n, const SolverOptions& options);

// Bytes of the split projection's sparse QP on n rows (the sparse path's first attempt): G_S's
// nonzeros (at most two bodies' blocks a row) and the dual active-set factor on at most
// min(n_v, n) active rows.
double projection_qp_bytes(double n_v, double n);

// Throws MemoryBudgetError naming the step's problem ("the step's contact problem (m unknowns,
// k bodies in contact) needs ...") when step_lcp_bytes exceeds the budget. Allocates nothing
// when it passes.
void check_step_memory_budget(int n_v, int m, int n_normal, int bodies_in_contact,
                              const SolverOptions& options, std::uint64_t budget);

// Throws MemoryBudgetError("<what> needs an estimated X, more than the memory budget of Y ...")
// when needed > budget.
void check_memory_budget(double needed, std::uint64_t budget, const std::string& what);

// "512 MiB", "4 GiB", "1.37 GiB": bytes in binary units, 3 significant digits.
std::string format_bytes(double bytes);

}  // namespace exactsim
