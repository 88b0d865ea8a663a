// A block on a static inclined plane of angle θ with pair friction μ (docs/solvers.md "Problem
// forms", 2D: the cone ±t̂ is exact). Coulomb's law: it sticks iff tan θ ≤ μ; otherwise it slides
// down with
//   a = g (sin θ − μ cos θ).
// With tan θ = 0.8 μ the block must not move (≤ 1e-6 m over 1 s); with tan θ = 1.2 μ its
// velocity along the slope after n steps is n h a (each step's impulses are exactly the
// weight's normal part and μ times it), checked to 1 %.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "physics/physics_scene.h"

namespace exactsim::physics_test::incline {
namespace {

constexpr Real kH = 0.01, kG = 9.81, kMu = 0.5;

// The plane's top face passes through the origin with inward normal n̂ = (−sin θ, cos θ); the
// block (0.6 × 0.2) rests on it, rotated with it.
Sim incline(Real theta) {
  const Vec2 n(-std::sin(theta), std::cos(theta));
  const Vec2 plane = -0.5 * n, block = 0.1 * n;
  return Sim(scene_doc(2, kH,
                       json::array({{{"name", "plane"},
                                     {"static", true},
                                     {"shape", {{"box", {12.0, 1.0}}}},
                                     {"position", {plane.x(), plane.y()}},
                                     {"angle", theta}},
                                    {{"name", "block"},
                                     {"shape", {{"box", {0.6, 0.2}}}},
                                     {"density", 100},
                                     {"position", {block.x(), block.y()}},
                                     {"angle", theta}}}),
                       json{{"friction", kMu}}));
}

TEST(Incline, SticksBelowTheFrictionAngle) {
  const Real theta = std::atan(0.8 * kMu);
  Sim sim = incline(theta);
  const VecX q0 = sim.state.q_of(1);
  for (int n = 0; n < 100; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    ASSERT_TRUE(r.solver_called) << "step " << n;
  }
  const VecX d = sim.state.q_of(1) - q0;
  std::printf("[ incline ] tan θ = 0.8 μ: displacement after 1 s %.3e m, rotation %.3e rad\n",
              d.head<2>().norm(), d[2]);
  EXPECT_LE(d.head<2>().norm(), 1e-6);
  EXPECT_LE(std::abs(d[2]), 1e-6);
}

TEST(Incline, SlidesAboveTheFrictionAngleWithCoulombAcceleration) {
  const Real theta = std::atan(1.2 * kMu);
  Sim sim = incline(theta);
  const Vec2 down(-std::cos(theta), -std::sin(theta));
  const Real a = kG * (std::sin(theta) - kMu * std::cos(theta));
  const int steps = 100;
  for (int n = 0; n < steps; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    ASSERT_TRUE(r.solver_called) << "step " << n << ": the block left the plane";
  }
  const auto v = sim.state.v_of(1);
  const Real measured = Vec2(v[0], v[1]).dot(down) / (steps * kH);
  std::printf("[ incline ] tan θ = 1.2 μ: a = %.6f m/s², closed form %.6f (%+.3f%%)\n", measured, a,
              100 * (measured - a) / a);
  EXPECT_NEAR(measured, a, 0.01 * a);
  // It stays on the plane: no velocity along the normal, no spin.
  EXPECT_NEAR(Vec2(v[0], v[1]).dot(Vec2(-std::sin(theta), std::cos(theta))), 0.0, 1e-9);
  EXPECT_NEAR(v[2], 0.0, 1e-9);
}

}  // namespace
}  // namespace exactsim::physics_test::incline
