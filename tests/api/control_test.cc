// Driving a Simulation (docs/api.md "Driving the bodies", "Saving and restoring"): applied
// forces against the closed form of a box sliding under Coulomb friction, setters, sleeping,
// and save → step → restore → step repeating bit for bit.
//
// Closed form. A box of mass m resting on a level floor, pushed horizontally by F > μ m g from
// rest, slides with a = (F − μ m g)/m. The semi-implicit step (docs/stepping.md) gives after n
// steps of h exactly v_n = n h a and x_n − x_0 = h Σ_{k=1..n} v_k = h² a n (n + 1)/2; with
// F ≤ μ m g the box stays at rest.
#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/exactsim.h"
#include "input_error.h"

namespace exactsim::control_test {
namespace {

constexpr Real kG = 9.81;

Scene floor_and_box(int dimension, Real mu) {
  Scene s = make_scene(dimension, 0.01);
  s.world.contact.model = ContactModel::kStandard;
  s.world.contact.friction = mu;
  if (dimension == 2) {
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec2(40, 1)),
                 .is_static = true,
                 .position = {0, -0.5}});
    add_body(
        s,
        {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 100, .position = {0, 0.1}});
  } else {
    s.world.contact.friction_directions = 8;
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec3(40, 40, 1)),
                 .is_static = true,
                 .position = {0, 0, -0.5}});
    add_body(s, {.name = "box",
                 .shape = make_box(Vec3(0.2, 0.2, 0.2)),
                 .density = 500,
                 .position = {0, 0, 0.1}});
  }
  return s;
}

TEST(Control, AppliedForceSlidesBoxAsCoulombFrictionSays) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    const Real mu = 0.4;
    Simulation sim(floor_and_box(d, mu));
    const int box = sim.body("box");
    const Real m = sim.world().bodies[box].mass, h = sim.step_size();
    const Real force = 2 * mu * m * kG, a = (force - mu * m * kG) / m;
    const Vec3 x0 = sim.position(box);
    const int n = 50;
    for (int k = 0; k < n; ++k) {
      sim.apply_force(box, Vec3(force, 0, 0));  // a lasting push: applied before every step
      ASSERT_EQ(sim.step().status, StepStatus::kOk);
    }
    EXPECT_NEAR(sim.velocity(box).x(), n * h * a, 1e-9 * n * h * a);
    EXPECT_NEAR(sim.position(box).x() - x0.x(), h * h * a * n * (n + 1) / 2, 1e-9);
    EXPECT_NEAR(sim.velocity(box).tail(2).norm(), 0, 1e-9);  // no lift, no drift sideways
    // Released, the force is gone after the step it was applied for: friction alone decelerates.
    const Real v = sim.velocity(box).x();
    sim.step();
    EXPECT_NEAR(sim.velocity(box).x(), v - h * mu * kG, 1e-9);
  }
}

TEST(Control, ForceBelowStaticFrictionLeavesBoxAtRest) {
  Simulation sim(floor_and_box(2, 0.5));
  const Real m = sim.world().bodies[1].mass;
  for (int k = 0; k < 30; ++k) {
    sim.apply_force(1, {0.9 * 0.5 * m * kG, 0});
    sim.step();
  }
  EXPECT_LT(sim.velocity(1).norm(), 1e-12);
}

TEST(Control, TorqueAndForceAtAPointTurnAFreeBody) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    Scene s = make_scene(d, 0.01);
    s.world.gravity.setZero();
    if (d == 2)
      add_body(s, {.name = "plate", .shape = make_box(Vec2(1, 0.5)), .density = 10});
    else
      add_body(s, {.name = "plate", .shape = make_box(Vec3(1, 0.5, 0.5)), .density = 10});
    Simulation sim(std::move(s));
    const Body& b = sim.world().bodies[0];
    const Real h = sim.step_size(), izz = d == 2 ? b.planar_inertia : b.inertia(2, 2);
    // A force F ŷ at (0.5, 0): the same push at the centre plus the torque 0.5 F about z.
    sim.apply_force(0, Vec3(0, 2, 0), Vec3(0.5, 0, 0));
    sim.step();
    EXPECT_NEAR(sim.velocity(0).y(), h * 2 / b.mass, 1e-15);
    EXPECT_NEAR(sim.angular_velocity(0).z(), h * 0.5 * 2 / izz, 1e-12);
    const Vec3 omega = sim.angular_velocity(0);
    if (d == 2)
      sim.apply_torque(0, -0.5 * 2);
    else
      sim.apply_torque(0, Vec3(0, 0, -0.5 * 2));
    sim.step();
    EXPECT_NEAR(sim.angular_velocity(0).z(), 0, 1e-12);       // the torque undid the turn
    EXPECT_NEAR(sim.velocity(0).y(), h * 2 / b.mass, 1e-15);  // and no force was left over
    (void)omega;
  }
}

TEST(Control, SettersTakeEffect) {
  Simulation sim(floor_and_box(2, 0.4));
  sim.set_pose(1, {3, 2}, 0.25);
  EXPECT_EQ(sim.position(1), Vec3(3, 2, 0));
  EXPECT_EQ(sim.angle(1), 0.25);
  sim.set_velocity(1, {1, -2}, 3.0);
  EXPECT_EQ(sim.velocity(1), Vec3(1, -2, 0));
  EXPECT_EQ(sim.angular_velocity(1), Vec3(0, 0, 3));
  sim.step();  // a free fall from there: v = v0 + h g, x = x0 + h v
  EXPECT_DOUBLE_EQ(sim.velocity(1).y(), -2 - 0.01 * kG);
  EXPECT_DOUBLE_EQ(sim.position(1).x(), 3 + 0.01 * 1);
  EXPECT_DOUBLE_EQ(sim.angle(1), 0.25 + 0.01 * 3);

  Simulation sim3(floor_and_box(3, 0.4));
  const Quat turn(Eigen::AngleAxisd(0.5, Vec3::UnitZ()));
  sim3.set_pose(1, {1, 2, 3}, Quat(2 * turn.coeffs()));  // normalised
  EXPECT_EQ(sim3.position(1), Vec3(1, 2, 3));
  EXPECT_TRUE(sim3.orientation(1).coeffs().isApprox(turn.coeffs(), 1e-15));
  sim3.set_velocity(1, {0, 0, 1}, {0, 0, 2});
  EXPECT_EQ(sim3.angular_velocity(1), Vec3(0, 0, 2));

  EXPECT_EQ(ErrorOf([&] {
              sim.set_velocity(0, {1, 0}, 0.0);
            }),
            "bodies[0] (floor).velocity: a static body cannot move");
  EXPECT_EQ(ErrorOf([&] {
              sim.apply_force(0, {1, 0});
            }),
            "bodies[0] (floor).force: a static body cannot move");
  EXPECT_EQ(ErrorOf([&] {
              sim.set_pose(1, {2e6, 0}, 0.0);
            }),
            "bodies[1] (box).position[0]: must lie in [-1e6, 1e6] m, got 2000000.0 "
            "(docs/input-validation.md)");
  EXPECT_EQ(ErrorOf([&] {
              sim.set_velocity(1, {std::nan(""), 0}, 0.0);
            }),
            "bodies[1] (box).velocity[0]: must be finite, got nan");
  EXPECT_EQ(ErrorOf([&] { sim.apply_force(7, {1, 0}); }), "force: body index 7 is not in [0, 2)");
  EXPECT_EQ(ErrorOf([&] { sim.body("lid"); }), "body: no body is named 'lid'");
  EXPECT_EQ(ErrorOf([&] {
              sim3.set_pose(1, {0, 0, 0}, Quat(0, 0, 0, 0));
            }),
            "bodies[1] (box).orientation: the quaternion has zero norm");
}

TEST(Control, SettingAVelocityOrPushingWakesASleepingBody) {
  Scene s = floor_and_box(2, 0.4);
  s.world.stepping.sleep = true;
  s.world.stepping.sleep_time = 0.1;
  Simulation sim(std::move(s));
  sim.step(40);
  ASSERT_EQ(sim.last_report().bodies_asleep, 1);
  sim.set_velocity(1, {1, 0}, 0.0);  // docs/stepping.md "Sleeping": woken at the next step
  sim.step();
  EXPECT_GT(sim.velocity(1).x(), 0.9);
  EXPECT_EQ(sim.last_report().bodies_asleep, 0);
  sim.step(60);
  ASSERT_EQ(sim.last_report().bodies_asleep, 1);
  const Real x = sim.position(1).x();
  const Real m = sim.world().bodies[1].mass;
  sim.apply_force(1, {10 * m * kG, 0});  // a sleeping body pushed wakes and moves
  sim.step();
  EXPECT_GT(sim.position(1).x(), x);
}

TEST(Control, StepNStopsAtAFailedSolveAsRunDoes) {
  Simulation sim(floor_and_box(2, 0.4));
  EXPECT_EQ(sim.step(7).step, 6);
  EXPECT_EQ(sim.steps_taken(), 7);
  EXPECT_EQ(sim.step(0).step, 6);
  EXPECT_EQ(ErrorOf([&] { sim.step(-1); }), "step: n must be >= 0, got -1");
}

// A small pile with PEG, friction, warm starts and sleeping: the stepper's memory matters.
Scene pile(int dimension) {
  Scene s = make_scene(dimension, 0.005);
  s.world.contact.friction = 0.3;
  s.world.stepping.sleep = true;
  if (dimension == 2) {
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec2(3, 0.5)),
                 .is_static = true,
                 .position = {0, -0.25}});
    for (int i = 0; i < 6; ++i)
      add_body(s, {.shape = make_regular_polygon(3 + i % 4, 0.12),
                   .density = 200,
                   .position = {0.05 * (i % 3) - 0.05, 0.15 + 0.26 * i},
                   .angle = 0.3 * i});
  } else {
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec3(3, 3, 0.5)),
                 .is_static = true,
                 .position = {0, 0, -0.25}});
    for (int i = 0; i < 4; ++i)
      add_body(s, {.shape = make_box(Vec3(0.2, 0.15, 0.1)),
                   .density = 300,
                   .position = {0.03 * i, 0.02 * i, 0.06 + 0.12 * i},
                   .orientation = Quat(Eigen::AngleAxisd(0.3 * i, Vec3::UnitZ()))});
  }
  return s;
}

TEST(Control, RestoringAndSteppingAgainIsBitIdentical) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    Simulation sim(pile(d));
    sim.step(60);
    sim.apply_force(1, Vec3(1, 0, 0));  // a pending force is part of the state
    const SimulationState saved = sim.get_state();
    std::vector<VecX> q, v;
    for (int k = 0; k < 100; ++k) {
      sim.step();
      q.push_back(sim.state().q);
      v.push_back(sim.state().v);
    }
    const Real t = sim.time();
    auto replay = [&](Simulation& other) {
      other.set_state(saved);
      EXPECT_EQ(other.time(), saved.state.time);
      EXPECT_EQ(other.steps_taken(), 60);
      EXPECT_TRUE(other.contacts().empty());  // until the next step
      for (int k = 0; k < 100; ++k) {
        other.step();
        ASSERT_EQ(other.state().q, q[k]) << "step " << k;
        ASSERT_EQ(other.state().v, v[k]) << "step " << k;
      }
      EXPECT_EQ(other.time(), t);
    };
    replay(sim);                // the same simulation, gone on and back
    Simulation fresh(pile(d));  // another one of the same scene
    replay(fresh);
  }
}

TEST(Control, SetStateRejectsAStateOfAnotherScene) {
  Simulation a(pile(2)), b(floor_and_box(2, 0.4));
  EXPECT_EQ(ErrorOf([&] { b.set_state(a.get_state()); }),
            "state.present: 7 flags for 2 bodies (one per body: 0 until spawned, step() sets "
            "them)");
}

}  // namespace
}  // namespace exactsim::control_test
