// The PLUS paper's published behaviour (docs/plus.md): Example 1 (one brick vertex, Table A1,
// Figs. 8–10), Example 2 (four vertices at once, Fig. 12) and Example 3 (Newton's cradle,
// Table 2, Fig. 14).
#include "experiments/plus_examples.h"

#include <gtest/gtest.h>

#include "exactsim/events/sphere_contacts.h"
#include "exactsim/impact/plus.h"

namespace exactsim {
namespace {

TEST(PlusExample1, OneVertexTouchesWithTheTableA1Velocity) {
  const ImpactProblem p = example1_problem(0.225, 0.01);
  ASSERT_EQ(p.contacts.size(), 1u);  // a single proximal vertex sphere
  EXPECT_LT((p.velocity - Vec3(-5.0, 0.0, -5.74)).norm(), 1e-12);  // no spin: point = brick
}

TEST(PlusExample1, SlidingTurnsToRollingWhereThePaperSays) {
  // μ = 0.125 slides throughout; 0.225 turns to rolling during expansion; 0.325 during
  // compression (paper Figs. 8–9).
  EXPECT_EQ(solve_plus(example1_problem(0.125, 0.01)).contacts[0].transition, Transition::kNone);
  EXPECT_EQ(solve_plus(example1_problem(0.225, 0.01)).contacts[0].transition,
            Transition::kExpansion);
  EXPECT_EQ(solve_plus(example1_problem(0.325, 0.01)).contacts[0].transition,
            Transition::kCompression);
}

TEST(PlusExample1, Figure10IntervalCounts) {
  // 116, 11 and 8 intervals at θ_max = 0.01, 0.15, 0.25 rad for μ = 0.325. The default step
  // rule (α_CP when the interval would end inside the rolling disc, docs/plus.md) reproduces them.
  EXPECT_EQ(solve_plus(example1_problem(0.325, 0.01)).intervals, 116);
  EXPECT_EQ(solve_plus(example1_problem(0.325, 0.15)).intervals, 11);
  EXPECT_EQ(solve_plus(example1_problem(0.325, 0.25)).intervals, 8);
}

TEST(PlusExample1, RollingEndsWithZeroSlipAndPoissonRebound) {
  for (Real mu : {0.225, 0.325}) {
    const ImpactProblem p = example1_problem(mu, 0.01);
    const ImpactResult r = solve_plus(p);
    EXPECT_EQ(r.rounds, 2);                         // compression, expansion
    EXPECT_LT(r.velocity.head<2>().norm(), 1e-12);  // rolling at the end
    const Real e = example1_min_cor(mu);
    EXPECT_NEAR(r.impulse(2), (1 + e) * r.contacts[0].compression_impulse(2), 1e-12 * r.impulse(2));
    EXPECT_LT(r.kinetic_energy_change, 0.0);
  }
}

TEST(PlusExample1, VerticalDropImpendingSlipOpposesTheEndSlip) {
  // docs/plus.md "What the examples show": dropped vertically with μ = 0.125 the rolling solution
  // leaves the cone, the contact goes impending, and the paper-faithful compression has friction
  // opposing the end slip on the cone: |f_T| = μ f_N, f_N = 11.038, |v_T,end| = 0.6084 (Simbody,
  // which flips the direction, gives 1.142 μ f_N and zero end slip instead).
  ImpactProblem p = example1_problem(0.125, 0.01);
  p.velocity = p.velocity.cwiseProduct(Vec3(0, 0, 1));  // only the vertical −5.74 m/s
  const ImpactResult r = solve_plus(p);
  ASSERT_GE(r.log.size(), 1u);
  const RoundLog& compression = r.log[0];
  ASSERT_EQ(compression.intervals.size(), 1u);
  EXPECT_EQ(compression.intervals[0].friction[0], FrictionState::kImpending);
  const Vec3 f = compression.impulse.head<3>();
  EXPECT_NEAR(f(2), 11.038, 1e-3);
  EXPECT_NEAR(f.head<2>().norm(), 0.125 * f(2), 1e-9);
  const Vec2 slip = p.velocity.head<2>() + (p.delassus * compression.impulse).head<2>();
  EXPECT_NEAR(slip.norm(), std::hypot(0.593, 0.136), 1e-3);
  EXPECT_NEAR(slip.normalized().dot(f.head<2>().normalized()), -1.0, 1e-9);
}

TEST(PlusExample2, FourVerticesImpactTogetherAndKeepTheMirrorSymmetry) {
  const ImpactProblem p = example2_problem();
  ASSERT_EQ(p.contacts.size(), 4u);
  const ImpactResult r = solve_plus(p);
  // Vertices 0/2 and 1/3 are mirror images in y (sphere index bit 1 is the y sign).
  const Real tol = 1e-12 * r.impulse.norm();
  for (auto [a, b] : {std::pair{0, 2}, std::pair{1, 3}}) {
    EXPECT_NEAR(r.impulse(3 * a), r.impulse(3 * b), tol);
    EXPECT_NEAR(r.impulse(3 * a + 1), -r.impulse(3 * b + 1), tol);
    EXPECT_NEAR(r.impulse(3 * a + 2), r.impulse(3 * b + 2), tol);
  }
  // All four slide at first and turn to rolling in the common expansion phase (Fig. 11 caption).
  for (int k = 0; k < 4; ++k) EXPECT_EQ(r.contacts[k].transition, Transition::kExpansion);
  EXPECT_EQ(r.log[0].intervals[0].friction, std::vector<FrictionState>(4, FrictionState::kSliding));
  // Friction's moment loads the trailing (−x) pair more than the leading pair (Fig. 13 caption).
  EXPECT_GT(r.impulse(2), 2.0 * r.impulse(5));
}

std::vector<Real> cradle_velocities(const ImpactResult& r) {
  EventSimulation w = example3_simulation(0.0);
  apply_contact_impulse(w.world, w.state, find_contacts(w.world, w.state, 1e-9), r.impulse);
  std::vector<Real> v;
  for (int b = 0; b < w.world.body_count(); ++b) v.push_back(body_velocity(w.state, b).x());
  return v;
}

TEST(PlusExample3, NewtonsCradleRoundsFollowTable2) {
  const ImpactResult r = solve_plus(example3_problem(InducedImpacts::kRounds));
  ASSERT_EQ(r.rounds, 5);
  using P = ContactPhase;
  const P C = P::kCompressing, E = P::kExpanding, O = P::kObserving;
  const std::vector<std::vector<P>> table2 = {
      {C, O, O, O}, {E, C, O, O}, {O, E, C, O}, {O, O, E, C}, {O, O, O, E}};
  for (int round = 0; round < 5; ++round) EXPECT_EQ(r.log[round].phase, table2[round]) << round;
  const std::vector<Real> v = cradle_velocities(r);
  const std::vector<Real> expected = {0, 0, 0, 0, -2};
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(v[i], expected[i], 1e-12) << "ball " << i + 1;
  EXPECT_NEAR(r.kinetic_energy_change, 0.0, 1e-12);
}

TEST(PlusExample3, SimultaneousModelMovesTheRowAsOneBody) {
  // Fig. 14 row C: the four touching balls act as one body of mass 4.
  const ImpactResult r = solve_plus(example3_problem(InducedImpacts::kSimultaneous));
  const std::vector<Real> v = cradle_velocities(r);
  EXPECT_NEAR(v[0], 1.2, 1e-12);
  for (int i = 1; i < 5; ++i) EXPECT_NEAR(v[i], -0.8, 1e-12);
  EXPECT_NEAR(r.kinetic_energy_change, 0.0, 1e-12);
}

TEST(PlusExample3, MixedModelEndsInOneInelasticRound) {
  // Simbody's Mixed model: r rounds as Table 2, then one round in which the pending expansion is
  // applied and every other contact compresses with COR 0. After round r balls 1 … r−1 are at
  // rest and balls r, r+1 move at −1 m/s with contact r's expansion (1 N s) pending; the last
  // round stops ball r and sends balls r+1 … 5 off together with the momentum −2 kg m/s:
  // −2/(5 − r) each. From r = 4 on it is the sequential answer (0, 0, 0, 0, −2).
  for (int r = 1; r <= 5; ++r) {
    ImpactProblem p = example3_problem(InducedImpacts::kMixed);
    p.options.mixed_rounds = r;
    const ImpactResult result = solve_plus(p);
    ASSERT_TRUE(result.converged) << result.stop_reason;
    EXPECT_EQ(result.model, "plus-mixed");
    EXPECT_EQ(result.rounds, std::min(r + 1, 5)) << "r = " << r;
    const std::vector<Real> v = cradle_velocities(result);
    Real kinetic = 0;
    for (int i = 0; i < 5; ++i) {
      const int resting = std::min(r, 4);
      const Real expected = i < resting ? 0.0 : -2.0 / (5 - resting);
      EXPECT_NEAR(v[i], expected, 1e-12) << "r = " << r << ", ball " << i + 1;
      kinetic += 0.5 * v[i] * v[i];
    }
    EXPECT_NEAR(result.kinetic_energy_change, kinetic - 2.0, 1e-12) << "r = " << r;
  }
}

}  // namespace
}  // namespace exactsim
