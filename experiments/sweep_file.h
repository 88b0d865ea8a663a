// Sweep files (JSON, format "exactsim-sweep", docs/sweeps.md): a base scene file or built-in
// scenario, the axes whose values it is run at, and what each run records. Reading one checks
// every field and every axis value against the scene reader, so that errors name the file, the
// JSON path and the reason before anything runs; expanding it gives the runs, with stable names.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/io/run.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// One axis: a scene field by its JSON path ("time.step", "contact.friction",
// "bodies[1].friction") or a scenario parameter ("scenario.seed", "scenario.set",
// "scenario.bodies"), and its values.
struct SweepAxis {
  std::string path;
  std::vector<nlohmann::json> values;
  // Replicates (e.g. seeds): the table pools their runs instead of giving each its own row.
  bool pool = false;
};

// What each run keeps.
struct SweepRecord {
  std::vector<std::string> summary;  // fields of the run's summary.json (numbers or booleans);
                                     // of an engine sweep, of its score (sweep_engine.h)
  std::vector<std::string> series;   // per-step fields of steps.jsonl (numbers, booleans,
                                     // strings such as "status"), every step
  bool trajectory = false;  // the run's folder (scene.json, trajectory.csv, steps.jsonl, ...)
};

struct SweepSpec {
  std::string origin;            // the sweep file, for messages
  std::string name;              // the sweep's name (default: the file's stem)
  std::string data_dir;          // the archived body sets (scenario pour2d)
  std::string scene_file;        // the base scene file (resolved against the sweep file's folder)
  nlohmann::json scene_doc;      // ... its document
  std::string scenario;          // or a built-in scenario (experiments/scenario_by_name.h)
  nlohmann::json scenario_base;  // its parameters: {"set", "seed", "bodies"} as given
  nlohmann::json fixed = nlohmann::json::object();  // "set": {path: value} for every run
  std::vector<SweepAxis> axes;
  SweepRecord record;
  StopRules stop;                     // "stop": the rules every run stops at
  nlohmann::json stop_doc = nullptr;  // ... as given (null: none)
  long max_runs = 10000;
  // An engine sweep's peer drivers (experiments/sweep_engine.h): set by the caller, not the file.
  std::string peers_dir;
  // A run not finished after this much wall time ends without a result (0: no bound;
  // docs/sweeps.md "Runs that hang"): set by the caller (`sweep --run-timeout`), not the file.
  double run_timeout_seconds = 0;  // s
};

// Sweeps larger than this are refused whatever max_runs says.
inline constexpr long kMaxSweepRuns = 1000000;

// One run of a sweep: its name (unique, from the axis values) and one value per axis.
struct SweepPoint {
  std::string name;
  std::vector<nlohmann::json> values;
  double cost = 0;  // relative cost estimate (planned steps), 0 when unknown
};

// Reads and checks a sweep file; InputError "FILE: PATH: reason" on anything malformed.
// `data_dir` holds the archived body sets of the built-in scenarios.
SweepSpec read_sweep_file(const std::string& path, const std::string& data_dir);
SweepSpec parse_sweep(const nlohmann::json& doc, const std::string& origin,
                      const std::string& data_dir);

// Every combination of the axes' values, the first axis varying slowest.
std::vector<SweepPoint> expand_sweep(const SweepSpec& spec);

// The scene of one run: the base with "set" and the point's values applied.
Scene sweep_scene(const SweepSpec& spec, const SweepPoint& point);

// What identifies a run's result (a result file written for other parameters is not reused):
// the base (a hash of the scene file, or the scenario), "set", the point's values and the record.
nlohmann::json sweep_params(const SweepSpec& spec, const SweepPoint& point);

// Sets the field at `path` ("a.b[2].c") of `doc`, creating missing object members; a null
// `value` removes the field instead (its default then applies). InputError when the path is
// malformed, goes through a non-object or past an array's end, or removes an array element.
void set_json_path(nlohmann::json& doc, const std::string& path, const nlohmann::json& value);

}  // namespace exactsim
