// Joints in scene files (docs/joints.md "Scene files"): what is read, what is rejected with the
// field and the reason, and that a written scene reads back to the same joints bit for bit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "exactsim/io/scene_json.h"
#include "input_error.h"

namespace exactsim::joint_scene_test {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

json chain_doc(int dimension) {
  const bool planar = dimension == 2;
  auto at = [&](Real x, Real y) { return planar ? json{x, y} : json{x, 0.0, y}; };
  json shape = planar ? json{{"box", {0.4, 0.1}}} : json{{"box", {0.4, 0.1, 0.1}}};
  json doc = {{"format", "exactsim-scene"},
              {"version", 1},
              {"dimension", dimension},
              {"time", {{"step", 0.001}, {"duration", 0.01}}},
              {"bodies",
               {{{"name", "a"}, {"shape", shape}, {"density", 100}, {"position", at(0.2, 1.0)}},
                {{"name", "b"}, {"shape", shape}, {"density", 100}, {"position", at(0.6, 1.0)}}}}};
  json hinge = {{"name", "top"}, {"type", "revolute"}, {"bodies", {"a"}}, {"anchor", at(0, 1)}};
  if (!planar) hinge["axis"] = {0, 1, 0};
  json weld = {{"type", planar ? "fixed" : "ball"}, {"bodies", {"a", "b"}}, {"anchor", at(0.4, 1)}};
  doc["joints"] = {hinge, weld};
  return doc;
}

std::string error_of(const json& doc) {
  return ErrorOf([&] { parse_scene(doc, "bad.json"); });
}

TEST(JointScene, ReadsBodiesAnchorsAndAxes) {
  for (int d : {2, 3}) {
    const Scene s = parse_scene(chain_doc(d), "chain.json");
    ASSERT_EQ(s.world.joints.size(), 2u);
    const Joint& top = s.world.joints[0];
    EXPECT_EQ(top.name, "top");
    EXPECT_EQ(top.body_a, 0);
    EXPECT_EQ(top.body_b, kWorldBody);
    EXPECT_EQ(s.world.joints[1].name, "joint 1");
    EXPECT_EQ(s.world.joints[1].body_b, 1);
    // Placed without error: each anchor is where the bodies are.
    for (const Joint& j : s.world.joints) {
      EXPECT_LT(joint_error(j, s.initial).position, 1e-15);
      EXPECT_LT(joint_error(j, s.initial).angle, 1e-15);
    }
    EXPECT_NEAR(top.anchor_a.x(), -0.2, 1e-15);  // in a's frame, a's centre at x = 0.2
    // Jointed bodies that touch are not an initial overlap, and never collide.
    EXPECT_TRUE(bodies_joined(s.world, 1, 0));
    EXPECT_FALSE(bodies_joined(s.world, 1, 1));
  }
}

TEST(JointScene, WrittenSceneReadsBackBitForBit) {
  for (int d : {2, 3}) {
    const Scene s = parse_scene(chain_doc(d), "chain.json");
    const Scene back = parse_scene(scene_to_json(s), "back.json");
    ASSERT_EQ(back.world.joints.size(), s.world.joints.size());
    for (std::size_t k = 0; k < s.world.joints.size(); ++k) {
      const Joint &x = s.world.joints[k], &y = back.world.joints[k];
      EXPECT_EQ(x.name, y.name);
      EXPECT_EQ(x.type, y.type);
      EXPECT_EQ(x.body_b, y.body_b);
      EXPECT_EQ(x.anchor_a, y.anchor_a);
      EXPECT_EQ(x.anchor_b, y.anchor_b);
      EXPECT_EQ(x.axis_b, y.axis_b);
      EXPECT_EQ(x.relative.coeffs(), y.relative.coeffs());
    }
  }
}

TEST(JointScene, BadJointsNameTheFieldAndTheReason) {
  json doc = chain_doc(2);
  doc["joints"][0]["bodies"] = {"nobody"};
  EXPECT_THAT(error_of(doc), HasSubstr("joints[0].bodies[0]: no body is named \"nobody\""));
  doc = chain_doc(2);
  doc["joints"][1]["bodies"] = {"a", "a"};
  EXPECT_THAT(error_of(doc), HasSubstr("joints[1]: "));
  EXPECT_THAT(error_of(doc), HasSubstr("itself"));
  doc = chain_doc(2);
  doc["joints"][0]["type"] = "ball";
  EXPECT_THAT(error_of(doc), HasSubstr("a ball joint is 3D only"));
  doc = chain_doc(2);
  doc["joints"][0]["type"] = "hinge";
  EXPECT_THAT(error_of(doc), HasSubstr("joints[0].type: expected \"revolute\""));
  doc = chain_doc(2);
  doc["joints"][0]["axis"] = {0, 0, 1};
  EXPECT_THAT(error_of(doc), HasSubstr("joints[0].axis: only a 3D revolute joint has an axis"));
  doc = chain_doc(3);
  doc["joints"][0].erase("axis");
  EXPECT_THAT(error_of(doc), HasSubstr("joints[0]: a 3D revolute joint needs its hinge axis"));
  doc = chain_doc(3);
  doc["joints"][0]["axis"] = {0, 0, 0};
  EXPECT_THAT(error_of(doc), HasSubstr("joints[0].axis: must not be zero"));
  doc = chain_doc(2);
  doc["joints"][0]["anchor"] = {0, 1e300};
  EXPECT_THAT(error_of(doc), HasSubstr("joints[0].anchor"));
  doc = chain_doc(2);
  doc["bodies"][0]["static"] = true;
  doc["bodies"][0].erase("density");
  doc["joints"] = json::array({{{"type", "revolute"}, {"bodies", {"a"}}, {"anchor", {0, 1}}}});
  EXPECT_THAT(error_of(doc), HasSubstr("joins no dynamic body"));
}

}  // namespace
}  // namespace exactsim::joint_scene_test
