#include "exactsim/io/run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include "exactsim/io/checkpoint.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/io/trajectory_csv.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"
#include "exactsim/stepping/adaptive_step.h"
#include "exactsim/stepping/snapshot.h"

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

namespace {
template <auto Member>
nlohmann::json field(const StepReport& r) {
  return r.*Member;
}
nlohmann::json status_field(const StepReport& r) { return to_string(r.status); }
constexpr ReportScalar kReportScalars[] = {
    {"step", field<&StepReport::step>},
    {"time", field<&StepReport::time>},
    {"status", status_field},
    {"bodies", field<&StepReport::bodies_present>},
    {"contacts", field<&StepReport::potential_contacts>},
    {"U", field<&StepReport::unilateral>},
    {"I", field<&StepReport::intercontact>},
    {"X", field<&StepReport::cross>},
    {"unused_contacts", field<&StepReport::unused_contacts>},
    {"depth_witnesses", field<&StepReport::depth_witnesses>},
    {"peg_changed", field<&StepReport::peg_changed>},
    {"active_bodies", field<&StepReport::active_bodies>},
    {"lcp_size", field<&StepReport::lcp_size>},
    {"solved_unknowns", field<&StepReport::solved_unknowns>},
    {"islands", field<&StepReport::islands>},
    {"largest_island_lcp", field<&StepReport::largest_island_lcp>},
    {"overlap", field<&StepReport::overlap>},
    {"kinetic_energy", field<&StepReport::kinetic_energy>},
    {"potential_energy", field<&StepReport::potential_energy>},
    {"max_penetration", field<&StepReport::max_penetration>},
};
}  // namespace

std::span<const ReportScalar> report_scalars() { return kReportScalars; }

const ReportScalar* find_report_scalar(std::string_view name) {
  for (const ReportScalar& f : kReportScalars)
    if (name == f.name) return &f;
  return nullptr;
}

nlohmann::json report_to_json(const StepReport& r) {
  nlohmann::json j = nlohmann::json::object();
  for (const ReportScalar& f : kReportScalars) j[f.name] = f.get(r);
  j["seconds"] = {{"detect", r.seconds.detect},       {"constraints", r.seconds.constraints},
                  {"assemble", r.seconds.assemble},   {"solve", r.seconds.solve},
                  {"integrate", r.seconds.integrate}, {"metrics", r.seconds.metrics}};
  if (r.bodies_asleep > 0 || r.islands_asleep > 0) {  // sleeping (docs/stepping.md "Sleeping")
    j["bodies_asleep"] = r.bodies_asleep;
    j["islands_asleep"] = r.islands_asleep;
  }
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
    if (r.gauss_seidel_sweeps > 0) j["solver"]["gauss_seidel_sweeps"] = r.gauss_seidel_sweeps;
    if (r.friction_cones_left_out > 0)
      j["solver"]["friction_cones_left_out"] = r.friction_cones_left_out;
    if (r.ray_restarts > 0) j["solver"]["ray_restarts"] = r.ray_restarts;
    if (r.rescued_islands > 0) j["solver"]["rescued_islands"] = r.rescued_islands;
    if (c.bilateral_residual > 0) j["solver"]["bilateral_residual"] = c.bilateral_residual;
    for (const SolveAttempt& a : r.attempts)
      j["solver"]["attempts"].push_back({{"island", a.island},
                                         {"attempt", to_string(a.kind)},
                                         {"status", to_string(a.status)},
                                         {"method", to_string(a.method)},
                                         {"unknowns", a.unknowns},
                                         {"pivots", a.pivots},
                                         {"iterations", a.iterations},
                                         {"seconds", a.seconds}});
  }
  if (r.energy.checked)
    j["energy"] = {{"before", r.energy.before},
                   {"free_flight", r.energy.free_flight},
                   {"after", r.energy.after},
                   {"stabilisation_budget", r.energy.stabilisation},
                   {"excess", r.energy.excess()},
                   {"tolerance", r.energy.tolerance},
                   {"total_before", r.energy.total_before},
                   {"total_after", r.energy.total_after},
                   {"projection_budget", r.energy.projection},
                   {"total_excess", r.energy.total_excess()},
                   {"total_tolerance", r.energy.total_tolerance}};
  if (r.energy.checked && r.energy.kinematic_work != 0)
    j["energy"]["kinematic_work"] = r.energy.kinematic_work;
  if (r.diverged_body >= 0) j["diverged_body"] = r.diverged_body;
  if (r.substeps > 1) j["substeps"] = r.substeps;
  if (r.retaken_failed_solves > 0) j["retaken_failed_solves"] = r.retaken_failed_solves;
  // Over the step's parts, whether or not its last part solved (add_up).
  if (r.islands_flown_free > 0) j["islands_flown_free"] = r.islands_flown_free;
  if (r.halves_from_start) j["halves_from_start"] = true;
  if (const SplitCause& c = r.split; c.kind != SplitCause::Kind::kNone) {
    nlohmann::json& split = j["split"];
    split["cause"] = to_string(c.kind);
    if (c.kind != SplitCause::Kind::kFailedSolve) split["depth"] = c.depth;
    if (c.body_a >= 0) split["bodies"] = {c.body_a, c.body_b};
    if (c.body_a >= 0 && c.kind == SplitCause::Kind::kDeepPair)
      split["features"] = describe_features(c.pair, "body " + std::to_string(c.body_a),
                                            "body " + std::to_string(c.body_b));
    split["pivots"] = c.pivots;
    split["seconds"] = c.seconds;
  }
  if (const ImpactReport& i = r.impacts;
      i.count > 0 || i.capped || i.fallbacks > 0 || !i.failure.empty()) {
    j["impacts"] = {{"count", i.count},
                    {"contacts", i.contacts},
                    {"rounds", i.rounds},
                    {"intervals", i.intervals},
                    {"energy_change", i.energy_change},
                    {"energy_tolerance", i.energy_tolerance},
                    {"cone_excess", i.cone_excess}};
    if (i.count > 0) j["impacts"]["first_time"] = i.first_time;
    if (i.kinematic_work != 0) j["impacts"]["kinematic_work"] = i.kinematic_work;
    if (i.capped) j["impacts"]["capped"] = true;
    if (i.fallbacks > 0) {
      j["impacts"]["fallbacks"] = i.fallbacks;
      j["impacts"]["fallback_reason"] = i.fallback_reason;
    }
    if (!i.failure.empty()) j["impacts"]["failure"] = i.failure;
  }
  if (r.projection_depth > 0) j["projection"]["predicted_depth"] = r.projection_depth;
  if (r.projection_ran) {
    j["projection"]["solved"] = r.projection_solved;
    j["projection"]["rows"] = r.projection_rows;
    j["projection"]["set_rows"] = r.projection_set_rows;
    if (r.projection_relaxed_rows > 0) j["projection"]["relaxed_rows"] = r.projection_relaxed_rows;
    if (r.projection_scale < 1) j["projection"]["scale"] = r.projection_scale;
  }
  // The watchdog's findings (docs/penetration.md), written only when there are any.
  for (const PenetratingPair& p : r.deep_penetrations) {
    const std::string a = "body " + std::to_string(p.body_a),
                      b = "body " + std::to_string(p.body_b);
    j["deep_penetrations"].push_back(
        {{"bodies", {p.body_a, p.body_b}},
         {"depth", p.result.depth},
         {"direction", {p.result.direction.x(), p.result.direction.y(), p.result.direction.z()}},
         {"features", describe_features(p.result, a, b)}});
  }
  for (const SweptCrossing& c : r.crossings)
    j["crossings"].push_back(
        {{"bodies", {c.body_a, c.body_b}}, {"time", c.time}, {"depth", c.depth}});
  for (const CentreInsideStatic& c : r.centres_inside_static)
    j["centres_inside_static"].push_back(
        {{"body", c.body}, {"static_body", c.static_body}, {"depth", c.depth}});
  if (!r.bodies_out_of_bounds.empty()) j["bodies_out_of_bounds"] = r.bodies_out_of_bounds;
  // PEG general form (docs/peg.md): written only when it acted, so other runs' files are unchanged.
  if (r.primary_switches > 0) j["primary_switches"] = r.primary_switches;
  if (r.general_form_failed) j["general_form_failed"] = true;
  return j;
}

namespace {

nlohmann::json summary_fields(const RunSummary& s) {
  return {{"scene", s.scene},
          {"model", s.model},
          {"dimension", s.dimension},
          {"step", s.step},
          {"steps_planned", s.steps_planned},
          {"steps_done", s.steps_done},
          {"solver_calls", s.solver_calls},
          {"solver_failures", s.solver_failures},
          {"retaken_failed_solves", s.retaken_failed_solves},
          {"islands_flown_free", s.islands_flown_free},
          {"energy_failures", s.energy_failures},
          {"max_energy_gain", s.max_energy_gain},
          {"projection_steps", s.projection_steps},
          {"projection_relaxed", s.projection_relaxed},
          {"projection_scaled", s.projection_scaled},
          {"projection_failures", s.projection_failures},
          {"deep_penetration_steps", s.deep_penetration_steps},
          {"max_penetration", s.max_penetration},
          {"bodies_lost", s.bodies_lost},
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
          {"impacts", s.impacts},
          {"impact_fallbacks", s.impact_fallbacks},
          {"impact_capped_steps", s.impact_capped_steps},
          {"impact_energy_change", s.impact_energy_change},
          {"peak_memory_mb", s.peak_memory_mb},
          {"kinetic_energy", s.kinetic_energy},
          {"potential_energy", s.potential_energy},
          {"bodies_asleep", s.bodies_asleep},
          {"bodies_not_spawned", s.bodies_not_spawned},
          {"bodies_falling", s.bodies_falling},
          {"failed", s.failed},
          {"failure", s.failure}};
}

}  // namespace

nlohmann::json summary_to_json(const RunSummary& s) {
  nlohmann::json j = summary_fields(s);
  // A run longer than the overlap record (RunOptions::overlap_record_cap): the median is over
  // every median_overlap_every-th step. Written only then, so other summaries are unchanged.
  if (s.median_overlap_every > 1) j["median_overlap_every"] = s.median_overlap_every;
  // Written only when a stop rule ended the run (RunOptions::stop).
  if (!s.stopped.empty()) {
    j["stopped"] = s.stopped;
    j["stopped_at"] = s.stopped_at;
  }
  return j;
}

namespace {

// The first stop rule (docs/sweeps.md "Stop rules") that step report r breaks, in StopRules'
// order; nullptr when none. `state` is after the step, `wall` the run's wall seconds so far.
const char* broken_stop_rule(const StopRules& rules, const World& w, const State& state,
                             const StepReport& r, const RunSummary& sum, double wall) {
  if (rules.max_solver_failures >= 0 && sum.solver_failures > rules.max_solver_failures)
    return "max_solver_failures";
  if (rules.max_lcp_unknowns >= 0 && r.lcp_size > rules.max_lcp_unknowns) return "max_lcp_unknowns";
  if (rules.max_kinetic_energy_per_kg < std::numeric_limits<Real>::infinity()) {
    Real mass = 0;
    for (int b = 0; b < w.body_count(); ++b)
      if (state.present[b] && !w.bodies[b].is_static) mass += w.bodies[b].mass;
    if (!std::isfinite(r.kinetic_energy) ||
        (mass > 0 && r.kinetic_energy / mass > rules.max_kinetic_energy_per_kg))
      return "max_kinetic_energy_per_kg";
  }
  if (wall > rules.wall_seconds) return "wall_seconds";
  return nullptr;
}

namespace fs = std::filesystem;

void remove_file(const fs::path& path) {
  std::error_code ec;
  fs::remove(path, ec);
  if (ec)
    throw InputError(path.string() + ": cannot remove an earlier run's file (" + ec.message() +
                     ")");
}

}  // namespace

RunRecorder::RunRecorder(const std::string& out_dir, const Scene& scene, int trajectory_every,
                         const State& initial)
    : dir_(out_dir), dimension_(scene.world.dimension), every_(std::max(1, trajectory_every)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw InputError(dir_ + ": cannot create the output folder (" + ec.message() + ")");
  // Nothing of an earlier run may stand beside this run's files: its summary, viewer files and
  // checkpoint would describe another run (docs/robustness.md "Honest failure").
  for (const char* file : kRunFiles) remove_file(fs::path(dir_) / file);
  remove_file(fs::path(dir_) / (std::string(kCheckpointFile) + ".tmp"));
  const std::string scene_file = dir_ + "/scene.json";
  write_scene_file(scene, scene_file);  // the shapes, for `exactsim view`, reruns and --resume
  scene_hash_ = file_hash(scene_file);
  for (const Body& b : scene.world.bodies) names_.push_back(b.name);
  open_files(std::ios::trunc);
  write_trajectory_header(trajectory_, dimension_);
  // The initial state as step −1.
  write_trajectory_rows(trajectory_, -1, initial.time, initial, initially_present(scene, initial),
                        names_);
}

RunRecorder::RunRecorder(const std::string& out_dir, const Scene& scene, const Checkpoint& c)
    : dir_(out_dir),
      dimension_(scene.world.dimension),
      every_(c.trajectory_every),
      scene_hash_(c.scene_hash) {
  // Rows written after the checkpoint, a partial last row included, are cut off and written
  // again; first both files are checked to hold the checkpoint's rows.
  const std::pair<const char*, std::uint64_t> files[] = {{"trajectory.csv", c.trajectory_bytes},
                                                         {"steps.jsonl", c.steps_bytes}};
  for (const auto& [name, length] : files) {
    const fs::path path = fs::path(dir_) / name;
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    char last = '\n';  // a checkpoint's step ends a line
    if (!ec && size >= length && length > 0) {
      std::ifstream in(path, std::ios::binary);
      in.seekg(static_cast<std::streamoff>(length - 1));
      in.get(last);
    }
    if (ec || size < length || last != '\n')
      throw InputError(path.string() + ": not the file of the checkpointed run (" +
                       (ec ? ec.message()
                           : "the checkpoint's step ends at byte " + std::to_string(length) +
                                 ", the file has " + std::to_string(size)) +
                       ")");
  }
  for (const auto& [name, length] : files) {
    std::error_code ec;
    fs::resize_file(fs::path(dir_) / name, length, ec);
    if (ec) throw InputError(dir_ + "/" + name + ": cannot cut it back (" + ec.message() + ")");
  }
  for (const char* file : kEndFiles) remove_file(fs::path(dir_) / file);
  for (const Body& b : scene.world.bodies) names_.push_back(b.name);
  open_files(std::ios::app);
}

void RunRecorder::open_files(std::ios::openmode mode) {
  trajectory_.open(dir_ + "/trajectory.csv", std::ios::out | mode);
  steps_.open(dir_ + "/steps.jsonl", std::ios::out | mode);
  if (!trajectory_ || !steps_) throw InputError(dir_ + ": cannot write the output files");
}

nlohmann::json report_contacts_json(const Workspace& ws, int dimension) {
  const auto rounded = [](Real v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::strtod(buf, nullptr);
  };
  const auto vec = [&](const Vec3& v) {
    nlohmann::json a = nlohmann::json::array();
    for (int k = 0; k < dimension; ++k) a.push_back(rounded(v[k]));
    return a;
  };
  nlohmann::json list = nlohmann::json::array();
  const std::vector<Contact>& contacts = ws.constraints.contacts;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    Vec3 impulse = Vec3::Zero();
    if (i < ws.contact_impulses.size())
      impulse = ws.contact_impulses[i].normal * c.normal + ws.contact_impulses[i].friction;
    list.push_back({{"a", c.body_a},
                    {"b", c.body_b},
                    {"point", vec(c.point_a)},
                    {"normal", vec(c.normal)},
                    {"impulse", vec(impulse)}});
  }
  return list;
}

void RunRecorder::record(const State& state, const StepReport& report, bool last,
                         const Workspace* ws) {
  nlohmann::json line = report_to_json(report);
  if (ws) line["contact_list"] = report_contacts_json(*ws, dimension_);
  steps_ << line.dump() << "\n";
  if (report.step % every_ == 0 || last)
    write_trajectory_rows(trajectory_, report.step, report.time, state, state.present, names_);
  if (report.step % 100 == 0 || last) {
    trajectory_.flush();
    steps_.flush();
  }
}

void RunRecorder::save_checkpoint(Checkpoint& c) {
  trajectory_.flush();
  steps_.flush();
  if (!trajectory_ || !steps_) throw InputError(dir_ + ": cannot write the output files");
  c.scene_hash = scene_hash_;
  c.trajectory_every = every_;
  c.trajectory_bytes = fs::file_size(dir_ + "/trajectory.csv");
  c.steps_bytes = fs::file_size(dir_ + "/steps.jsonl");
  write_checkpoint(c, dir_ + "/" + kCheckpointFile);
}

void RunRecorder::finish(const RunSummary& summary, bool keep_checkpoint) {
  trajectory_.flush();
  steps_.flush();
  std::ofstream out(dir_ + "/summary.json");
  out << summary_to_json(summary).dump(2) << "\n";
  std::error_code ec;
  if (!keep_checkpoint) fs::remove(dir_ + "/" + kCheckpointFile, ec);
}

std::string format_duration(double seconds) {
  char text[64];
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60)
    std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s % 3600 / 60);
  return text;
}

std::string progress_line(const std::string& scene, long step, long planned, Real time,
                          int contacts, double elapsed, long first_step) {
  char text[512];
  std::snprintf(text, sizeof text, "%s: step %ld/%ld (%.0f%%), t = %.3f s, %d contacts, %s elapsed",
                scene.c_str(), step, planned, 100.0 * step / std::max(1L, planned), time, contacts,
                format_duration(elapsed).c_str());
  std::string line = text;
  const long done = step - first_step;
  if (done > 0 && step < planned)
    line += ", about " + format_duration(elapsed / done * (planned - step)) + " left";
  return line;
}

std::string describe_failure(const Scene& scene, const StepReport& r) {
  std::ostringstream msg;
  // The step's start time k h (r.time is its end, and 0 when the state was refused before the
  // step began: a non-finite or runaway initial state).
  msg << std::setprecision(6) << "step " << r.step
      << " (t = " << static_cast<Real>(r.step) * scene.step << " s): ";
  switch (r.status) {
    case StepStatus::kDiverged: {
      const Body& b = scene.world.bodies[r.diverged_body];
      msg << "numerical failure: body " << r.diverged_body << " ('" << b.name
          << "') has non-finite state or exceeds the divergence bounds (speed "
          << scene.world.stepping.max_speed << " m/s, spin "
          << scene.world.stepping.max_angular_speed << " rad/s)";
      return msg.str();
    }
    case StepStatus::kDeepPenetration:
      if (!r.crossings.empty()) {
        const SweptCrossing& c = r.crossings.front();
        msg << "bodies " << c.body_a << " ('" << scene.world.bodies[c.body_a].name << "') and "
            << c.body_b << " ('" << scene.world.bodies[c.body_b].name
            << "') passed through each other: " << c.depth << " m deep at t = " << c.time
            << " s, more than the contact distance, even with the step split";
      } else if (!r.deep_penetrations.empty()) {
        const PenetratingPair& p = r.deep_penetrations.front();
        msg << "deep penetration: bodies " << p.body_a << " ('" << scene.world.bodies[p.body_a].name
            << "') and " << p.body_b << " ('" << scene.world.bodies[p.body_b].name << "') overlap "
            << p.result.depth << " m deep ("
            << describe_features(p.result, scene.world.bodies[p.body_a].name,
                                 scene.world.bodies[p.body_b].name)
            << "), more than the contact distance";
      } else {
        const CentreInsideStatic& c = r.centres_inside_static.front();
        msg << "deep penetration: the centre of body " << c.body << " ('"
            << scene.world.bodies[c.body].name << "') is " << c.depth << " m inside static body "
            << c.static_body << " ('" << scene.world.bodies[c.static_body].name << "')";
      }
      break;
    case StepStatus::kImpactFailed:
      msg << "impact not certified: " << r.impacts.failure;
      break;
    case StepStatus::kEnergyGain:
      if (!r.energy.ok())
        msg << "energy check failed: kinetic energy " << r.energy.after << " J after the solve, "
            << "free flight " << r.energy.free_flight << " J + stabilisation budget "
            << r.energy.stabilisation << " J (excess " << r.energy.excess() << " J, tolerance "
            << r.energy.tolerance << " J)";
      else
        msg << "energy check failed over the step: kinetic + potential energy "
            << r.energy.total_after << " J at its end, " << r.energy.total_before
            << " J at its start + stabilisation budget " << r.energy.stabilisation
            << " J + projection budget " << r.energy.projection << " J (excess "
            << r.energy.total_excess() << " J, tolerance " << r.energy.total_tolerance << " J)";
      break;
    default:
      msg << "solver " << to_string(r.solver.status) << " (method " << to_string(r.solver.method)
          << ", complementarity " << r.solver.complementarity << ", min w " << r.solver.min_w
          << ")";
      break;
  }
  msg << "; rerun with --continue-on-failure to go on regardless";
  return msg.str();
}

RunTally start_tally(const Scene& scene) {
  RunTally t;
  RunSummary& s = t.summary;
  s.scene = scene.name;
  s.model = to_string(scene.world.contact.model);
  s.dimension = scene.world.dimension;
  s.step = scene.step;
  s.steps_planned = scene.step_count();
  t.lost.assign(scene.world.body_count(), 0);
  return t;
}

void tally_step(const StepReport& r, std::size_t overlap_cap, RunTally& t) {
  RunSummary& sum = t.summary;
  const long k = r.step;
  ++sum.steps_done;
  // The steps' overlaps, for the median: every step's up to overlap_cap values, then every 2nd,
  // 4th, ... step's (a systematic sample), so that the record stays bounded (128 MiB by default)
  // for any number of steps (docs/input-validation.md "Memory budget").
  if (k % t.overlap_every == 0 && t.overlaps.size() == overlap_cap) {
    for (std::size_t i = 0; 2 * i < t.overlaps.size(); ++i) t.overlaps[i] = t.overlaps[2 * i];
    t.overlaps.resize((t.overlaps.size() + 1) / 2);
    t.overlap_every *= 2;
  }
  if (k % t.overlap_every == 0) t.overlaps.push_back(r.overlap);
  sum.max_overlap = std::max(sum.max_overlap, r.overlap);
  t.contact_sum += r.potential_contacts;
  sum.max_contacts = std::max(sum.max_contacts, r.potential_contacts);
  sum.peg_changed_steps += r.peg_changed;
  sum.impacts += r.impacts.count;
  sum.impact_fallbacks += r.impacts.fallbacks;
  sum.impact_capped_steps += r.impacts.capped;
  sum.impact_energy_change += r.impacts.energy_change;
  if (r.solver_called) {
    ++sum.solver_calls;
    sum.solver_seconds += r.seconds.solve;
    sum.max_pivots = std::max<long>(sum.max_pivots, r.solver.pivots);
    sum.max_complementarity = std::max(sum.max_complementarity, r.solver.complementarity);
    if (is_fallback(r.solver.method)) ++sum.fallback_solves;
  }
  sum.solver_failures += is_failed_solve(r.status);
  sum.retaken_failed_solves += r.retaken_failed_solves;
  sum.islands_flown_free += r.islands_flown_free;
  sum.energy_failures += r.status == StepStatus::kEnergyGain;
  if (r.energy.checked)
    sum.max_energy_gain = std::max(sum.max_energy_gain, r.energy.total_excess());
  sum.projection_steps += r.projection_ran;
  sum.projection_relaxed += r.projection_relaxed_rows > 0;
  sum.projection_scaled += r.projection_scale < 1;
  sum.projection_failures += r.projection_ran && !r.projection_solved;
  sum.deep_penetration_steps += r.status == StepStatus::kDeepPenetration;
  sum.max_penetration = std::max(sum.max_penetration, r.max_penetration);
  for (int b : r.bodies_out_of_bounds) t.lost[b] = 1;
}

RunSummary run_scene(const Scene& given, const RunOptions& options,
                     const std::function<void(const State&, const StepReport&)>& on_step) {
  using Clock = std::chrono::steady_clock;
  // The scene as its scene.json says: `exactsim run DIR/scene.json` and --resume repeat the run
  // bit for bit.
  const Scene scene = rewritten(given);
  const World& w = scene.world;
  const auto start = Clock::now();
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  // What carries from step to step, kept as the checkpoint it is saved as (checkpoint.h).
  Checkpoint run;
  Workspace ws;
  std::unique_ptr<RunRecorder> recorder;
  if (options.resume) {
    require_checkpoint(options.out_dir);
    run = read_checkpoint(options.out_dir + "/" + kCheckpointFile, scene,
                          options.out_dir + "/scene.json");
    restore(run.memory, ws);
    recorder = std::make_unique<RunRecorder>(options.out_dir, scene, run);
  } else {
    run.state = scene.initial;
    run.tally = start_tally(scene);
    if (!options.out_dir.empty())
      recorder = std::make_unique<RunRecorder>(options.out_dir, scene, options.trajectory_every,
                                               run.state);
  }
  State& state = run.state;
  RunTally& tally = run.tally;
  RunSummary& sum = tally.summary;
  const double earlier_seconds = tally.wall_seconds;
  const std::size_t overlap_cap =
      static_cast<std::size_t>(std::max(2L, options.overlap_record_cap));
  tally.overlaps.reserve(std::min<long>({sum.steps_planned, static_cast<long>(overlap_cap),
                                         1L << 20}));  // grows with the run, not its plan
  // Checkpoints: before the first step, every options.checkpoint_seconds (and at least 50 times
  // the last one's cost) after a step's rows, and at an interrupt.
  auto last_checkpoint = Clock::now();
  double checkpoint_cost = 0;
  const auto save_checkpoint = [&] {
    const auto t = Clock::now();
    run.memory = capture(ws);
    tally.wall_seconds = earlier_seconds + seconds_since(start);
    recorder->save_checkpoint(run);
    last_checkpoint = Clock::now();
    checkpoint_cost = seconds_since(t);
  };
  if (recorder && !options.resume) save_checkpoint();
  const bool contact_list = options.contact_list > 0 ||
                            (options.contact_list < 0 && w.body_count() <= kContactListMaxBodies);
  auto last_progress = start;
  const long first_step = sum.steps_done;
  // Whatever ends the run, its summary says so: an exception (bad input found mid-run, I/O)
  // still writes summary.json with failed = true before it propagates, keeping the checkpoint.
  const auto finish = [&](bool keep_checkpoint) {
    sum.wall_seconds = earlier_seconds + seconds_since(start);
    sum.peak_memory_mb = peak_memory_mb();
    sum.median_overlap = median(tally.overlaps);
    sum.median_overlap_every = tally.overlap_every;
    sum.mean_contacts = sum.steps_done ? static_cast<Real>(tally.contact_sum) / sum.steps_done : 0;
    sum.bodies_lost = static_cast<int>(std::count(tally.lost.begin(), tally.lost.end(), 1));
    sum.kinetic_energy = kinetic_energy(w.bodies, state);
    sum.potential_energy = potential_energy(w.bodies, state, w.gravity);
    sum.bodies_asleep = static_cast<int>(std::count(state.asleep.begin(), state.asleep.end(), 1));
    sum.bodies_not_spawned = sum.bodies_falling = 0;
    const Real g = w.gravity.norm();
    for (int i = 0; i < state.body_count(); ++i) {
      if (w.bodies[i].is_static) continue;
      if (!state.present[i]) {  // (before the first step, bodies due at t = 0 are absent too)
        sum.bodies_not_spawned += w.bodies[i].spawn_time > 0;
        continue;
      }
      if (g == 0) continue;
      const auto v = state.v_of(i);
      const Real down = w.dimension == 2 ? (v[0] * w.gravity[0] + v[1] * w.gravity[1]) / g
                                         : v.head<3>().dot(w.gravity) / g;
      sum.bodies_falling += down > 0.5 * g * scene.step;
    }
    if (recorder) recorder->finish(sum, keep_checkpoint);
  };
  const auto interrupted = [&] { return options.interrupt != nullptr && *options.interrupt != 0; };
  try {
    for (long k = sum.steps_done; k < sum.steps_planned && !interrupted(); ++k) {
      const StepReport r = advance(w, state, ws, scene.step, k);
      tally_step(r, overlap_cap, tally);
      const char* rule =
          broken_stop_rule(options.stop, w, state, r, sum, earlier_seconds + seconds_since(start));
      if (rule) {
        sum.stopped = rule;
        sum.stopped_at = static_cast<Real>(sum.steps_done) * scene.step;
      }
      const bool stop = rule || r.status == StepStatus::kDiverged ||
                        ((is_failed_solve(r.status) || r.status == StepStatus::kDeepPenetration) &&
                         !w.stepping.continue_on_solver_failure);
      if (recorder)
        recorder->record(state, r, k + 1 == sum.steps_planned || stop,
                         contact_list ? &ws : nullptr);
      if (on_step) on_step(state, r);
      if (stop) {
        if (!rule) {
          sum.failed = true;
          sum.failure = describe_failure(scene, r);
        }
        break;
      }
      const auto now = Clock::now();
      if (recorder && std::chrono::duration<double>(now - last_checkpoint).count() >
                          std::max(options.checkpoint_seconds, 50 * checkpoint_cost))
        save_checkpoint();
      if (options.progress && now - last_progress > std::chrono::seconds(2)) {
        last_progress = now;
        std::fprintf(stderr, "\r%s   ",
                     progress_line(scene.name, k + 1, sum.steps_planned, r.time,
                                   r.potential_contacts, seconds_since(start), first_step)
                         .c_str());
        std::fflush(stderr);
      }
    }
    if (!sum.failed && sum.stopped.empty() &&
        sum.steps_done < sum.steps_planned) {  // the loop saw the interrupt
      sum.failed = sum.interrupted = true;
      sum.failure = "interrupted";
      if (recorder) save_checkpoint();
    }
  } catch (const std::exception& e) {
    sum.failed = true;
    sum.failure = "step " + std::to_string(sum.steps_done) + ": " + e.what();
    finish(true);
    throw;
  }
  if (options.progress && Clock::now() - start > std::chrono::seconds(2))
    std::fprintf(stderr, "\n");
  finish(sum.interrupted);
  return sum;
}

}  // namespace exactsim
