// Sweeps over engines (experiments/sweep_engine.h, docs/peers.md "The benchmark as a sweep"): the
// reserved paths `engine` and `repeat`, what such a sweep records, and its malformed files.
#include "experiments/sweep_engine.h"

#include <gtest/gtest.h>

#include <functional>

#include "input_error.h"

namespace exactsim::sweep_engine_test {
namespace {

using nlohmann::json;

const std::string kScene = std::string(EXACTSIM_SOURCE_DIR) + "/scenes/cube-drop-3d.json";
const std::string kData = std::string(EXACTSIM_SOURCE_DIR) + "/data";

json engine_doc() {
  return {{"format", "exactsim-sweep"},
          {"version", 1},
          {"scene", kScene},
          {"set", {{"repeat", 2}}},
          {"axes",
           {{{"path", "engine"}, {"values", {"exactsim", "bullet"}}},
            {{"path", "time.step"}, {"values", {0.01, 0.005}}}}}};
}

SweepSpec parse(const json& doc) { return parse_sweep(doc, "sweep.json", kData); }

TEST(SweepEngineTest, TheEngineAxisNamesRunsAndIsNoSceneField) {
  const SweepSpec spec = parse(engine_doc());
  EXPECT_TRUE(is_engine_sweep(spec));
  const std::vector<SweepPoint> points = expand_sweep(spec);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].name, "engine=exactsim,step=0.01");
  EXPECT_EQ(points[3].name, "engine=bullet,step=0.005");
  // The scene is the base with the step: neither `engine` nor `repeat` reaches the scene reader.
  const Scene scene = sweep_scene(spec, points[3]);
  EXPECT_EQ(scene.step, 0.005);
  EXPECT_EQ(scene.world.body_count(), 2);
  // Each engine's run is its own result.
  EXPECT_NE(sweep_params(spec, points[0]), sweep_params(spec, points[2]));
  // It records the peer benchmark's score by default, the same fields for every engine.
  EXPECT_EQ(spec.record.summary, engine_record_default());
  EXPECT_FALSE(is_engine_sweep(parse([] {
    json d = engine_doc();
    d["axes"].erase(0);
    d.erase("set");
    return d;
  }())));
}

TEST(SweepEngineTest, RecordsScoreFieldsNotSummaryFields) {
  json doc = engine_doc();
  doc["record"] = {{"summary", {"max_penetration", "bodies_left", "ms_per_simulated_second"}}};
  EXPECT_EQ(parse(doc).record.summary.size(), 3u);
  doc["record"] = {{"summary", {"solver_failures"}}};
  const std::string e = ErrorOf([&] { parse(doc); });
  EXPECT_NE(e.find("sweep.json: record.summary[0]: 'solver_failures' is not a recordable engine "
                   "sweep field"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("overlap_median"), std::string::npos) << e;
  doc["record"] = {{"series", {"overlap"}}};
  EXPECT_NE(ErrorOf([&] {
              parse(doc);
            }).find("sweep.json: record.series: an engine sweep records no per-step series"),
            std::string::npos);
}

TEST(SweepEngineTest, MalformedEngineValuesNameThePathAndTheReason) {
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](json& d) {
         d["axes"][0]["values"] = {"exactsim", "havok"};
       },
       "sweep.json: axes[0].values[1]: unknown engine 'havok' (expected exactsim, bullet, ode, "
       "mujoco)"},
      {[](json& d) {
         d["axes"][0]["values"] = {"exactsim", 3};
       },
       "sweep.json: axes[0].values[1]: engine: expected a string"},
      {[](json& d) { d["set"]["repeat"] = 0; },
       "sweep.json: set.repeat: repeat: expected a whole number from 1 to 100, got 0"},
      {[](json& d) { d["set"]["repeat"] = 1.5; }, "sweep.json: set.repeat: repeat: expected"},
      {[](json& d) { d["set"]["engine"] = "ode"; },
       "sweep.json: axes[0].path: 'engine' is also in set"},
  };
  for (const Case& c : cases) {
    json doc = engine_doc();
    c.edit(doc);
    const std::string e = ErrorOf([&] { parse(doc); });
    EXPECT_NE(e.find(c.expected), std::string::npos)
        << "expected: " << c.expected << "\ngot: " << e;
  }
}

TEST(SweepEngineTest, AMissingDriverIsAnErrorNamingTheEngineAndWhereItLooked) {
  SweepSpec spec = parse(engine_doc());
  spec.peers_dir = "/nonexistent/peers";
  const std::string e = ErrorOf([&] { check_engine_drivers(spec); });
  EXPECT_NE(
      e.find("sweep.json: axes[0]: engine 'bullet': no driver /nonexistent/peers/peer_bullet"),
      std::string::npos)
      << e;
  spec.peers_dir = "";
  EXPECT_NE(ErrorOf([&] { check_engine_drivers(spec); }).find("give --peers DIR"),
            std::string::npos);
  // exactsim alone needs no driver.
  json doc = engine_doc();
  doc["axes"][0]["values"] = {"exactsim"};
  SweepSpec own = parse(doc);
  own.peers_dir = "";
  EXPECT_EQ(ErrorOf([&] { check_engine_drivers(own); }), "(no InputError)");
}

}  // namespace
}  // namespace exactsim::sweep_engine_test
