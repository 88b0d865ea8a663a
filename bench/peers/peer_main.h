// The peer programs' main (the drivers and peer_metrics): the command line parsed, the work run,
// and the exit statuses of docs/peers.md: 0 done, 2 bad input (the command line, an InputError
// naming the file, field and reason), 1 any other failure; errors on standard error as
// "<program>: error: ..." / "<program>: failed: ...".
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace exactsim::peers {

int run_program(CLI::App& app, int argc, char** argv, const std::function<int()>& work);

// An option's check: a finite number above `min` (or at least `min` when `inclusive`), with a
// message a person reads ("must be > 0, got -1") instead of CLI11's range up to the largest double.
CLI::Validator number_above(double min, bool inclusive = false);

}  // namespace exactsim::peers
