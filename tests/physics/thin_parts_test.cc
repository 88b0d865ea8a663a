// Thin parts (docs/collision.md "ε parameters and defaults"): the default contact distance is at
// most half the thinnest body, and detection reaches beyond it only toward features a pair may
// close on, so 1 mm plates stack under both models, in 2D and 3D, at h = 5 ms.
#include <gtest/gtest.h>

#include <string>

#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/metrics/energy.h"

namespace exactsim::physics_test::thin_parts {
namespace {

// Six 1 mm steel plates (10 cm wide) dropped from 5–20 cm onto a floor, μ = 0.4, h = 5 ms, 1 s:
// every run failed within 0.05–0.12 s (ε = h/2 = 2.5 mm reached across a plate), one plate ending
// 3.6 mm inside another.
void expect_stacked(const std::string& file, ContactModel model) {
  Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/tests/physics/data/" + file);
  scene.world.contact.model = model;
  SCOPED_TRACE(file + (model == ContactModel::kPeg ? ", peg" : ", standard"));
  EXPECT_DOUBLE_EQ(contact_epsilon(scene.world, scene.step), 0.0005);
  RunOptions o;
  o.progress = false;
  State last;
  const RunSummary s = run_scene(scene, o, [&](const State& state, const StepReport&) { last = state; });
  EXPECT_FALSE(s.failed) << s.failure;
  EXPECT_EQ(s.deep_penetration_steps, 0);
  EXPECT_LT(s.max_penetration, contact_epsilon(scene.world, scene.step));
  // At rest, in the order they fell (the plates were dropped from increasing heights): no plate
  // sank into or through the one below it.
  const int d = scene.world.dimension;
  for (int k = 2; k < scene.world.body_count(); ++k)
    EXPECT_GT(last.q_of(k)[d - 1] - last.q_of(k - 1)[d - 1], 0.5 * 0.001) << "plate " << k - 1;
  EXPECT_GT(last.q_of(1)[d - 1], 0.5 * 0.001 - 1e-6);
  EXPECT_LT(kinetic_energy(scene.world.bodies, last), 1e-12);
}

TEST(ThinParts, MillimetrePlatesStackIn3d) {
  expect_stacked("thin-plates-1mm-3d.json", ContactModel::kPeg);
  expect_stacked("thin-plates-1mm-3d.json", ContactModel::kStandard);
}

TEST(ThinParts, MillimetrePlatesStackIn2d) {
  expect_stacked("thin-plates-1mm-2d.json", ContactModel::kPeg);
  expect_stacked("thin-plates-1mm-2d.json", ContactModel::kStandard);
}

TEST(ThinParts, TheDefaultContactDistanceIsHalfTheThinnestBody) {
  Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/tests/physics/data/thin-plates-1mm-3d.json");
  EXPECT_DOUBLE_EQ(contact_epsilon(scene.world, 0.005), 0.0005);
  EXPECT_DOUBLE_EQ(contact_epsilon(scene.world, 0.0001), 0.0005);  // the 0.8 mm floor gives way
  scene.world.contact.epsilon = 0.002;  // a set ε is used as given
  EXPECT_DOUBLE_EQ(contact_epsilon(scene.world, 0.005), 0.002);
  World thick;
  thick.dimension = 3;
  thick.polyhedra.push_back(make_box(Vec3(0.5, 0.3, 0.2)));
  EXPECT_DOUBLE_EQ(contact_epsilon(thick, 0.005), 0.0025);  // h/2
  EXPECT_DOUBLE_EQ(contact_epsilon(thick, 0.001), 0.0008);  // the floor
  EXPECT_DOUBLE_EQ(contact_epsilon(thick, 0.5), 0.1);       // half the 0.2 m side
}

}  // namespace
}  // namespace exactsim::physics_test::thin_parts
