// Sweep files: expansion into runs and their names, the scene of a run, the results table, stop
// rules, and malformed files (each error names the file, the JSON path and the reason).
#include "experiments/sweep_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "exactsim/stepping/step.h"
#include "experiments/scenarios.h"
#include "experiments/sweep_run.h"
#include "experiments/sweep_table.h"
#include "input_error.h"

namespace exactsim::sweep_file_test {
namespace {

using nlohmann::json;

const std::string kScene = std::string(EXACTSIM_SOURCE_DIR) + "/scenes/box-on-floor-2d.json";
const std::string kData = std::string(EXACTSIM_SOURCE_DIR) + "/data";

json base_doc() {
  return {{"format", "exactsim-sweep"},
          {"version", 1},
          {"scene", kScene},
          {"axes",
           {{{"path", "time.step"}, {"values", {0.01, 0.005}}},
            {{"path", "contact.friction"}, {"range", {{"from", 0}, {"to", 0.4}, {"step", 0.2}}}}}}};
}

SweepSpec parse(const json& doc) { return parse_sweep(doc, "sweep.json", kData); }

TEST(SweepFileTest, ExpandsTheFirstAxisSlowestWithStableNames) {
  const SweepSpec spec = parse(base_doc());
  const std::vector<SweepPoint> points = expand_sweep(spec);
  ASSERT_EQ(points.size(), 6u);
  const std::vector<std::string> names = {"step=0.01,friction=0",    "step=0.01,friction=0.2",
                                          "step=0.01,friction=0.4",  "step=0.005,friction=0",
                                          "step=0.005,friction=0.2", "step=0.005,friction=0.4"};
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(points[i].name, names[i]);
  // A range's values are rounded to 12 digits: 0.2 and 0.4 exactly, not 0.4000000000000001.
  EXPECT_EQ(points[2].values[1].get<double>(), 0.4);
  // Cost estimate: planned steps, duration 2 s.
  EXPECT_DOUBLE_EQ(points[0].cost, 200);
  EXPECT_DOUBLE_EQ(points[3].cost, 400);
  // The same file expands the same way (names are the results' file names).
  EXPECT_EQ(expand_sweep(parse(base_doc()))[4].name, points[4].name);
}

TEST(SweepFileTest, TheSceneOfARunHasItsValues) {
  const SweepSpec spec = parse(base_doc());
  const std::vector<SweepPoint> points = expand_sweep(spec);
  const Scene scene = sweep_scene(spec, points[5]);
  EXPECT_EQ(scene.step, 0.005);
  EXPECT_EQ(scene.world.contact.friction, 0.4);
  EXPECT_EQ(scene.duration, 2.0);  // the base's
  EXPECT_NE(sweep_params(spec, points[4]), sweep_params(spec, points[5]));
}

TEST(SweepFileTest, LogRangesCountRangesAndIntegers) {
  json doc = base_doc();
  doc["axes"] = {{{"path", "time.step"}, {"log", {{"from", 1e-4}, {"to", 1e-2}, {"count", 3}}}},
                 {{"path", "time.duration"}, {"range", {{"from", 1}, {"to", 3}, {"count", 3}}}}};
  const std::vector<SweepPoint> points = expand_sweep(parse(doc));
  ASSERT_EQ(points.size(), 9u);
  EXPECT_EQ(points[0].values[0].get<double>(), 1e-4);
  EXPECT_EQ(points[3].values[0].get<double>(), 1e-3);
  EXPECT_EQ(points[6].values[0].get<double>(), 1e-2);
  EXPECT_TRUE(points[1].values[1].is_number_integer());  // 1, 2, 3: whole from, to and spacing
  EXPECT_EQ(points[1].name, "step=0.0001,duration=2");
}

TEST(SweepFileTest, ScenarioAxesAndSharedKeysGiveFullPaths) {
  json doc = {{"format", "exactsim-sweep"},
              {"version", 1},
              {"scenario", {{"name", "pour2d-random"}, {"bodies", 2}}},
              {"set", {{"time.duration", 0.05}}},
              {"axes",
               {{{"path", "scenario.seed"},
                 {"range", {{"from", 1}, {"to", 3}, {"step", 1}}},
                 {"pool", true}},
                {{"path", "contact.friction"}, {"values", {0.1}}},
                {{"path", "bodies[3].friction"}, {"values", {0.5}}}}}};
  const SweepSpec spec = parse(doc);
  const std::vector<SweepPoint> points = expand_sweep(spec);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2].name, "scenario.seed=3,contact.friction=0.1,bodies-3-.friction=0.5");
  const Scene a = sweep_scene(spec, points[0]), b = sweep_scene(spec, points[1]);
  EXPECT_EQ(a.world.bodies.size(), b.world.bodies.size());
  EXPECT_EQ(a.world.bodies[3].friction, 0.5);            // set by the axis
  EXPECT_EQ(a.world.contact.model, ContactModel::kPeg);  // as exactsim run --scenario
  EXPECT_EQ(a.duration, 0.05);
}

TEST(SweepFileTest, TableRowsPoolTheReplicateAxis) {
  json doc = base_doc();
  doc["axes"][1]["pool"] = true;
  doc["record"] = {{"summary", {"max_overlap"}}, {"series", {"overlap"}}};
  const SweepSpec spec = parse(doc);
  const std::vector<SweepPoint> points = expand_sweep(spec);
  std::vector<std::optional<json>> results;
  for (int i = 0; i < 6; ++i)
    results.push_back(json{{"summary", {{"max_overlap", i}, {"failed", i == 1}}},
                           {"series", {{"overlap", {i, 10 * i}}}}});
  results[5].reset();
  const SweepTable t = sweep_table(spec, points, results);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].runs, 3);
  EXPECT_EQ(t.rows[0].failed, 1);
  EXPECT_EQ(t.rows[1].runs, 2);
  EXPECT_EQ(t.rows[1].missing, 1);
  EXPECT_EQ(t.rows[0].stats[0].median, 1);  // {0, 1, 2}
  EXPECT_EQ(t.rows[0].stats[0].max, 2);
  EXPECT_EQ(t.rows[1].stats[1].n, 4);  // {3, 30, 4, 40}
  EXPECT_EQ(t.rows[1].stats[1].max, 40);
  const std::string csv = sweep_table_csv(t);
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')),
      "time.step,runs,failed,stopped,missing,max_overlap.median,max_overlap.q1,max_overlap.q3,"
      "max_overlap.max,overlap.median,overlap.q1,overlap.q3,overlap.max");
  EXPECT_NE(csv.find("\n0.005,2,0,0,1,3.5,3.25,3.75,4,"), std::string::npos) << csv;
}

// docs/sweeps.md "Stop rules": each run gets them; a run that breaks one is stopped, not failed,
// at the end of the step that broke it, and the table counts it.
TEST(SweepFileTest, StopRulesEndRunsAndTheTableCountsThem) {
  json doc = base_doc();
  const json unstopped_params = sweep_params(parse(doc), expand_sweep(parse(doc))[0]);
  EXPECT_FALSE(unstopped_params.contains("stop"));
  doc["stop"] = {{"max_lcp_unknowns", 0}, {"wall_seconds", 600}};
  const SweepSpec spec = parse(doc);
  EXPECT_EQ(spec.stop.max_lcp_unknowns, 0);
  EXPECT_EQ(spec.stop.wall_seconds, 600);
  EXPECT_EQ(spec.stop.max_solver_failures, -1);  // not given: no rule
  const std::vector<SweepPoint> points = expand_sweep(spec);
  EXPECT_EQ(sweep_params(spec, points[0])["stop"], doc["stop"]);  // other rules: other results

  // The box lands on the floor: the first step with a contact to solve stops the run.
  const json result = run_sweep_point(spec, points[0], "");
  const json& s = result["summary"];
  ASSERT_TRUE(s.contains("stopped")) << result.dump();
  EXPECT_EQ(s["stopped"], "max_lcp_unknowns");
  EXPECT_FALSE(s["failed"].get<bool>());
  const long done = s["steps_done"].get<long>();
  EXPECT_GT(done, 0);
  EXPECT_LT(done, 200);  // of 200 planned (2 s at 0.01 s)
  EXPECT_DOUBLE_EQ(s["stopped_at"].get<double>(), done * 0.01);
  EXPECT_EQ(sweep_result_failure(result), "");
  EXPECT_EQ(sweep_result_stop(result).rfind("max_lcp_unknowns at ", 0), 0u)
      << sweep_result_stop(result);

  // Without the rule the same run goes to its end.
  const json whole = run_sweep_point(parse(base_doc()), points[0], "");
  EXPECT_FALSE(whole["summary"].contains("stopped"));
  EXPECT_EQ(whole["summary"]["steps_done"], 200);

  std::vector<std::optional<json>> results(points.size());
  results[0] = result;
  results[1] = whole;
  const SweepTable t = sweep_table(spec, points, results);
  EXPECT_EQ(t.rows[0].runs, 1);
  EXPECT_EQ(t.rows[0].stopped, 1);
  EXPECT_EQ(t.rows[0].failed, 0);
  EXPECT_EQ(t.rows[1].stopped, 0);
  EXPECT_NE(sweep_table_csv(t).find("\n0.01,0.0,1,0,1,0,"), std::string::npos)
      << sweep_table_csv(t);
}

// A spec built in code with a series the step report does not have ends its run with an error
// naming the field, before any step (the file reader refuses it: MalformedFiles… below).
TEST(SweepFileTest, ASeriesFieldTheReportDoesNotHaveIsAnError) {
  SweepSpec spec = parse(base_doc());
  spec.record.series = {"overlap", "solver"};
  const json result = run_sweep_point(spec, expand_sweep(spec)[0], "");
  ASSERT_TRUE(result.contains("error")) << result.dump();
  EXPECT_NE(result["error"].get<std::string>().find("record.series: 'solver'"), std::string::npos)
      << result.dump();
}

// A scenario's run is the scenario as built, stepped: its scene goes through the scene document
// only to take the sweep's values (docs/sweeps.md "The PEG paper's 3D pour as sweep files"), and
// a written shape reads back bit for bit (translated(): rebuilt from the moved vertices).
TEST(SweepFileTest, AScenarioRunIsTheBuiltScenarioSteppedBitForBit) {
  const json doc = {
      {"format", "exactsim-sweep"},
      {"version", 1},
      {"scenario", {{"name", "pour3d-random"}}},
      {"set",
       {{"time.duration", 1.2},
        {"stepping.watch_penetration", false},
        {"stepping.measure_overlap", true}}},
      {"axes",
       {{{"path", "time.step"}, {"values", {0.01}}},
        {{"path", "scenario.seed"}, {"values", {2, 5}}}}},
      {"record", {{"summary", {"steps_done"}}, {"series", {"kinetic_energy", "overlap", "U"}}}}};
  const SweepSpec spec = parse(doc);
  const std::vector<SweepPoint> points = expand_sweep(spec);
  ASSERT_EQ(points.size(), 2u);
  for (const SweepPoint& point : points) {
    Pour3dOptions o;
    o.step = 0.01;
    o.duration = 1.2;
    Scene built = pour3d_random(point.values[1].get<std::uint64_t>(), o);
    built.world.stepping.watch_penetration = false;
    built.world.stepping.measure_overlap = true;
    const Scene swept = sweep_scene(spec, point);
    ASSERT_EQ(swept.world.polyhedra.size(), built.world.polyhedra.size());
    for (std::size_t k = 0; k < built.world.polyhedra.size(); ++k) {
      const ConvexPolyhedron &a = built.world.polyhedra[k], &b = swept.world.polyhedra[k];
      EXPECT_EQ(a.vertices, b.vertices) << point.name << ", shape " << k;
      ASSERT_EQ(a.faces.size(), b.faces.size()) << point.name << ", shape " << k;
      for (std::size_t f = 0; f < a.faces.size(); ++f) {
        EXPECT_EQ(a.faces[f].normal, b.faces[f].normal) << point.name << ", shape " << k;
        EXPECT_EQ(a.faces[f].offset, b.faces[f].offset) << point.name << ", shape " << k;
      }
    }
    EXPECT_EQ(swept.initial.q, built.initial.q) << point.name;

    const json result = run_sweep_point(spec, point, "");
    ASSERT_EQ(result["summary"]["steps_done"], 120) << result.dump();
    State state = built.initial;
    Workspace ws;
    int contacts = 0;
    for (long k = 0; k < built.step_count(); ++k) {
      const StepReport r = step(built.world, state, ws, built.step, k);
      const std::string at = point.name + ", step " + std::to_string(k);
      EXPECT_EQ(result["series"]["kinetic_energy"][k].get<double>(), r.kinetic_energy) << at;
      EXPECT_EQ(result["series"]["overlap"][k].get<double>(), r.overlap) << at;
      contacts += r.unilateral;
    }
    EXPECT_GT(contacts, 0) << point.name << ": the hulls touch within the run";
  }
}

struct Malformed {
  const char* what;
  std::function<void(json&)> edit;
  std::vector<std::string> expect;  // substrings of the message
};

TEST(SweepFileTest, MalformedFilesNameThePathAndTheReason) {
  const std::vector<Malformed> cases = {
      {"unknown field", [](json& d) { d["axis"] = 1; }, {"sweep.json: axis: unknown field"}},
      {"wrong format", [](json& d) { d["format"] = "x"; }, {"sweep.json: format: expected"}},
      {"wrong type",
       [](json& d) { d["axes"][0]["values"] = "0.01"; },
       {"sweep.json: axes[0].values: expected an array"}},
      {"empty axis",
       [](json& d) { d["axes"][0]["values"] = json::array(); },
       {"sweep.json: axes[0].values: the axis is empty"}},
      {"no axes", [](json& d) { d["axes"] = json::array(); }, {"sweep.json: axes: no axes"}},
      {"unknown scene field",
       [](json& d) { d["axes"][1]["path"] = "contact.frction"; },
       {"sweep.json: axes[1]: the scene does not accept contact.frction", "unknown field"}},
      {"value out of range",
       [](json& d) {
         d["axes"][0]["values"] = {0.01, -1};
       },
       {"sweep.json: axes[0]: the scene does not accept time.step = -1"}},
      {"past an array",
       [](json& d) { d["axes"][1]["path"] = "bodies[7].friction"; },
       {"axes[1]", "bodies has no element [7] (it has 2)"}},
      {"malformed path",
       [](json& d) { d["axes"][1]["path"] = "contact..friction"; },
       {"sweep.json: axes[1].path: 'contact..friction' is not a field path"}},
      {"duplicate axis",
       [](json& d) { d["axes"][1]["path"] = "time.step"; },
       {"sweep.json: axes[1].path: duplicate axis 'time.step'"}},
      {"fixed and swept",
       [](json& d) {
         d["set"] = {{"time.step", 0.01}};
       },
       {"sweep.json: axes[0].path: 'time.step' is also in set"}},
      {"duplicate value",
       [](json& d) {
         d["axes"][0]["values"] = {0.01, 0.01};
       },
       {"sweep.json: axes[0]: the value 0.01 is given twice"}},
      {"two kinds of values",
       [](json& d) {
         d["axes"][0]["log"] = {{"from", 1}};
       },
       {"sweep.json: axes[0]: give exactly one of"}},
      {"zero step",
       [](json& d) { d["axes"][1]["range"]["step"] = 0; },
       {"sweep.json: axes[1].range.step:", "> 0"}},
      {"log from zero",
       [](json& d) {
         d["axes"][0] = {{"path", "time.step"}, {"log", {{"from", 0}, {"to", 1}, {"count", 2}}}};
       },
       {"sweep.json: axes[0].log.from:"}},
      {"too many runs",
       [](json& d) {
         d["axes"][1]["range"] = {{"from", 0}, {"to", 1}, {"step", 1e-9}};
       },
       {"sweep.json: axes[1].range: gives 1e9 values, more than the sweep's limit of 10000"}},
      {"product over the cap",
       [](json& d) {
         d["max_runs"] = 5;
         d["axes"][1]["values"] = {0.1, 0.2, 0.3};
         d["axes"][1].erase("range");
       },
       {"sweep.json: axes: the axes give 6 runs or more, above the limit of 5"}},
      {"scenario parameter on a scene file",
       [](json& d) {
         d["axes"][1] = {{"path", "scenario.seed"}, {"values", {1}}};
       },
       {"sweep.json: axes[1].path: 'scenario.seed': scenario parameters need a scenario base"}},
      {"unknown summary field",
       [](json& d) {
         d["record"] = {{"summary", {"max_overlapp"}}};
       },
       {"sweep.json: record.summary[0]: 'max_overlapp' is not a recordable summary field"}},
      {"scene and scenario",
       [](json& d) {
         d["scenario"] = {{"name", "pour2d"}};
       },
       {"give either scene"}},
      {"stop not an object",
       [](json& d) { d["stop"] = 25; },
       {"sweep.json: stop: expected an object"}},
      {"unknown stop rule",
       [](json& d) {
         d["stop"] = {{"max_failures", 25}};
       },
       {"sweep.json: stop.max_failures: unknown field", "max_solver_failures"}},
      {"negative failure count",
       [](json& d) {
         d["stop"] = {{"max_solver_failures", -1}};
       },
       {"sweep.json: stop.max_solver_failures:"}},
      {"fractional LCP size",
       [](json& d) {
         d["stop"] = {{"max_lcp_unknowns", 2.5}};
       },
       {"sweep.json: stop.max_lcp_unknowns:"}},
      {"zero energy bound",
       [](json& d) {
         d["stop"] = {{"max_kinetic_energy_per_kg", 0}};
       },
       {"sweep.json: stop.max_kinetic_energy_per_kg: must be > 0"}},
      {"wall time not a number",
       [](json& d) {
         d["stop"] = {{"wall_seconds", "1 min"}};
       },
       {"sweep.json: stop.wall_seconds: expected a number, got string"}},
      {"missing scene file",
       [](json& d) { d["scene"] = "/nonexistent/scene.json"; },
       {"/nonexistent/scene.json: cannot read the file"}},
  };
  for (const Malformed& c : cases) {
    json doc = base_doc();
    c.edit(doc);
    const std::string message = ErrorOf([&] { parse(doc); });
    for (const std::string& part : c.expect)
      EXPECT_NE(message.find(part), std::string::npos) << c.what << ": " << message;
  }
}

TEST(SweepFileTest, ScenarioParametersAreChecked) {
  json doc = {{"format", "exactsim-sweep"},
              {"version", 1},
              {"scenario", {{"name", "pour2d"}}},
              {"axes", {{{"path", "scenario.set"}, {"values", {"a", "k"}}}}}};
  EXPECT_NE(ErrorOf([&] { parse(doc); }).find("sweep.json: axes[0].values[1]: expected one of"),
            std::string::npos);
  doc["axes"][0] = {{"path", "scenario.seed"}, {"values", {1}}};
  EXPECT_NE(ErrorOf([&] { parse(doc); }).find("only the random scenarios"), std::string::npos);
  doc["scenario"]["name"] = "pour4d";
  EXPECT_NE(ErrorOf([&] { parse(doc); }).find("sweep.json: scenario.name: unknown scenario"),
            std::string::npos);
}

TEST(SweepFileTest, SetJsonPathCreatesMembersButNotElements) {
  json doc = {{"bodies", {{{"name", "a"}}}}};
  set_json_path(doc, "contact.parameters.epsilon", 0.1);
  EXPECT_EQ(doc["contact"]["parameters"]["epsilon"], 0.1);
  set_json_path(doc, "bodies[0].friction", 0.3);
  EXPECT_EQ(doc["bodies"][0]["friction"], 0.3);
  EXPECT_NE(ErrorOf([&] { set_json_path(doc, "bodies[1].friction", 0.3); }).find("no element [1]"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { set_json_path(doc, "bodies.friction", 0.3); }).find("not an object"),
            std::string::npos);
  // null removes a field, not an element.
  set_json_path(doc, "contact.parameters.epsilon", nullptr);
  EXPECT_FALSE(doc["contact"]["parameters"].contains("epsilon"));
  set_json_path(doc, "gravity", nullptr);  // absent already: nothing to remove
  EXPECT_FALSE(doc.contains("gravity"));
  EXPECT_NE(ErrorOf([&] {
              set_json_path(doc, "bodies[0]", nullptr);
            }).find("an element of bodies cannot be removed"),
            std::string::npos);
}

// The 3D pour scenarios set the authors' contact distance (0.1 m); null gives each run the
// default of its own step (docs/collision.md "ε parameters and defaults").
TEST(SweepFileTest, NullRemovesAScenarioFieldSoItsDefaultApplies) {
  json doc = {{"format", "exactsim-sweep"},
              {"version", 1},
              {"scenario", {{"name", "pour3d-random"}, {"bodies", 2}}},
              {"set", {{"time.duration", 0.05}}},
              {"axes", {{{"path", "contact.parameters.epsilon"}, {"values", {0.1, nullptr}}}}}};
  const SweepSpec spec = parse(doc);
  const std::vector<SweepPoint> points = expand_sweep(spec);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[1].name, "epsilon=null");
  EXPECT_EQ(sweep_scene(spec, points[0]).world.contact.epsilon, 0.1);
  EXPECT_TRUE(std::isnan(sweep_scene(spec, points[1]).world.contact.epsilon));
}

}  // namespace
}  // namespace exactsim::sweep_file_test
