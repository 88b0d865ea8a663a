#include "experiments/sweep_run.h"

#include <cstdio>
#include <exception>
#include <filesystem>

#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "experiments/sweep_engine.h"

namespace exactsim {

using nlohmann::json;

json run_sweep_point(const SweepSpec& spec, const SweepPoint& point, const std::string& run_dir) {
  if (is_engine_sweep(spec)) return run_engine_point(spec, point, run_dir);
  try {
    const Scene scene = sweep_scene(spec, point);
    RunOptions o;
    o.progress = false;
    if (spec.record.trajectory) o.out_dir = run_dir;
    o.stop = spec.stop;
    // The series' fields (checked when the sweep file was read) and their values, step by step.
    std::vector<const ReportScalar*> fields;
    for (const std::string& f : spec.record.series) {
      fields.push_back(find_report_scalar(f));
      if (fields.back() == nullptr) throw InputError("record.series: '" + f + "' is not a field");
    }
    std::vector<json> values(fields.size(), json::array());
    const RunDeadline deadline(spec.run_timeout_seconds);
    const json all = summary_to_json(run_scene(scene, o, [&](const State&, const StepReport& r) {
      deadline.check();
      for (std::size_t k = 0; k < fields.size(); ++k) values[k].push_back(fields[k]->get(r));
    }));
    json series = json::object();
    for (std::size_t k = 0; k < fields.size(); ++k)
      series[spec.record.series[k]] = std::move(values[k]);
    json summary = json::object();
    for (const std::string& f : spec.record.summary) summary[f] = all[f];
    summary["failed"] = all["failed"];
    summary["failure"] = all["failure"];
    for (const char* f : {"stopped", "stopped_at"})  // only when a stop rule ended the run
      if (all.contains(f)) summary[f] = all[f];
    json result = {{"summary", summary}};
    if (!spec.record.series.empty()) result["series"] = std::move(series);
    return result;
  } catch (const RunTimeout&) {
    throw;
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
}

std::string sweep_results_dir(const std::string& out) {
  return (std::filesystem::path(out) / "results").string();
}

std::string sweep_run_dir(const std::string& out, const std::string& name) {
  return (std::filesystem::path(out) / "runs" / name).string();
}

std::vector<SweepJob> sweep_jobs(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                 const std::string& out) {
  std::vector<SweepJob> jobs;
  jobs.reserve(points.size());
  for (const SweepPoint& p : points) {
    const std::string run_dir = sweep_run_dir(out, p.name);
    jobs.push_back({p.name, sweep_params(spec, p),
                    [&spec, p, run_dir] { return run_sweep_point(spec, p, run_dir); }, p.cost,
                    spec.run_timeout_seconds});
  }
  return jobs;
}

std::string sweep_result_failure(const json& result) {
  if (result.contains("error")) return result["error"].get<std::string>();
  const json& s = result.value("summary", json::object());
  return s.value("failed", false) ? s.value("failure", std::string("ended early")) : "";
}

std::string sweep_result_stop(const json& result) {
  const json& s = result.value("summary", json::object());
  if (!s.contains("stopped")) return "";
  char at[32];
  std::snprintf(at, sizeof at, "%g", s.value("stopped_at", 0.0));
  return s["stopped"].get<std::string>() + " at " + at + " s";
}

}  // namespace exactsim
