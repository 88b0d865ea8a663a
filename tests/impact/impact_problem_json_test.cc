// The stand-alone impact-problem reader (docs/impact-problem.md): each malformed field is
// rejected with a message that starts with its JSON path; a valid file round-trips.
#include "exactsim/impact/impact_problem_json.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using nlohmann::json;

json valid() {
  return json::parse(R"({
    "format": "exactsim-impact", "version": 1,
    "contacts": [ { "friction": 0.225,
                    "restitution": { "e_min": 0.387, "v_capture": 0.01, "v_plastic": 0.1 } } ],
    "bilateral_rows": 0,
    "delassus": [[0.9, 0.1, 0.2], [0.1, 0.8, 0.3], [0.2, 0.3, 1.1]],
    "velocity": [-5.0, 0.0, -5.74],
    "options": { "v_transition": 0.1, "theta_max": 0.01, "induced_impacts": "rounds" } })");
}

std::string error_of(const json& j) {
  try {
    impact_problem_from_json(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::function<void(json&)>& edit, const std::string& prefix) {
  json j = valid();
  edit(j);
  const std::string message = error_of(j);
  EXPECT_EQ(message.rfind(prefix, 0), 0u)
      << "expected '" << prefix << "…', got '" << message << "'";
}

TEST(ImpactProblemJson, ValidProblemParsesAndRoundTrips) {
  const ImpactProblemFile f = impact_problem_from_json(valid());
  EXPECT_EQ(f.problem.contacts.size(), 1u);
  EXPECT_EQ(f.problem.contacts[0].friction, 0.225);
  EXPECT_EQ(f.problem.contacts[0].restitution.e_min, 0.387);
  EXPECT_EQ(f.problem.options.theta_max, 0.01);
  const ImpactProblemFile g = impact_problem_from_json(impact_problem_to_json(f.problem));
  EXPECT_EQ(g.problem.delassus, f.problem.delassus);
  EXPECT_EQ(g.problem.velocity, f.problem.velocity);
  EXPECT_EQ(g.problem.options.theta_max, f.problem.options.theta_max);
  const json out = impact_result_to_json(solve_impact_problem(f));
  for (const char* key :
       {"impulse", "velocity", "rounds", "intervals", "contacts", "kinetic_energy_change", "log"})
    EXPECT_TRUE(out.contains(key)) << key;
  EXPECT_EQ(out["impulse"].size(), 3u);
  EXPECT_LE(out["kinetic_energy_change"].get<double>(), 0.0);
}

TEST(ImpactProblemJson, ConstantRestitutionAndNewtonModel) {
  json j = valid();
  j["contacts"][0]["restitution"] = {{"e", 0.5}};
  j["options"]["restitution_model"] = "newton";
  const ImpactProblemFile f = impact_problem_from_json(j);
  EXPECT_TRUE(f.problem.contacts[0].restitution.is_constant());
  EXPECT_EQ(f.model, RestitutionModel::kNewton);
  EXPECT_EQ(solve_impact_problem(f).model, "newton");
}

TEST(ImpactProblemJson, EachMalformedFieldIsNamed) {
  expect_error([](json& j) { j["format"] = "scene"; }, "format:");
  expect_error([](json& j) { j["version"] = 2; }, "version:");
  expect_error([](json& j) { j.erase("contacts"); }, "contacts:");
  expect_error([](json& j) { j["contacts"][0]["friction"] = -0.1; }, "contacts[0].friction:");
  expect_error([](json& j) { j["contacts"][0]["friction"] = "high"; }, "contacts[0].friction:");
  expect_error([](json& j) { j["contacts"][0]["restitution"]["e_min"] = 1.5; },
               "contacts[0].restitution.e_min:");
  expect_error([](json& j) { j["contacts"][0]["restitution"].erase("v_plastic"); },
               "contacts[0].restitution.v_plastic:");
  expect_error([](json& j) { j["contacts"][0]["restitution"]["v_capture"] = 0.5; },
               "contacts[0].restitution.v_plastic:");  // v_plastic < v_capture
  expect_error(
      [](json& j) {
        j["contacts"][0]["restitution"] = {{"e", -1}};
      },
      "contacts[0].restitution.e:");
  expect_error([](json& j) { j["contacts"][0]["colour"] = "red"; }, "contacts[0].colour:");
  expect_error([](json& j) { j["delassus"].erase(2); }, "delassus:");
  expect_error([](json& j) { j["delassus"][1] = {0.1, 0.8}; }, "delassus[1]:");
  expect_error([](json& j) { j["delassus"][0][1] = 0.5; }, "delassus: not symmetric");
  expect_error(
      [](json& j) {
        j["delassus"] = {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
      },
      "delassus: not positive semidefinite");
  expect_error([](json& j) { j["delassus"][2][2] = "nan"; }, "delassus[2][2]:");
  expect_error([](json& j) { j["velocity"] = {1, 2}; }, "velocity:");
  expect_error([](json& j) { j["velocity"][0] = nullptr; }, "velocity[0]:");
  expect_error([](json& j) { j["bilateral_rows"] = -1; }, "bilateral_rows:");
  expect_error([](json& j) { j["bilateral_rows"] = 1; }, "delassus:");  // size now 4
  expect_error([](json& j) { j["options"]["theta_max"] = 0.0; }, "options.theta_max:");
  expect_error([](json& j) { j["options"]["v_transition"] = -1; }, "options.v_transition:");
  expect_error([](json& j) { j["options"]["induced_impacts"] = "sequential"; },
               "options.induced_impacts:");
  expect_error([](json& j) { j["options"]["step_length"] = 3; }, "options.step_length:");
  expect_error([](json& j) { j["options"]["max_rounds"] = 0; }, "options.max_rounds:");
  expect_error(
      [](json& j) {
        j["options"]["induced_impacts"] = "mixed";
        j["options"]["max_rounds"] = 5;
        j["options"]["mixed_rounds"] = 5;
      },
      "options.mixed_rounds: must be below options.max_rounds (5)");
  expect_error([](json& j) { j["options"]["mixed_rounds"] = 0; }, "options.mixed_rounds:");
  expect_error([](json& j) { j["options"]["speed"] = 1; }, "options.speed:");
  expect_error([](json& j) { j["extra"] = 1; }, "extra:");
}

TEST(ImpactProblemJson, FileErrorsNameTheFile) {
  try {
    read_impact_problem("/nonexistent/problem.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/problem.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace exactsim
