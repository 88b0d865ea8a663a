// The 2D pouring experiment of the PEG paper (Williams, Lu & Trinkle 2016 §6.1, Figs. 21–22) as
// docs/peg2d-experiment.md specifies it (protocol, metric, statistics) and explains the files.
#include "reproduce_peg2d.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "experiments/sweep.h"
#include "experiments/sweep_file.h"
#include "experiments/sweep_run.h"
#include "sweep_format.h"

namespace exactsim::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The experiment's sweep file (data/sweeps/peg2d.json), narrowed to the models asked for and,
// with --quick, to sets a and b, h = 5 and 16 ms and 2 s (the first bodies have landed).
json sweep_doc(const std::string& path, const Peg2dSweepOptions& opt) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": the experiment's sweep file is missing (set $EXACTSIM_DATA)");
  json doc = json::parse(in);
  doc["axes"][0]["values"] = opt.models;
  if (opt.quick) {
    doc["axes"][1] = {{"path", "time.step"}, {"values", {0.005, 0.016}}};
    doc["axes"][2]["values"] = {"a", "b"};
    doc["set"]["time.duration"] = 2.0;
  }
  return doc;
}

using Cell = PourCell;  // one (model, h) of the results table, pooled over the sets

std::string csv_header() {
  return "model,h,runs,steps_planned,steps_done,median,q1_halves,q3_halves,q1,q3,max,"
         "nonfinite,solver_failures,runs_with_failure,first_failure_t_min,i_share,"
         "steps_with_i,mean_contacts,wall_s_sum,wall_s_per_run\n";
}

std::string csv_row(const Cell& c) {
  std::ostringstream s;
  s << c.model << ',' << g(c.h_ms / 1000.0) << ',' << c.runs << ',' << c.steps_planned << ','
    << c.steps_done << ',' << overlap_csv(c) << c.nonfinite << ',' << c.failures << ','
    << c.runs_with_failure << ',' << rates_csv(c) << ',' << g(c.wall) << ','
    << g(c.runs ? c.wall / c.runs : 0) << '\n';
  return s.str();
}

std::string md_table(const std::vector<Cell>& cells, const std::string& model) {
  std::ostringstream s;
  s << "### " << model << "\n\n"
    << "| h (s) | runs | median | Q1, Q3 (halves) | q1, q3 (true) | steps done / planned | "
       "solver failures (runs) | first failure (s) | I/(U+I) | steps with I | wall s (sum, per "
       "run) |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Cell& c : cells) {
    if (c.model != model) continue;
    s << "| " << g(c.h_ms / 1000.0) << " | " << c.runs << " | " << overlap_md(c) << c.steps_done
      << " / " << c.steps_planned << " | " << c.failures << " (" << c.runs_with_failure << ") | "
      << rates_md(c) << fmt(c.wall) << ", " << fmt(c.runs ? c.wall / c.runs : 0) << " |\n"
      << nonfinite_md(c);
  }
  return s.str() + "\n";
}

std::string wall_ratio_table(const std::vector<Cell>& cells, const std::string& num,
                             const std::string& den) {
  std::map<int, const Cell*> a, b;
  for (const Cell& c : cells) {
    if (c.model == num && c.runs) a[c.h_ms] = &c;
    if (c.model == den && c.runs) b[c.h_ms] = &c;
  }
  std::ostringstream s;
  bool any = false;
  for (const auto& [h, ca] : a) {
    const auto it = b.find(h);
    if (it == b.end() || it->second->wall <= 0) continue;
    if (!any)
      s << "### Wall time " << num << " / " << den
        << " (same sets and h; sums of per-run wall times, comparable only "
           "when both ran in one invocation under the same machine load)\n\n"
        << "| h (s) | " << num << " s | " << den << " s | ratio |\n|---|---|---|---|\n";
    any = true;
    s << "| " << g(h / 1000.0) << " | " << fmt(ca->wall) << " | " << fmt(it->second->wall) << " | "
      << fmt(ca->wall / it->second->wall) << " |\n";
  }
  return any ? s.str() + "\n" : "";
}

}  // namespace

int reproduce_peg2d(const Peg2dSweepOptions& opt) {
  if (opt.models.empty()) throw InputError("--models: give at least one model");
  for (const std::string& m : opt.models) parse_model(m);
  if (opt.jobs < 0) throw InputError("--jobs: must be >= 0 (0 = all cores)");

  const std::string sweep_path = data_dir() + "/sweeps/peg2d.json";
  const SweepSpec spec = parse_sweep(sweep_doc(sweep_path, opt), sweep_path, data_dir());
  const std::vector<SweepPoint> points = expand_sweep(spec);
  const fs::path out(opt.out_dir);
  const std::vector<SweepJob> jobs = sweep_jobs(spec, points, out.string());
  std::string sets;
  for (const json& v : spec.axes[2].values) sets += v.get<std::string>();
  std::vector<int> hs;
  for (const json& v : spec.axes[1].values) hs.push_back(std::lround(v.get<Real>() * 1000));
  const Real duration = spec.fixed["time.duration"].get<Real>();
  const int bodies = spec.scenario_base["bodies"].get<int>();

  SweepOptions so;
  so.dir = sweep_results_dir(out.string());
  so.jobs = opt.jobs;
  std::printf("peg2d: %zu runs (%zu models x %zu h x %zu sets, %.0f s each) of %s in %s\n",
              jobs.size(), opt.models.size(), hs.size(), sets.size(), duration, sweep_path.c_str(),
              so.dir.c_str());
  std::fflush(stdout);
  SweepOutcome outcome = run_sweep(jobs, so, print_pour_progress);

  // Statistics from the files, so a resumed sweep gives the same tables as an uninterrupted one.
  // A run whose scene could not be built or that threw has an error for a result: not pooled,
  // listed with the runs that did not finish.
  std::vector<Cell> cells;
  for (const std::string& model : opt.models)
    for (int ms : hs) {
      Cell c;
      c.model = model;
      c.h_ms = ms;
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        const Real h = points[k].values[1].get<Real>();
        if (points[k].values[0] != model || std::lround(h * 1000) != ms) continue;
        const auto r = read_sweep_result(so.dir, jobs[k]);
        if (r && r->contains("error"))
          outcome.errors.push_back(jobs[k].name + ": " + (*r)["error"].get<std::string>());
        else if (r)
          add_pour_run(c, pour_run(*r, h));
      }
      finish_pour_cell(c);
      cells.push_back(std::move(c));
    }
  outcome.failed = static_cast<int>(outcome.errors.size());

  std::string csv = csv_header();
  for (const Cell& c : cells) csv += csv_row(c);
  write_text_file(out / "results.csv", csv);

  std::ostringstream md;
  md << "# PEG 2D pouring (docs/peg2d-experiment.md)" << (opt.quick ? " — quick subset" : "")
     << "\n\n"
     << "Sets " << sets << ", " << bodies << " bodies, " << duration
     << " s per run, every run continued through solver failures. Overlap = total exact "
        "overlap area (m²) after every step, pooled over the sets of each h. \"Halves\": the "
        "authors' Q1/Q3 (median of the values below / above the median); \"true\": "
        "interpolated quartiles. Steps with I: fraction of steps with at least one "
        "I-constraint. See docs/peg2d-experiment.md.\n\n";
  for (const std::string& m : opt.models) md << md_table(cells, m);
  md << wall_ratio_table(cells, "peg", "standard")
     << wall_ratio_table(cells, "corrective", "standard") << unfinished_md(outcome);
  write_text_file(out / "results.md", md.str());
  return report_sweep("peg2d", outcome, out / "results.md");
}

}  // namespace exactsim::cli
