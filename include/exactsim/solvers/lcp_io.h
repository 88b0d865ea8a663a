// LCP files: capture a reduced LCP (e.g. a failed time-step solve) and read it back exactly.
//
// Text format, version 1 (one item per line, '#' starts a comment line):
//   exactsim-lcp 1
//   n <n>
//   impulse_scale <Z>        optional; the certificate's impulse scale (0: derived from M, q)
//   note <free text>         optional, any number of lines
//   q
//   <n values>               one per line
//   M <nnz>
//   <i> <j> <value>          the non-zero entries, 0-based
// Values are written as C99 hexadecimal floats (printf "%a"), so a file round-trips bit-exactly;
// read_lcp also accepts decimal numbers.
//
// Dumping during a run: set the environment variable EXACTSIM_DUMP_LCP to a directory and every
// reduced LCP whose solve_mlcp / solve_lcp ends without kSolved is written there as
// `lcp-<pid>-<counter>-<status>.lcp`, and on the sparse path every one (of at most 2,000 rows,
// without free rows) on which all the interior point's starts stalled, as `…-stall.lcp` (its note
// gives the certificate's tolerance; bench/interior_point_model.py runs a dense model of the
// interior point on them). With EXACTSIM_DUMP_LCP_ALL=1 every non-empty solve_mlcp is written
// (sequences for warm-start benchmarks). The variables are read once per process.
#pragma once

#include <string>

#include "exactsim/solvers/lcp.h"

namespace exactsim {

struct LcpFileInfo {
  Real impulse_scale = 0;  // the certificate's impulse scale Z (0: derive from the LCP)
  std::string note;        // free text (origin, solver verdict, ...)
};

// Throws InputError on an unwritable path.
void write_lcp(const std::string& path, const Lcp& lcp, const LcpFileInfo& info = {});
// Throws InputError naming the file and line on a malformed file.
Lcp read_lcp(const std::string& path, LcpFileInfo* info = nullptr);

// The dump directory from EXACTSIM_DUMP_LCP ("" when unset), read once.
const std::string& lcp_dump_dir();
// True when EXACTSIM_DUMP_LCP_ALL=1 (dump every solve, not only failures).
bool lcp_dump_all();
// Writes lcp into lcp_dump_dir() (no-op when unset) with a unique name tagged by `tag`; returns
// the path written ("" when none). Never throws (a dump must not change a run's outcome).
std::string dump_lcp(const Lcp& lcp, const LcpFileInfo& info, const char* tag);

}  // namespace exactsim
