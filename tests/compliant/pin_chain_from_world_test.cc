// The compliant reference's pin chain read from a world's hinges (compliant/pin_chain_from_world.h,
// docs/joints.md "Compliant pin chains"): the PLUS paper's Example 4 described once as a scene
// (links, hinges, the sphere welded on) gives the chain experiments/compliant_examples.h builds by
// hand, in any orientation of the scene.
#include "exactsim/compliant/pin_chain_from_world.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"
#include "experiments/compliant_examples.h"

namespace exactsim {
namespace {

using nlohmann::json;

ChainMaterials materials_of(const PinChain& c) {
  return {c.spheres[0].material, c.ground, c.transition_speed};
}

TEST(PinChainFromWorld, Example4AsASceneIsThePapersChainInAnyOrientation) {
  const PinChain want = example4_chain(1e9);
  const VecX theta = example4_initial_angles();
  const VecX rate = Eigen::Vector3d(1.0, -1.5, 2.0);
  const ChainState touch = example4_first_touch(want, theta, 1e-10);
  for (const Quat& turn : {Quat::Identity(), Quat(0.3, -0.5, 0.7, 0.4).normalized()}) {
    SCOPED_TRACE("turn w " + std::to_string(turn.w()));
    const Scene scene = parse_scene(example4_scene(want, theta, rate, turn), "example 4");
    const ChainFromWorld got = pin_chain_from_world(scene.world, scene.initial, materials_of(want));
    const PinChain& c = got.chain;
    EXPECT_LT((c.base - want.base).norm(), 1e-12);
    ASSERT_EQ(c.lengths.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.lengths[k], want.lengths[k], 1e-12);
    EXPECT_LT((got.theta - theta).norm(), 1e-12);
    EXPECT_LT((got.rate - rate).norm(), 1e-12);
    EXPECT_EQ(got.link_bodies, (std::vector<int>{1, 2, 3}));
    ASSERT_EQ(c.bodies.size(), 4u);
    ASSERT_EQ(c.spheres.size(), 1u);
    EXPECT_EQ(c.spheres[0].link, 2);
    EXPECT_NEAR(c.spheres[0].along, 1.0, 1e-12);
    EXPECT_EQ(c.spheres[0].radius, 0.25);
    EXPECT_EQ(c.spheres[0].plus_law.friction, want.spheres[0].plus_law.friction);
    EXPECT_EQ(c.spheres[0].plus_law.restitution.e_min, 1.0);
    EXPECT_EQ(c.gravity, want.gravity);
    // The same dynamics: the mass matrix, and the kinetic energy of the world's bodies.
    EXPECT_LT((chain_mass_matrix(c, theta) - chain_mass_matrix(want, theta)).norm(), 1e-12);
    State present = scene.initial;  // (the scene's bodies join at its first step)
    present.present.assign(present.present.size(), 1);
    EXPECT_NEAR(chain_kinetic_energy(c, got.theta, got.rate),
                kinetic_energy(scene.world.bodies, present), 1e-12);
    EXPECT_NEAR(chain_potential_energy(c, got.theta), chain_potential_energy(want, theta), 1e-12);
    // Released from rest, the compliant reference's first touch is the hand-built chain's.
    const ChainState mine = example4_first_touch(c, got.theta, 1e-10);
    EXPECT_NEAR(mine.time, touch.time, 1e-9);
  }
}

// scenes/plus/example4_chain.json is the scene above at rest, unturned: `exactsim run` steps it
// with located impacts, and the compliant reference reads the same file.
TEST(PinChainFromWorld, TheShippedSceneIsExample4sChain) {
  const PinChain want = example4_chain(1e9);
  const Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/plus/example4_chain.json");
  const ChainFromWorld got = pin_chain_from_world(scene.world, scene.initial, materials_of(want));
  EXPECT_LT((got.theta - example4_initial_angles()).norm(), 1e-12);
  EXPECT_EQ(got.rate, VecX::Zero(3));
  EXPECT_LT((got.chain.base - want.base).norm(), 1e-12);
  EXPECT_LT((chain_mass_matrix(got.chain, got.theta) - chain_mass_matrix(want, got.theta)).norm(),
            1e-12);
  EXPECT_NEAR(example4_first_touch(got.chain, got.theta, 1e-10).time,
              example4_first_touch(want, example4_initial_angles(), 1e-10).time, 1e-9);
}

TEST(PinChainFromWorld, AWorldThatIsNotAChainIsANamedError) {
  const PinChain c = example4_chain(1e9);
  const VecX theta = example4_initial_angles();
  const VecX rate = VecX::Zero(3);
  auto error_of = [&](const json& doc) {
    const Scene scene = parse_scene(doc, "example 4");
    try {
      pin_chain_from_world(scene.world, scene.initial, materials_of(c));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  json doc = example4_scene(c, theta, rate, Quat::Identity());
  json ball = doc;
  ball["joints"][1] = {
      {"type", "ball"}, {"bodies", {"link0", "link1"}}, {"anchor", doc["joints"][1]["anchor"]}};
  EXPECT_THAT(error_of(ball), testing::HasSubstr("only hinges and welds"));
  json twice = doc;
  twice["joints"][2]["bodies"] = {"link2"};
  EXPECT_THAT(error_of(twice), testing::HasSubstr("a second hinge to the world"));
  json tilted = doc;
  tilted["joints"][0]["axis"] = {0, 0.1, 1};
  EXPECT_THAT(error_of(tilted), testing::HasSubstr("its axis is not level"));
  json off = doc;
  off["joints"].erase(3);  // the sphere no longer welded to link 2
  EXPECT_THAT(error_of(off), testing::HasSubstr("body sphere: not on the chain"));
  json flat = doc;
  flat["bodies"][0]["shape"] = {{"box", {20, 1, 20}}};
  flat["bodies"][0]["position"] = {0, -0.5, 0};
  EXPECT_THAT(error_of(flat), testing::HasSubstr("no half-space for the ground"));
}

}  // namespace
}  // namespace exactsim
