#include "experiments/sweep_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "experiments/sweep.h"
#include "experiments/sweep_run.h"

namespace exactsim {
namespace {

using nlohmann::json;

std::string digits(double x, int n) {
  char b[40];
  std::snprintf(b, sizeof b, "%.*g", n, x);
  return b;
}

std::string cell(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

void add_value(std::vector<double>& sample, const json& v) {
  if (v.is_boolean())
    sample.push_back(v.get<bool>() ? 1 : 0);
  else if (v.is_number() && std::isfinite(v.get<double>()))
    sample.push_back(v.get<double>());
}

SweepTable::Stats stats_of(std::vector<double> sample) {
  SweepTable::Stats s;
  if (sample.empty()) return s;
  s.n = static_cast<long>(sample.size());
  const Quartiles q = quartiles_interpolated(sample);
  s.q1 = q.q1, s.median = q.median, s.q3 = q.q3;
  s.max = *std::max_element(sample.begin(), sample.end());
  return s;
}

}  // namespace

SweepTable sweep_table(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                       const std::vector<std::optional<json>>& results) {
  SweepTable t;
  std::vector<std::size_t> kept;  // the axes that are not pooled
  for (std::size_t i = 0; i < spec.axes.size(); ++i)
    if (!spec.axes[i].pool) kept.push_back(i), t.axes.push_back(spec.axes[i].path);
  const std::size_t n_summary = spec.record.summary.size();
  t.metrics = spec.record.summary;
  t.metrics.insert(t.metrics.end(), spec.record.series.begin(), spec.record.series.end());

  std::map<std::vector<json>, std::size_t> row_of;        // point -> row, rows in expansion order
  std::vector<std::vector<std::vector<double>>> samples;  // [row][metric]
  for (std::size_t p = 0; p < points.size(); ++p) {
    std::vector<json> key;
    for (std::size_t i : kept) key.push_back(points[p].values[i]);
    auto [it, added] = row_of.try_emplace(key, t.rows.size());
    if (added) {
      SweepTable::Row row;
      row.point = key;
      t.rows.push_back(std::move(row));
      samples.emplace_back(t.metrics.size());
    }
    SweepTable::Row& row = t.rows[it->second];
    if (!results[p]) {
      ++row.missing;
      continue;
    }
    const json& r = *results[p];
    ++row.runs;
    row.failed += !sweep_result_failure(r).empty();
    row.stopped += !sweep_result_stop(r).empty();
    for (std::size_t m = 0; m < t.metrics.size(); ++m) {
      const bool series = m >= n_summary;
      const json& from = r.value(series ? "series" : "summary", json::object());
      if (!from.contains(t.metrics[m])) continue;
      const json& v = from[t.metrics[m]];
      if (series && v.is_array())
        for (const json& x : v) add_value(samples[it->second][m], x);
      else if (!series)
        add_value(samples[it->second][m], v);
    }
  }
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    for (std::vector<double>& s : samples[r]) t.rows[r].stats.push_back(stats_of(std::move(s)));
  return t;
}

std::string sweep_table_csv(const SweepTable& t) {
  std::string out;
  for (const std::string& a : t.axes) out += a + ",";
  out += "runs,failed,stopped,missing";
  for (const std::string& m : t.metrics)
    out += "," + m + ".median," + m + ".q1," + m + ".q3," + m + ".max";
  out += "\n";
  for (const SweepTable::Row& row : t.rows) {
    for (const json& v : row.point) {
      const std::string c = cell(v);
      out += (c.find_first_of(",\"") == std::string::npos ? c : "\"" + c + "\"") + ",";
    }
    out += std::to_string(row.runs) + "," + std::to_string(row.failed) + "," +
           std::to_string(row.stopped) + "," + std::to_string(row.missing);
    for (const SweepTable::Stats& s : row.stats)
      out += s.n ? "," + digits(s.median, 6) + "," + digits(s.q1, 6) + "," + digits(s.q3, 6) + "," +
                       digits(s.max, 6)
                 : ",,,,";
    out += "\n";
  }
  return out;
}

std::string sweep_table_md(const SweepTable& t, const std::string& title) {
  std::string out = "# " + title +
                    "\n\nPer axis point: runs with a result, of them failed and stopped (by a "
                    "stop rule), runs without a result yet; per metric the median [first, third "
                    "quartile] and maximum over the point's runs (series: over every step of "
                    "every run).\n\n|";
  for (const std::string& a : t.axes) out += " " + a + " |";
  out += " runs | failed | stopped | missing |";
  for (const std::string& m : t.metrics) out += " " + m + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.axes.size() + 4 + t.metrics.size(); ++i) out += "---|";
  out += "\n";
  for (const SweepTable::Row& row : t.rows) {
    out += "|";
    for (const json& v : row.point) out += " " + cell(v) + " |";
    out += " " + std::to_string(row.runs) + " | " + std::to_string(row.failed) + " | " +
           std::to_string(row.stopped) + " | " + std::to_string(row.missing) + " |";
    for (const SweepTable::Stats& s : row.stats)
      out += s.n ? " " + digits(s.median, 3) + " [" + digits(s.q1, 3) + ", " + digits(s.q3, 3) +
                       "] " + digits(s.max, 3) + " |"
                 : " – |";
    out += "\n";
  }
  return out;
}

}  // namespace exactsim
