#include "interrupt.h"

#include <signal.h>

namespace exactsim::cli {
namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_interrupt(int sig) {
  if (g_signal != 0) {  // the second: end now
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_signal = sig;
}

}  // namespace

void catch_interrupts() {
  struct sigaction action = {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write or read in progress goes on
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void release_interrupts() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

const volatile std::sig_atomic_t* interrupt_flag() { return &g_signal; }

int interrupted_status(int sig) { return 128 + sig; }

}  // namespace exactsim::cli
