// Coordinate-frame invariance (paper §2a): turning every contact's tangent frame about its
// normal turns the tangential impulses and velocities and changes nothing else. And refining
// θ_max converges the total impulse (paper §2d, Fig. 10).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "exactsim/impact/plus.h"

namespace exactsim {
namespace {

// One body, contact points with normal +z: rows (x, y, z) per point.
ImpactProblem brick_corner_problem(Real mu, Real theta_max) {
  ImpactProblem p;
  const Vec3 r(0.31, -0.27, -0.45);  // contact point relative to the centre of mass
  MatX G = MatX::Zero(3, 6);
  for (int d = 0; d < 3; ++d) {
    G.block<1, 3>(d, 0) = Vec3::Unit(d).transpose();
    G.block<1, 3>(d, 3) = r.cross(Vec3::Unit(d)).transpose();
  }
  VecX minv(6);
  minv << 0.5, 0.5, 0.5, 1 / 0.167, 1 / 0.133, 1 / 0.0867;
  p.delassus = G * minv.asDiagonal() * G.transpose();
  p.velocity = Vec3(-5.0, 0.0, -5.74);
  p.contacts.push_back({mu, RestitutionLaw{0.39, 0.01, 0.1}});
  p.options.theta_max = theta_max;
  return p;
}

MatX tangent_rotation(int contacts, const std::vector<Real>& angles) {
  MatX T = MatX::Identity(3 * contacts, 3 * contacts);
  for (int k = 0; k < contacts; ++k) {
    const Real c = std::cos(angles[k]), s = std::sin(angles[k]);
    T.block<2, 2>(3 * k, 3 * k) << c, -s, s, c;
  }
  return T;
}

TEST(FrameInvariance, RotatingTangentFramesRotatesOnlyTangentialImpulses) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> angle(-M_PI, M_PI);
  for (Real mu : {0.125, 0.225, 0.325}) {
    const ImpactProblem p = brick_corner_problem(mu, 0.05);
    const ImpactResult r = solve_plus(p);
    for (int trial = 0; trial < 5; ++trial) {
      const MatX T = tangent_rotation(1, {angle(rng)});
      ImpactProblem q = p;
      q.delassus = T * p.delassus * T.transpose();
      q.velocity = T * p.velocity;
      const ImpactResult rq = solve_plus(q);
      EXPECT_LT((rq.impulse - T * r.impulse).norm(), 1e-10 * r.impulse.norm());
      EXPECT_LT((rq.velocity - T * r.velocity).norm(), 1e-10 * r.velocity.norm());
      EXPECT_EQ(rq.intervals, r.intervals);
      EXPECT_EQ(rq.rounds, r.rounds);
      EXPECT_EQ(rq.contacts[0].transition, r.contacts[0].transition);
      EXPECT_NEAR(rq.kinetic_energy_change, r.kinetic_energy_change,
                  1e-10 * std::abs(r.kinetic_energy_change));
    }
  }
}

TEST(FrameInvariance, IndependentFramesPerContact) {
  // Four corners of a plate sliding and spinning, every contact frame turned differently.
  ImpactProblem p;
  const Vec3 corners[4] = {
      {-0.5, -0.4, -0.1}, {0.5, -0.4, -0.1}, {-0.5, 0.4, -0.1}, {0.5, 0.4, -0.1}};
  MatX G = MatX::Zero(12, 6);
  for (int k = 0; k < 4; ++k) {
    for (int d = 0; d < 3; ++d) {
      G.block<1, 3>(3 * k + d, 0) = Vec3::Unit(d).transpose();
      G.block<1, 3>(3 * k + d, 3) = corners[k].cross(Vec3::Unit(d)).transpose();
    }
    p.contacts.push_back({0.3, RestitutionLaw::constant(0.6)});
  }
  VecX minv(6);
  minv << 1, 1, 1, 3, 2, 1.5;
  p.delassus = G * minv.asDiagonal() * G.transpose();
  Vec6 u;
  u << -1.0, 0.5, -3.0, 0.3, -0.2, 2.0;
  p.velocity = G * u;
  p.options.theta_max = 0.1;
  const ImpactResult r = solve_plus(p);
  const MatX T = tangent_rotation(4, {0.3, -2.0, 1.1, 2.9});
  ImpactProblem q = p;
  q.delassus = T * p.delassus * T.transpose();
  q.velocity = T * p.velocity;
  const ImpactResult rq = solve_plus(q);
  EXPECT_LT((rq.impulse - T * r.impulse).norm(), 1e-9 * r.impulse.norm());
  EXPECT_EQ(rq.intervals, r.intervals);
}

TEST(ThetaMaxRefinement, TotalImpulseConverges) {
  // μ = 0.125: the contact slides throughout while its direction turns (Example-1-like corner).
  Real previous_change = INFINITY;
  VecX previous = solve_plus(brick_corner_problem(0.125, 0.4)).impulse;
  int intervals = 0;
  for (Real theta : {0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625}) {
    const ImpactResult r = solve_plus(brick_corner_problem(0.125, theta));
    const Real change = (r.impulse - previous).norm();
    EXPECT_LT(change, 0.75 * previous_change) << "theta " << theta;
    EXPECT_GT(r.intervals, intervals);
    previous_change = change;
    previous = r.impulse;
    intervals = r.intervals;
  }
  EXPECT_LT(previous_change, 1e-2 * previous.norm());
}

}  // namespace
}  // namespace exactsim
