// The compliant contact law (docs/compliant.md "The model").
#include "exactsim/compliant/hertz_hunt_crossley.h"

#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/compliant/rigid_compliant.h"
#include "input_error.h"

namespace exactsim {
namespace {

CompliantMaterial material(Real k, Real c, Real mu = 0.0) {
  CompliantMaterial m;
  m.stiffness = k;
  m.dissipation = c;
  m.static_friction = m.dynamic_friction = mu;
  return m;
}

// Closed form: F·n = (4/3) E_eff √R x^{3/2} (1 + 1.5 c ẋ), or nothing when that is ≤ 0.
TEST(HertzHuntCrossley, ClosedFormOverDepthRateAndDissipation) {
  const Real r = 0.1, k = 1e10;
  const Real eeff = k / std::pow(2.0, 1.5);
  int checked = 0, clamped = 0;
  for (Real x : {1e-7, 1e-6, 1e-5, 1e-4, 1e-3}) {
    for (Real xdot : {-5.0, -2.5, -1.0, 0.0, 1.0, 5.0}) {
      for (Real c : {0.0, 0.15, 0.26}) {
        const CombinedMaterial m =
            combine_compliant_materials(material(k, c, 0.3), material(k, c, 0.3));
        const HertzGeometry g =
            sphere_plane_geometry(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, r - x), r);
        // some slip too: friction must vanish with the normal force when clamped
        const CompliantContactForce f = hunt_crossley_force(g, m, 0.01, Vec3(0.3, 0, -xdot));
        const Real xg = g.depth;  // x itself, as the geometry rounds it (tested separately)
        EXPECT_NEAR(xg, x, 1e-16);
        const Real expected =
            (4.0 / 3.0) * eeff * std::sqrt(r) * std::pow(xg, 1.5) * (1.0 + 1.5 * c * xdot);
        if (expected <= 0.0) {
          EXPECT_FALSE(f.active);
          EXPECT_EQ(f.force, Vec3::Zero());
          EXPECT_EQ(f.potential_energy, 0.0);
          EXPECT_EQ(f.hunt_crossley_power + f.friction_power, 0.0);
          ++clamped;
        } else {
          EXPECT_NEAR(f.force.z(), expected, 1e-13 * expected) << x << " " << xdot << " " << c;
          EXPECT_NEAR(f.normal_force, expected, 1e-13 * expected);
          EXPECT_LT(f.force.x(), 0.0);  // friction opposes the +x slip
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 90);
  EXPECT_GT(clamped, 0);         // the grid reaches the clamp (c ẋ < −2/3)
  for (Real x : {0.0, -1e-6}) {  // no force without penetration
    const HertzGeometry g =
        sphere_plane_geometry(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, r - x), r);
    const CombinedMaterial m = combine_compliant_materials(material(k, 0.2), material(k, 0.2));
    EXPECT_FALSE(hunt_crossley_force(g, m, 0.01, Vec3(0, 0, -3)).active);
  }
}

// Combination rules.
TEST(HertzHuntCrossley, MaterialCombination) {
  const CombinedMaterial eq =
      combine_compliant_materials(material(1e10, 0.26, 0.4), material(1e10, 0.26, 0.4));
  EXPECT_NEAR(eq.effective_stiffness, 1e10 / std::pow(2.0, 1.5), 1e-12 * 1e10);
  EXPECT_NEAR(eq.effective_stiffness / 1e10, 0.353553, 1e-6);
  EXPECT_NEAR(eq.dissipation, 0.26, 1e-15);
  EXPECT_NEAR(eq.share1, 0.5, 1e-15);
  EXPECT_NEAR(eq.dynamic_friction, 0.4, 1e-15);

  const CombinedMaterial m = combine_compliant_materials(material(1e10, 0.1), material(1e9, 0.3));
  const Real k1 = std::pow(1e10, 2.0 / 3.0), k2 = std::pow(1e9, 2.0 / 3.0);
  EXPECT_NEAR(m.share1, k2 / (k1 + k2), 1e-14);
  EXPECT_NEAR(m.share1, 0.177255, 1e-6);  // the stiffer surface deforms less
  // E_eff^{-2/3} = k₁^{-2/3} + k₂^{-2/3}
  EXPECT_NEAR(std::pow(m.effective_stiffness, -2.0 / 3.0), 1.0 / k1 + 1.0 / k2, 1e-12 / k2);
  EXPECT_NEAR(m.dissipation, m.share1 * 0.1 + (1 - m.share1) * 0.3, 1e-15);
  // p moves from the midpoint toward the stiffer surface 1 (the plane at z = 0)
  const Real x = 1e-4;
  const HertzGeometry g =
      sphere_plane_geometry(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, 0.1 - x), 0.1);
  EXPECT_NEAR(g.midpoint.z(), -x / 2, 1e-15);
  const Vec3 p = contact_point(g, m);
  EXPECT_NEAR(p.z(), -x / 2 + x * (0.5 - m.share1), 1e-15);
  EXPECT_GT(p.z(), g.midpoint.z());
  EXPECT_LT(p.z(), 0.0);
  // μ rule: 2μ₁μ₂/(μ₁+μ₂), zero if either is zero
  EXPECT_NEAR(combine_friction(0.2, 0.6), 0.3, 1e-15);
  EXPECT_EQ(combine_friction(0.0, 0.6), 0.0);
  EXPECT_EQ(combine_friction(0.0, 0.0), 0.0);
  EXPECT_NE(ErrorOf([] {
              CompliantMaterial bad;
              bad.static_friction = 0.1;
              bad.dynamic_friction = 0.2;
              check_material(bad, "m");
            }).find("m.static_friction"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { check_material(material(-1, 0), "m"); }).find("m.stiffness"),
            std::string::npos);
}

// Geometry of both pairs.
TEST(HertzHuntCrossley, Geometry) {
  const HertzGeometry g = sphere_sphere_geometry(Vec3(1, 2, 3), 0.3, Vec3(1, 2.5, 3), 0.25);
  EXPECT_NEAR(g.depth, 0.05, 1e-15);
  EXPECT_NEAR(g.radius, 0.3 * 0.25 / 0.55, 1e-15);
  EXPECT_TRUE(g.normal.isApprox(Vec3::UnitY(), 1e-15));
  EXPECT_TRUE(g.midpoint.isApprox(Vec3(1, 2 + 0.3 - 0.025, 3), 1e-15));
  EXPECT_NE(
      ErrorOf([] { sphere_sphere_geometry(Vec3::Zero(), 1, Vec3::Zero(), 1); }).find("coincident"),
      std::string::npos);
  const Vec3 n = Vec3(1, 1, 1).normalized();
  const HertzGeometry h = sphere_plane_geometry(Vec3(0, 0, 1), n, Vec3(0, 0, 1) + 0.09 * n, 0.1);
  EXPECT_NEAR(h.depth, 0.01, 1e-15);
  EXPECT_NEAR(h.radius, 0.1, 0);
  EXPECT_TRUE(h.midpoint.isApprox(Vec3(0, 0, 1) - 0.005 * n, 1e-14));
}

CompliantScene two_balls() {
  CompliantScene s;
  s.world.gravity = Vec3::Zero();
  const Mat3 inertia = Vec3(0.02, 0.03, 0.04).asDiagonal();
  const Quat q = Quat(0.8, 0.1, -0.3, 0.2).normalized();
  // Spheres off-centre: contact forces make torques.
  add_sphere_body(s.world, s.state, 1.5, inertia, {Sphere{0.2, Vec3(0.05, 0.02, 0.0)}},
                  Vec3(0.1, -0.2, 0.3), q, Vec3(0.4, -1.0, 0.3), Vec3(2.0, -1.0, 0.5));
  add_sphere_body(s.world, s.state, 0.7, inertia, {Sphere{0.15, Vec3(-0.03, 0.0, 0.04)}},
                  Vec3(0.3, 0.05, 0.4), q, Vec3(-1.0, 0.2, -0.1), Vec3(-0.5, 3.0, 1.0));
  s.sphere_materials = {material(1e9, 0.2, 0.4), material(3e9, 0.1, 0.3)};
  return s;
}

// Third law: linear and angular momentum rates vanish; a rigid motion of the scene rotates
// every derivative with it.
TEST(HertzHuntCrossley, ThirdLawAndRigidMotionInvariance) {
  const CompliantScene s = two_balls();
  ASSERT_EQ(compliant_contacts(s, s.state).size(), 1u);
  ASSERT_TRUE(compliant_contacts(s, s.state)[0].force.active);
  const OdeSystem sys = compliant_system(s);
  const VecX y = compliant_state(s.world, s.state);
  VecX yd(sys.size());
  sys.derivative(0, y, yd);
  Vec3 dp = Vec3::Zero(), dl = Vec3::Zero();
  for (int b = 0; b < 2; ++b) {
    const Body& body = s.world.bodies[b];
    const Vec3 acc = yd.segment<3>(14 + 6 * b), alpha = yd.segment<3>(14 + 6 * b + 3);
    const Mat3 R = body_orientation(s.state, b).toRotationMatrix();
    const Mat3 Iw = R * body.inertia * R.transpose();
    const Vec3 w = body_angular_velocity(s.state, b);
    dp += body.mass * acc;
    // d/dt (x × m v + I_W ω) = x × m a + I_W α + ω × I_W ω
    dl += body_position(s.state, b).cross(body.mass * acc) + Iw * alpha + w.cross(Iw * w);
  }
  EXPECT_LT(dp.norm(), 1e-9 * 1e3);
  EXPECT_LT(dl.norm(), 1e-9 * 1e3);
  EXPECT_GT(yd.segment<3>(14).norm(), 1.0);  // there is a force

  // rigid motion
  const Quat Q = Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
  const Vec3 T(3, -1, 2);
  CompliantScene moved = s;
  State& m = moved.state;
  for (int b = 0; b < 2; ++b) {
    set_body_pose(m, b, Q * body_position(m, b) + T, Q * body_orientation(m, b));
    set_body_velocity(m, b, Q * body_velocity(m, b), Q * body_angular_velocity(m, b));
  }
  const OdeSystem sys2 = compliant_system(moved);
  VecX yd2(sys2.size());
  sys2.derivative(0, compliant_state(moved.world, moved.state), yd2);
  for (int b = 0; b < 2; ++b) {
    EXPECT_TRUE(yd2.segment<3>(14 + 6 * b).isApprox(Q * yd.segment<3>(14 + 6 * b), 1e-9));
    EXPECT_TRUE(yd2.segment<3>(14 + 6 * b + 3).isApprox(Q * yd.segment<3>(14 + 6 * b + 3), 1e-9));
  }
  EXPECT_NEAR(yd2.tail<3>()(2), yd.tail<3>()(2), 1e-9 * std::abs(yd.tail<3>()(2)));
}

// Stribeck curve.
TEST(Stribeck, ValuesSmoothnessAndDirection) {
  const StribeckCurve c{0.5, 0.3, 0.1, 0.01};
  EXPECT_EQ(stribeck_coefficient(0.0, c), 0.0);
  EXPECT_NEAR(stribeck_coefficient(0.005, c), 0.25 + 0.0005, 1e-15);
  EXPECT_NEAR(stribeck_coefficient(0.01, c), 0.5 + 0.001, 1e-15);
  EXPECT_NEAR(stribeck_coefficient(0.02, c), 0.4 + 0.002, 1e-15);
  EXPECT_NEAR(stribeck_coefficient(0.03, c), 0.3 + 0.003, 1e-15);
  EXPECT_NEAR(stribeck_coefficient(0.1, c), 0.3 + 0.01, 1e-15);
  const StribeckCurve dry{0.5, 0.3, 0.0, 0.01};
  auto mu = [&](Real w) { return stribeck_coefficient(w * 0.01, dry); };
  for (Real w0 : {0.0, 1.0, 3.0}) {  // C² joints: one-sided 1st and 2nd differences agree
    const Real h = 1e-4;
    const Real right1 = (mu(w0 + h) - mu(w0)) / h;
    const Real right2 = (mu(w0 + 2 * h) - 2 * mu(w0 + h) + mu(w0)) / (h * h);
    EXPECT_NEAR(right1, 0.0, 1e-6) << w0;
    EXPECT_NEAR(right2, 0.0, 1e-2) << w0;
    if (w0 > 0) {
      const Real left1 = (mu(w0) - mu(w0 - h)) / h;
      const Real left2 = (mu(w0) - 2 * mu(w0 - h) + mu(w0 - 2 * h)) / (h * h);
      EXPECT_NEAR(left1, 0.0, 1e-6) << w0;
      EXPECT_NEAR(left2, 0.0, 1e-2) << w0;
    }
  }
  // a non-smooth curve would fail the check above: the slope inside a segment is large
  EXPECT_GT((mu(0.5 + 1e-4) - mu(0.5)) / 1e-4, 0.9);
  for (Real w = 0.0; w < 1.0; w += 0.01) EXPECT_LE(mu(w), mu(w + 0.01));
  // friction opposes slip, none below 2e-14 m/s
  const CombinedMaterial m =
      combine_compliant_materials(material(1e9, 0, 0.4), material(1e9, 0, 0.4));
  const HertzGeometry g =
      sphere_plane_geometry(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, 0.1 - 1e-4), 0.1);
  const Vec3 vt(0.3, -0.7, 0.0);
  const CompliantContactForce f = hunt_crossley_force(g, m, 0.01, vt);
  const Vec3 ft = f.force - f.force.z() * Vec3::UnitZ();
  EXPECT_NEAR(ft.normalized().dot(-vt.normalized()), 1.0, 1e-14);
  EXPECT_NEAR(ft.norm(), 0.4 * f.normal_force, 1e-12 * f.normal_force);
  const CompliantContactForce still = hunt_crossley_force(g, m, 0.01, Vec3(1e-14, 0, 0));
  EXPECT_EQ(still.force.x(), 0.0);
  EXPECT_EQ(still.friction_force, 0.0);
}

// dPE/dx = f_H; the power split −F·v_rel = f_H ẋ + P_HC + P_friction.
TEST(HertzHuntCrossley, PotentialAndPower) {
  const CombinedMaterial m =
      combine_compliant_materials(material(1e9, 0.26, 0.3), material(1e9, 0.26, 0.3));
  auto at = [&](Real x, const Vec3& v) {
    const HertzGeometry g =
        sphere_plane_geometry(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, 0.1 - x), 0.1);
    return hunt_crossley_force(g, m, 0.01, v);
  };
  for (Real x : {1e-6, 1e-5, 1e-4}) {
    const Real h = 1e-4 * x;
    const Real dpe =
        (at(x + h, Vec3::Zero()).potential_energy - at(x - h, Vec3::Zero()).potential_energy) /
        (2 * h);
    EXPECT_NEAR(dpe, at(x, Vec3::Zero()).hertz_force, 1e-7 * at(x, Vec3::Zero()).hertz_force);
    const Vec3 v(0.2, 0.005, -1.3);
    const CompliantContactForce f = at(x, v);
    const Real xdot = 1.3;
    EXPECT_NEAR(f.hunt_crossley_power, 1.5 * 0.26 * f.hertz_force * xdot * xdot, 1e-12);
    EXPECT_NEAR(-f.force.dot(v), f.hertz_force * xdot + f.hunt_crossley_power + f.friction_power,
                1e-12 * f.hertz_force);
    EXPECT_GT(f.friction_power, 0.0);
  }
}

}  // namespace
}  // namespace exactsim
