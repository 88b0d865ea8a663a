#include "exactsim/io/run.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>

#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"

namespace exactsim {

Real median(std::vector<Real> v) {
  if (v.empty()) return 0;
  const std::size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + m, v.end());
  if (v.size() % 2) return v[m];
  const Real hi = v[m];
  return 0.5 * (hi + *std::max_element(v.begin(), v.begin() + m));
}

double peak_memory_mb() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

nlohmann::json report_to_json(const StepReport& r) {
  nlohmann::json j = {{"step", r.step},
                      {"time", r.time},
                      {"status", r.status == StepStatus::kOk ? "ok" : "solver_failed"},
                      {"bodies", r.bodies_present},
                      {"contacts", r.potential_contacts},
                      {"U", r.unilateral},
                      {"I", r.intercontact},
                      {"X", r.cross},
                      {"unused_contacts", r.unused_contacts},
                      {"peg_changed", r.peg_changed},
                      {"active_bodies", r.active_bodies},
                      {"lcp_size", r.lcp_size},
                      {"overlap", r.overlap},
                      {"kinetic_energy", r.kinetic_energy},
                      {"potential_energy", r.potential_energy},
                      {"seconds",
                       {{"detect", r.seconds.detect},
                        {"constraints", r.seconds.constraints},
                        {"assemble", r.seconds.assemble},
                        {"solve", r.seconds.solve},
                        {"integrate", r.seconds.integrate},
                        {"metrics", r.seconds.metrics}}}};
  if (r.solver_called) {
    const SolveCertificate& c = r.solver;
    j["solver"] = {{"status", to_string(c.status)},
                   {"method", to_string(c.method)},
                   {"first_attempt", to_string(c.primary_status)},
                   {"pivots", c.pivots},
                   {"iterations", c.iterations},
                   {"min_z", c.min_z},
                   {"min_w", c.min_w},
                   {"complementarity", c.complementarity},
                   {"newton_euler_residual", c.newton_euler_residual},
                   {"tolerance", c.tolerance}};
    if (r.regularisation > 0) j["solver"]["recovered_with_regularisation"] = r.regularisation;
  }
  // PEG general form (docs/peg.md): written only when it acted, so other runs' files are unchanged.
  if (r.primary_switches > 0) j["primary_switches"] = r.primary_switches;
  if (r.general_form_failed) j["general_form_failed"] = true;
  return j;
}

nlohmann::json summary_to_json(const RunSummary& s) {
  return {{"scene", s.scene},
          {"model", s.model},
          {"dimension", s.dimension},
          {"step", s.step},
          {"steps_planned", s.steps_planned},
          {"steps_done", s.steps_done},
          {"solver_calls", s.solver_calls},
          {"solver_failures", s.solver_failures},
          {"fallback_solves", s.fallback_solves},
          {"max_pivots", s.max_pivots},
          {"max_complementarity", s.max_complementarity},
          {"wall_seconds", s.wall_seconds},
          {"solver_seconds", s.solver_seconds},
          {"max_overlap", s.max_overlap},
          {"median_overlap", s.median_overlap},
          {"mean_contacts", s.mean_contacts},
          {"max_contacts", s.max_contacts},
          {"peg_changed_steps", s.peg_changed_steps},
          {"peak_memory_mb", s.peak_memory_mb},
          {"kinetic_energy", s.kinetic_energy},
          {"potential_energy", s.potential_energy},
          {"failed", s.failed},
          {"failure", s.failure}};
}

RunRecorder::RunRecorder(const std::string& out_dir, const Scene& scene, int trajectory_every)
    : dir_(out_dir), dimension_(scene.world.dimension), every_(std::max(1, trajectory_every)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw InputError(dir_ + ": cannot create the output folder (" + ec.message() + ")");
  for (const Body& b : scene.world.bodies) names_.push_back(b.name);
  trajectory_.open(dir_ + "/trajectory.csv");
  steps_.open(dir_ + "/steps.jsonl");
  if (!trajectory_ || !steps_) throw InputError(dir_ + ": cannot write the output files");
  trajectory_ << std::setprecision(17);
  if (dimension_ == 2)
    trajectory_ << "step,time,body,x,y,theta,vx,vy,omega\n";
  else
    trajectory_ << "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
}

void RunRecorder::record(const State& state, const StepReport& report, bool last) {
  steps_ << report_to_json(report).dump() << "\n";
  if (report.step % every_ == 0 || last) {
    for (int i = 0; i < state.body_count(); ++i) {
      if (!state.present[i]) continue;
      trajectory_ << report.step << ',' << report.time << ',' << names_[i];
      for (Eigen::Index k = 0; k < state.q_of(i).size(); ++k)
        trajectory_ << ',' << state.q_of(i)[k];
      for (Eigen::Index k = 0; k < state.v_of(i).size(); ++k)
        trajectory_ << ',' << state.v_of(i)[k];
      trajectory_ << '\n';
    }
  }
  if (report.step % 100 == 0 || last) {
    trajectory_.flush();
    steps_.flush();
  }
}

void RunRecorder::finish(const RunSummary& summary) {
  trajectory_.flush();
  steps_.flush();
  std::ofstream out(dir_ + "/summary.json");
  out << summary_to_json(summary).dump(2) << "\n";
}

RunSummary run_scene(const Scene& scene, const RunOptions& options,
                     const std::function<void(const State&, const StepReport&)>& on_step) {
  using Clock = std::chrono::steady_clock;
  const World& w = scene.world;
  RunSummary sum;
  sum.scene = scene.name;
  sum.model = to_string(w.contact.model);
  sum.dimension = w.dimension;
  sum.step = scene.step;
  sum.steps_planned = scene.step_count();
  State state = scene.initial;
  Workspace ws;
  std::unique_ptr<RunRecorder> recorder;
  if (!options.out_dir.empty())
    recorder = std::make_unique<RunRecorder>(options.out_dir, scene, options.trajectory_every);
  std::vector<Real> overlaps;
  overlaps.reserve(sum.steps_planned);
  long contact_sum = 0;
  const auto start = Clock::now();
  auto last_progress = start;
  for (long k = 0; k < sum.steps_planned; ++k) {
    const StepReport r = step(w, state, ws, scene.step, k);
    ++sum.steps_done;
    overlaps.push_back(r.overlap);
    sum.max_overlap = std::max(sum.max_overlap, r.overlap);
    contact_sum += r.potential_contacts;
    sum.max_contacts = std::max(sum.max_contacts, r.potential_contacts);
    sum.peg_changed_steps += r.peg_changed;
    if (r.solver_called) {
      ++sum.solver_calls;
      sum.solver_seconds += r.seconds.solve;
      sum.max_pivots = std::max<long>(sum.max_pivots, r.solver.pivots);
      sum.max_complementarity = std::max(sum.max_complementarity, r.solver.complementarity);
      if (r.solver.method == SolveMethod::kFischerBurmeister) ++sum.fallback_solves;
    }
    const bool failed = r.status == StepStatus::kSolverFailed;
    if (failed) ++sum.solver_failures;
    const bool stop = failed && !w.stepping.continue_on_solver_failure;
    if (recorder) recorder->record(state, r, k + 1 == sum.steps_planned || stop);
    if (on_step) on_step(state, r);
    if (stop) {
      sum.failed = true;
      sum.failure = "step " + std::to_string(k) + " (t = " + std::to_string(r.time - scene.step) +
                    " s): solver " + to_string(r.solver.status) + " (method " +
                    to_string(r.solver.method) + ", complementarity " +
                    std::to_string(r.solver.complementarity) + ", min w " +
                    std::to_string(r.solver.min_w) +
                    "); rerun with --continue-on-failure to go on regardless";
      break;
    }
    const auto now = Clock::now();
    if (options.progress && now - last_progress > std::chrono::seconds(2)) {
      last_progress = now;
      std::fprintf(stderr, "\r%s: step %ld/%ld (%.0f%%), t = %.3f s, %d contacts   ",
                   scene.name.c_str(), k + 1, sum.steps_planned,
                   100.0 * (k + 1) / std::max(1L, sum.steps_planned), r.time, r.potential_contacts);
      std::fflush(stderr);
    }
  }
  if (options.progress && Clock::now() - start > std::chrono::seconds(2))
    std::fprintf(stderr, "\n");
  sum.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  sum.peak_memory_mb = peak_memory_mb();
  sum.median_overlap = median(overlaps);
  sum.mean_contacts = sum.steps_done ? static_cast<Real>(contact_sum) / sum.steps_done : 0;
  sum.kinetic_energy = kinetic_energy(w.bodies, state);
  sum.potential_energy = potential_energy(w.bodies, state, w.gravity);
  if (recorder) recorder->finish(sum);
  return sum;
}

}  // namespace exactsim
