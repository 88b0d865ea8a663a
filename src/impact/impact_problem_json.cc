#include "exactsim/impact/impact_problem_json.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

#include "exactsim/impact/newton_restitution.h"
#include "exactsim/impact/plus.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using nlohmann::json;

[[noreturn]] void fail_at(const std::string& path, const std::string& why) {
  throw InputError(path + ": " + why);
}

void only_fields(const json& j, const std::string& path, const std::set<std::string>& allowed) {
  if (!j.is_object()) fail_at(path.empty() ? "(top level)" : path, "must be an object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!allowed.count(it.key()))
      fail_at(path.empty() ? it.key() : path + "." + it.key(), "unknown field");
}

Real number(const json& j, const std::string& path) {
  if (!j.is_number()) fail_at(path, "must be a number");
  const Real x = j.get<Real>();
  if (!std::isfinite(x)) fail_at(path, "must be finite");
  return x;
}

int integer(const json& j, const std::string& path) {
  if (!j.is_number_integer()) fail_at(path, "must be an integer");
  // Whole numbers beyond int are errors, not wrapped values.
  const bool too_large = j.is_number_unsigned()
                             ? j.get<std::uint64_t>() > std::numeric_limits<int>::max()
                             : j.get<std::int64_t>() > std::numeric_limits<int>::max() ||
                                   j.get<std::int64_t>() < std::numeric_limits<int>::min();
  if (too_large)
    fail_at(path, "must be an integer within +-" + std::to_string(std::numeric_limits<int>::max()));
  return j.get<int>();
}

// Bilateral rows and contacts: far more than any impact has, few enough that 3 k + b fits.
constexpr int kMaxRows = 100000;

VecX vector(const json& j, const std::string& path) {
  if (!j.is_array()) fail_at(path, "must be an array of numbers");
  VecX v(j.size());
  for (size_t i = 0; i < j.size(); ++i) v(i) = number(j[i], path + "[" + std::to_string(i) + "]");
  return v;
}

json vec_json(const VecX& v) { return std::vector<Real>(v.data(), v.data() + v.size()); }

ContactLaw contact_law(const json& j, const std::string& path) {
  only_fields(j, path, {"friction", "restitution"});
  ContactLaw law;
  if (j.contains("friction")) law.friction = number(j["friction"], path + ".friction");
  if (!j.contains("restitution")) fail_at(path + ".restitution", "missing");
  const json& r = j["restitution"];
  const std::string rp = path + ".restitution";
  if (r.is_object() && r.contains("e")) {
    only_fields(r, rp, {"e"});
    law.restitution = RestitutionLaw::constant(number(r["e"], rp + ".e"));
  } else {
    only_fields(r, rp, {"e_min", "v_capture", "v_plastic"});
    for (const char* f : {"e_min", "v_capture", "v_plastic"})
      if (!r.contains(f)) fail_at(rp + "." + f, "missing (or give a constant COR as {\"e\": …})");
    law.restitution.e_min = number(r["e_min"], rp + ".e_min");
    law.restitution.v_capture = number(r["v_capture"], rp + ".v_capture");
    law.restitution.v_plastic = number(r["v_plastic"], rp + ".v_plastic");
    if (law.restitution.v_plastic <= 0.0)
      fail_at(rp + ".v_plastic", "must be > 0 (a constant COR is written {\"e\": …})");
  }
  return law;
}

void read_options(const json& j, ImpactOptions& o, RestitutionModel& model) {
  const std::string p = "options";
  only_fields(j, p,
              {"v_transition", "theta_max", "alpha_min", "v_observe", "max_rounds", "max_intervals",
               "step_length", "induced_impacts", "mixed_rounds", "restitution_model", "log"});
  if (j.contains("v_transition")) o.v_transition = number(j["v_transition"], p + ".v_transition");
  if (j.contains("theta_max")) o.theta_max = number(j["theta_max"], p + ".theta_max");
  if (j.contains("alpha_min")) o.alpha_min = number(j["alpha_min"], p + ".alpha_min");
  if (j.contains("v_observe")) o.v_observe = number(j["v_observe"], p + ".v_observe");
  if (j.contains("max_rounds")) o.max_rounds = integer(j["max_rounds"], p + ".max_rounds");
  if (j.contains("max_intervals"))
    o.max_intervals = integer(j["max_intervals"], p + ".max_intervals");
  auto choice = [&](const char* field, std::initializer_list<const char*> values) -> std::string {
    const json& v = j[field];
    const std::string path = p + "." + field;
    if (!v.is_string()) fail_at(path, "must be a string");
    const std::string s = v.get<std::string>();
    std::string list;
    for (const char* allowed : values) {
      if (s == allowed) return s;
      list += std::string(list.empty() ? "" : ", ") + "\"" + allowed + "\"";
    }
    fail_at(path, "must be one of " + list + ", got \"" + s + "\"");
  };
  if (j.contains("step_length"))
    o.step_length = choice("step_length", {"closest_point", "whole_step"}) == "closest_point"
                        ? StepLengthRule::kClosestPoint
                        : StepLengthRule::kWholeStep;
  if (j.contains("induced_impacts")) {
    const std::string m = choice("induced_impacts", {"rounds", "simultaneous", "mixed"});
    o.induced_impacts = m == "rounds"         ? InducedImpacts::kRounds
                        : m == "simultaneous" ? InducedImpacts::kSimultaneous
                                              : InducedImpacts::kMixed;
  }
  if (j.contains("mixed_rounds")) o.mixed_rounds = integer(j["mixed_rounds"], p + ".mixed_rounds");
  if (j.contains("restitution_model"))
    model = choice("restitution_model", {"poisson", "newton"}) == "poisson"
                ? RestitutionModel::kPoisson
                : RestitutionModel::kNewton;
  if (j.contains("log")) {
    if (!j["log"].is_boolean()) fail_at(p + ".log", "must be true or false");
    o.record_log = j["log"].get<bool>();
  }
}

}  // namespace

ImpactProblemFile impact_problem_from_json(const json& j) {
  only_fields(j, "",
              {"format", "version", "contacts", "bilateral_rows", "delassus", "velocity", "options",
               "comment"});
  if (!j.contains("format") || j["format"] != "exactsim-impact")
    fail_at("format", "must be \"exactsim-impact\"");
  if (!j.contains("version") || j["version"] != 1) fail_at("version", "must be 1");
  ImpactProblemFile file;
  ImpactProblem& p = file.problem;
  if (!j.contains("contacts") || !j["contacts"].is_array())
    fail_at("contacts", "missing or not an array");
  if (j["contacts"].size() > static_cast<std::size_t>(kMaxRows))
    fail_at("contacts", "more than " + std::to_string(kMaxRows) + " contacts");
  for (size_t k = 0; k < j["contacts"].size(); ++k)
    p.contacts.push_back(contact_law(j["contacts"][k], "contacts[" + std::to_string(k) + "]"));
  if (j.contains("bilateral_rows")) {
    p.bilateral_rows = integer(j["bilateral_rows"], "bilateral_rows");
    if (p.bilateral_rows < 0) fail_at("bilateral_rows", "must be >= 0");
    if (p.bilateral_rows > kMaxRows)
      fail_at("bilateral_rows", "must be <= " + std::to_string(kMaxRows));
  }
  const int n = p.rows();
  if (!j.contains("delassus") || !j["delassus"].is_array())
    fail_at("delassus", "missing or not an array");
  const json& a = j["delassus"];
  if (static_cast<int>(a.size()) != n)
    fail_at("delassus", "must have " + std::to_string(n) +
                            " rows (3 per contact + bilateral_rows), got " +
                            std::to_string(a.size()));
  p.delassus.resize(n, n);
  for (int i = 0; i < n; ++i) {
    const std::string rp = "delassus[" + std::to_string(i) + "]";
    const VecX row = vector(a[i], rp);
    if (row.size() != n)
      fail_at(rp, "must have " + std::to_string(n) + " entries, got " + std::to_string(row.size()));
    p.delassus.row(i) = row.transpose();
  }
  if (!j.contains("velocity")) fail_at("velocity", "missing");
  p.velocity = vector(j["velocity"], "velocity");
  if (j.contains("options")) read_options(j["options"], p.options, file.model);
  check_impact_problem(p);
  return file;
}

namespace {

// Strict JSON for problem files (docs/input-validation.md "JSON"): a duplicate key, a number
// outside the double range or nesting deeper than 64 levels is an error naming its JSON path.
// (The scene readers' parse_json_strict lives in the io layer, above this one.)
class StrictSax {
 public:
  explicit StrictSax(json& root) : root_(root) {}
  bool null() { return put(nullptr); }
  bool boolean(bool b) { return put(b); }
  bool number_integer(json::number_integer_t x) { return put(x); }
  bool number_unsigned(json::number_unsigned_t x) { return put(x); }
  bool number_float(json::number_float_t x, const std::string&) { return put(x); }
  bool string(json::string_t& s) { return put(std::move(s)); }
  bool binary(json::binary_t& b) { return put(json::binary(std::move(b))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    if (stack_.back().value->contains(k)) {
      stack_.back().key = k;
      error_ = path(false) + ": duplicate key \"" + k + "\" (an object names each key once)";
      return false;
    }
    stack_.back().key = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    if (e.id == 406) {  // number overflow
      error_ = path(true) + ": the number " + token + " is outside the range of a double";
    } else {
      // "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error ..."
      const std::string what = e.what();
      const auto bracket = what.find("] ");
      error_ = "invalid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2));
    }
    (void)position;
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  struct Frame {
    json* value;
    std::string key;
  };
  // Path of the value being read; `pending`: not yet stored in the innermost container.
  std::string path(bool pending) const {
    std::string p;
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      if (f.value->is_array()) {
        std::size_t n = f.value->size();
        if (!(i + 1 == stack_.size() && pending) && n > 0) --n;
        p += '[';
        p += std::to_string(n);
        p += ']';
      } else if (!f.key.empty()) {
        if (!p.empty()) p += '.';
        p.append(f.key);
      }
    }
    return p.empty() ? "(top level)" : p;
  }
  template <class V>
  json* store(V&& v) {
    if (stack_.empty()) {
      root_ = json(std::forward<V>(v));
      return &root_;
    }
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      f.value->push_back(json(std::forward<V>(v)));
      return &f.value->back();
    }
    json& slot = (*f.value)[f.key];
    slot = json(std::forward<V>(v));
    return &slot;
  }
  template <class V>
  bool put(V&& v) {
    store(std::forward<V>(v));
    return true;
  }
  bool open(json container) {
    if (stack_.size() >= 64) {
      error_ = path(true) + ": nested deeper than 64 levels";
      return false;
    }
    stack_.push_back(Frame{store(std::move(container)), {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  json& root_;
  std::vector<Frame> stack_;
  std::string error_;
};

constexpr std::uintmax_t kMaxProblemFileBytes = 256ull << 20;

}  // namespace

ImpactProblemFile read_impact_problem(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw InputError(path + ": cannot open");
  // A FIFO or device would block or never end (docs/input-validation.md).
  if (!fs::is_regular_file(st)) throw InputError(path + ": not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot open");
  if (size > kMaxProblemFileBytes)
    throw InputError(path + ": the file is larger than the limit of 256 MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  json j;
  StrictSax sax(j);
  if (!json::sax_parse(text.begin(), text.end(), &sax, json::input_format_t::json, true, false))
    throw InputError(path + ": " + sax.error());
  try {
    return impact_problem_from_json(j);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

json impact_problem_to_json(const ImpactProblem& p, RestitutionModel model) {
  json j;
  j["format"] = "exactsim-impact";
  j["version"] = 1;
  j["contacts"] = json::array();
  for (const ContactLaw& law : p.contacts) {
    json r = law.restitution.is_constant() ? json{{"e", law.restitution.e_min}}
                                           : json{{"e_min", law.restitution.e_min},
                                                  {"v_capture", law.restitution.v_capture},
                                                  {"v_plastic", law.restitution.v_plastic}};
    j["contacts"].push_back({{"friction", law.friction}, {"restitution", r}});
  }
  j["bilateral_rows"] = p.bilateral_rows;
  j["delassus"] = json::array();
  for (int i = 0; i < p.delassus.rows(); ++i) j["delassus"].push_back(vec_json(p.delassus.row(i)));
  j["velocity"] = vec_json(p.velocity);
  const ImpactOptions& o = p.options;
  j["options"] = {
      {"v_transition", o.v_transition},
      {"theta_max", o.theta_max},
      {"alpha_min", o.alpha_min},
      {"v_observe", o.v_observe},
      {"max_rounds", o.max_rounds},
      {"max_intervals", o.max_intervals},
      {"step_length",
       o.step_length == StepLengthRule::kClosestPoint ? "closest_point" : "whole_step"},
      {"induced_impacts", o.induced_impacts == InducedImpacts::kRounds         ? "rounds"
                          : o.induced_impacts == InducedImpacts::kSimultaneous ? "simultaneous"
                                                                               : "mixed"},
      {"restitution_model", model == RestitutionModel::kPoisson ? "poisson" : "newton"},
      {"log", o.record_log}};
  if (o.induced_impacts == InducedImpacts::kMixed) j["options"]["mixed_rounds"] = o.mixed_rounds;
  return j;
}

json impact_result_to_json(const ImpactResult& r) {
  json j;
  j["model"] = r.model;
  j["converged"] = r.converged;
  if (!r.converged) j["stop_reason"] = r.stop_reason;
  j["impulse"] = vec_json(r.impulse);
  j["velocity"] = vec_json(r.velocity);
  j["rounds"] = r.rounds;
  j["intervals"] = r.intervals;
  if (r.expansions_scaled > 0) j["expansions_scaled"] = r.expansions_scaled;
  j["contacts"] = json::array();
  for (const ContactSummary& c : r.contacts)
    j["contacts"].push_back({{"transition", to_string(c.transition)},
                             {"compression_impulse", vec_json(c.compression_impulse)},
                             {"expansion_impulse", vec_json(c.expansion_impulse)}});
  j["kinetic_energy_change"] = r.kinetic_energy_change;
  j["log"] = json::array();
  for (const RoundLog& round : r.log) {
    json jr;
    std::vector<std::string> phase;
    for (ContactPhase p : round.phase) phase.push_back(to_string(p));
    jr["phase"] = phase;
    jr["cor"] = round.cor;
    jr["expansion"] = round.expansion;
    jr["impulse"] = vec_json(round.impulse);
    // Both are changes since the impact began (J), not energies: "energy_change_at_start" of the
    // first round is 0.
    jr["energy_change_at_start"] = round.kinetic_energy_before;
    jr["energy_change_at_end"] = round.kinetic_energy_after;
    jr["intervals"] = json::array();
    for (const IntervalLog& in : round.intervals) {
      std::vector<std::string> normal, friction;
      for (NormalState s : in.normal) normal.push_back(to_string(s));
      for (FrictionState s : in.friction) friction.push_back(to_string(s));
      jr["intervals"].push_back({{"alpha", in.alpha},
                                 {"limit", to_string(in.limit)},
                                 {"limiting_contact", in.limiting_contact},
                                 {"active_set_passes", in.active_set_passes},
                                 {"newton_iterations", in.newton_iterations},
                                 {"newton_failures", in.newton_failures},
                                 {"normal", normal},
                                 {"friction", friction},
                                 {"impulse", vec_json(in.impulse)}});
    }
    j["log"].push_back(jr);
  }
  return j;
}

ImpactResult solve_impact_problem(const ImpactProblemFile& file) {
  return file.model == RestitutionModel::kNewton ? solve_newton_restitution(file.problem)
                                                 : solve_plus(file.problem);
}

}  // namespace exactsim
