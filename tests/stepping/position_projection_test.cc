// The split projection on the sparse path (docs/robustness.md "Stabilisation"): its position LCP
// is solved whole as the QP with G_S sparse, N_p never formed, and its answer is that of the
// LCP (N_p, b_p) formed dense and solved by Lemke.
#include <gtest/gtest.h>

#include "exactsim/solvers/block_diagonal.h"
#include "exactsim/solvers/lcp.h"
#include "planar_sim.h"

namespace exactsim {
namespace {

using planar_test::box;
using planar_test::Sim;

// Two rows of unit boxes, the lower 1 cm into the floor and each box 1 mm into its neighbour, the
// upper 5 mm into the lower: one island, every island on the sparse path, μ = 0.5.
Sim sunk_pile(int n) {
  Sim s;
  s.world.contact.model = ContactModel::kStandard;
  s.world.contact.friction = 0.5;
  s.world.stepping.dense_max_unknowns = 0;
  s.add(box(-1, -1, 1.01 * n + 1, 0), true);
  for (int i = 0; i < n; ++i) s.add(box(0.999 * i, -0.01, 0.999 * i + 1, 0.99), false);
  for (int i = 0; i + 1 < n; ++i) s.add(box(0.999 * i + 0.5, 0.985, 0.999 * i + 1.5, 1.985), false);
  return s;
}

TEST(PositionProjection, APilesLcpIsSolvedWholeWithoutNpAndMatchesTheDenseLemkeAnswer) {
  Sim sim = sunk_pile(8);
  const StepReport r = sim.step(0.005);
  ASSERT_TRUE(r.projection_ran);
  ASSERT_TRUE(r.projection_solved);
  ASSERT_EQ(r.projection_relaxed_rows, 0);
  const PositionProjectionScratch& p = sim.ws.projection;
  const SparseMlcp& mlcp = sim.ws.problem;
  const int n = static_cast<int>(p.rows.size());
  // Every normal row of the island in the sparse G_S, N_p not formed.
  ASSERT_EQ(n, static_cast<int>(p.all_rows.size()));
  ASSERT_GT(n, 30);
  EXPECT_EQ(p.sparse_g.cols(), n);
  EXPECT_EQ(p.lcp.M.size(), 0);

  // The oracle: N_p = G_Sᵀ W G_S and b_p, dense.
  MatX g_all, g(mlcp.M.size(), n);
  mlcp.g.to_dense(mlcp.M, g_all);
  for (int i = 0; i < n; ++i) g.col(i) = g_all.col(p.rows[i]);
  BlockDiagonal w;
  invert_spd(mlcp.M, w);
  MatX wg;
  w.apply(g, wg);
  Lcp lcp;
  lcp.M = g.transpose() * wg;
  lcp.q = p.all_q;
  ASSERT_LT(lcp.q.minCoeff(), -1);  // push-outs of 1 cm over h = 5 ms
  // The answer holds on the dense LCP at the certificate's tolerance and scale.
  VecX dense_w;
  const SolveCertificate on_dense =
      verify_lcp(lcp, p.z, p.certificate.tolerance, p.certificate.impulse_scale, dense_w);
  EXPECT_TRUE(on_dense.ok()) << "min w " << on_dense.min_w << ", complementarity "
                             << on_dense.complementarity;
  // The QP's pseudo-velocity is unique (½ pᵀ M p is strictly convex): Lemke's z on the dense
  // LCP, whichever of the degenerate rows' z it picks, gives the same W G_S z.
  const LcpSolution lemke = solve_lcp(lcp, sim.world.solver);
  ASSERT_TRUE(lemke.certificate.ok());
  const VecX lemke_nu = wg * lemke.z;
  EXPECT_LE((lemke_nu * r.projection_scale - p.nu).lpNorm<Eigen::Infinity>(),
            1e-6 * lemke_nu.lpNorm<Eigen::Infinity>());
  // The push-out lifted the boxes: none ends deeper than 1 cm below the floor's top.
  for (int b = 1; b < sim.world.body_count(); ++b) EXPECT_GT(sim.q(b).y(), -0.01 + 0.49);
}

}  // namespace
}  // namespace exactsim
