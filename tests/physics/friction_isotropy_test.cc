// Isotropic friction in 3D (docs/stepping.md "Friction directions"): the polyhedral cone of k
// directions is turned toward where its force will act, so that stick and slip do not depend on
// how the scene is turned. A box on a 30° incline whose downhill runs at 0°, 22.5° and 45° to the
// world's x axis: at μ = 1.05 tan θ it sticks; at μ = 0.95 tan θ it slides with Coulomb's
// acceleration a = g (sin θ − μ cos θ), to 1 %. With the cone fixed to the world axes (a diamond
// |f_x| + |f_y| <= μ f_n), turned 45° it slid 0.63 m in 1 s where it must stick.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "exactsim/io/run.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::isotropy {
namespace {

constexpr Real kTheta = M_PI / 6, kG = 9.81, kH = 0.005;

// The incline's rotation: tilted by θ about y (downhill +x), then turned by `turn` about z.
Quat incline_rotation(Real turn) {
  return Quat(Eigen::AngleAxisd(turn, Vec3::UnitZ())) *
         Quat(Eigen::AngleAxisd(kTheta, Vec3::UnitY()));
}

// `frame` turns the whole scene, gravity included (identity: upright).
Scene box_on_incline(Real turn, Real mu, int directions, const Quat& frame = Quat::Identity()) {
  const Quat q = frame * incline_rotation(turn);
  const Vec3 plane = q * Vec3(0, 0, -0.2), box = q * Vec3(0, 0, 0.15);
  const Vec3 g = frame * Vec3(0, 0, -kG);
  json doc = scene_doc(3, kH,
                       json::array({{{"name", "incline"},
                                     {"static", true},
                                     {"shape", {{"box", {6, 6, 0.4}}}},
                                     {"position", {plane.x(), plane.y(), plane.z()}},
                                     {"orientation", {q.w(), q.x(), q.y(), q.z()}}},
                                    {{"name", "box"},
                                     {"shape", {{"box", {0.3, 0.3, 0.3}}}},
                                     {"density", 800},
                                     {"position", {box.x(), box.y(), box.z()}},
                                     {"orientation", {q.w(), q.x(), q.y(), q.z()}}}}),
                       json{{"friction", mu}, {"friction_directions", directions}});
  doc["contact"]["model"] = "peg";
  doc["gravity"] = {g.x(), g.y(), g.z()};
  return parse_scene(doc, "incline3d.json");
}

struct Motion {
  Vec3 displacement = Vec3::Zero(), velocity = Vec3::Zero();
};

Motion run_for(Scene scene, Real seconds) {
  scene.duration = seconds;
  Sim sim(std::move(scene));
  const Vec3 x0 = sim.state.q_of(1).head<3>();
  for (long n = 0; n < sim.scene.step_count(); ++n) {
    const StepReport r = sim.advance();
    EXPECT_EQ(r.status, StepStatus::kOk) << "step " << n;
  }
  return {sim.state.q_of(1).head<3>() - x0, sim.state.v_of(1).head<3>()};
}

TEST(FrictionIsotropy, TheTurnedInclineSticksAndSlidesAsTheClosedForm) {
  for (int directions : {4, 6})
    for (Real turn_deg : {0.0, 22.5, 45.0}) {
      SCOPED_TRACE("turned " + std::to_string(turn_deg) + "°, k = " + std::to_string(directions));
      const Real turn = turn_deg * M_PI / 180;
      const Motion stick = run_for(box_on_incline(turn, 1.05 * std::tan(kTheta), directions), 1.0);
      EXPECT_LT(stick.displacement.norm(), 1e-6);
      // Sliding: after n steps of semi-implicit Euler the velocity is n h a along the downhill.
      const Real mu = 0.95 * std::tan(kTheta);
      const Real a = kG * (std::sin(kTheta) - mu * std::cos(kTheta));
      const Motion slide = run_for(box_on_incline(turn, mu, directions), 1.0);
      const Vec3 downhill = incline_rotation(turn) * Vec3(1, 0, 0);
      EXPECT_NEAR(slide.velocity.dot(downhill), a * 1.0, 0.01 * a);
      EXPECT_LT((slide.velocity - slide.velocity.dot(downhill) * downhill).norm(), 1e-3 * a);
    }
}

TEST(FrictionIsotropy, TheTurnedInclineReproducerSticks) {
  // μ = 1.1 tan 30°, downhill at 45° to x: the box slid about 0.5 m in 1 s.
  const Scene scene =
      read_scene_file(EXACTSIM_SOURCE_DIR "/tests/physics/data/incline-turned-45-stick-3d.json");
  const Motion m = run_for(scene, 1.0);
  EXPECT_LT(m.displacement.norm(), 1e-6);
}

TEST(FrictionIsotropy, TurningTheSceneTurnsTheMotion) {
  // Frame invariance: a sliding box (μ = 0.95 tan θ, given a sideways push) in an upright scene
  // and in the same scene turned by an arbitrary rotation, gravity included, move alike.
  const Quat frame = Quat(Eigen::AngleAxisd(0.9, Vec3(1, -2, 0.5).normalized()));
  Scene upright = box_on_incline(0.3, 0.95 * std::tan(kTheta), 4);
  Scene turned = box_on_incline(0.3, 0.95 * std::tan(kTheta), 4, frame);
  const Vec3 push = incline_rotation(0.3) * Vec3(0, 0.8, 0);
  upright.initial.v_of(1).head<3>() = push;
  turned.initial.v_of(1).head<3>() = frame * push;
  const Motion a = run_for(upright, 0.5), b = run_for(turned, 0.5);
  EXPECT_GT(a.displacement.norm(), 0.1);
  EXPECT_LT((frame * a.displacement - b.displacement).norm(), 1e-9);
  EXPECT_LT((frame * a.velocity - b.velocity).norm(), 1e-9);
}

}  // namespace
}  // namespace exactsim::physics_test::isotropy
