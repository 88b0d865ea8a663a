// The --memory-budget option of `run` and `stress`, and the process limit behind it
// (docs/input-validation.md "Memory budget").
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>

namespace exactsim::cli {

// Adds --memory-budget GIB to `sub`, stored in `gib`.
void add_memory_budget_option(CLI::App* sub, std::optional<double>& gib);

// The budget in bytes from the option's value; InputError outside the accepted range
// (limits::kMinMemoryBudgetGib … kMaxMemoryBudgetGib).
std::uint64_t memory_budget_bytes(double gib);

// The backstop behind the estimates: lowers the soft address-space limit (RLIMIT_AS) of the
// process to concurrent_runs × 2 × budget + 1 GiB (never above the hard limit; never raised
// above a lower limit the user set), so that memory the estimates do not cover ends in
// std::bad_alloc (exit 4) rather than in the kernel's OOM killer. Returns the limit set, 0 when
// none could be set or in a sanitizer build (its shadow memory needs the address space).
std::uint64_t set_memory_backstop(std::uint64_t budget_bytes, int concurrent_runs = 1);

// The soft address-space limit of the process (0: unlimited).
std::uint64_t memory_backstop();

}  // namespace exactsim::cli
