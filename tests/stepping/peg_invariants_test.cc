// docs/peg.md "Invariants" for the 2D PEG model through the whole step: frame invariance,
// momentum balance, equivalence with the standard model under friction, friction on I
// constraints, and the deep-penetration case of "Tricky cases" item 10.
#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/math/rotation.h"
#include "stepping/planar_sim.h"

namespace exactsim {
namespace {

using planar_test::box;
using planar_test::Sim;

std::vector<Vec2> transformed(const std::vector<Vec2>& points, const Mat2& r, const Vec2& t) {
  std::vector<Vec2> out;
  for (const Vec2& p : points) out.push_back(r * p + t);
  return out;
}

// docs/peg.md "Tricky cases" item 7 scene (a box dropped onto a wall's rim corner) in the frame (R,
// t).
Sim rim_drop(const Mat2& r, const Vec2& t, Real friction) {
  Sim s;
  s.world.contact.model = ContactModel::kPeg;
  s.world.contact.friction = friction;
  s.world.gravity.head<2>() = r * Vec2(0, -9.81);
  s.add(transformed(box(-0.1, -1, 0.1, 0), r, t), true);
  s.add(transformed(box(0.02, 0.01, 0.22, 0.21), r, t), false);
  return s;
}

// Rotating and translating the whole scene, gravity included, moves the motion rigidly with it.
TEST(PegInvariants, FrameInvarianceOfTheRimDrop) {
  const Real phi = 0.7;
  const Mat2 r = rotation2(phi);
  const Vec2 t(3.0, -2.0);
  Sim a = rim_drop(Mat2::Identity(), Vec2::Zero(), 0.0);
  Sim b = rim_drop(r, t, 0.0);
  int with_intercontacts = 0;
  for (int k = 0; k < 200; ++k) {
    const StepReport ra = a.step(0.005), rb = b.step(0.005);
    ASSERT_EQ(ra.status, StepStatus::kOk);
    ASSERT_EQ(rb.status, StepStatus::kOk);
    ASSERT_EQ(ra.unilateral, rb.unilateral) << "step " << k;
    ASSERT_EQ(ra.intercontact, rb.intercontact) << "step " << k;
    with_intercontacts += ra.intercontact > 0;
    const Vec3 qa = a.q(1), qb = b.q(1), va = a.v(1), vb = b.v(1);
    ASSERT_LE((r * qa.head<2>() + t - qb.head<2>()).norm(), 1e-9) << "step " << k;
    ASSERT_NEAR(qa.z(), qb.z(), 1e-9) << "step " << k;
    ASSERT_LE((r * va.head<2>() - vb.head<2>()).norm(), 1e-8) << "step " << k;
    ASSERT_NEAR(va.z(), vb.z(), 1e-8) << "step " << k;
  }
  EXPECT_GT(with_intercontacts, 0) << "the scene never reached a vertex–vertex configuration";
}

// Two free diamonds meeting vertex to vertex without gravity: PEG's I and X constraints (and
// their friction cones) act between the two bodies only, so linear momentum is conserved
// (docs/peg.md "Invariants"), and so is angular momentum without friction. A friction impulse f_t
// acts at p_a on A and at p_b = p_a + ψ n̂ on B (docs/collision.md), so it changes angular momentum
// by exactly ψ n̂ × f_t.
TEST(PegInvariants, VertexOnVertexCollisionConservesMomentum) {
  for (Real friction : {0.0, 0.5}) {
    Sim s;
    s.world.contact.model = ContactModel::kPeg;
    s.world.contact.friction = friction;
    // Velocity-level ψ/h: the split stabilisation's position step moves bodies without their
    // velocities and so changes angular momentum by Σ Δx × m v (docs/robustness.md).
    s.world.contact.stabilisation = Stabilisation::kVelocity;
    s.world.gravity.setZero();
    const std::vector<Vec2> diamond = {{0, -0.3}, {0.3, 0}, {0, 0.3}, {-0.3, 0}};
    s.add(transformed(diamond, Mat2::Identity(), Vec2(-0.31, 0.0)), false, Vec2(1.0, 0.02));
    s.add(transformed(diamond, Mat2::Identity(), Vec2(0.31, 0.002)), false, Vec2(-0.5, 0));
    auto momentum = [&](Vec2& linear, Real& angular) {
      linear.setZero();
      angular = 0;
      for (int i = 0; i < 2; ++i) {
        const Body& b = s.world.bodies[i];
        const Vec3 q = s.q(i), v = s.v(i);
        linear += b.mass * v.head<2>();
        angular += b.mass * cross2(q.head<2>(), v.head<2>()) + b.planar_inertia * v.z();
      }
    };
    Vec2 p0;
    Real l0 = 0;
    momentum(p0, l0);
    int with_intercontacts = 0, cones_on_intercontacts = 0;
    std::vector<Vec3> directions;
    for (int k = 0; k < 100; ++k) {
      const StepReport r = s.step(0.005);
      ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k;
      with_intercontacts += r.intercontact > 0;
      const MlcpLayout& layout = s.ws.layout;  // one island: the two diamonds
      Real couple = 0;
      if (r.solver_called) {
        ASSERT_EQ(r.islands, 1);
        for (int f = 0; f < layout.n_friction_contacts; ++f) {
          cones_on_intercontacts += layout.friction_impulse[f] >= layout.n_unilateral;
          const Contact& c = s.ws.island.contacts[layout.friction_contact[f]];
          friction_directions(c.normal, Vec3::Zero(), 2, 2, directions);
          for (int d = 0; d < 2; ++d)
            couple += c.gap * s.ws.solution.z[layout.beta_begin() + 2 * f + d] *
                      cross2(c.normal.head<2>(), directions[d].head<2>());
        }
      }
      Vec2 p;
      Real l = 0;
      momentum(p, l);
      ASSERT_LE((p - p0).norm(), 1e-12 * (1 + p0.norm())) << "step " << k << ", μ " << friction;
      ASSERT_NEAR(l - l0, couple, 1e-12 * (1 + std::abs(l0))) << "step " << k << ", μ " << friction;
      l0 = l;
    }
    EXPECT_GT(with_intercontacts, 0) << "the diamonds never met vertex to vertex";
    EXPECT_EQ(cones_on_intercontacts > 0, friction > 0);
    EXPECT_LT(s.v(0).x(), 1.0) << "no collision happened";
  }
}

// Where PEG yields only U constraints, friction included, it is the standard model bit for bit
// (docs/peg.md "Constraint types"): a box sliding to rest on a long floor.
TEST(PegInvariants, FrictionalSlideIsTheStandardModelBitwise) {
  auto make = [](ContactModel model) {
    Sim s;
    s.world.contact.model = model;
    s.world.contact.friction = 0.3;
    s.add(box(-5, -1, 5, 0), true);
    s.add(box(0, 0, 0.4, 0.2), false, Vec2(1.0, 0));
    return s;
  };
  Sim peg = make(ContactModel::kPeg), standard = make(ContactModel::kStandard);
  for (int k = 0; k < 100; ++k) {
    const StepReport rp = peg.step(0.005), rs = standard.step(0.005);
    ASSERT_EQ(rp.status, StepStatus::kOk);
    ASSERT_EQ(rs.status, StepStatus::kOk);
    ASSERT_EQ(rp.intercontact, 0);
    ASSERT_FALSE(rp.peg_changed) << "step " << k;
    ASSERT_EQ(peg.state.q, standard.state.q) << "step " << k;
    ASSERT_EQ(peg.state.v, standard.state.v) << "step " << k;
  }
  // v₀²/(2μg) = 0.17 m; at rest after t = v₀/(μg) = 0.34 s < 0.5 s.
  EXPECT_NEAR(peg.q(1).x() - 0.2, 1.0 / (2 * 0.3 * 9.81), 0.01);
  EXPECT_LT(peg.v(1).norm(), 1e-9);
}

// With μ = 0.8 the box pivots on the rim corner instead of sliding off it, yet still falls off
// the outside without overlap.
TEST(PegInvariants, BoxWithFrictionTipsOffTheRim) {
  Sim s = rim_drop(Mat2::Identity(), Vec2::Zero(), 0.8);
  Real worst = 0;
  for (int k = 0; k < 200; ++k) {
    const StepReport r = s.step(0.005);
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k;
    worst = std::max(worst, r.overlap);
  }
  EXPECT_LE(worst, 1e-8);
  EXPECT_LT(s.q(1).y(), -0.5);  // fell past the rim
  EXPECT_GT(s.q(1).x(), 0.1);   // on the outside
}

// docs/peg.md "Tricky cases" item 10: a vertex deeper than ε is detected against its exit edge
// only, so a body put deep inside another is constrained and pushed out by the split projection
// (the default); a shallow one is pushed out at −ψ/h with the velocity stabilisation, or at most
// at its cap.
TEST(PegInvariants, DeepPenetrationIsPushedOutAndTheStabilisationCanBeCapped) {
  for (ContactModel model : {ContactModel::kPeg, ContactModel::kStandard}) {
    Sim deep;
    deep.world.contact.model = model;
    deep.add(box(-5, -1, 5, 0), true);
    deep.add(box(0, -0.05, 0.4, 0.15), false);  // 5 cm deep; ε = 2.5 mm at h = 0.005
    const StepReport r = deep.step(0.005);
    EXPECT_TRUE(r.solver_called);
    EXPECT_EQ(r.unilateral, 2);  // the two bottom corners against the floor's top edge
    EXPECT_LE(r.overlap, 1e-12);
    EXPECT_NEAR(deep.q(1).y(), 0.1, 1e-9);  // its centre 0.1 above the floor: resting on it

    for (Real cap : {std::numeric_limits<Real>::infinity(), 0.1}) {
      Sim shallow;
      shallow.world.contact.model = model;
      shallow.world.contact.stabilisation = Stabilisation::kVelocity;  // the paper's ψ/h
      shallow.world.contact.max_stabilisation_speed = cap;
      shallow.add(box(-5, -1, 5, 0), true);
      shallow.add(box(0, -0.002, 0.4, 0.198), false);  // 2 mm deep: detected, ψ/h = −0.4 m/s
      ASSERT_EQ(shallow.step(0.005).status, StepStatus::kOk);
      EXPECT_NEAR(shallow.v(1).y(), std::min(0.4, cap), 1e-9) << "cap " << cap;
    }
  }
}

}  // namespace
}  // namespace exactsim
