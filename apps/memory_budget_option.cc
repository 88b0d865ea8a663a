#include "memory_budget_option.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "exactsim/io/scene_limits.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/memory_budget.h"

namespace exactsim::cli {

namespace {

// AddressSanitizer and ThreadSanitizer reserve terabytes of address space for their shadow
// memory as the program runs: under an address-space limit their next mapping fails and the
// process dies ("Failed to mmap"), whatever the scene. Their builds set no backstop; the budget's
// estimates still apply (docs/input-validation.md "Memory budget").
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kShadowMemory = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kShadowMemory = true;
#else
constexpr bool kShadowMemory = false;
#endif
#else
constexpr bool kShadowMemory = false;
#endif

// The limit this process set, so that a later, larger budget may raise it again (but never
// above a limit that was there before the first call).
std::uint64_t g_initial_soft = 0;  // 0: not yet read
}  // namespace

void add_memory_budget_option(CLI::App* sub, std::optional<double>& gib) {
  sub->add_option("--memory-budget", gib,
                  "Memory budget in GiB (default 4): a step whose contact problem would need "
                  "more ends the run with exit status 4 (docs/input-validation.md)");
}

std::uint64_t memory_budget_bytes(double gib) {
  if (!(gib >= limits::kMinMemoryBudgetGib && gib <= limits::kMaxMemoryBudgetGib)) {
    char got[32];
    std::snprintf(got, sizeof got, "%g", gib);
    throw InputError(std::string("--memory-budget: must lie in [0.001, 1e6] GiB, got ") + got);
  }
  return memory_budget_from_gib(gib);
}

std::uint64_t set_memory_backstop(std::uint64_t budget_bytes, int concurrent_runs) {
  if (kShadowMemory) return 0;
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0) return 0;
  if (g_initial_soft == 0) g_initial_soft = r.rlim_cur == RLIM_INFINITY ? UINT64_MAX : r.rlim_cur;
  const double want =
      static_cast<double>(std::max(1, concurrent_runs)) * 2.0 * static_cast<double>(budget_bytes) +
      1073741824.0;
  std::uint64_t limit = want >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(want);
  limit = std::min(limit, g_initial_soft);
  if (r.rlim_max != RLIM_INFINITY) limit = std::min<std::uint64_t>(limit, r.rlim_max);
  r.rlim_cur = limit == UINT64_MAX ? RLIM_INFINITY : static_cast<rlim_t>(limit);
  if (setrlimit(RLIMIT_AS, &r) != 0) return 0;
  return limit == UINT64_MAX ? 0 : limit;
}

std::uint64_t memory_backstop() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
  return r.rlim_cur;
}

}  // namespace exactsim::cli
