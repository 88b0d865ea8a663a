// Integrators and the step-size controller (docs/compliant.md "Integrators").
#include "exactsim/compliant/integrator.h"

#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/compliant/step_controller.h"
#include "input_error.h"

namespace exactsim {
namespace {

// q' = u, u' = −q: q = cos t.
OdeSystem oscillator() {
  OdeSystem s;
  s.nq = 1;
  s.nu = 1;
  s.derivative = [](Real, const VecX& y, VecX& yd) {
    yd(0) = y(1);
    yd(1) = -y(0);
  };
  s.kinematics = [](const VecX&, const VecX& u, VecX& qd) { qd = u; };
  return s;
}

// Global error at t = 1 with fixed steps h (h_min = h_max = h: every step accepted).
Real global_error(IntegratorMethod method, Real h) {
  IntegratorOptions o;
  o.method = method;
  o.accuracy = 1.0;
  o.initial_step = o.min_step = o.max_step = h;
  Integrator in = make_integrator(oscillator(), o, 0.0, Eigen::Vector2d(1.0, 0.0));
  while (in.time < 1.0 - 1e-12) take_step(in, 1.0);
  return std::hypot(in.state(0) - std::cos(1.0), in.state(1) + std::sin(1.0));
}

// Size of the first step's error estimate on the (nonlinear) pendulum q'' = −sin q. (On a linear
// problem Merson's estimate is one order higher, O(h⁵).)
Real first_estimate(IntegratorMethod method, Real h) {
  OdeSystem pendulum = oscillator();
  pendulum.derivative = [](Real, const VecX& y, VecX& yd) {
    yd(0) = y(1);
    yd(1) = -std::sin(y(0));
  };
  IntegratorOptions o;
  o.method = method;
  Integrator in = make_integrator(pendulum, o, 0.0, Eigen::Vector2d(1.0, 0.3));
  VecX y1, e;
  EXPECT_TRUE(attempt_step(in, h, y1, e));
  return e.norm();
}

TEST(RungeKuttaMerson, FourthOrderGlobalError) {
  const Real e1 = global_error(IntegratorMethod::kRungeKuttaMerson, 0.1);
  const Real e2 = global_error(IntegratorMethod::kRungeKuttaMerson, 0.05);
  const Real e3 = global_error(IntegratorMethod::kRungeKuttaMerson, 0.025);
  EXPECT_NEAR(std::log2(e1 / e2), 4.0, 0.1);
  EXPECT_NEAR(std::log2(e2 / e3), 4.0, 0.1);
}

TEST(RungeKuttaMerson, EstimateScalesAsH4AndIsTheEmbeddedDifference) {
  const Real r = first_estimate(IntegratorMethod::kRungeKuttaMerson, 0.02) /
                 first_estimate(IntegratorMethod::kRungeKuttaMerson, 0.01);
  EXPECT_NEAR(std::log2(r), 4.0, 0.15);
  // independent stages: ŷ₁ = y₀ + h Σ b̂_i k_i with b̂ = (1/10, 0, 3/10, 2/5, 1/5)
  const OdeSystem s = oscillator();
  const Real h = 0.3;
  const VecX y0 = Eigen::Vector2d(0.7, -0.4);
  auto f = [&](const VecX& y) {
    VecX d(2);
    s.derivative(0, y, d);
    return d;
  };
  const VecX k1 = f(y0);
  const VecX k2 = f(y0 + h * k1 / 3);
  const VecX k3 = f(y0 + h * (k1 + k2) / 6);
  const VecX k4 = f(y0 + h * (k1 / 8 + 3 * k3 / 8));
  const VecX k5 = f(y0 + h * (k1 / 2 - 1.5 * k3 + 2 * k4));
  const VecX y1 = y0 + h * (k1 + 4 * k4 + k5) / 6;
  const VecX yhat = y0 + h * (k1 / 10 + 3 * k3 / 10 + 2 * k4 / 5 + k5 / 5);
  IntegratorOptions o;
  Integrator in = make_integrator(s, o, 0.0, y0);
  VecX z1, e;
  ASSERT_TRUE(attempt_step(in, h, z1, e));
  EXPECT_TRUE(z1.isApprox(y1, 1e-15));
  EXPECT_LT((e - (y1 - yhat).cwiseAbs()).norm(), 1e-15);
  EXPECT_GT(e.norm(), 1e-6);
  EXPECT_EQ(in.stats.evaluations, 1 + 4);  // f(y₀) once, then 4 per attempt
}

// Controller: p = 4, a = 1e-5, h = 1e-4.
TEST(StepController, Decisions) {
  const Real h = 1e-4, a = 1e-5, inf = std::numeric_limits<Real>::infinity();
  auto d = [&](Real err, bool limited = false) {
    return control_step(h, err, a, 4, limited, 0.0, inf);
  };
  EXPECT_TRUE(d(1e-7).accept);
  EXPECT_NEAR(d(1e-7).next_step, 2.8460e-4, 1e-8);
  EXPECT_NEAR(d(1e-11).next_step, 5e-4, 1e-18);
  EXPECT_TRUE(d(5e-6).accept);
  EXPECT_EQ(d(5e-6).next_step, h);
  EXPECT_TRUE(d(1e-5).accept);
  EXPECT_EQ(d(1e-5).next_step, h);
  EXPECT_FALSE(d(2e-5).accept);
  EXPECT_NEAR(d(2e-5).next_step, 0.75681e-4, 1e-9);
  EXPECT_FALSE(d(1.01e-5).accept);
  EXPECT_NEAR(d(1.01e-5).next_step, 0.89776e-4, 1e-9);
  EXPECT_FALSE(d(10).accept);
  EXPECT_NEAR(d(10).next_step, 1e-5, 1e-19);
  EXPECT_FALSE(d(std::nan("")).accept);
  EXPECT_NEAR(d(std::nan("")).next_step, 1e-5, 1e-19);
  EXPECT_TRUE(d(0).accept);
  EXPECT_NEAR(d(0).next_step, 5e-4, 1e-18);
  EXPECT_TRUE(d(1e-9, true).accept);
  EXPECT_EQ(d(1e-9, true).next_step, h);
  // at h = h_min a failing step is accepted (Simbody's quirk)
  EXPECT_TRUE(control_step(h, 1.0, a, 4, false, h, inf).accept);
}

TEST(Integrator, InitialStepCountersAndReportTimes) {
  IntegratorOptions o;
  o.accuracy = 1e-6;
  Integrator in = make_integrator(oscillator(), o, 0.0, Eigen::Vector2d(1.0, 0.0));
  EXPECT_EQ(in.step, 0.01);  // timescale 0.1 s / 10
  int steps = 0;
  for (Real t : {0.25, 0.5, 0.75, 1.0}) {
    while (in.time < t) {
      take_step(in, t);
      ++steps;
    }
    EXPECT_EQ(in.time, t);  // lands exactly on report times
  }
  EXPECT_EQ(in.stats.accepted, steps);
  EXPECT_EQ(in.stats.attempts, in.stats.accepted + in.stats.rejected);
  EXPECT_EQ(in.stats.evaluations, 1 + 4 * in.stats.attempts + in.stats.accepted);
  EXPECT_NEAR(in.state(0), std::cos(1.0), 1e-5);
  EXPECT_NE(ErrorOf([] {
              IntegratorOptions bad;
              bad.accuracy = 0;
              make_integrator(oscillator(), bad, 0, Eigen::Vector2d(1, 0));
            }).find("accuracy"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              make_integrator(oscillator(), {}, 0, Eigen::Vector3d(1, 0, 0));
            }).find("components"),
            std::string::npos);
}

TEST(Integrator, RejectsAndShrinksOnAStiffStart) {
  OdeSystem s = oscillator();
  s.derivative = [](Real, const VecX& y, VecX& yd) {  // fast oscillation: 0.01 s is too long
    yd(0) = y(1);
    yd(1) = -1e6 * y(0);
  };
  IntegratorOptions o;
  o.accuracy = 1e-4;
  Integrator in = make_integrator(s, o, 0.0, Eigen::Vector2d(1e-3, 0.0));
  take_step(in, 1.0);
  EXPECT_GT(in.stats.rejected, 0);
  EXPECT_LT(in.time, 1e-3);
}

// Euler family: order 1, estimates ∝ h².
TEST(EulerIntegrators, FirstOrderAndSecondOrderEstimates) {
  for (IntegratorMethod m : {IntegratorMethod::kExplicitEuler, IntegratorMethod::kSemiExplicitEuler,
                             IntegratorMethod::kImplicitEuler}) {
    const Real e1 = global_error(m, 0.01), e2 = global_error(m, 0.005);
    EXPECT_NEAR(std::log2(e1 / e2), 1.0, 0.1) << to_string(m);
    const Real r = first_estimate(m, 0.02) / first_estimate(m, 0.01);
    EXPECT_NEAR(std::log2(r), 2.0, 0.1) << to_string(m);
  }
}

TEST(ImplicitEuler, StableOnAStiffDecayAndExactNewtonOnALinearProblem) {
  OdeSystem s;
  s.nu = 1;
  s.derivative = [](Real, const VecX& y, VecX& yd) { yd(0) = -1e6 * y(0); };
  IntegratorOptions o;
  o.method = IntegratorMethod::kImplicitEuler;
  o.accuracy = 1e-3;
  Integrator in = make_integrator(s, o, 0.0, VecX::Constant(1, 1.0));
  VecX y1, e;
  ASSERT_TRUE(attempt_step(in, 1.0, y1, e));
  EXPECT_NEAR(y1(0), 1.0 / (1.0 + 1e6), 1e-12);
  // explicit Euler at h = 1 explodes
  IntegratorOptions oe = o;
  oe.method = IntegratorMethod::kExplicitEuler;
  Integrator ex = make_integrator(s, oe, 0.0, VecX::Constant(1, 1.0));
  ASSERT_TRUE(attempt_step(ex, 1.0, y1, e));
  EXPECT_GT(std::abs(y1(0)), 1e5);

  // y' = A y, 3 states: the first Newton update solves it, the second is ~0 (2 iterations)
  OdeSystem lin;
  lin.nu = 3;
  Eigen::Matrix3d A;
  A << -2, 1, 0, 0.5, -30, 2, 0, 1, -400;
  lin.derivative = [A](Real, const VecX& y, VecX& yd) { yd = A * y; };
  Integrator li = make_integrator(lin, o, 0.0, Eigen::Vector3d(1, -2, 3));
  const Real h = 0.05;
  ASSERT_TRUE(attempt_step(li, h, y1, e));
  const VecX exact = (Eigen::Matrix3d::Identity() - h * A).lu().solve(Eigen::Vector3d(1, -2, 3));
  EXPECT_TRUE(y1.isApprox(exact, 1e-8));
  EXPECT_EQ(li.stats.newton_iterations, 2);
  EXPECT_EQ(li.stats.jacobians, 1);
  EXPECT_EQ(li.stats.factorizations, 1);
}

}  // namespace
}  // namespace exactsim
