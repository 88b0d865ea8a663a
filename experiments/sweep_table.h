// The results table of a sweep (docs/sweeps.md "The table"): one row per axis point (the values
// of the axes that are not pooled), with the number of runs, of failed and stopped runs and of runs
// without a result, and the median, quartiles and maximum of every recorded metric over the point's
// runs (a summary field: one value per run; a series: every step of every run).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/sweep_file.h"

namespace exactsim {

struct SweepTable {
  std::vector<std::string> axes;     // the columns of the axis values (paths)
  std::vector<std::string> metrics;  // the recorded metrics, summary fields then series
  struct Stats {
    long n = 0;  // values pooled (0: none, the other fields are unset)
    double q1 = 0, median = 0, q3 = 0, max = 0;
  };
  struct Row {
    std::vector<nlohmann::json> point;  // one value per column of `axes`
    int runs = 0, failed = 0, missing = 0;
    int stopped = 0;           // of the runs, those a stop rule ended (docs/sweeps.md "Stop rules")
    std::vector<Stats> stats;  // one per metric
  };
  std::vector<Row> rows;
};

// results[i]: the result of points[i] (nullopt when it has none yet). Quartiles are the true
// ones (sweep.h quartiles_interpolated); values that are not finite numbers are left out.
SweepTable sweep_table(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                       const std::vector<std::optional<nlohmann::json>>& results);

// CSV: a header row (the axis paths, runs, failed, stopped, missing, then METRIC.median, .q1, .q3,
// .max per metric), values with 6 significant digits, empty cells where nothing was pooled.
std::string sweep_table_csv(const SweepTable& t);
// Markdown: a title, then one column per metric holding "median [q1, q3] max" (3 digits).
std::string sweep_table_md(const SweepTable& t, const std::string& title);

}  // namespace exactsim
