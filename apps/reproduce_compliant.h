// `exactsim reproduce plus-vs-compliant`: PLUS against the compliant Hertz / Hunt–Crossley /
// Stribeck model on the PLUS paper's Examples 1–4 (docs/compliant.md "The examples"): tables (CSV +
// Markdown) and plot data for scripts/plot_compliant.py, written to out_dir. Returns the exit
// status.
#pragma once

#include <string>

namespace exactsim::cli {

int reproduce_compliant(const std::string& out_dir, bool quick);

}  // namespace exactsim::cli
