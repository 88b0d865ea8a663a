// The paper's examples with compliant contact against Simbody 3.7's numbers and against PLUS
// (docs/compliant.md "The examples", "Energy bookkeeping", "Checks against Simbody 3.7"), and the
// pin-jointed chain.
#include "experiments/compliant_examples.h"

#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/events/sphere_contacts.h"
#include "exactsim/impact/plus.h"
#include "exactsim/metrics/energy.h"
#include "experiments/plus_examples.h"
#include "input_error.h"

namespace exactsim {
namespace {

CompliantImpactOptions rkm(Real accuracy) {
  CompliantImpactOptions o;
  o.integrator.accuracy = accuracy;
  return o;
}

// The brick (body 0) of `world`: its momentum change from `before` to `after`.
Vec3 brick_impulse(const World& world, const State& before, const State& after) {
  return world.bodies[0].mass * (body_velocity(after, 0) - body_velocity(before, 0));
}

// PLUS total impulse on the brick (linear part) for an impact problem of `sim`.
Vec3 plus_impulse(const EventSimulation& sim, const ImpactOptions& options) {
  const auto contacts = find_contacts(sim.world, sim.state, 1e-9);
  const ImpactResult r =
      solve_plus(contact_impact_problem(sim.world, sim.state, contacts, options));
  State after = sim.state;
  apply_contact_impulse(sim.world, after, contacts, r.impulse);
  return brick_impulse(sim.world, sim.state, after);
}

struct Reference {
  Real mu;
  int steps;
  Vec3 impulse, velocity;
  Real kinetic_energy;
};

// Simbody 3.7's rows for Example 1 (RKM a = 1e-5, first touch to separation; docs/compliant.md
// "Checks against Simbody 3.7") and the 1% PLUS claim.
TEST(CompliantExamples, Example1MatchesSimbodyAndPlus) {
  const Reference refs[] = {
      {0.125, 30, {1.2823, -1.1486, 14.7126}, {-4.3589, -0.5743, 1.6163}, 25.512},
      {0.225, 132, {1.8319, -2.4125, 15.7810}, {-4.0840, -1.2063, 2.1505}, 25.260},
      {0.325, 549, {1.8318, -2.4161, 15.8130}, {-4.0841, -1.2081, 2.1665}, 25.335}};
  for (const Reference& ref : refs) {
    const CompliantScene scene = example1_compliant(ref.mu);
    const CompliantImpactResult r = run_compliant_impact(scene, rkm(1e-5));
    ASSERT_TRUE(r.separated);
    const Vec3 J = brick_impulse(scene.world, scene.state, r.state_after);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(J(i), ref.impulse(i), 2e-3) << ref.mu << " " << i;
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(body_velocity(r.state_after, 0)(i), ref.velocity(i), 1e-3) << ref.mu;
    // The kinetic energy after, on the converged run (a = 1e-7): at a = 1e-5 the sticking phase
    // of μ = 0.325 makes it depend on round-off, 25.3328–25.3347 J when a changes by 1e-12
    // relative (docs/compliant.md "Checks against Simbody 3.7").
    const CompliantImpactResult fine = run_compliant_impact(scene, rkm(1e-7));
    EXPECT_NEAR(kinetic_energy(scene.world.bodies, fine.state_after), ref.kinetic_energy, 2e-3)
        << ref.mu;
    EXPECT_NEAR(r.stats.accepted, ref.steps, 0.02 * ref.steps + 0.5) << ref.mu;
    // energy: the bodies lost what the contacts dissipated (+ elastic energy lost at clamping)
    const Real lost = kinetic_energy(scene.world.bodies, scene.state) -
                      kinetic_energy(scene.world.bodies, r.state_after);
    const Real dissipated = r.quadratures(0) + r.quadratures(1);
    const Real clamp_loss = r.quadratures(2) - dissipated;  // PE = 0 after separation
    EXPECT_NEAR(lost, r.quadratures(2), 1e-4 * lost);
    EXPECT_GE(clamp_loss, -1e-4 * lost);
    // PLUS with Table A1 parameters lands within 1 % of the compliant impulse
    const EventSimulation w = example1_simulation(ref.mu, 0.0);
    ImpactOptions po;
    po.theta_max = 0.01;
    const Vec3 P = plus_impulse(w, po);
    EXPECT_LT((P - J).norm(), 0.01 * J.norm()) << ref.mu << " PLUS " << P.transpose();
  }
}

TEST(CompliantExamples, Example2MatchesSimbodyAndPlus) {
  const Quat orientations[] = {example2_orientation(), Quat::Identity()};
  const Vec3 impulses[] = {{4.2526, 0, 24.9382}, {2.3984, 0, 25.2347}};
  const Vec3 velocities[] = {{0.1263, 0, 3.6291}, {-0.8008, 0, 3.7773}};
  const Real omega_y[] = {0.4621, -1.4114};
  const int steps[] = {127, 458};
  for (int k = 0; k < 2; ++k) {
    const CompliantScene scene = example2_compliant(orientations[k]);
    const CompliantImpactResult r = run_compliant_impact(scene, rkm(1e-5));
    ASSERT_TRUE(r.separated);
    const Vec3 J = brick_impulse(scene.world, scene.state, r.state_after);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(J(i), impulses[k](i), 2e-3) << k << " " << i;
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(body_velocity(r.state_after, 0)(i), velocities[k](i), 1e-3) << k;
    EXPECT_NEAR(body_angular_velocity(r.state_after, 0).y(), omega_y[k], 1e-3) << k;
    EXPECT_NEAR(r.stats.accepted, steps[k], 0.02 * steps[k] + 0.5) << k;
    if (k == 0) {
      // The main face: PLUS's normal impulse is within 1 % of the compliant one; its
      // tangential impulse is not (4.575 against 4.253 N·s, docs/compliant.md): the total
      // differs by 1.3 %, recorded here so a change either way is noticed.
      const Vec3 P = plus_impulse(example2_plus_simulation(orientations[k]), ImpactOptions{});
      EXPECT_LT(std::abs(P.z() - J.z()), 0.01 * J.z()) << "PLUS " << P.transpose();
      EXPECT_NEAR((P - J).norm() / J.norm(), 0.013, 0.001) << "PLUS " << P.transpose();
    }
  }
}

// Why PLUS and the compliant model differ on Example 2: PLUS's answer is the rigid-body closed
// form below, derived without the solver. Four points at (±a, ±b, −h) from the COM, all sliding
// along +x while compressing (their slip stays outside the rolling disc), so
//   compression  N_c = m·(−v_z⁰), friction μN_c, and every normal velocity reaches 0 together,
//                which forces ω_y = 0: leading minus trailing pair D_c = hμN_c / (2a);
//   expansion    Poisson per point, e × its compression impulse (the split D grows to (1+e)D_c);
//   friction     the points stop slipping during expansion (rolling, inside the cone) so
//                J_t (1/m + h²/I_yy) = −v_x⁰ + 2ahD / I_yy.
// The tangential impulse is set by the pitching moment of the normal split D; the compliant brick
// pitches during the contact instead of ending compression with ω_y = 0 (docs/compliant.md).
TEST(CompliantExamples, Example2PlusIsTheRigidClosedForm) {
  for (const Quat& q : {example2_orientation(), Quat::Identity()}) {
    const EventSimulation w = example2_plus_simulation(q);
    const auto contacts = find_contacts(w.world, w.state, 1e-9);
    ASSERT_EQ(contacts.size(), 4u);
    const Body& b = w.world.bodies[0];
    const Vec3 x = body_position(w.state, 0), v = body_velocity(w.state, 0);
    const Real m = b.mass, mu = 0.2, e = 0.414;
    const Mat3 R = body_orientation(w.state, 0).toRotationMatrix();
    const Real I = (R * b.inertia * R.transpose())(1, 1);
    const Real h = x.z() - contacts[0].point.z();
    const Real a = std::abs(contacts[0].point.x() - x.x());
    const Real Nc = m * -v.z();
    ASSERT_LT(v.x() + mu * Nc / m, -0.1);  // still sliding when compression ends
    const Real Dc = h * mu * Nc / (2 * a);
    const Real D = (1 + e) * Dc;
    const Real Jt = (-v.x() + 2 * a * h * D / I) / (1 / m + h * h / I);
    ASSERT_LT(Jt, mu * (1 + e) * Nc);  // inside the cone: rolling at the end is admissible

    const ImpactResult r =
        solve_plus(contact_impact_problem(w.world, w.state, contacts, ImpactOptions{}));
    State after = w.state;
    apply_contact_impulse(w.world, after, contacts, r.impulse);
    const Vec3 P = brick_impulse(w.world, w.state, after);
    EXPECT_NEAR(P.x(), Jt, 1e-9);
    EXPECT_NEAR(P.z(), (1 + e) * Nc, 1e-9);
    EXPECT_NEAR(body_angular_velocity(after, 0).y(), (-h * Jt + 2 * a * D) / I, 1e-9);
    for (size_t k = 0; k < 4; ++k) {  // per point (Fig. 12): the leading pair (x < COM) carries D
      const Real lead = contacts[k].point.x() < x.x() ? 1.0 : -1.0;
      EXPECT_NEAR(r.impulse(3 * k + 2), (1 + e) * (Nc / 4 + lead * Dc / 2), 1e-9) << k;
    }
  }
}

// … and the compliant side of that gap is not a finite-stiffness effect: Hertz contact is
// self-similar, so the compliant impulse barely moves over two decades of E while the contact
// time and depth shrink, so PLUS stays 1.3 % away however stiff the contact.
TEST(CompliantExamples, Example2CompliantImpulseIndependentOfStiffness) {
  const CompliantScene soft = example2_compliant(example2_orientation(), 1e9);
  const CompliantScene stiff = example2_compliant(example2_orientation(), 1e11);
  const CompliantImpactResult rs = run_compliant_impact(soft, rkm(1e-5));
  const CompliantImpactResult rh = run_compliant_impact(stiff, rkm(1e-5));
  ASSERT_TRUE(rs.separated && rh.separated);
  EXPECT_GT(rs.duration, 5 * rh.duration);
  const Vec3 Js = brick_impulse(soft.world, soft.state, rs.state_after);
  const Vec3 Jh = brick_impulse(stiff.world, stiff.state, rh.state_after);
  EXPECT_LT((Js - Jh).norm(), 1e-3 * Jh.norm()) << Js.transpose() << " / " << Jh.transpose();
}

// The compliant cradle (reference values in docs/compliant.md).
TEST(CompliantExamples, CradleFinalVelocities) {
  CompliantImpactOptions o = rkm(1e-5);
  o.stop_at_separation = false;
  o.max_duration = 2e-3;
  const CompliantScene scene = example3_compliant();
  const CompliantImpactResult r = run_compliant_impact(scene, o);
  const Real expected[] = {0.1422, 0.0605, 0.0289, -0.2541, -1.9776};
  Real momentum = 0.0;
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(body_velocity(r.state_after, i).x(), expected[i], 1e-3) << i;
    momentum += body_velocity(r.state_after, i).x();
  }
  EXPECT_NEAR(momentum, -2.0, 1e-9);
  EXPECT_NEAR(kinetic_energy(scene.world.bodies, r.state_after), 2.0, 1e-4);
  EXPECT_NEAR(r.last_contact_time, 1.10e-3, 0.05e-3);
  EXPECT_NEAR(r.quadratures(0) + r.quadratures(1), 0.0, 1e-12);  // c = 0, μ = 0
}

CompliantScene one_ball(Real c, const Vec3& position, const Vec3& velocity) {
  CompliantScene s;
  // with slip: friction dissipates too
  add_sphere_body(s.world, s.state, 2.0, Mat3::Identity() * 0.02, {Sphere{0.1, Vec3::Zero()}},
                  position, Quat::Identity(), velocity, Vec3(1.0, 0, 0));
  add_half_space(s.world, s.state, HalfSpace{});
  CompliantMaterial m;
  m.stiffness = 1e8;
  m.dissipation = c;
  m.static_friction = m.dynamic_friction = 0.3;
  s.sphere_materials = {m};
  s.half_space_materials = {m};
  return s;
}

// Energy balances (docs/compliant.md "Energy bookkeeping"): a dropped sphere (a Hunt–Crossley
// contact entered at x = 0 never clamps: the rebound speed stays below 1/(1.5c), and the damping
// keeps a free sphere below it), and a penetrated sphere pulled out by an upward body force faster
// than 1/(1.5c) before x = 0, which clamps and abandons the elastic energy left.
TEST(CompliantEnergy, BalancesWithAndWithoutClamping) {
  for (int clamp = 0; clamp < 2; ++clamp) {
    CompliantScene s = clamp ? one_ball(5.0, Vec3(0, 0, 0.1 - 1e-3), Vec3(0.5, 0.2, 0.0))
                             : one_ball(0.2, Vec3(0, 0, 0.1), Vec3(0.5, 0.2, -8.0));
    if (clamp) s.world.gravity = Vec3(0, 0, 30.0);
    const Real pe0 = contact_potential_energy(s, s.state);
    IntegratorOptions o;
    o.accuracy = 1e-7;
    // W starts at the stored elastic energy, so L = W − PE − D starts at 0
    Integrator in = make_integrator(compliant_system(s), o, 0.0,
                                    compliant_state(s.world, s.state, Vec3(0, 0, pe0)));
    State w = s.state;
    const Real e0 = mechanical_energy(s.world, w) + pe0;
    const Real scale = std::abs(e0) + pe0;  // J, for relative tolerances
    Real worst_total = 0.0, worst_l = 0.0;
    bool touched = false;
    int clamped_steps = 0;
    while (in.time < 0.1) {
      take_step(in, 0.1);
      set_compliant_state(s.world, w, in.state);
      const Vec3 z = in.state.tail<3>();
      worst_total = std::max(worst_total, std::abs(mechanical_energy(s.world, w) + z(2) - e0));
      worst_l = std::min(worst_l, z(2) - contact_potential_energy(s, w) - z(0) - z(1));
      for (const CompliantContact& k : compliant_contacts(s, w)) clamped_steps += k.force.clamped;
      const Real depth = max_penetration(s.world, w);
      if (depth > 0.0) touched = true;
      if (touched && depth <= 0.0) break;
    }
    ASSERT_LE(max_penetration(s.world, w), 0.0);
    EXPECT_LT(worst_total, 1e-6 * scale) << clamp;  // KE + V_grav + W constant
    EXPECT_GT(worst_l, -1e-6 * scale) << clamp;     // L ≥ 0
    const Vec3 z = in.state.tail<3>();
    const Real D = z(0) + z(1), L = z(2) - D;
    const Real lost = e0 - mechanical_energy(s.world, w);  // PE = 0 after separation
    EXPECT_NEAR(lost, D + L, 1e-6 * scale) << clamp;
    if (!clamp) {
      EXPECT_GT(z(1), 0.0);
      EXPECT_GT(z(0), 0.0);
      EXPECT_EQ(clamped_steps, 0);
      EXPECT_LT(std::abs(L), 1e-6 * scale);  // nothing abandoned
    } else {
      EXPECT_GT(clamped_steps, 0);
      EXPECT_GT(pe0, 0.1);
      EXPECT_GT(L, 1e-3 * pe0);  // part of the stored energy was abandoned at the clamp
      EXPECT_LT(L, pe0);
    }
  }
}

// The triple pendulum of Example 4 (reduced coordinates).
TEST(PinChain, TriplePendulumConservesEnergyToIntegratorAccuracy) {
  const PinChain chain = example4_chain(1e10);
  const VecX theta0 = example4_initial_angles();
  const Real e0 = chain_potential_energy(chain, theta0);
  Real drift[2];
  const Real accuracies[] = {1e-5, 1e-8};
  for (int k = 0; k < 2; ++k) {
    IntegratorOptions o;
    o.accuracy = accuracies[k];
    Integrator in = make_integrator(pin_chain_system(chain, false), o, 0.0,
                                    (VecX(9) << theta0, VecX::Zero(6)).finished());
    while (in.time < 0.5) take_step(in, 0.5);
    const VecX th = in.state.head(3), rt = in.state.segment(3, 3);
    drift[k] =
        std::abs(chain_kinetic_energy(chain, th, rt) + chain_potential_energy(chain, th) - e0);
    EXPECT_GT(chain_kinetic_energy(chain, th, rt), 10.0);  // it really moved
  }
  EXPECT_LT(drift[0], 1e-3 * std::abs(e0));
  EXPECT_LT(drift[1], 1e-6 * std::abs(e0));
  EXPECT_LT(drift[1], 1e-2 * drift[0]);  // shrinks with the accuracy
}

TEST(PinChain, MassMatrixMatchesKineticEnergyOfThePoints) {
  const PinChain chain = example4_chain(1e10);
  const VecX th = Eigen::Vector3d(0.3, -0.7, 1.1), rt = Eigen::Vector3d(0.5, -1.5, 2.0);
  // brute force: finite-difference velocities of every mass point
  Real ke = 0.0;
  const Real h = 1e-7;
  for (const ChainBody& b : chain.bodies) {
    const Vec2 v = (chain_point(chain, th + h * rt, b.link, b.along, b.across) -
                    chain_point(chain, th - h * rt, b.link, b.along, b.across)) /
                   (2 * h);
    const Real phidot = rt.head(b.link + 1).sum();
    ke += 0.5 * b.mass * v.squaredNorm() + 0.5 * b.inertia * phidot * phidot;
  }
  EXPECT_NEAR(chain_kinetic_energy(chain, th, rt), ke, 1e-6 * ke);
}

// Example 4 (docs/compliant.md "The examples"): first touch, PLUS with the pins as bilateral rows.
TEST(PinChain, Example4TouchAndPlusWithBilateralRows) {
  const PinChain chain = example4_chain(1e10);
  const VecX theta0 = example4_initial_angles();
  const Vec2 c0 = chain_point(chain, theta0, 2, 1.0, 0.0);
  EXPECT_NEAR(c0.x(), 0.2071, 1e-4);
  EXPECT_NEAR(c0.y(), 1.4269, 1e-4);
  const ChainState touch = example4_first_touch(chain, theta0, 1e-10);
  EXPECT_NEAR(touch.time, 0.501278, 2e-6);
  const Eigen::Vector3d abs_angles(touch.theta(0), touch.theta.head(2).sum(), touch.theta.sum());
  const Eigen::Vector3d abs_rates(touch.rate(0), touch.rate.head(2).sum(), touch.rate.sum());
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(
        std::remainder(abs_angles(i) - Eigen::Vector3d(-0.223675, 1.632646, 5.703658)(i), 2 * M_PI),
        0.0, 1e-5)
        << i;
    EXPECT_NEAR(abs_rates(i), Eigen::Vector3d(-1.057849, -5.201823, 0.607793)(i), 1e-5) << i;
  }
  ImpactOptions o;
  const ChainImpactOutcome reduced =
      resolve_chain_impact(chain, touch.theta, touch.rate, o, ChainImpactForm::kJointCoordinates);
  const ChainImpactOutcome maximal =
      resolve_chain_impact(chain, touch.theta, touch.rate, o, ChainImpactForm::kBilateralRows);
  const Vec2 bottom = chain_point(chain, touch.theta, 2, 1.0, 0.0) - Vec2(0.0, 0.25);
  const Vec2 v_touch = chain_point_jacobian(chain, touch.theta, 2, bottom) * touch.rate;
  EXPECT_NEAR(v_touch.x(), -0.0495, 1e-4);
  EXPECT_NEAR(v_touch.y(), -5.2901, 1e-4);
  EXPECT_NEAR(reduced.result.velocity(0), -2.6920, 1e-3);
  EXPECT_NEAR(reduced.result.velocity(2), 5.2901, 1e-3);
  EXPECT_NEAR(reduced.result.impulse(0), 2.2652, 1e-3);
  EXPECT_NEAR(reduced.result.impulse(2), 22.6523, 1e-3);
  // one sliding interval per phase: compression round, then expansion round
  ASSERT_EQ(reduced.result.rounds, 2);
  for (const RoundLog& round : reduced.result.log) {
    ASSERT_EQ(round.intervals.size(), 1u);
    EXPECT_NE(round.intervals[0].friction[0], FrictionState::kRolling);  // never sticks
    const VecX& pi = round.intervals[0].impulse;
    EXPECT_NEAR(std::hypot(pi(0), pi(1)), 0.1 * pi(2), 1e-9 * pi(2));  // on the cone
  }
  EXPECT_NEAR(chain_kinetic_energy(chain, touch.theta, touch.rate), 31.7791, 1e-3);
  EXPECT_NEAR(chain_kinetic_energy(chain, touch.theta, reduced.rates_after), 28.6740, 1e-3);
  // the bilateral-row form agrees and the pins hold
  EXPECT_EQ(maximal.result.impulse.size(), 3 + 6);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(maximal.result.impulse(i), reduced.result.impulse(i), 1e-8) << i;
  EXPECT_TRUE(maximal.rates_after.isApprox(reduced.rates_after, 1e-8));
  EXPECT_LT(maximal.joint_velocity_residual, 1e-9);
  EXPECT_GT(maximal.result.impulse.tail(6).norm(), 1.0);  // the pins did carry impulse
}

}  // namespace
}  // namespace exactsim

namespace exactsim {
namespace {

TEST(CompliantInput, BadScenesAndChainsNameTheField) {
  CompliantScene s = example3_compliant();
  s.sphere_materials.pop_back();
  EXPECT_NE(ErrorOf([&] { compliant_system(s); }).find("sphere_materials"), std::string::npos);
  s = example3_compliant();
  s.sphere_materials[2].dissipation = -1.0;
  EXPECT_NE(ErrorOf([&] { compliant_system(s); }).find("sphere_materials[2].dissipation"),
            std::string::npos);
  PinChain c = example4_chain(1e9);
  c.bodies[1].link = 7;
  EXPECT_NE(ErrorOf([&] { pin_chain_system(c); }).find("bodies[1].link"), std::string::npos);
  c = example4_chain(1e9);
  c.lengths[0] = 0.0;
  EXPECT_NE(ErrorOf([&] { pin_chain_system(c); }).find("lengths[0]"), std::string::npos);
  c = example4_chain(1e9);
  EXPECT_NE(ErrorOf([&] {
              resolve_chain_impact(c, example4_initial_angles(), VecX::Zero(3), ImpactOptions{},
                                   ChainImpactForm::kBilateralRows);
            }).find("no sphere"),
            std::string::npos);
}

}  // namespace
}  // namespace exactsim
