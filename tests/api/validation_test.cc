// One validation path (docs/input-validation.md): add_body, Simulation(Scene) and the scene
// reader check through the same scene rules (io/scene_rules.h) and give the same reason for the
// same value; adding a body costs O(1).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <nlohmann/json.hpp>

#include "exactsim/exactsim.h"
#include "input_error.h"
#include "sanitizers.h"

namespace exactsim::validation_test {
namespace {

using nlohmann::json;

json base_scene(int dimension) {
  const bool planar = dimension == 2;
  return {{"format", "exactsim-scene"},
          {"version", 1},
          {"dimension", dimension},
          {"time", {{"step", 0.01}, {"duration", 0.05}}},
          {"bodies",
           {{{"name", "floor"},
             {"static", true},
             {"shape", {{"box", planar ? json{4, 1} : json{4, 4, 1}}}},
             {"position", planar ? json{0, -0.5} : json{0, 0, -0.5}}},
            {{"name", "box"},
             {"shape", {{"box", planar ? json{0.2, 0.2} : json{0.2, 0.2, 0.2}}}},
             {"density", 100},
             {"position", planar ? json{0, 0.1} : json{0, 0, 0.1}}}}}};
}

// The base scene built in code, with `box` changed; the error of add_body or Simulation.
std::string built_error(int dimension, BodySpec box) {
  return ErrorOf([&] {
    Scene s = make_scene(dimension, 0.01, 0.05);
    if (dimension == 2)
      add_body(s, {.name = "floor",
                   .shape = make_box(Vec2(4, 1)),
                   .is_static = true,
                   .position = {0, -0.5}});
    else
      add_body(s, {.name = "floor",
                   .shape = make_box(Vec3(4, 4, 1)),
                   .is_static = true,
                   .position = {0, 0, -0.5}});
    add_body(s, box);
    Simulation sim(std::move(s));
  });
}

// The reason of a message: what follows its place ("FILE: bodies[1].density: ", "bodies[1]
// (box).shape: ").
std::string reason(const std::string& message, const std::string& field) {
  const auto at = message.find(field + ": ");
  return at == std::string::npos ? "(no '" + field + "' in: " + message + ")"
                                 : message.substr(at + field.size() + 2);
}

TEST(Validation, CodeAndFileGiveTheSameReason) {
  struct Case {
    const char* what;
    int dimension;
    std::function<void(json&)> change;
    BodySpec box;
    std::string field;  // the field's last name in both messages
    std::string expected;
    std::string file_field = "";  // when the file's is longer (a shape's kind)
  };
  std::vector<Vec2> circle;
  for (int i = 0; i < 10001; ++i)
    circle.emplace_back(0.1 * std::cos(2 * std::numbers::pi * i / 10001),
                        0.1 * std::sin(2 * std::numbers::pi * i / 10001));
  const Case cases[] = {
      {"density NaN is a value, not a missing density",
       2,
       [](json& d) { d["bodies"][1]["density"] = std::nan(""); },
       {.name = "box",
        .shape = make_box(Vec2(0.2, 0.2)),
        .density = std::nan(""),
        .position = {0, 0.1}},
       "density",
       "must be finite, got nan"},
      {"density out of range",
       2,
       [](json& d) { d["bodies"][1]["density"] = 1e7; },
       {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 1e7, .position = {0, 0.1}},
       "density",
       "must lie in [0.001, 1e6] kg/m^2, got 10000000.0 (docs/input-validation.md)"},
      {"a name with a comma",
       2,
       [](json& d) { d["bodies"][1]["name"] = "a,b"; },
       {.name = "a,b", .shape = make_box(Vec2(0.2, 0.2)), .density = 100, .position = {0, 0.1}},
       "name",
       "character 1 is ','; names may not contain , \" ' or \\ (they are written unquoted to CSV "
       "files)"},
      {"too many vertices",
       2,
       [&](json& d) {
         json pts = json::array();
         for (const Vec2& p : circle) pts.push_back({p.x(), p.y()});
         d["bodies"][1]["shape"] = {{"polygon", pts}};
       },
       {.name = "box", .shape = polygon_from_points(circle), .density = 100, .position = {0, 0.1}},
       "shape",
       "too many points (10001; the limit is 10000)",
       "shape.polygon"},
      {"an inertia no rigid body has",
       3,
       [](json& d) {
         d["bodies"][1].erase("density");
         d["bodies"][1]["mass"] = 1;
         d["bodies"][1]["inertia"] = {{0.004, 0, 0}, {0, 0.004, 0}, {0, 0, 0.009}};
       },
       {.name = "box",
        .shape = make_box(Vec3(0.2, 0.2, 0.2)),
        .mass = 1,
        .inertia = Vec3(0.004, 0.004, 0.009).asDiagonal().toDenseMatrix(),
        .position = {0, 0, 0.1}},
       "inertia",
       "the principal moments 0.004, 0.004, 0.009 kg m^2 break the triangle inequality (the "
       "largest exceeds the sum of the other two): no rigid body has this inertia "
       "(docs/input-validation.md)"},
      {"a box inside the floor",
       3,
       [](json& d) {
         d["bodies"][1]["position"] = {0, 0, -0.5};
       },
       {.name = "box",
        .shape = make_box(Vec3(0.2, 0.2, 0.2)),
        .density = 100,
        .position = {0, 0, -0.5}},
       "bodies[1]",
       "starts deeply inside bodies[0] \"floor\": their intersection is 100% of the smaller "
       "body's volume. Bodies present at t = 0 may overlap by at most 50% "
       "(docs/input-validation.md)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    json doc = base_scene(c.dimension);
    c.change(doc);
    const std::string from_file = ErrorOf([&] { parse_scene(doc, "scene.json"); });
    const std::string from_code = built_error(c.dimension, c.box);
    EXPECT_EQ(reason(from_file, c.file_field.empty() ? c.field : c.file_field), c.expected);
    EXPECT_EQ(reason(from_code, c.field == "bodies[1]" ? "bodies[1] (box)" : c.field), c.expected)
        << from_code;
  }
}

TEST(Validation, SimulationChecksAWorldBuiltByHandByTheSameRules) {
  Scene s = make_scene(2, 0.01);
  add_body(s, {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 100});
  Scene bad = s;
  bad.world.bodies[0].name = "a\nb";
  EXPECT_EQ(ErrorOf([&] { Simulation sim(bad); }),
            "bodies[0] (a\nb).name: character 1 is a control character (code 10); names may not "
            "contain control characters");
  bad = s;
  bad.world.contact.friction_directions = 1000000;
  EXPECT_EQ(ErrorOf([&] { Simulation sim(bad); }),
            "contact.friction_directions: must be between 3 and 64, got 1000000");
  bad = s;
  bad.world.stepping.dense_max_unknowns = -2;  // (−1 is the default)
  EXPECT_EQ(ErrorOf([&] { Simulation sim(bad); }),
            "stepping.dense_max_unknowns: must be >= 0, or -1 for the default, got -2");
  bad = s;
  bad.world.bodies[0].mass = 1e12;
  EXPECT_EQ(ErrorOf([&] { Simulation sim(bad); }),
            "bodies[0] (box).mass: must lie in [1e-9, 1e9] kg, got 1000000000000.0 "
            "(docs/input-validation.md)");
  bad = s;
  add_body(bad,
           {.name = "twin", .shape = make_box(Vec2(0.2, 0.2)), .density = 100, .position = {5, 0}});
  bad.world.bodies[1].name = "box";
  EXPECT_EQ(ErrorOf([&] { Simulation sim(bad); }),
            "bodies[1] (box).name: duplicate body name 'box'");
}

#if !EXACTSIM_ASAN
// Left to the plain build: the state grows by std::realloc, which glibc does in place for a
// mapped block and AddressSanitizer always does by copying (10^5 copies of a growing state: many
// minutes), as in tests/math/storage_test.cc.
TEST(Validation, AddingABodyLooksItsNameUpInsteadOfComparingItWithEveryBody) {
  // 10^5 bodies (the limit), each added in O(1): add_body looks the name up in
  // scene.body_index and compares it with no other body's. A body renamed behind the index's
  // back shows it: add_body does not see the clash (it would if it compared the new name with
  // every earlier one, 5·10^9 comparisons in all), and Simulation, which sorts the names once,
  // does.
  Scene s = make_scene(2, 0.01);
  for (int i = 0; i < 100000; ++i)
    add_body(s, {.shape = make_box(Vec2(0.1, 0.1)),
                 .is_static = true,
                 .position = {static_cast<Real>(i % 1000), static_cast<Real>(i / 1000)}});
  EXPECT_EQ(s.body_index.size(), 100000u);
  EXPECT_EQ(s.body_index.at("body99999"), 99999);
  EXPECT_EQ(ErrorOf([&] { add_body(s, {.name = "extra", .shape = make_box(Vec2(1, 1))}); }),
            "bodies: too many bodies (limit 100000)");
  s.world.bodies.pop_back();  // the index no longer covers the bodies: rebuilt once
  s.initial.present.pop_back();
  s.initial.q.conservativeResize(s.initial.q.size() - 3);
  s.initial.v.conservativeResize(s.initial.v.size() - 3);
  EXPECT_EQ(ErrorOf([&] {
              add_body(s, {.name = "body7",
                           .shape = make_box(Vec2(0.1, 0.1)),
                           .is_static = true,
                           .position = {-10, 0}});
            }),
            "bodies[99999] (body7).name: duplicate body name 'body7'");
  s.world.bodies[5].name = "probe";  // behind the index's back
  add_body(s, {.name = "probe",
               .shape = make_box(Vec2(0.1, 0.1)),
               .is_static = true,
               .position = {-10, 0}});
  EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }),
            "bodies[99999] (probe).name: duplicate body name 'probe'");
}
#endif

}  // namespace
}  // namespace exactsim::validation_test
