// Small helpers shared by the reproduce commands (plus, peg2d, peg3d, plus-vs-compliant): model
// names, number formatting for tables, writing a result file, and the statistics and table cells
// the two pouring sweeps (peg2d, peg3d) have in common.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/stepping/world.h"
#include "experiments/sweep.h"

namespace exactsim::cli {

// "peg", "standard" or "corrective"; InputError naming --models otherwise.
ContactModel parse_model(const std::string& name);
// Three significant digits, for Markdown tables.
std::string fmt(Real x);
// Six significant digits, for CSV cells.
std::string g(Real x);
// x rounded to six significant digits: plenty for a metric plotted on a log axis, and it keeps
// the per-run files small (≈ 10 bytes per value instead of 20).
Real compact(Real x);
// Writes `text` to `path`; InputError if the file cannot be written.
void write_text_file(const std::filesystem::path& path, const std::string& text);

// One cell of a pouring sweep's results table (peg2d: a model and h; peg3d: a model, protocol
// group and h): the result files of its runs, pooled.
struct PourCell {
  std::string model;
  int h_ms = 0;
  int runs = 0;
  long steps_planned = 0, steps_done = 0, failures = 0, runs_with_failure = 0;
  std::vector<Real> overlap, first_failure_time;
  long nonfinite = 0;
  long sum_u = 0, sum_i = 0, steps_with_i = 0, sum_contacts = 0;
  double wall = 0;
  Quartiles halves, interpolated;
  Real max_overlap = 0;
};

// A run's sweep result (experiments/sweep_run.h) as add_pour_run reads it: its counts, wall and
// solver seconds, h, the stop rule that ended it ("stopped", null if none), the first step whose
// solve failed (0-based, null if none) and the per-step series it recorded (overlap, U, I,
// contacts, and lcp_size when recorded), the overlaps rounded to 6 significant digits (null: not
// finite).
nlohmann::json pour_run(const nlohmann::json& result, Real h);
// The line `reproduce peg2d|peg3d` print after each run of their sweep.
void print_pour_progress(const SweepProgress& p);

// Adds what every pour's result file has: step and failure counts, wall time, the first failure,
// the overlap series (non-finite values are counted, not pooled) and the U / I / contact counts.
void add_pour_run(PourCell& c, const nlohmann::json& r);
// The quartiles and the maximum of the pooled overlaps, once every run is added.
void finish_pour_cell(PourCell& c);
// CSV cells median, Q1 and Q3 (halves), q1 and q3 (true), maximum, each followed by a comma
// (empty cells when nothing was pooled).
std::string overlap_csv(const PourCell& c);
// CSV cells first failure time, I share, fraction of steps with an I, mean contacts per step,
// comma-separated (no trailing comma).
std::string rates_csv(const PourCell& c);
// Markdown cells median, "Q1, Q3" (halves), "q1, q3" (true), each followed by " | ".
std::string overlap_md(const PourCell& c);
// Markdown cells first failure (s), I share, steps with an I, each followed by " | ".
std::string rates_md(const PourCell& c);
// The note under a table row with non-finite overlaps ("" when there are none).
std::string nonfinite_md(const PourCell& c);
// The "Runs that did not finish" section of results.md ("" when every run finished).
std::string unfinished_md(const SweepOutcome& outcome);
// Prints the sweep's outcome (`name`: the command) and returns its exit status.
int report_sweep(const char* name, const SweepOutcome& outcome, const std::filesystem::path& md);

}  // namespace exactsim::cli
