#include "exactsim/stepping/memory_budget.h"
#include "solvers/lcp_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "exactsim/solvers/lcp.h"

namespace exactsim {

double lcp_solve_bytes(double n, const SolverOptions& options) {
  constexpr double kDouble = sizeof(double), kLong = sizeof(long double);
  // The LCP's matrix; Lemke: tableau [x_B | B⁻¹] (n × (n+1)), the basis matrix and its LU
  // (refactorisation), or in the revised form G and C with its LU in place (k × k, k <= n) and
  // M's compressed columns (12 bytes per nonzero, at most revised_sparse_density n² of them); the
  // active-block buffer (n × n, its LU in place) of the warm start, keep_nonsingular_block and
  // the polish.
  const bool revised =
      options.diagnostics.revised_min_size > 0 && n >= options.diagnostics.revised_min_size;
  const double columns =
      std::clamp(options.diagnostics.revised_sparse_density, 0.0, 1.0) * 1.5 * n * n;
  const double lemke = revised ? 2 * n * n + columns : n * (n + 1) + 2 * n * n;
  double bytes = kDouble * (n * n + lemke + n * n);
  // Fischer–Burmeister: Jacobian, its LU, the normal matrix and its LDLT — when it runs at this n
  // (the same rule as the stack's: fischer_burmeister_iterations).
  if (options.fallback && fischer_burmeister_iterations(static_cast<Eigen::Index>(n), options) > 0)
    bytes += kDouble * 4 * n * n;
  // The long-double Lemke retry (lemke.cc): tableau, basis matrix, its LU and the cast of M,
  // allocated only when its work fits the cap (the same rule as the solver's).
  const bool long_double_fits = long_double_lemke_fits(static_cast<Eigen::Index>(n), options);
  if (options.diagnostics.extended_precision_retry && long_double_fits)
    bytes += kLong * (n * (n + 1) + 3 * n * n);
  // The regularisation-path rescue (regularisation_path.cc), where it runs (the same rule): a
  // copy of M and the long-double LU of an active block (k <= n).
  if (options.regularisation_path_retry && long_double_fits)
    bytes += kDouble * n * n + 2 * kLong * n * n;
  return bytes + 64 * kDouble * n;  // the O(n) vectors, generously
}

double step_lcp_bytes(double n_v, double m, double n_normal, const SolverOptions& options) {
  constexpr double kDouble = sizeof(double);
  // Assembly: G, H (n_v × m), D (sparse, generously 8 entries per row, each with its assembly
  // entry: 32 bytes); reduction: W G (n_v × m); N is the velocity LCP's matrix, counted by
  // lcp_solve_bytes.
  double bytes = kDouble * 3 * n_v * m + 32 * 8 * m;
  bytes += lcp_solve_bytes(m, options);
  // The regularised recovery (step.cc): a copy of N, solved on the step's solver buffers (a
  // Lemke-only solve, within what the step's own solve holds).
  bytes += kDouble * m * m;
  return bytes + projection_lcp_bytes(n_v, n_normal, options);
}

double projection_lcp_bytes(double n_v, double n, const SolverOptions& options) {
  // The split stabilisation's position LCP on n normal rows, with room for a dense G_S
  // (n_v × n) and factors of n_v × n_v there and in the frictionless fallback (an upper estimate:
  // G_S is sparse and the dual active set's factor at most min(n_v, n)², projection_qp_bytes).
  return lcp_solve_bytes(n, options) + sizeof(double) * (n_v * n + 4 * n_v * n_v);
}

double projection_qp_bytes(double n_v, double n) {
  const double active = std::min(n_v, n);
  // 12 nonzeros a row, each a double and an index; the triplets that build them (16 bytes).
  return 12 * (12 + 16) * n + sizeof(double) * (active * active + 16 * (n_v + n));
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  char b[48];
  if (u == 0)
    std::snprintf(b, sizeof b, "%.0f bytes", bytes);
  else
    std::snprintf(b, sizeof b, "%.3g %s", bytes, units[u]);
  return b;
}

void check_memory_budget(double needed, std::uint64_t budget, const std::string& what) {
  if (needed <= static_cast<double>(budget)) return;
  const std::uint64_t needed_bytes =
      std::isfinite(needed) && needed < 1.8e19 ? static_cast<std::uint64_t>(needed) : UINT64_MAX;
  throw MemoryBudgetError(what + " needs an estimated " + format_bytes(needed) +
                              ", more than the memory budget of " +
                              format_bytes(static_cast<double>(budget)) +
                              " (raise it with --memory-budget GIB or the scene's "
                              "stepping.memory_budget_gib; docs/input-validation.md)",
                          needed_bytes, budget);
}

void check_step_memory_budget(int n_v, int m, int n_normal, int bodies_in_contact,
                              const SolverOptions& options, std::uint64_t budget) {
  const double needed = step_lcp_bytes(n_v, m, n_normal, options);
  if (needed <= static_cast<double>(budget)) return;
  check_memory_budget(needed, budget,
                      "the step's contact problem (" + std::to_string(m) + " unknowns, " +
                          std::to_string(bodies_in_contact) + " bodies in contact)");
}

}  // namespace exactsim
