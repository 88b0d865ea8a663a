// Free fall under semi-implicit Euler (docs/dynamics.md "Kinematic update"): with v_{n+1} = v_n + h
// g and x_{n+1} = x_n + h v_{n+1}, after n steps (t = n h)
//   v(t) = v₀ + g t,   x(t) = x₀ + v₀ t + ½ g t² + ½ g h t,
// the last term being the integrator's O(h) error against the exact parabola. Angles advance by
// ω t. A body with no contact never reaches the solver.
#include <cmath>

#include <gtest/gtest.h>

#include "physics/physics_scene.h"

namespace exactsim::physics_test {
namespace {

constexpr Real kTol = 1e-12;  // relative to max(1, |value|): accumulated round-off only

void expect_close(Real actual, Real expected, const char* what, long n) {
  EXPECT_NEAR(actual, expected, kTol * std::max<Real>(1, std::abs(expected)))
      << what << " at step " << n;
}

TEST(FreeFall, Planar) {
  const Real h = 0.01;
  Sim sim(scene_doc(2, h,
                    json::array({{{"name", "box"},
                                  {"shape", {{"box", {0.4, 0.2}}}},
                                  {"density", 100},
                                  {"position", {1.0, 2.0}},
                                  {"angle", 0.3},
                                  {"velocity", {3.0, 4.0}},
                                  {"angular_velocity", 0.7}}})));
  const Vec2 x0(1, 2), v0(3, 4), g(0, -9.81);
  for (int n = 1; n <= 300; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk);
    EXPECT_FALSE(r.solver_called);
    const Real t = n * h;
    const Vec2 x = x0 + v0 * t + 0.5 * g * t * t + 0.5 * g * h * t;
    const Vec2 v = v0 + g * t;
    const auto q = sim.state.q_of(0);
    const auto nu = sim.state.v_of(0);
    expect_close(q[0], x.x(), "x", n);
    expect_close(q[1], x.y(), "y", n);
    expect_close(q[2], 0.3 + 0.7 * t, "theta", n);
    expect_close(nu[0], v.x(), "vx", n);
    expect_close(nu[1], v.y(), "vy", n);
    expect_close(nu[2], 0.7, "omega", n);
  }
}

TEST(FreeFall, Spatial) {
  const Real h = 0.005;
  // A cube: isotropic inertia, so the gyroscopic term ω × Jω vanishes and ω stays constant.
  Sim sim(scene_doc(3, h,
                    json::array({{{"name", "cube"},
                                  {"shape", {{"box", {0.3, 0.3, 0.3}}}},
                                  {"density", 500},
                                  {"position", {-1.0, 0.5, 3.0}},
                                  {"orientation", {0.9, 0.1, -0.3, 0.2}},
                                  {"velocity", {1.0, -2.0, 5.0}},
                                  {"angular_velocity", {0.4, -1.1, 2.0}}}})));
  const Vec3 x0(-1, 0.5, 3), v0(1, -2, 5), g(0, 0, -9.81), w0(0.4, -1.1, 2.0);
  for (int n = 1; n <= 400; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk);
    EXPECT_FALSE(r.solver_called);
    const Real t = n * h;
    const Vec3 x = x0 + v0 * t + 0.5 * g * t * t + 0.5 * g * h * t;
    const Vec3 v = v0 + g * t;
    const auto q = sim.state.q_of(0);
    const auto nu = sim.state.v_of(0);
    for (int a = 0; a < 3; ++a) {
      expect_close(q[a], x[a], "position", n);
      expect_close(nu[a], v[a], "velocity", n);
      expect_close(nu[3 + a], w0[a], "angular velocity", n);
    }
    EXPECT_NEAR(q.tail<4>().norm(), 1.0, 1e-14) << "quaternion norm at step " << n;
  }
}

}  // namespace
}  // namespace exactsim::physics_test
