// The 3D pouring experiment of the PEG paper (Williams, Lu & Trinkle 2016 §6, Fig. 24) as
// docs/peg3d-experiment.md specifies it (protocol, metric, statistics) and explains the files.
#include "reproduce_peg3d.h"

#include <algorithm>
#include <chrono>
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
#include "exactsim/stepping/step.h"
#include "experiments/scenarios.h"
#include "experiments/sweep.h"
#include "sweep_format.h"

namespace exactsim::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A protocol: "ico" (the archived icosahedron drop) or "seedN" (random polyhedra, mt19937_64(N)).
struct RunSpec {
  std::string model;
  std::string protocol;
  int h_ms;
  Real duration;
  int bodies;
};

std::string run_name(const RunSpec& r) {
  char b[96];
  std::snprintf(b, sizeof b, "%s-%s-h%02d", r.model.c_str(), r.protocol.c_str(), r.h_ms);
  return b;
}

// A run is abandoned as diverged when the kinetic energy per kilogram of the present dynamic
// bodies exceeds this: 20× the most a body can gain in the scene (½·5² + 9.81·4 ≈ 52 J/kg at
// spawn and fall). A diverged standard-model run makes ever larger LCPs (every vertex of the
// exploding pile within the widened ε of every face) and would not finish; the paper's
// standard-model runs "frequently crashed" too.
constexpr Real kDivergedJoulePerKg = 1000;
// A run is abandoned after this many failed solves (each one costs the full Lemke pivot budget,
// the Fischer–Burmeister fallback and the regularised retries); the paper's runs stopped at the
// first failure.
constexpr std::size_t kMaxFailedSolves = 25;
// A run is abandoned as exploded after a step whose LCP exceeds this many unknowns: 2.4× the
// largest settled pile of any model (the standard model's 208 on random set 1; PEG's sweep
// maximum is 129). A standard-model run goes from ~45 to 1516 unknowns in three steps after a
// regularised recovery throws bodies into each other, and one step of 1516 costs half a minute.
constexpr int kMaxLcpUnknowns = 500;

// One pour: continue through solver failures, count them, and remember where the first one
// happened (where a run without continue_on_solver_failure would have stopped); stop at
// divergence or when the run's wall-time budget is spent (recorded, not hidden).
json run_pour(const RunSpec& spec, double budget_seconds) {
  Pour3dOptions o;
  o.step = spec.h_ms / 1000.0;
  o.duration = spec.duration;
  o.bodies = spec.bodies;
  o.model = parse_model(spec.model);
  Scene scene = spec.protocol == "ico" ? pour3d_icosahedra(o)
                                       : pour3d_random(std::stoull(spec.protocol.substr(4)), o);
  scene.world.stepping.continue_on_solver_failure = true;
  // The paper's ψ/h in the velocity LCP, uncapped (PEG paper ≈ eq. 7), not the split default.
  scene.world.contact.stabilisation = Stabilisation::kVelocity;
  scene.world.stepping.measure_overlap = true;
  // The paper's protocol steps at the fixed h: no watchdog, so advance() never splits a step (it
  // split 40 % of the Corrective baseline's steps in 2D, shrinking its overlap 3–25×).
  scene.world.stepping.watch_penetration = false;

  std::vector<Real> overlap;
  std::vector<int> contacts, u, i, x, lcp;
  std::vector<long> failed_steps;
  long regularised = 0, solver_calls = 0;
  double solver_seconds = 0;
  std::string stopped;
  State state = scene.initial;
  Workspace ws;
  const long planned = scene.step_count();
  const auto start = std::chrono::steady_clock::now();
  long done = 0;
  for (; done < planned; ++done) {
    const StepReport r = step(scene.world, state, ws, scene.step, done);
    overlap.push_back(compact(r.overlap));
    contacts.push_back(r.potential_contacts);
    u.push_back(r.unilateral);
    i.push_back(r.intercontact);
    x.push_back(r.cross);
    lcp.push_back(r.lcp_size);
    solver_calls += r.solver_called;
    solver_seconds += r.seconds.solve;
    if (r.status == StepStatus::kSolverFailed) failed_steps.push_back(r.step);
    regularised += r.regularisation > 0;
    Real mass = 0;
    for (int b = 0; b < scene.world.body_count(); ++b)
      if (state.present[b] && !scene.world.bodies[b].is_static) mass += scene.world.bodies[b].mass;
    if (failed_steps.size() > kMaxFailedSolves) {
      stopped = "solver failures";
      ++done;
      break;
    }
    if (r.lcp_size > kMaxLcpUnknowns) {
      stopped = "contact explosion";
      ++done;
      break;
    }
    if (!std::isfinite(r.kinetic_energy) ||
        (mass > 0 && r.kinetic_energy / mass > kDivergedJoulePerKg)) {
      stopped = "diverged";
      ++done;
      break;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
        budget_seconds) {
      stopped = "wall-time budget";
      ++done;
      break;
    }
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<Real> finite;
  for (Real v : overlap)
    if (std::isfinite(v)) finite.push_back(v);
  json j = {
      {"model", spec.model},
      {"protocol", spec.protocol},
      {"h", o.step},
      {"duration", spec.duration},
      {"bodies", spec.bodies},
      {"steps_planned", planned},
      {"steps_done", done},
      {"stopped", stopped.empty() ? json(nullptr) : json(stopped)},
      {"stopped_at", stopped.empty() ? json(nullptr) : json(o.step * done)},
      {"solver_calls", solver_calls},
      {"solver_failures", static_cast<long>(failed_steps.size())},
      {"recovered_by_regularisation", regularised},
      {"first_failure_step", failed_steps.empty() ? json(nullptr) : json(failed_steps.front())},
      {"failed_steps", failed_steps},
      {"wall_seconds", wall},
      {"solver_seconds", solver_seconds},
      {"median_overlap", finite.empty() ? json(nullptr) : json(median(finite))},
      {"overlap", overlap},
      {"contacts", contacts},
      {"U", u},
      {"I", i},
      {"X", x},
      {"lcp_size", lcp}};
  return j;
}

struct Cell : PourCell {  // one (model, protocol group, h) of the results table
  std::string group;      // "ico" or "random" (the ten seeds pooled)
  long runs_stopped = 0, sum_lcp = 0, max_lcp = 0, solves = 0;
  double solver = 0;
};

void add_run(Cell& c, const json& r) {
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

std::string csv_header() {
  return "model,protocol,h,runs,steps_planned,steps_done,median,q1_halves,q3_halves,q1,q3,max,"
         "nonfinite,runs_stopped,solver_failures,runs_with_failure,first_failure_t_min,i_share,"
         "steps_with_i,mean_contacts,mean_lcp,max_lcp,wall_s_sum,wall_s_per_run\n";
}

std::string csv_row(const Cell& c) {
  std::ostringstream s;
  s << c.model << ',' << c.group << ',' << g(c.h_ms / 1000.0) << ',' << c.runs << ','
    << c.steps_planned << ',' << c.steps_done << ',' << overlap_csv(c) << c.nonfinite << ','
    << c.runs_stopped << ',' << c.failures << ',' << c.runs_with_failure << ',' << rates_csv(c)
    << ',' << (c.solves ? g(Real(c.sum_lcp) / c.solves) : "") << ',' << c.max_lcp << ','
    << g(c.wall) << ',' << g(c.runs ? c.wall / c.runs : 0) << '\n';
  return s.str();
}

std::string md_table(const std::vector<Cell>& cells, const std::string& model,
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
  for (const Cell& c : cells) {
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

std::string wall_ratio_table(const std::vector<Cell>& cells, const std::string& num,
                             const std::string& den) {
  std::map<int, Cell> a, b;  // pooled over the protocols
  for (const Cell& c : cells) {
    if (!c.runs || (c.model != num && c.model != den)) continue;
    Cell& t = (c.model == num ? a : b)[c.h_ms];
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

  std::vector<std::string> protocols = {"ico"};
  const int seeds = opt.quick ? std::min(opt.seeds, 1) : opt.seeds;
  for (int k = 1; k <= seeds; ++k) protocols.push_back("seed" + std::to_string(k));
  std::vector<int> hs = opt.h_ms;
  if (hs.empty()) {
    if (opt.quick)
      hs = {10, 16};
    else
      for (int ms = 1; ms <= 16; ++ms) hs.push_back(ms);
  }
  const Real duration = opt.quick ? 1.5 : 5.0;  // 1.5 s: three bodies have hit the floor
  const int bodies = 10;

  // Longest runs (small h) first: the pool then ends on short runs and stays balanced.
  std::vector<RunSpec> specs;
  std::vector<SweepJob> jobs;
  for (int ms : hs)
    for (const std::string& model : opt.models)
      for (const std::string& protocol : protocols) {
        const RunSpec spec{model, protocol, ms, duration, bodies};
        specs.push_back(spec);
        SweepJob job;
        job.name = run_name(spec);
        job.params = {{"experiment", "peg3d"}, {"format", 2},
                      {"model", model},        {"protocol", protocol},
                      {"h", ms / 1000.0},      {"duration", duration},
                      {"bodies", bodies},      {"continue_on_solver_failure", true}};
        const double budget = opt.quick ? 20 : 60;
        job.run = [spec, budget] { return run_pour(spec, budget); };
        jobs.push_back(std::move(job));
      }

  const fs::path out(opt.out_dir);
  SweepOptions so;
  so.dir = (out / "runs").string();
  so.jobs = opt.jobs;
  std::printf("peg3d: %zu runs (%zu models x %zu h x %zu protocols, %.1f s each) in %s\n",
              jobs.size(), opt.models.size(), hs.size(), protocols.size(), duration,
              so.dir.c_str());
  std::fflush(stdout);
  const SweepOutcome outcome = run_sweep(jobs, so, [](const SweepProgress& p) {
    if (!p.error.empty() || !p.result) {
      std::printf("[%d/%d] %s FAILED after %.1f s: %s\n", p.done, p.total, p.job->name.c_str(),
                  p.wall_seconds, p.error.c_str());
    } else {
      const json& r = *p.result;
      std::printf(
          "[%d/%d] %-10s %-6s h=%.3f median overlap %.3g, %ld solver failures, "
          "wall %.2f s%s%s\n",
          p.done, p.total, r["model"].get<std::string>().c_str(),
          r["protocol"].get<std::string>().c_str(), r["h"].get<double>(),
          r["median_overlap"].is_number() ? r["median_overlap"].get<double>() : NAN,
          r["solver_failures"].get<long>(), r["wall_seconds"].get<double>(),
          r["stopped"].is_string() ? (", stopped: " + r["stopped"].get<std::string>()).c_str() : "",
          p.skipped ? " (done earlier)" : "");
    }
    std::fflush(stdout);
  });

  // Statistics from the files, so a resumed sweep gives the same tables as an uninterrupted one.
  std::vector<std::string> groups = {"ico"};
  if (protocols.size() > 1) groups.push_back("random");
  std::vector<Cell> cells;
  for (const std::string& model : opt.models)
    for (const std::string& group : groups)
      for (int ms : hs) {
        Cell c;
        c.model = model;
        c.group = group;
        c.h_ms = ms;
        for (size_t k = 0; k < jobs.size(); ++k)
          if (specs[k].model == model && specs[k].h_ms == ms &&
              (specs[k].protocol == "ico") == (group == "ico"))
            if (const auto r = read_sweep_result(so.dir, jobs[k])) add_run(c, *r);
        finish_pour_cell(c);
        cells.push_back(std::move(c));
      }

  std::string csv = csv_header();
  for (const Cell& c : cells) csv += csv_row(c);
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
  md << wall_ratio_table(cells, "peg", "standard") << wall_ratio_table(cells, "peg", "corrective")
     << unfinished_md(outcome);
  write_text_file(out / "results.md", md.str());
  return report_sweep("peg3d", outcome, out / "results.md");
}

}  // namespace exactsim::cli
