// Assembly of the time-stepping MLCP (docs/solvers.md "Problem forms"). The PEG blocks are checked
// against docs/peg.md "The worked example" (N and r printed to six digits); the standard model
// against its known spurious impulse.
#include "exactsim/stepping/stewart_trinkle.h"

#include <gtest/gtest.h>

#include "exactsim/collision/vertex_edge.h"
#include "exactsim/geometry/pose.h"
#include "exactsim/solvers/mlcp.h"

namespace exactsim {
namespace {

// The worked example: B static triangle with apex v_b = (0, 0); A dynamic, v_a = (0.02, 0.03) just
// past it.
struct WorkedExample {
  World world;
  State state;
  ConstraintSet set;
  int c[5] = {-1, -1, -1, -1, -1};  // C1..C4 (1-based) as contact indices
};

WorkedExample worked_example() {
  WorkedExample ex;
  World& w = ex.world;
  w.dimension = 2;
  w.gravity = Vec3(0, -9.81, 0);
  const std::vector<Vec2> a_world = {{-0.98, 0.53}, {0.02, 0.03}, {1.02, 0.53}};
  const Vec2 com = (a_world[0] + a_world[1] + a_world[2]) / 3;
  std::vector<Vec2> a_local;
  for (const Vec2& p : a_world) a_local.push_back(p - com);
  w.polygons.push_back(polygon_from_points(a_local, HullInput::kRequireConvex));
  w.polygons.push_back(
      polygon_from_points(std::vector<Vec2>{{1, -1}, {0, 0}, {-1, -1}}, HullInput::kRequireConvex));
  Body a;
  a.name = "A";
  a.shape = 0;
  a.mass = 1;
  a.planar_inertia = 0.1;
  Body b;
  b.name = "B";
  b.is_static = true;
  b.shape = 1;
  w.bodies = {a, b};
  ex.state.dimension = 2;
  ex.state.q = VecX::Zero(6);
  ex.state.q.head<2>() = com;
  ex.state.v = VecX::Zero(6);
  ex.state.v[0] = 3;
  ex.state.present = {1, 1};

  WorldPolygon pa, pb;
  place(w.polygons[0], Pose2{com, 0}, pa);
  place(w.polygons[1], Pose2{}, pb);
  vertex_edge_contacts(pa, 0, pb, 1, 0.05, ex.set.contacts);
  // Identify C1..C4 by their features: C1/C2 = v_a against B's edges into/out of v_b,
  // C3/C4 = v_b against A's edges into/out of v_a (PEG paper Fig. 5).
  const Vec2 v_b(0, 0), v_a(0.02, 0.03);
  for (int i = 0; i < static_cast<int>(ex.set.contacts.size()); ++i) {
    const Contact& c = ex.set.contacts[i];
    const WorldPolygon& edge_owner = c.body_b == 1 ? pb : pa;  // e_in ends at the apex: head
    const Vec2 head = edge_owner.vertices[(c.feature_b + 1) % 3];
    const Vec2 p = c.point_a.head<2>();
    if (c.body_a == 0 && (p - v_a).norm() < 1e-12) ex.c[(head - v_b).norm() < 1e-12 ? 1 : 2] = i;
    if (c.body_a == 1 && (p - v_b).norm() < 1e-12) ex.c[(head - v_a).norm() < 1e-12 ? 3 : 4] = i;
  }
  return ex;
}

void add_intercontact(ConstraintSet& set, int primary, int secondary, bool cross) {
  set.intercontacts.push_back({primary, static_cast<int>(set.secondaries.size()), 1, true, cross});
  set.secondaries.push_back(secondary);
}

TEST(StewartTrinkle, PegBlocksReproduceTheWorkedExample) {
  WorkedExample ex = worked_example();
  for (int k = 1; k <= 4; ++k) ASSERT_GE(ex.c[k], 0) << "C" << k << " not detected";
  EXPECT_NEAR(ex.set.contacts[ex.c[1]].gap, 0.035355, 1e-6);
  EXPECT_NEAR(ex.set.contacts[ex.c[4]].gap, 0.017889, 1e-6);
  // X-code realisation: I1 = (C1; C2), I2 = (C3; C4), I3 = X(C1; C4), I4 = X(C2; C3).
  add_intercontact(ex.set, ex.c[1], ex.c[2], false);
  add_intercontact(ex.set, ex.c[3], ex.c[4], false);
  add_intercontact(ex.set, ex.c[1], ex.c[4], true);
  add_intercontact(ex.set, ex.c[2], ex.c[3], true);
  MlcpLayout layout;
  Mlcp mlcp;
  assemble_stewart_trinkle(ex.world, ex.state, ex.set, 0.01, layout, mlcp);
  ASSERT_EQ(layout.size(), 8);
  MlcpScratch scratch;
  reduce_mlcp(mlcp, scratch);
  MatX n_expected(8, 8);
  n_expected << 1.555556, 1.289507, 1.555556, -0.555556, 1, 0, 0, 0,  //
      1.289507, 1.209089, 1.289507, -0.024595, 0, 1, 0, 0,            //
      1.555556, 1.289507, 1.555556, -0.555556, 0, 0, 1, 0,            //
      -0.555556, -0.024595, -0.555556, 1.555556, 0, 0, 0, 1,          //
      2.111111, 1.314102, 2.111111, -2.111111, 1, 0, 0, 0,            //
      1.398429, 0.869911, 1.398429, -1.398429, 0, 1, 0, 0,            //
      1.664478, 0.950329, 1.664478, -1.929390, 0, 0, 1, 0,            //
      -1.845062, -1.233684, -1.845062, 1.580151, 0, 0, 0, 1;
  VecX r_expected(8);
  r_expected << 5.587487, 4.831606, 5.587487, -1.483581, 7.071068, 4.472136, 5.228017, -6.315187;
  EXPECT_LT((scratch.reduced.M - n_expected).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LT((scratch.reduced.q - r_expected).cwiseAbs().maxCoeff(), 1e-6);
  // Its solution: no impulse, c = (0, 0, 0, 6.315187), free flight ν⁺ = (3, −0.0981, 0).
  const MlcpSolution sol = solve_mlcp(mlcp);
  ASSERT_TRUE(sol.certificate.ok());
  EXPECT_LT(sol.z.head<4>().cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_NEAR(sol.z[7], 6.315187, 1e-6);
  EXPECT_LT((sol.nu - Vec3(3, -0.0981, 0)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(StewartTrinkle, StandardModelShowsTheSpuriousImpulse) {
  WorkedExample ex = worked_example();
  ex.set.unilateral = {ex.c[1], ex.c[2], ex.c[3], ex.c[4]};
  MlcpLayout layout;
  Mlcp mlcp;
  assemble_stewart_trinkle(ex.world, ex.state, ex.set, 0.01, layout, mlcp);
  // Frictionless standard model: G = H, D = 0, r = ψ/h (PEG paper eqs. 8–9).
  EXPECT_EQ(mlcp.G, mlcp.H);
  EXPECT_EQ(MatX(mlcp.D).cwiseAbs().maxCoeff(), 0.0);
  const MlcpSolution sol = solve_mlcp(mlcp);
  ASSERT_TRUE(sol.certificate.ok());
  EXPECT_NEAR(sol.z[1], 0.95373, 1e-5);  // the SM trap: C2 kicks A although nothing touches
  EXPECT_LT((sol.nu - Vec3(2.325611, 0.576289, -2.247964)).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(StewartTrinkle, FrictionConeBlocksFollowSection2_2) {
  WorkedExample ex = worked_example();
  ex.world.contact.friction = 0.5;
  ex.set.unilateral = {ex.c[2]};
  MlcpLayout layout;
  Mlcp mlcp;
  assemble_stewart_trinkle(ex.world, ex.state, ex.set, 0.01, layout, mlcp);
  // z = (p, β₁, β₂, σ): ρ_f = G_fᵀν + E σ, ζ = μ p − Eᵀβ.
  ASSERT_EQ(layout.size(), 4);
  EXPECT_EQ(layout.friction_mu[0], 0.5);  // √(0.5 · 0.5)
  EXPECT_EQ(mlcp.D.coeff(3, 0), 0.5);
  EXPECT_EQ(mlcp.D.coeff(3, 1), -1.0);
  EXPECT_EQ(mlcp.D.coeff(3, 2), -1.0);
  EXPECT_EQ(mlcp.D.coeff(1, 3), 1.0);
  EXPECT_EQ(mlcp.D.coeff(2, 3), 1.0);
  // The two friction columns are opposite tangents, orthogonal to the normal column.
  EXPECT_LT((mlcp.G.col(1) + mlcp.G.col(2)).norm(), 1e-15);
  std::vector<Vec3> dirs;
  friction_directions(ex.set.contacts[ex.c[2]].normal, Vec3::Zero(), 2, 2, dirs);
  EXPECT_NEAR(dirs[0].dot(ex.set.contacts[ex.c[2]].normal), 0.0, 1e-15);
  const Vec3 first = Vec3(1, 0.8, -0.6).normalized();  // ⊥ n̂
  friction_directions(Vec3(0, 0.6, 0.8), first, 3, 5, dirs);
  EXPECT_LT((dirs[0] - first).norm(), 1e-15);
  Vec3 sum = Vec3::Zero();
  for (const Vec3& d : dirs) {
    EXPECT_NEAR(d.norm(), 1.0, 1e-15);
    EXPECT_NEAR(d.dot(Vec3(0, 0.6, 0.8)), 0.0, 1e-15);
    sum += d;
  }
  EXPECT_LT(sum.norm(), 1e-14);  // equally spaced: they positively span the plane
}

}  // namespace
}  // namespace exactsim
