// SIGINT and SIGTERM during `exactsim run` (docs/robustness.md "Interrupted runs"): the first
// asks the run to stop after the step in progress, a second ends the process at once.
#pragma once

#include <csignal>

namespace exactsim::cli {

// Installs the handlers. The first signal only stores its number in interrupt_flag() (all that
// is async-signal-safe to do); the run checks it between steps. A second restores the default
// action and raises itself again: the process ends as the signal's default says.
void catch_interrupts();

// Back to the default action (after the run: a signal then ends the process at once).
void release_interrupts();

// The number of the first SIGINT or SIGTERM received, 0 while none.
const volatile std::sig_atomic_t* interrupt_flag();

// The exit status of a run ended by signal `sig`: 128 + sig (130 for SIGINT, 143 for SIGTERM),
// the shell's convention for a process ended by that signal.
int interrupted_status(int sig);

}  // namespace exactsim::cli
