// `exactsim reproduce plus`: the PLUS paper's Examples 1–3 (tables, round-by-round Table 2,
// plot data) written to out_dir. Returns the process exit status.
#pragma once

#include <string>

namespace exactsim::cli {

int reproduce_plus(const std::string& out_dir, bool quick);

}  // namespace exactsim::cli
