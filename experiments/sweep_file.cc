#include "experiments/sweep_file.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <utility>

#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "experiments/scenario_by_name.h"
#include "experiments/sweep_engine.h"
#include "io/json_cursor.h"

namespace exactsim {
namespace {

using io::JsonCursor;
using nlohmann::json;
namespace fs = std::filesystem;

constexpr std::uintmax_t kMaxSweepFileBytes = 16u << 20;
constexpr std::uintmax_t kMaxSceneFileBytes = 256u << 20;
constexpr const char* kDefaultSummary[] = {"max_overlap", "median_overlap",  "max_penetration",
                                           "bodies_lost", "solver_failures", "steps_done",
                                           "wall_seconds"};

// A path's segments: object keys and array indices.
struct PathStep {
  std::string key;  // empty for an index
  std::size_t index = 0;
};

std::vector<PathStep> parse_path(const std::string& path) {
  std::vector<PathStep> steps;
  std::size_t i = 0;
  auto bad = [&](const std::string& why) {
    throw InputError("'" + path + "' is not a field path (" + why +
                     "; expected keys joined by dots, with [i] for array elements, as in "
                     "bodies[1].friction)");
  };
  if (path.empty()) bad("it is empty");
  while (i < path.size()) {
    const std::size_t start = i;
    while (i < path.size() && (std::isalnum(static_cast<unsigned char>(path[i])) || path[i] == '_'))
      ++i;
    if (i == start) bad("a key is empty");
    steps.push_back({path.substr(start, i - start)});
    while (i < path.size() && path[i] == '[') {
      const std::size_t digits = ++i;
      while (i < path.size() && std::isdigit(static_cast<unsigned char>(path[i]))) ++i;
      if (i == digits || i - digits > 7 || i >= path.size() || path[i] != ']')
        bad("an index is not a whole number in brackets");
      steps.push_back({"", std::stoul(path.substr(digits, i - digits))});
      ++i;
    }
    if (i < path.size()) {
      if (path[i] != '.') bad(std::string("unexpected '") + path[i] + "'");
      if (++i == path.size()) bad("it ends with a dot");
    }
  }
  return steps;
}

bool is_scenario_path(const std::string& path) { return path.starts_with("scenario."); }

// A value rounded to `digits` significant digits: linear ranges to 12, so that they give 0.3,
// not 0.30000000000000004; log-spaced values to 6, so that they read 0.00271442.
double rounded(double x, int digits = 12) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return std::strtod(text, nullptr);
}

// The number as a JSON value: an integer when every input was one and it is whole.
json range_value(double x, bool integers) {
  x = rounded(x);
  if (integers && std::abs(x) < 9e15 && x == std::floor(x)) return static_cast<std::int64_t>(x);
  return x;
}

std::vector<json> axis_values(const JsonCursor& axis, long cap) {
  const bool has_values = axis.has("values"), has_range = axis.has("range"),
             has_log = axis.has("log");
  if (has_values + has_range + has_log != 1)
    axis.fail(
        "give exactly one of values (a list), range {from, to, step | count} or log "
        "{from, to, count}");
  std::vector<json> out;
  auto too_many = [&](const JsonCursor& c, double n) {
    if (n > static_cast<double>(cap))
      c.fail("gives " + io::format_number(n) + " values, more than the sweep's limit of " +
             std::to_string(cap) + " runs");
  };
  if (has_values) {
    const JsonCursor v = axis.at("values");
    v.expect_array();
    if (v.size() == 0) v.fail("the axis is empty (give at least one value)");
    too_many(v, static_cast<double>(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i) {
      const JsonCursor e = v.at(i);
      if (e.value().is_object())  // (null removes the field: set_json_path)
        e.fail("expected a number, string, boolean, array or null, got an object");
      out.push_back(e.value());
    }
  } else if (has_range) {
    const JsonCursor r = axis.at("range");
    const bool by_step = r.has("step");
    r.expect_object({"from", "to", by_step ? "step" : "count"});
    if (!by_step && !r.has("count")) r.fail("give step or count");
    const double from = r.at("from").number(), to = r.at("to").number();
    if (by_step) {
      const JsonCursor s = r.at("step");
      const double step = s.positive();
      const double n = std::floor(std::abs(to - from) / step + 1e-9) + 1;
      too_many(r, n);
      const bool integers = r.at("from").value().is_number_integer() &&
                            r.at("to").value().is_number_integer() && s.value().is_number_integer();
      const double dir = to >= from ? 1 : -1;
      for (long i = 0; i < static_cast<long>(n); ++i)
        out.push_back(range_value(from + dir * static_cast<double>(i) * step, integers));
    } else {
      const int count = r.at("count").integer(1, static_cast<int>(kMaxSweepRuns));
      too_many(r, count);
      if (count == 1 && from != to) r.fail("count 1 needs from = to");
      const bool integers =
          r.at("from").value().is_number_integer() && r.at("to").value().is_number_integer();
      for (int i = 0; i < count; ++i)
        out.push_back(
            range_value(count == 1 ? from : from + (to - from) * i / (count - 1),
                        integers && (count == 1 || std::fmod(to - from, count - 1) == 0)));
    }
  } else {
    const JsonCursor r = axis.at("log");
    r.expect_object({"from", "to", "count"});
    const double from = r.at("from").positive(), to = r.at("to").positive();
    const int count = r.at("count").integer(1, static_cast<int>(kMaxSweepRuns));
    too_many(r, count);
    if (count == 1 && from != to) r.fail("count 1 needs from = to");
    for (int i = 0; i < count; ++i)
      out.push_back(rounded(count == 1       ? from
                            : i == count - 1 ? to
                                             : from * std::pow(to / from, double(i) / (count - 1)),
                            6));
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (out[i] == out[k])
        axis.fail("the value " + out[i].dump() + " is given twice (values " + std::to_string(k) +
                  " and " + std::to_string(i) + ")");
  return out;
}

// A path's last key ("friction" for bodies[1].friction): the short name in run names.
std::string short_key(const std::string& path) {
  const std::vector<PathStep> steps = parse_path(path);
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (!it->key.empty()) return it->key;
  return path;
}

// Text safe in a file name: letters, digits and . - + _; anything else becomes '-'.
std::string file_safe(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+' &&
        c != '_')
      c = '-';
  return s;
}

// A value in a run's name: strings as they are, whole numbers without ".0" (a range from 0 in
// steps of 0.2 starts at 0, not 0.0), other numbers as their shortest round-trip text.
std::string name_text(const json& v) {
  if (v.is_string()) return file_safe(v.get<std::string>());
  if (v.is_number_float() && std::abs(v.get<double>()) < 1e15 &&
      v.get<double>() == std::floor(v.get<double>()))
    return json(static_cast<std::int64_t>(v.get<double>())).dump();
  return file_safe(v.dump());
}

// FNV-1a, 64 bits, as hex: a scene document's identity in a run's parameters.
std::string text_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char out[20];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

using Assignments = std::vector<std::pair<std::string, json>>;

// The fields set for one run: "set", then the point's axis values (not the engine options,
// which are not scene fields).
Assignments assignments(const SweepSpec& spec, const std::vector<json>& values) {
  Assignments out;
  for (const auto& item : spec.fixed.items())
    if (!is_engine_option_path(item.key())) out.emplace_back(item.key(), item.value());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!is_engine_option_path(spec.axes[i].path)) out.emplace_back(spec.axes[i].path, values[i]);
  return out;
}

// The base scene with the fields of `set` set (a scenario: its parameters to its builder, the
// other fields in the scene it builds).
Scene scene_of(const SweepSpec& spec, const Assignments& set) {
  if (!spec.scene_file.empty()) {
    json doc = spec.scene_doc;
    for (const auto& [path, value] : set) set_json_path(doc, path, value);
    return parse_scene(doc, spec.scene_file);
  }
  ScenarioSpec s;
  s.name = spec.scenario;
  json params = spec.scenario_base;
  for (const auto& [path, value] : set) {
    if (is_scenario_path(path)) params[path.substr(9)] = value;
    if (path == "time.step" && value.is_number()) s.step = value.get<Real>();
    if (path == "time.duration" && value.is_number()) s.duration = value.get<Real>();
  }
  // Checked when the file was read (check_scenario_value).
  if (params.contains("set")) s.set = params["set"].get<std::string>()[0];
  if (params.contains("seed")) s.seed = params["seed"].get<std::uint64_t>();
  if (params.contains("bodies")) s.bodies = params["bodies"].get<int>();
  Scene scene = scenario_scene(s, spec.data_dir);
  scene.world.contact.model = ContactModel::kPeg;  // as `exactsim run --scenario`
  json doc = scene_to_json(scene);
  for (const auto& [path, value] : set)
    if (!is_scenario_path(path)) set_json_path(doc, path, value);
  return parse_scene(doc, spec.origin + " (scenario " + spec.scenario + ")");
}

// A scenario parameter's value, checked as the scenario needs it.
void check_scenario_value(const JsonCursor& c, const std::string& key,
                          const std::string& scenario) {
  if (key == "seed") {
    if (!scenario_takes_seed(scenario))
      c.fail(
          "only the random scenarios (pour2d-random, pour3d-random, hull-pour2d, "
          "hull-pour3d) take a seed");
    if (!c.value().is_number_integer() || c.value().get<std::int64_t>() < 0)
      c.fail("expected a whole number >= 0");
  } else if (key == "set") {
    if (!scenario_has_sets(scenario)) c.fail("only the pour2d scenario has archived body sets");
    const std::string s = c.string();
    if (s.size() != 1 || s[0] < 'a' || s[0] > 'j')
      c.fail("expected one of \"a\" … \"j\", got \"" + s + "\"");
  } else if (key == "bodies") {
    c.integer(0, 10000);
  } else {
    c.fail("unknown scenario parameter '" + key + "' (expected seed, set or bodies)");
  }
}

// The fields `list` names, each a field of `example` holding a number or a boolean (or, with
// `strings`, a string).
std::vector<std::string> fields_of(const JsonCursor& list, const json& example, const char* what,
                                   bool strings) {
  list.expect_array();
  auto recordable = [&](const json& v) {
    return v.is_number() || v.is_boolean() || (strings && v.is_string());
  };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonCursor e = list.at(i);
    const std::string f = e.string();
    if (!example.contains(f) || !recordable(example[f])) {
      std::string known;
      for (const auto& item : example.items())
        if (recordable(item.value())) known += (known.empty() ? "" : ", ") + item.key();
      e.fail("'" + f + "' is not a recordable " + what + " field (known: " + known + ")");
    }
    for (const std::string& g : out)
      if (g == f) e.fail("'" + f + "' is listed twice");
    out.push_back(f);
  }
  return out;
}

// An engine sweep records its runs' scores, not exactsim's summaries (sweep_engine.h).
SweepRecord parse_record(const JsonCursor& root, bool engines) {
  SweepRecord r;
  for (const char* f : kDefaultSummary) r.summary.push_back(f);
  if (engines) r.summary = engine_record_default();
  if (!root.has("record")) return r;
  const JsonCursor c = root.at("record");
  c.expect_object({"summary", "series", "trajectory"});
  if (c.has("summary"))
    r.summary = fields_of(c.at("summary"),
                          engines ? engine_record_example() : summary_to_json(RunSummary{}),
                          engines ? "engine sweep" : "summary", false);
  if (engines && c.has("series"))
    c.at("series").fail("an engine sweep records no per-step series (only its runs' scores)");
  if (c.has("series")) {
    json example = json::object();
    for (const ReportScalar& f : report_scalars()) example[f.name] = f.get(StepReport{});
    r.series = fields_of(c.at("series"), example, "step report", true);
  }
  if (c.has("trajectory")) r.trajectory = c.at("trajectory").boolean();
  return r;
}

// "stop" (docs/sweeps.md "Stop rules").
void parse_stop(const JsonCursor& root, SweepSpec& spec) {
  if (!root.has("stop")) return;
  const JsonCursor c = root.at("stop");
  c.expect_object(
      {"max_solver_failures", "max_lcp_unknowns", "max_kinetic_energy_per_kg", "wall_seconds"});
  constexpr int kMaxCount = 1000000000;
  StopRules& s = spec.stop;
  if (c.has("max_solver_failures"))
    s.max_solver_failures = c.at("max_solver_failures").integer(0, kMaxCount);
  if (c.has("max_lcp_unknowns"))
    s.max_lcp_unknowns = c.at("max_lcp_unknowns").integer(0, kMaxCount);
  if (c.has("max_kinetic_energy_per_kg"))
    s.max_kinetic_energy_per_kg = c.at("max_kinetic_energy_per_kg").positive();
  if (c.has("wall_seconds")) s.wall_seconds = c.at("wall_seconds").positive();
  spec.stop_doc = c.value();
}

void parse_base(const JsonCursor& root, SweepSpec& spec) {
  if (root.has("scene") == root.has("scenario"))
    root.fail("give either scene (a scene file) or scenario (a built-in scenario), not both");
  if (root.has("scene")) {
    const JsonCursor c = root.at("scene");
    const fs::path file = c.string();
    spec.scene_file =
        (file.is_absolute() ? file : fs::path(spec.origin).parent_path() / file).string();
    const std::string text = io::read_input_file(spec.scene_file, kMaxSceneFileBytes);
    spec.scene_doc = io::parse_json_strict(text, spec.scene_file);
    return;
  }
  const JsonCursor c = root.at("scenario");
  c.expect_object({"name", "set", "seed", "bodies"});
  spec.scenario = c.at("name").string();
  if (!is_scenario(spec.scenario))
    c.at("name").fail("unknown scenario '" + spec.scenario + "' (expected " + kScenarioNames + ")");
  spec.scenario_base = json::object();
  for (const char* key : {"set", "seed", "bodies"})
    if (c.has(key)) {
      check_scenario_value(c.at(key), key, spec.scenario);
      spec.scenario_base[key] = c.at(key).value();
    }
}

// An engine option's value (sweep_engine.h).
void check_engine_option(const JsonCursor& c, const std::string& path) {
  const std::string why = engine_option_problem(path, c.value());
  if (!why.empty()) c.fail(why);
}

// Whether the file names an engine (in "set" or as an axis), before its axes are read.
bool is_engine_sweep_file(const JsonCursor& root) {
  if (root.has("set") && root.at("set").value().is_object() &&
      root.at("set").value().contains("engine"))
    return true;
  if (!root.has("axes") || !root.at("axes").value().is_array()) return false;
  for (const json& a : root.at("axes").value())
    if (a.is_object() && a.value("path", json()) == "engine") return true;
  return false;
}

// A path an axis or "set" may name; the scene reader checks it with its values later.
void check_path(const JsonCursor& c, const std::string& path, const SweepSpec& spec) {
  c.checked([&] { parse_path(path); });
  if (is_scenario_path(path)) {
    if (spec.scenario.empty())
      c.fail("'" + path + "': scenario parameters need a scenario base, not a scene file");
  } else if (path == "format" || path == "version" || path == "dimension" ||
             path.starts_with("scenario")) {
    c.fail("'" + path + "' cannot be swept");
  }
}

}  // namespace

void set_json_path(json& doc, const std::string& path, const json& value) {
  json* at = &doc;
  std::string where;
  const std::vector<PathStep> steps = parse_path(path);
  for (const PathStep& s : steps) {
    if (!s.key.empty()) {
      if (value.is_null() && &s == &steps.back()) {  // null: the field is removed
        if (at->is_object()) at->erase(s.key);
        return;
      }
      if (at->is_null()) *at = json::object();
      if (!at->is_object())
        throw InputError("'" + path + "': " + (where.empty() ? "the document" : where) +
                         " is not an object");
      where += (where.empty() ? "" : ".") + s.key;
      at = &(*at)[s.key];
    } else {
      if (!at->is_array() || s.index >= at->size())
        throw InputError("'" + path + "': " + where + " has no element [" +
                         std::to_string(s.index) + "]" +
                         (at->is_array() ? " (it has " + std::to_string(at->size()) + ")" : ""));
      if (value.is_null() && &s == &steps.back())
        throw InputError("'" + path + "': null removes a field; an element of " + where +
                         " cannot be removed");
      where += "[" + std::to_string(s.index) + "]";
      at = &(*at)[s.index];
    }
  }
  *at = value;
}

SweepSpec read_sweep_file(const std::string& path, const std::string& data_dir) {
  const std::string text = io::read_input_file(path, kMaxSweepFileBytes);
  return parse_sweep(io::parse_json_strict(text, path), path, data_dir);
}

SweepSpec parse_sweep(const json& doc, const std::string& origin, const std::string& data_dir) {
  SweepSpec spec;
  spec.origin = origin;
  spec.data_dir = data_dir;
  const JsonCursor root(doc, origin, "");
  root.expect_object({"format", "version", "name", "scene", "scenario", "set", "axes", "record",
                      "stop", "max_runs"});
  if (root.at("format").string() != "exactsim-sweep")
    root.at("format").fail("expected \"exactsim-sweep\"");
  root.at("version").integer(1, 1);
  spec.name = root.has("name") ? root.at("name").name() : fs::path(origin).stem().string();
  if (root.has("max_runs"))
    spec.max_runs = root.at("max_runs").integer(1, static_cast<int>(kMaxSweepRuns));
  parse_base(root, spec);
  spec.record = parse_record(root, is_engine_sweep_file(root));
  parse_stop(root, spec);

  if (root.has("set")) {
    const JsonCursor set = root.at("set");
    if (!set.value().is_object()) set.fail("expected an object of field paths and values");
    for (const auto& item : set.value().items()) {
      const JsonCursor c(item.value(), origin, "set." + item.key());
      check_path(c, item.key(), spec);
      if (is_engine_option_path(item.key())) check_engine_option(c, item.key());
      if (is_scenario_path(item.key()))
        check_scenario_value(c, item.key().substr(9), spec.scenario);
      spec.fixed[item.key()] = item.value();
    }
  }

  const JsonCursor axes = root.at("axes");
  axes.expect_array();
  if (axes.size() == 0) axes.fail("no axes (give at least one)");
  double runs = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const JsonCursor a = axes.at(i);
    a.expect_object({"path", "values", "range", "log", "pool"});
    SweepAxis axis;
    axis.path = a.at("path").string();
    check_path(a.at("path"), axis.path, spec);
    if (spec.fixed.contains(axis.path))
      a.at("path").fail("'" + axis.path + "' is also in set (a field is either fixed or swept)");
    for (const SweepAxis& other : spec.axes)
      if (other.path == axis.path) a.at("path").fail("duplicate axis '" + axis.path + "'");
    axis.values = axis_values(a, spec.max_runs);
    if (a.has("pool")) axis.pool = a.at("pool").boolean();
    if (is_engine_option_path(axis.path)) {
      const std::string what = a.has("values") ? "values" : a.has("range") ? "range" : "log";
      for (std::size_t k = 0; k < axis.values.size(); ++k)
        check_engine_option(JsonCursor(axis.values[k], origin,
                                       a.path() + "." + what + "[" + std::to_string(k) + "]"),
                            axis.path);
    }
    if (is_scenario_path(axis.path)) {
      const std::string what = a.has("values") ? "values" : a.has("range") ? "range" : "log";
      for (std::size_t k = 0; k < axis.values.size(); ++k)
        check_scenario_value(JsonCursor(axis.values[k], origin,
                                        a.path() + "." + what + "[" + std::to_string(k) + "]"),
                             axis.path.substr(9), spec.scenario);
    }
    runs *= static_cast<double>(axis.values.size());
    if (runs > static_cast<double>(spec.max_runs))
      axes.fail("the axes give " + io::format_number(runs) + " runs or more, above the limit of " +
                std::to_string(spec.max_runs) +
                (spec.max_runs < kMaxSweepRuns
                     ? " (max_runs raises it, up to " + std::to_string(kMaxSweepRuns) + ")"
                     : ""));
    spec.axes.push_back(std::move(axis));
  }

  // The base with "set", then with each value of each axis alone, must make a scene the scene
  // reader accepts: a misspelt path or a value out of range is an error now, naming its axis, not
  // a failed run later. (Values that are only wrong together fail their runs.)
  try {
    scene_of(spec, assignments(spec, {}));
  } catch (const InputError& e) {
    throw InputError(origin + ": set: the scene does not accept it: " + e.what());
  }
  for (std::size_t i = 0; i < spec.axes.size(); ++i)
    for (const json& value : spec.axes[i].values) {
      if (is_engine_option_path(spec.axes[i].path)) break;  // checked above, not a scene field
      Assignments set = assignments(spec, {});
      set.emplace_back(spec.axes[i].path, value);
      try {
        scene_of(spec, set);
      } catch (const InputError& e) {
        throw InputError(origin + ": axes[" + std::to_string(i) + "]: the scene does not accept " +
                         spec.axes[i].path + " = " + value.dump() + ": " + e.what());
      }
    }
  return spec;
}

// Names: "key=value" per axis, joined by commas; the key is the path's last name ("friction" for
// contact.friction) unless two axes share it, then the whole path.
std::vector<SweepPoint> expand_sweep(const SweepSpec& spec) {
  std::set<std::string> keys;
  bool short_keys = true;
  for (const SweepAxis& a : spec.axes)
    short_keys = keys.insert(short_key(a.path)).second && short_keys;
  std::vector<SweepPoint> points;
  std::vector<std::size_t> at(spec.axes.size(), 0);
  std::set<std::string> seen;
  while (true) {
    SweepPoint p;
    for (std::size_t i = 0; i < spec.axes.size(); ++i) {
      const json& v = spec.axes[i].values[at[i]];
      p.values.push_back(v);
      p.name += (i ? "," : "") +
                file_safe(short_keys ? short_key(spec.axes[i].path) : spec.axes[i].path) + "=" +
                name_text(v);
    }
    if (p.name.size() > 200)
      throw InputError(spec.origin + ": axes: the run name '" + p.name.substr(0, 60) +
                       "…' is longer than 200 bytes (shorter values or fewer axes)");
    if (!seen.insert(p.name).second)
      throw InputError(spec.origin + ": axes: two runs get the name '" + p.name +
                       "' (values that differ only in characters a file name cannot hold)");
    // Planned steps, when the step and duration are known without building the scene.
    Real step = 0.005, duration = 5;  // the built-in scenarios' defaults
    if (!spec.scene_file.empty()) {
      const json& t = spec.scene_doc.value("time", json::object());
      step = t.value("step", 0.0), duration = t.value("duration", 0.0);
    }
    for (const auto& [path, value] : assignments(spec, p.values)) {
      if (path == "time.step" && value.is_number()) step = value.get<Real>();
      if (path == "time.duration" && value.is_number()) duration = value.get<Real>();
    }
    p.cost = step > 0 ? duration / step : 0;
    points.push_back(std::move(p));
    std::size_t i = spec.axes.size();
    while (i > 0 && ++at[i - 1] == spec.axes[i - 1].values.size()) at[--i] = 0;
    if (i == 0) break;
  }
  return points;
}

Scene sweep_scene(const SweepSpec& spec, const SweepPoint& point) {
  return scene_of(spec, assignments(spec, point.values));
}

json sweep_params(const SweepSpec& spec, const SweepPoint& point) {
  json base;
  if (!spec.scene_file.empty())
    base = {{"scene_hash", text_hash(spec.scene_doc.dump())}};
  else
    base = {{"scenario", spec.scenario}, {"parameters", spec.scenario_base}};
  json values = json::object();
  for (std::size_t i = 0; i < spec.axes.size(); ++i) values[spec.axes[i].path] = point.values[i];
  json params = {{"base", base},
                 {"set", spec.fixed},
                 {"point", values},
                 {"record",
                  {{"summary", spec.record.summary},
                   {"series", spec.record.series},
                   {"trajectory", spec.record.trajectory}}}};
  if (!spec.stop_doc.is_null()) params["stop"] = spec.stop_doc;  // only with stop rules
  return params;
}

}  // namespace exactsim
