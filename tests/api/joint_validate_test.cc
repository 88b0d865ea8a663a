// A joint built in code meets the scene file's rules (docs/joints.md "Scene files",
// docs/input-validation.md): validate_scene names the joint and the reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "exactsim/api/validate.h"
#include "exactsim/io/scene_json.h"
#include "input_error.h"

namespace exactsim::joint_validate_test {
namespace {

using ::testing::HasSubstr;

TEST(JointValidate, CodeBuiltWorldsMeetTheSceneRules) {
  const nlohmann::json doc = {
      {"format", "exactsim-scene"},
      {"version", 1},
      {"dimension", 2},
      {"time", {{"step", 0.001}, {"duration", 0.01}}},
      {"bodies",
       {{{"name", "a"},
         {"shape", {{"box", {0.4, 0.1}}}},
         {"density", 100},
         {"position", {0.2, 1}}}}},
      {"joints", {{{"type", "revolute"}, {"bodies", {"a"}}, {"anchor", {0, 1}}}}}};
  Scene s = parse_scene(doc, "pin.json");
  validate_scene(s);
  s.world.joints[0].body_b = 7;
  EXPECT_THAT(ErrorOf([&] { validate_scene(s); }),
              HasSubstr("joints[0]: names a body the scene does not have"));
  s.world.joints[0].body_b = kWorldBody;
  s.world.joints[0].axis_a = Vec3(0, 0, 2);
  EXPECT_THAT(ErrorOf([&] { validate_scene(s); }), HasSubstr("joints[0]: the axis must be a unit"));
}

}  // namespace
}  // namespace exactsim::joint_validate_test
