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
#include "experiments/scenarios.h"
#include "experiments/sweep.h"
#include "sweep_format.h"

namespace exactsim::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct RunSpec {
  std::string model;
  char set;
  int h_ms;
  Real duration;
  int bodies;
};

std::string run_name(const RunSpec& r) {
  char b[64];
  std::snprintf(b, sizeof b, "%s-%c-h%02d", r.model.c_str(), r.set, r.h_ms);
  return b;
}

// One pour: continue through solver failures, count them, and remember where the first one
// happened (where a run without continue_on_solver_failure would have stopped).
json run_pour(const RunSpec& spec, const std::string& body_sets) {
  Pour2dOptions o;
  o.step = spec.h_ms / 1000.0;
  o.duration = spec.duration;
  o.bodies = spec.bodies;
  o.model = parse_model(spec.model);
  Scene scene = pour2d_archived(body_sets, spec.set, o);
  scene.world.stepping.continue_on_solver_failure = true;
  // The paper's ψ/h in the velocity LCP, uncapped (PEG paper ≈ eq. 7), not the split default.
  scene.world.contact.stabilisation = Stabilisation::kVelocity;
  scene.world.stepping.measure_overlap = true;
  // The paper's protocol steps at the fixed h: no watchdog, so advance() never splits a step (it
  // split 40 % of the Corrective baseline's steps in 2D, shrinking its overlap 3–25×).
  scene.world.stepping.watch_penetration = false;

  std::vector<Real> overlap;
  std::vector<int> contacts, u, i, x;
  std::vector<long> failed_steps;
  long regularised = 0;
  auto on_step = [&](const State&, const StepReport& r) {
    overlap.push_back(compact(r.overlap));
    contacts.push_back(r.potential_contacts);
    u.push_back(r.unilateral);
    i.push_back(r.intercontact);
    x.push_back(r.cross);
    if (r.status == StepStatus::kSolverFailed) failed_steps.push_back(r.step);
    regularised += r.regularisation > 0;
  };
  RunOptions ro;
  ro.progress = false;
  const RunSummary s = run_scene(scene, ro, on_step);

  json j = {
      {"model", spec.model},
      {"set", std::string(1, spec.set)},
      {"h", o.step},
      {"duration", spec.duration},
      {"bodies", spec.bodies},
      {"steps_planned", s.steps_planned},
      {"steps_done", s.steps_done},
      {"solver_failures", s.solver_failures},
      {"recovered_by_regularisation", regularised},
      {"first_failure_step", failed_steps.empty() ? json(nullptr) : json(failed_steps.front())},
      {"failed_steps", failed_steps},
      {"wall_seconds", s.wall_seconds},
      {"solver_seconds", s.solver_seconds},
      {"summary", summary_to_json(s)},
      {"overlap", overlap},
      {"contacts", contacts},
      {"U", u},
      {"I", i},
      {"X", x}};
  return j;
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
  const std::string body_sets = data_dir() + "/peg2d_pouring_body_sets.json";
  if (!fs::exists(body_sets))
    throw InputError(body_sets + ": body sets not found (set $EXACTSIM_DATA)");

  const std::string sets = opt.quick ? "ab" : "abcdefghij";
  std::vector<int> hs;
  if (opt.quick)
    hs = {5, 16};
  else
    for (int ms = 1; ms <= 16; ++ms) hs.push_back(ms);
  const Real duration = opt.quick ? 2.0 : 5.0;  // 2 s: the first bodies have landed
  const int bodies = 20;

  // Longest runs (small h) first: the pool then ends on short runs and stays balanced.
  std::vector<RunSpec> specs;
  std::vector<SweepJob> jobs;
  for (int ms : hs)
    for (const std::string& model : opt.models)
      for (char set : sets) {
        const RunSpec spec{model, set, ms, duration, bodies};
        specs.push_back(spec);
        SweepJob job;
        job.name = run_name(spec);
        job.params = {{"experiment", "peg2d"}, {"format", 1},
                      {"model", model},        {"set", std::string(1, set)},
                      {"h", ms / 1000.0},      {"duration", duration},
                      {"bodies", bodies},      {"continue_on_solver_failure", true}};
        job.run = [spec, body_sets] { return run_pour(spec, body_sets); };
        jobs.push_back(std::move(job));
      }

  const fs::path out(opt.out_dir);
  SweepOptions so;
  so.dir = (out / "runs").string();
  so.jobs = opt.jobs;
  std::printf("peg2d: %zu runs (%zu models x %zu h x %zu sets, %.0f s each) in %s\n", jobs.size(),
              opt.models.size(), hs.size(), sets.size(), duration, so.dir.c_str());
  std::fflush(stdout);
  const SweepOutcome outcome = run_sweep(jobs, so, [](const SweepProgress& p) {
    if (!p.error.empty() || !p.result) {
      std::printf("[%d/%d] %s FAILED after %.1f s: %s\n", p.done, p.total, p.job->name.c_str(),
                  p.wall_seconds, p.error.c_str());
    } else {
      const json& r = *p.result;
      std::printf(
          "[%d/%d] %-10s set %s h=%.3f median overlap %.3g, %ld solver failures, "
          "wall %.2f s%s\n",
          p.done, p.total, r["model"].get<std::string>().c_str(),
          r["set"].get<std::string>().c_str(), r["h"].get<double>(),
          r["summary"]["median_overlap"].is_number() ? r["summary"]["median_overlap"].get<double>()
                                                     : NAN,
          r["solver_failures"].get<long>(), r["wall_seconds"].get<double>(),
          p.skipped ? " (done earlier)" : "");
    }
    std::fflush(stdout);
  });

  // Statistics from the files, so a resumed sweep gives the same tables as an uninterrupted one.
  std::vector<Cell> cells;
  for (const std::string& model : opt.models)
    for (int ms : hs) {
      Cell c;
      c.model = model;
      c.h_ms = ms;
      for (size_t k = 0; k < jobs.size(); ++k)
        if (specs[k].model == model && specs[k].h_ms == ms)
          if (const auto r = read_sweep_result(so.dir, jobs[k])) add_pour_run(c, *r);
      finish_pour_cell(c);
      cells.push_back(std::move(c));
    }

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
