// The 3D pouring experiment of the PEG paper (Williams, Lu & Trinkle 2016 §6, Fig. 24) as
// docs/peg3d-experiment.md specifies it (protocol, metric, statistics) and explains the files: the
// sweep files data/sweeps/peg3d-ico.json and peg3d-random.json on the sweep engine, then the
// paper's tables from their results.
#include "reproduce_peg3d.h"

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

// The experiment's sweep files: the icosahedron drop (data/sweeps/peg3d-ico.json) or the seeded
// random polyhedra (peg3d-random.json), narrowed to the models, step sizes and seeds asked for
// and, with --quick, to h = 10 and 16 ms, 1.5 s (three bodies have hit the floor) and a 20 s
// wall-time budget.
json sweep_doc(const std::string& path, const Peg3dSweepOptions& opt, int seeds) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": the experiment's sweep file is missing (set $EXACTSIM_DATA)");
  json doc = json::parse(in);
  doc["axes"][0]["values"] = opt.models;
  std::vector<int> hs = opt.h_ms;
  if (hs.empty() && opt.quick) hs = {10, 16};
  if (!hs.empty()) {
    json steps = json::array();
    for (int ms : hs) steps.push_back(ms / 1000.0);
    doc["axes"][1] = {{"path", "time.step"}, {"values", steps}};
  }
  if (doc["axes"].size() > 2) doc["axes"][2]["range"]["to"] = seeds;
  if (opt.quick) {
    doc["set"]["time.duration"] = 1.5;
    doc["stop"]["wall_seconds"] = 20;
  }
  return doc;
}

struct Cell3d : PourCell {  // one (model, protocol group, h) of the results table
  std::string group;      // "ico" or "random" (the ten seeds pooled)
  long runs_stopped = 0, sum_lcp = 0, max_lcp = 0, solves = 0;
  double solver = 0;
};

void add_run(Cell3d& c, const json& r) {
  add_pour_run(c, r);
  c.runs_stopped += r["stopped"].is_string();
  c.solver += r["solver_seconds"].get<double>();
  for (const json& n : r["lcp_size"]) {
    const long v = n.get<long>();
    c.solves += v > 0;
    c.sum_lcp += v;
    c.max_lcp = std::max(c.max_lcp, v);
  }
}

std::string csv_header_3d() {
  return "model,protocol,h,runs,steps_planned,steps_done,median,q1_halves,q3_halves,q1,q3,max,"
         "nonfinite,runs_stopped,solver_failures,runs_with_failure,first_failure_t_min,i_share,"
         "steps_with_i,mean_contacts,mean_lcp,max_lcp,wall_s_sum,wall_s_per_run\n";
}

std::string csv_row_3d(const Cell3d& c) {
  std::ostringstream s;
  s << c.model << ',' << c.group << ',' << g(c.h_ms / 1000.0) << ',' << c.runs << ','
    << c.steps_planned << ',' << c.steps_done << ',' << overlap_csv(c) << c.nonfinite << ','
    << c.runs_stopped << ',' << c.failures << ',' << c.runs_with_failure << ',' << rates_csv(c)
    << ',' << (c.solves ? g(Real(c.sum_lcp) / c.solves) : "") << ',' << c.max_lcp << ','
    << g(c.wall) << ',' << g(c.runs ? c.wall / c.runs : 0) << '\n';
  return s.str();
}

std::string md_table(const std::vector<Cell3d>& cells, const std::string& model,
                     const std::string& group) {
  std::ostringstream s;
  s << "### " << model << ", "
    << (group == "ico" ? "icosahedra (archived protocol)" : "random polyhedra (seeds pooled)")
    << "\n\n"
    << "| h (s) | runs | median | Q1, Q3 (halves) | q1, q3 (true) | steps done / planned | "
       "solver failures (runs) | first failure (s) | I/(U+I) | steps with I | LCP size mean (max) "
       "| "
       "wall s (sum, per run) |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Cell3d& c : cells) {
    if (c.model != model || c.group != group) continue;
    s << "| " << g(c.h_ms / 1000.0) << " | " << c.runs << " | " << overlap_md(c) << c.steps_done
      << " / " << c.steps_planned;
    if (c.runs_stopped) s << " (" << c.runs_stopped << " stopped)";
    s << " | " << c.failures << " (" << c.runs_with_failure << ") | " << rates_md(c)
      << (c.solves ? fmt(Real(c.sum_lcp) / c.solves) : "–") << " (" << c.max_lcp << ") | "
      << fmt(c.wall) << ", " << fmt(c.runs ? c.wall / c.runs : 0) << " |\n"
      << nonfinite_md(c);
  }
  return s.str() + "\n";
}

std::string wall_ratio_table_3d(const std::vector<Cell3d>& cells, const std::string& num,
                                const std::string& den) {
  std::map<int, Cell3d> a, b;  // pooled over the protocols
  for (const Cell3d& c : cells) {
    if (!c.runs || (c.model != num && c.model != den)) continue;
    Cell3d& t = (c.model == num ? a : b)[c.h_ms];
    t.runs += c.runs;
    t.wall += c.wall;
    t.solver += c.solver;
  }
  std::ostringstream s;
  bool any = false;
  for (const auto& [h, ca] : a) {
    const auto it = b.find(h);
    if (it == b.end() || it->second.wall <= 0) continue;
    if (!any)
      s << "### Wall time " << num << " / " << den
        << " (same protocols and h; sums of per-run wall times, comparable only "
           "when both ran in one invocation under the same machine load)\n\n"
        << "| h (s) | " << num << " wall s | " << den << " wall s | ratio | " << num
        << " solver s | " << den << " solver s | ratio |\n|---|---|---|---|---|---|---|\n";
    any = true;
    s << "| " << g(h / 1000.0) << " | " << fmt(ca.wall) << " | " << fmt(it->second.wall) << " | "
      << fmt(ca.wall / it->second.wall) << " | " << fmt(ca.solver) << " | "
      << fmt(it->second.solver) << " | "
      << (it->second.solver > 0 ? fmt(ca.solver / it->second.solver) : "–") << " |\n";
  }
  return any ? s.str() + "\n" : "";
}

}  // namespace

int reproduce_peg3d(const Peg3dSweepOptions& opt) {
  if (opt.models.empty()) throw InputError("--models: give at least one model");
  for (const std::string& m : opt.models) parse_model(m);
  if (opt.jobs < 0) throw InputError("--jobs: must be >= 0 (0 = all cores)");
  if (opt.seeds < 0) throw InputError("--seeds: must be >= 0");
  for (int ms : opt.h_ms)
    if (ms < 1 || ms > 1000) throw InputError("--h-ms: step sizes must be 1…1000 ms");

  // The protocol groups of the tables: "ico", and "random" (the seeds pooled) unless --seeds 0.
  const int seeds = opt.quick ? std::min(opt.seeds, 1) : opt.seeds;
  std::vector<std::string> groups = {"ico"};
  if (seeds > 0) groups.push_back("random");
  std::vector<std::string> paths;
  std::vector<SweepSpec> specs;
  for (const std::string& group : groups) {
    paths.push_back(data_dir() + "/sweeps/peg3d-" + group + ".json");
    specs.push_back(parse_sweep(sweep_doc(paths.back(), opt, seeds), paths.back(), data_dir()));
  }
  // Both sweeps' runs in one folder (their names differ: the random ones end in ",seed=N"), run
  // together so that the pool stays balanced.
  const fs::path out(opt.out_dir);
  std::vector<std::vector<SweepPoint>> points;
  std::vector<std::vector<SweepJob>> group_jobs;
  std::vector<SweepJob> jobs;
  for (const SweepSpec& spec : specs) {
    points.push_back(expand_sweep(spec));
    group_jobs.push_back(sweep_jobs(spec, points.back(), out.string()));
    jobs.insert(jobs.end(), group_jobs.back().begin(), group_jobs.back().end());
  }
  std::vector<int> hs;
  for (const json& v : specs[0].axes[1].values) hs.push_back(std::lround(v.get<Real>() * 1000));
  const Real duration = specs[0].fixed["time.duration"].get<Real>();
  const int bodies = specs[0].scenario_base["bodies"].get<int>();

  SweepOptions so;
  so.dir = sweep_results_dir(out.string());
  so.jobs = opt.jobs;
  std::printf("peg3d: %zu runs (%zu models x %zu h x %d protocols, %.1f s each) of %s in %s\n",
              jobs.size(), opt.models.size(), hs.size(), 1 + seeds, duration,
              paths.size() > 1 ? (paths[0] + " and " + paths[1]).c_str() : paths[0].c_str(),
              so.dir.c_str());
  std::fflush(stdout);
  SweepOutcome outcome = run_sweep(jobs, so, print_pour_progress);

  // Statistics from the files, so a resumed sweep gives the same tables as an uninterrupted one.
  // A run whose scene could not be built or that threw has an error for a result: not pooled,
  // listed with the runs that did not finish.
  std::vector<Cell3d> cells;
  for (const std::string& model : opt.models)
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (int ms : hs) {
        Cell3d c;
        c.model = model;
        c.group = groups[g];
        c.h_ms = ms;
        for (std::size_t k = 0; k < points[g].size(); ++k) {
          const Real h = points[g][k].values[1].get<Real>();
          if (points[g][k].values[0] != model || std::lround(h * 1000) != ms) continue;
          const auto r = read_sweep_result(so.dir, group_jobs[g][k]);
          if (r && r->contains("error"))
            outcome.errors.push_back(group_jobs[g][k].name + ": " +
                                     (*r)["error"].get<std::string>());
          else if (r)
            add_run(c, pour_run(*r, h));
        }
        finish_pour_cell(c);
        cells.push_back(std::move(c));
      }
  outcome.failed = static_cast<int>(outcome.errors.size());

  std::string csv = csv_header_3d();
  for (const Cell3d& c : cells) csv += csv_row_3d(c);
  write_text_file(out / "results.csv", csv);

  std::ostringstream md;
  md << "# PEG 3D pouring (docs/peg3d-experiment.md)" << (opt.quick ? " — quick subset" : "")
     << "\n\n"
     << "Protocols: the archived icosahedron drop (ico) and random convex polyhedra from "
        "std::mt19937_64 seeds 1…"
     << seeds << " (pooled); " << bodies << " bodies, " << duration
     << " s per run, every run continued through solver failures. Overlap = total exact "
        "overlap volume (m³) after every step. \"Halves\": the authors' Q1/Q3 (median of the "
        "values below / above the median); \"true\": interpolated quartiles. LCP size: unknowns "
        "of the reduced LCP over the steps that called the solver. See "
        "docs/peg3d-experiment.md.\n\n";
  for (const std::string& m : opt.models)
    for (const std::string& group : groups) md << md_table(cells, m, group);
  md << wall_ratio_table_3d(cells, "peg", "standard")
     << wall_ratio_table_3d(cells, "peg", "corrective") << unfinished_md(outcome);
  write_text_file(out / "results.md", md.str());
  return report_sweep("peg3d", outcome, out / "results.md");
}

}  // namespace exactsim::cli
