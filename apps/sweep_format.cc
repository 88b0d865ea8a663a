#include "sweep_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "exactsim/math/error.h"
#include "experiments/sweep_run.h"

namespace exactsim::cli {

ContactModel parse_model(const std::string& name) {
  if (name == "standard") return ContactModel::kStandard;
  if (name == "peg") return ContactModel::kPeg;
  if (name == "corrective") return ContactModel::kCorrective;
  throw InputError("--models: unknown model '" + name + "' (expected peg, standard or corrective)");
}

namespace {
std::string with_digits(Real x, const char* format) {
  char b[32];
  std::snprintf(b, sizeof b, format, x);
  return b;
}
}  // namespace

std::string fmt(Real x) { return with_digits(x, "%.3g"); }
std::string g(Real x) { return with_digits(x, "%.6g"); }
Real compact(Real x) { return std::strtod(g(x).c_str(), nullptr); }

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) throw InputError(path.string() + ": cannot write");
  out << text;
}

void add_pour_run(PourCell& c, const nlohmann::json& r) {
  ++c.runs;
  c.steps_planned += r["steps_planned"].get<long>();
  c.steps_done += r["steps_done"].get<long>();
  c.failures += r["solver_failures"].get<long>();
  c.wall += r["wall_seconds"].get<double>();
  const Real h = r["h"].get<Real>();
  if (!r["first_failure_step"].is_null()) {
    ++c.runs_with_failure;
    c.first_failure_time.push_back(h * r["first_failure_step"].get<Real>());
  }
  // The overlap array may contain nulls when a run blew up (JSON has no NaN): counted, not pooled.
  for (const nlohmann::json& v : r["overlap"]) {
    if (v.is_number() && std::isfinite(v.get<Real>()))
      c.overlap.push_back(v.get<Real>());
    else
      ++c.nonfinite;
  }
  const auto& u = r["U"];
  const auto& i = r["I"];
  const auto& k = r["contacts"];
  for (size_t s = 0; s < i.size(); ++s) {
    c.sum_u += u[s].get<long>();
    c.sum_i += i[s].get<long>();
    c.steps_with_i += i[s].get<long>() > 0;
    c.sum_contacts += k[s].get<long>();
  }
}
nlohmann::json pour_run(const nlohmann::json& result, Real h) {
  using nlohmann::json;
  const json& s = result["summary"];
  const json& series = result["series"];
  json overlap = json::array();
  for (const json& v : series["overlap"])
    overlap.push_back(v.is_number() ? json(compact(v.get<Real>())) : json(nullptr));
  json first_failure = nullptr;
  const json& status = series["status"];
  for (std::size_t k = 0; k < status.size() && first_failure.is_null(); ++k)
    if (status[k] == "solver_failed") first_failure = k;
  json r = {{"steps_planned", s["steps_planned"]},
            {"steps_done", s["steps_done"]},
            {"solver_failures", s["solver_failures"]},
            {"wall_seconds", s["wall_seconds"]},
            {"solver_seconds", s.value("solver_seconds", 0.0)},
            {"stopped", s.value("stopped", json(nullptr))},
            {"h", h},
            {"first_failure_step", first_failure},
            {"overlap", std::move(overlap)},
            {"U", series["U"]},
            {"I", series["I"]},
            {"contacts", series["contacts"]}};
  if (series.contains("lcp_size")) r["lcp_size"] = series["lcp_size"];
  return r;
}

void print_pour_progress(const SweepProgress& p) {
  if (!p.result || p.result->contains("error")) {
    std::printf("[%d/%d] %s FAILED after %.1f s: %s\n", p.done, p.total, p.job->name.c_str(),
                p.wall_seconds,
                p.result ? (*p.result)["error"].get<std::string>().c_str() : p.error.c_str());
  } else {
    const nlohmann::json& r = (*p.result)["summary"];
    const std::string stop = sweep_result_stop(*p.result);
    std::printf("[%d/%d] %-36s median overlap %.3g, %ld solver failures, wall %.2f s%s%s\n", p.done,
                p.total, p.job->name.c_str(),
                r["median_overlap"].is_number() ? r["median_overlap"].get<double>() : NAN,
                r["solver_failures"].get<long>(), r["wall_seconds"].get<double>(),
                stop.empty() ? "" : (", stopped: " + stop).c_str(),
                p.skipped ? " (done earlier)" : "");
  }
  std::fflush(stdout);
}

void finish_pour_cell(PourCell& c) {
  if (c.overlap.empty()) return;
  c.halves = quartiles_median_of_halves(c.overlap);
  c.interpolated = quartiles_interpolated(c.overlap);
  c.max_overlap = *std::max_element(c.overlap.begin(), c.overlap.end());
}

std::string overlap_csv(const PourCell& c) {
  if (c.overlap.empty()) return ",,,,,,";
  return g(c.halves.median) + ',' + g(c.halves.q1) + ',' + g(c.halves.q3) + ',' +
         g(c.interpolated.q1) + ',' + g(c.interpolated.q3) + ',' + g(c.max_overlap) + ',';
}

std::string rates_csv(const PourCell& c) {
  const long ui = c.sum_u + c.sum_i;
  const std::string first_failure =
      c.first_failure_time.empty()
          ? ""
          : g(*std::min_element(c.first_failure_time.begin(), c.first_failure_time.end()));
  return first_failure + ',' + (ui ? g(Real(c.sum_i) / ui) : "") + ',' +
         (c.steps_done ? g(Real(c.steps_with_i) / c.steps_done) : "") + ',' +
         (c.steps_done ? g(Real(c.sum_contacts) / c.steps_done) : "");
}

std::string overlap_md(const PourCell& c) {
  if (c.overlap.empty()) return "– | – | – | ";
  return fmt(c.halves.median) + " | " + fmt(c.halves.q1) + ", " + fmt(c.halves.q3) + " | " +
         fmt(c.interpolated.q1) + ", " + fmt(c.interpolated.q3) + " | ";
}

std::string rates_md(const PourCell& c) {
  const long ui = c.sum_u + c.sum_i;
  const std::string first_failure =
      c.first_failure_time.empty()
          ? "–"
          : fmt(*std::min_element(c.first_failure_time.begin(), c.first_failure_time.end()));
  return first_failure + " | " + (ui ? fmt(Real(c.sum_i) / ui) : "–") + " | " +
         (c.steps_done ? fmt(Real(c.steps_with_i) / c.steps_done) : "–") + " | ";
}

std::string nonfinite_md(const PourCell& c) {
  if (!c.nonfinite) return "";
  return "\n(" + std::to_string(c.nonfinite) + " non-finite overlap values not pooled)\n";
}

std::string unfinished_md(const SweepOutcome& outcome) {
  if (outcome.errors.empty()) return "";
  std::string s = "### Runs that did not finish\n\n";
  for (const std::string& e : outcome.errors) s += "* " + e + "\n";
  return s;
}

int report_sweep(const char* name, const SweepOutcome& outcome, const std::filesystem::path& md) {
  std::printf("%s: %d ran, %d done earlier, %d failed; tables in %s\n", name, outcome.ran,
              outcome.skipped, outcome.failed, md.string().c_str());
  for (const std::string& e : outcome.errors) std::fprintf(stderr, "%s: %s\n", name, e.c_str());
  return outcome.failed ? 1 : 0;
}

}  // namespace exactsim::cli
