#include "sweep_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "exactsim/math/error.h"

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
