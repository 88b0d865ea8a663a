// The sparse solve of the body-space MLCP (docs/solvers.md "Large islands: the sparse path"): block
// principal pivoting from a guessed basis, else the interior point and the basis its answer lies
// on. Its answers are checked against the dense path: the same certificate recomputed with dense
// products (verify_mlcp on the written-out MLCP), and where the answer is unique (frictionless: ν)
// the dense Lemke's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "exactsim/solvers/lcp_io.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_lemke.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "pile_step.h"
#include "solvers/sparse_lu.h"

namespace exactsim::sparse_mlcp_test {
namespace {

using solvers_test::lcp_as_mlcp;
using solvers_test::pile_step;
using solvers_test::PileRng;

// A pile step with one row that no z >= 0 can close (w_0 = −z_0 − 1): the LCP has no solution,
// and every interior-point start stalls on it.
Mlcp pile_with_an_unclosable_row(int bodies, int contacts, Real mu, std::mt19937& rng) {
  Mlcp dense = pile_step(bodies, contacts, mu, rng);
  dense.G.col(0).setZero();
  dense.H.col(0).setZero();
  dense.D.coeffRef(0, 0) = -1;
  dense.r[0] = -1;
  return dense;
}

// The certificate of the sparse answer recomputed on the dense MLCP, with its tolerance and scale.
SolveCertificate dense_certificate(const Mlcp& p, const MlcpSolution& x) {
  SolverOptions o;
  o.impulse_scale = x.certificate.impulse_scale;
  VecX w;
  return verify_mlcp(p, x.nu, x.z, x.certificate.tolerance, o, w);
}

TEST(SparseMlcp, FrictionlessPilesMatchTheDenseSolve) {
  // Frictionless: ν is the minimiser of a strictly convex QP, unique.
  PileRng rng(3);
  MlcpScratch dense_scratch;
  SparseMlcpScratch s;
  for (int trial = 0; trial < 30; ++trial) {
    const int bodies = 1 + trial % 6;
    const Mlcp p = pile_step(bodies, 2 + (trial * 7) % 40, 0, rng);
    MlcpSolution dense, sparse;
    solve_mlcp(p, {}, dense_scratch, dense);
    ASSERT_TRUE(dense.certificate.ok()) << trial;
    solve_sparse_mlcp(sparse_of(p), {}, s, sparse);
    ASSERT_TRUE(sparse.certificate.ok()) << trial << " " << to_string(sparse.certificate.status);
    EXPECT_TRUE(dense_certificate(p, sparse).ok()) << trial;
    EXPECT_LT((sparse.nu - dense.nu).lpNorm<Eigen::Infinity>(),
              1e-7 * (1 + dense.nu.lpNorm<Eigen::Infinity>()))
        << trial;
  }
}

TEST(SparseMlcp, FrictionalPilesCertifyAndStayInTheirCones) {
  PileRng rng(17);
  SparseMlcpScratch s;
  for (int trial = 0; trial < 40; ++trial) {
    const int bodies = 1 + trial % 8;
    const int contacts = 1 + (trial * 5) % (4 * bodies + 1);
    const Real mu = 0.2 + 0.1 * (trial % 8);
    const Mlcp p = pile_step(bodies, contacts, mu, rng);
    MlcpSolution x;
    solve_sparse_mlcp(sparse_of(p), {}, s, x);
    const std::string what = std::to_string(trial);
    ASSERT_TRUE(x.certificate.ok()) << what << " " << to_string(x.certificate.status);
    EXPECT_TRUE(dense_certificate(p, x).ok()) << what;
    const Real tol = 1e-8 * (1 + x.z.norm());
    for (int j = 0; j < contacts; ++j)
      EXPECT_LE(x.z.segment(contacts + 4 * j, 4).sum(), mu * x.z(j) + tol) << what;
  }
}

TEST(SparseMlcp, ACertifiedBasisIsAWarmStartThatEndsInOneSolve) {
  // The sparse Lemke's final basis (a complementary basis, degenerate basics included) as the
  // guess: one basis solve, certified.
  PileRng rng(41);  // (the sparse Lemke solves all twelve: sparse_lemke_test.cc)
  SparseMlcpScratch s;
  SparseLemkeScratch lemke;
  for (int trial = 0; trial < 12; ++trial) {
    const SparseMlcp p =
        sparse_of(pile_step(2 + trial % 5, 3 + 3 * trial, trial % 3 ? 0.4 : 0, rng));
    MlcpSolution pivoted, warm;
    solve_sparse_lemke(p, {}, lemke, pivoted);
    ASSERT_TRUE(pivoted.certificate.ok()) << trial;
    solve_sparse_mlcp(p, {}, s, warm, &lemke.active);
    ASSERT_TRUE(warm.certificate.ok()) << trial;
    EXPECT_EQ(warm.certificate.method, SolveMethod::kWarmStart) << trial;
    EXPECT_EQ(warm.certificate.iterations, 1) << trial;
    EXPECT_LT((warm.nu - pivoted.nu).lpNorm<Eigen::Infinity>(),
              1e-8 * (1 + pivoted.nu.lpNorm<Eigen::Infinity>()))
        << trial;
  }
}

TEST(SparseMlcp, TheInteriorPointsBasisIsAWarmStartThatEndsInOneSolve) {
  // The crossover turns the interior point's answer into a complementary basis: a separated
  // contact's σ (free in the middle of its face of solutions) gets the β row that decides it. The
  // basis it returns must then certify at once when solved again.
  PileRng rng(7);
  SparseMlcpScratch s;
  for (int trial = 0; trial < 20; ++trial) {
    const SparseMlcp p = sparse_of(pile_step(10 + trial, 3 * (10 + trial), 0.3, rng));
    MlcpSolution cold, warm;
    solve_sparse_mlcp(p, {}, s, cold);
    ASSERT_TRUE(cold.certificate.ok()) << trial;
    const std::vector<bool> basis = s.active;
    solve_sparse_mlcp(p, {}, s, warm, &basis);
    ASSERT_TRUE(warm.certificate.ok()) << trial;
    EXPECT_EQ(warm.certificate.method, SolveMethod::kWarmStart) << trial;
    EXPECT_EQ(warm.certificate.iterations, 1) << trial;
  }
}

TEST(SparseMlcp, TheInteriorPointCertifiesFrictionalPilesFromItsFirstStart) {
  // Non-monotone LCPs (friction), where the predictor–corrector's step can collapse near the
  // boundary and the iteration then takes the centring direction (docs/solvers.md "Large
  // islands: the sparse path"; some of these runs do). Every pile must end within the iteration
  // cap the sparse solve gives a run, from the first start, on an answer that certifies on the
  // whole problem.
  PileRng rng(29);
  SparseMlcpScratch s;
  for (int trial = 0; trial < 60; ++trial) {
    const int bodies = 20 + trial;
    const SparseMlcp p = sparse_of(pile_step(bodies, 4 * bodies, 0.3 + 0.1 * (trial % 7), rng));
    prepare_sparse_mlcp(p, s);
    const Real tol = SolverOptions{}.tolerance * std::max<Real>(1, s.b.lpNorm<Eigen::Infinity>());
    const Real scale = sparse_mlcp_impulse_scale(p, s);
    VecX nu, z, w;
    int iterations = 0;
    ASSERT_TRUE(interior_point(p, tol, scale, 100, s, nu, z, w, iterations)) << trial;
    EXPECT_TRUE(verify_sparse_mlcp(p, nu, z, tol, scale, {}, s, w).ok()) << trial;
  }
}

TEST(SparseMlcp, AnInteriorPointRunWithoutProgressEndsOnItsStall) {
  // A pile with one row that no z >= 0 can close (w_0 = −z_0 − 1): the LCP has no solution, μ and
  // the residual stop falling, and the run ends where neither has halved in 12 iterations
  // (docs/solvers.md "Interior point"), not at its cap.
  PileRng rng(41);
  for (const Real mu : {0.0, 0.5}) {
    const SparseMlcp p = sparse_of(pile_with_an_unclosable_row(6, 20, mu, rng));
    SparseMlcpScratch s;
    prepare_sparse_mlcp(p, s);
    const Real tol = SolverOptions{}.tolerance * std::max<Real>(1, s.b.lpNorm<Eigen::Infinity>());
    VecX nu, z, w;
    int iterations = 0;
    EXPECT_FALSE(
        interior_point(p, tol, sparse_mlcp_impulse_scale(p, s), 100, s, nu, z, w, iterations));
    EXPECT_GE(iterations, 12) << mu;
    EXPECT_LT(iterations, 50) << mu;
  }
}

// A dumped set on which the interior point stalled (tests/solvers/data/stall/), as a one-body
// MLCP with its solver options, impulse scale and the certificate's tolerance.
struct StallSet {
  explicit StallSet(const std::string& name)
      : p(lcp_as_mlcp(read_lcp(
            std::string(EXACTSIM_SOURCE_DIR) + "/tests/solvers/data/stall/" + name, &info))) {
    prepare_sparse_mlcp(p, s);
    o.impulse_scale = info.impulse_scale;
    tol = o.tolerance * std::max<Real>(1, s.b.lpNorm<Eigen::Infinity>());
  }
  LcpFileInfo info;
  SparseMlcp p;
  SparseMlcpScratch s;
  SolverOptions o;
  Real tol = 0;
};

TEST(SparseMlcp, ArcLengthContinuationCertifiesWhereEveryInteriorPointStartStalls) {
  // A working set of the 2D pour of 100 polygons (bench_scaling's scene, seed 1; dumped with
  // EXACTSIM_DUMP_LCP): 188 rows of PEG contacts with friction, on which Mehrotra's iteration
  // stalls from each of the sparse solve's starts (docs/solvers.md "Interior point"), each run
  // ending at its last iterate (the best one it met certifies from the third start:
  // AStalledRunEndsAtItsBestIterate). Arc-length continuation of the same central path lets t rise
  // where the path turns back, and the point it reaches certifies on the whole problem: z >= −tol,
  // w >= −tol, |z_i w_i| <= tol Z with the file's Z.
  StallSet set("peg2d-pour-n100-seed1-188.lcp");
  auto& [info, p, s, o, tol] = set;
  s.best_iterate = false;
  o.diagnostics.interior_point_best = false;
  VecX nu, z, w, rows;
  for (const auto& [start, recentre] : {std::pair{1.0, true}, {0.1, false}, {10.0, false}}) {
    int iterations = 0;
    EXPECT_FALSE(interior_point(p, tol, info.impulse_scale, 100, s, nu, z, w, iterations, start,
                                nullptr, recentre))
        << start;
    EXPECT_LT(iterations, 100) << start << ": a stall, not the iteration cap";
    EXPECT_FALSE(verify_sparse_mlcp(p, nu, z, tol, info.impulse_scale, o, s, rows).ok()) << start;
  }
  int solves = 0;
  EXPECT_TRUE(arc_length(p, tol, info.impulse_scale, 400, s, nu, z, w, solves));
  const SolveCertificate c = verify_sparse_mlcp(p, nu, z, tol, info.impulse_scale, o, s, rows);
  EXPECT_TRUE(c.ok()) << "min z " << c.min_z << ", min w " << c.min_w << ", |z w| "
                      << c.complementarity;
  std::printf("[ arc length ] %d factorisations\n", solves);
  // The sparse solve runs it where every start stalled on a set of arc_length_min_rows or more
  // (−1, the default: 2,000 on planar bodies, never on spatial ones; this LCP's one body has 1).
  for (const int min_rows : {-1, 0, 189, 188}) {
    o.diagnostics.arc_length_min_rows = min_rows;
    MlcpSolution out;
    solve_sparse_mlcp(p, o, s, out, nullptr, false);
    EXPECT_EQ(out.certificate.ok(), min_rows == 188) << min_rows;
  }
}

TEST(SparseMlcp, AStalledRunEndsAtItsBestIterate) {
  // The 188-row set above: from each of the sparse solve's starts the run ends uncertified before
  // its cap. Where a run ends at its last iterate, no start's answer certifies; where it ends at
  // the best iterate it met within 3/4 of the certificate's bounds (SparseMlcpScratch::
  // best_iterate, on by default; docs/solvers.md "Interior point"), the third start's does, on the
  // whole problem, and so the sparse solve certifies without arc-length continuation.
  StallSet set("peg2d-pour-n100-seed1-188.lcp");
  auto& [info, p, s, o, tol] = set;
  ASSERT_TRUE(o.diagnostics.interior_point_best);
  VecX nu, z, w, rows;
  for (const bool best : {false, true}) {
    s.best_iterate = best;
    for (const auto& [start, recentre] : {std::pair{1.0, true}, {0.1, false}, {10.0, false}}) {
      int iterations = 0;
      EXPECT_FALSE(interior_point(p, tol, info.impulse_scale, 100, s, nu, z, w, iterations, start,
                                  nullptr, recentre));
      EXPECT_LT(iterations, 100) << start << ": not the iteration cap";
      const SolveCertificate c = verify_sparse_mlcp(p, nu, z, tol, info.impulse_scale, o, s, rows);
      EXPECT_EQ(c.ok(), best && start == 10.0)
          << best << " " << start << ": min z " << c.min_z << ", min w " << c.min_w << ", |z w| "
          << c.complementarity;
    }
  }
  o.diagnostics.arc_length_min_rows = 0;
  MlcpSolution out;
  solve_sparse_mlcp(p, o, s, out, nullptr, false);
  EXPECT_TRUE(out.certificate.ok());
  EXPECT_EQ(out.certificate.method, SolveMethod::kInteriorPoint);
}

TEST(SparseMlcp, TheLaterStartsWithoutTheCentringStepPassWhereTheCentredRunsStall) {
  // Another working set of the 2D pour of 100 polygons (seed 1, dumped with EXACTSIM_DUMP_LCP
  // when every start took the centring step): 233 rows on which Mehrotra's iteration with the
  // centring step stalls from each of the three starts, held at a fold of the central path
  // (docs/solvers.md "Interior point"). Without it, the run from the second start (0.1) goes on
  // and certifies, and so does the sparse solve, whose later starts go without it; arc-length
  // continuation does not run on a set this small.
  StallSet set("peg2d-pour-n100-seed1-233.lcp");
  auto& [info, p, s, o, tol] = set;
  VecX nu, z, w, rows;
  for (const Real start : {1.0, 0.1, 10.0}) {
    int iterations = 0;
    EXPECT_FALSE(interior_point(p, tol, info.impulse_scale, 100, s, nu, z, w, iterations, start,
                                nullptr, true))
        << start;
    EXPECT_LT(iterations, 100) << start << ": a stall, not the iteration cap";
  }
  int iterations = 0;
  EXPECT_TRUE(interior_point(p, tol, info.impulse_scale, 100, s, nu, z, w, iterations, 0.1, nullptr,
                             false));
  SolveCertificate c = verify_sparse_mlcp(p, nu, z, tol, info.impulse_scale, o, s, rows);
  EXPECT_TRUE(c.ok()) << "min z " << c.min_z << ", min w " << c.min_w << ", |z w| "
                      << c.complementarity;
  MlcpSolution out;
  solve_sparse_mlcp(p, o, s, out, nullptr, false);
  EXPECT_TRUE(out.certificate.ok());
  EXPECT_EQ(out.certificate.method, SolveMethod::kInteriorPoint);
  std::printf("[ later start ] %d iterations alone, %d in the sparse solve\n", iterations,
              out.certificate.iterations);
}

TEST(SparseMlcp, WhereEveryStartStallsTheCrossoverRunsOnSmallSetsOnly) {
  // docs/solvers.md "Interior point": without the crossover asked for (the working set's
  // rounds), a set on which every interior-point start stalled goes on to the crossover only up
  // to 1,000 rows; above that the solve's effort is its three starts' and nothing else. A pile
  // with one row that no impulse closes stalls every start.
  for (const int contacts : {20, 200}) {
    PileRng rng(41);
    const SparseMlcp p = sparse_of(pile_with_an_unclosable_row(contacts / 3, contacts, 0.5, rng));
    ASSERT_EQ(p.size() > 1000, contacts == 200) << p.size() << ": one set on each side";
    SparseMlcpScratch s;
    prepare_sparse_mlcp(p, s);
    const Real tol = SolverOptions{}.tolerance * std::max<Real>(1, s.b.lpNorm<Eigen::Infinity>());
    const Real scale = sparse_mlcp_impulse_scale(p, s);
    int starts = 0;
    VecX nu, z, w;
    for (const Real start : {1.0, 0.1, 10.0})
      ASSERT_FALSE(interior_point(p, tol, scale, 100, s, nu, z, w, starts, start)) << start;
    MlcpSolution out;
    solve_sparse_mlcp(p, {}, s, out, nullptr, false);
    EXPECT_FALSE(out.certificate.ok());
    if (p.size() > 1000)
      EXPECT_EQ(out.certificate.iterations, starts) << p.size();
    else
      EXPECT_GT(out.certificate.iterations, starts) << p.size();
  }
}

TEST(SparseMlcp, ASolveOnWhichEveryStartStalledIsDumpedForTheDenseModel) {
  // With EXACTSIM_DUMP_LCP (lcp_io.h) a solve whose every interior-point start stalled writes its
  // reduced LCP (N = Hᵀ W G + D, b), bit for bit, with the certificate's impulse scale and
  // tolerance (bench/interior_point_model.py reads them); a solve that certifies writes none.
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "exactsim-stall-dump";
  fs::remove_all(dir);
  fs::create_directories(dir);
  setenv("EXACTSIM_DUMP_LCP", dir.c_str(), 1);
  if (lcp_dump_dir() != dir.string())
    GTEST_SKIP() << "EXACTSIM_DUMP_LCP was read before this test (ctest runs it alone)";
  const auto stall_files = [&dir] {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().string().ends_with("-stall.lcp")) files.push_back(e.path());
    return files;
  };
  PileRng rng(41);
  Mlcp solvable = pile_step(6, 20, 0.5, rng);
  SparseMlcpScratch s;
  MlcpSolution out;
  solve_sparse_mlcp(sparse_of(solvable), {}, s, out, nullptr, false);
  ASSERT_TRUE(out.certificate.ok());
  EXPECT_TRUE(stall_files().empty());
  Mlcp dense = solvable;  // one row that no z >= 0 closes: every start stalls
  dense.G.col(0).setZero();
  dense.H.col(0).setZero();
  dense.D.coeffRef(0, 0) = -1;
  dense.r[0] = -1;
  solve_sparse_mlcp(sparse_of(dense), {}, s, out, nullptr, false);
  EXPECT_FALSE(out.certificate.ok());
  const std::vector<fs::path> files = stall_files();
  ASSERT_EQ(files.size(), 1u);
  LcpFileInfo info;
  const Lcp dumped = read_lcp(files[0].string(), &info);
  MlcpScratch reduced;
  reduce_mlcp(dense, reduced);
  EXPECT_TRUE(dumped.M == reduced.reduced.M);
  EXPECT_TRUE(dumped.q == reduced.reduced.q);
  EXPECT_EQ(info.impulse_scale, out.certificate.impulse_scale);
  EXPECT_NE(info.note.find("tolerance"), std::string::npos) << info.note;
  unsetenv("EXACTSIM_DUMP_LCP");
  fs::remove_all(dir);
}

TEST(SparseMlcp, ANearbyAnswerShortensTheInteriorPoint) {
  // Two solves of a pile a little apart, as a working set's rounds are (docs/solvers.md "Large
  // islands: the sparse path"): the second problem's gaps and free momenta moved by up to 5 %.
  // Started near the first answer, every solve certifies on the whole problem and the interior
  // point takes fewer iterations over the piles than from its cold starts.
  PileRng rng(53);
  std::uniform_real_distribution<Real> u(-1, 1);
  SparseMlcpScratch s;
  int near_iterations = 0, cold_iterations = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int bodies = 20 + trial;
    const SparseMlcp p = sparse_of(pile_step(bodies, 4 * bodies, 0.3 + 0.1 * (trial % 5), rng));
    MlcpSolution first, cold, near;
    solve_sparse_mlcp(p, {}, s, first, nullptr, false);
    ASSERT_TRUE(first.certificate.ok()) << trial;
    SparseMlcp q = p;
    for (Eigen::Index i = 0; i < q.r.size(); ++i) q.r[i] *= 1 + 0.05 * u(rng);
    for (Eigen::Index i = 0; i < q.c.size(); ++i) q.c[i] *= 1 + 0.05 * u(rng);
    solve_sparse_mlcp(q, {}, s, cold, nullptr, false);
    solve_sparse_mlcp(q, {}, s, near, nullptr, false, &first);
    ASSERT_TRUE(cold.certificate.ok()) << trial;
    ASSERT_TRUE(near.certificate.ok()) << trial;
    cold_iterations += cold.certificate.iterations;
    near_iterations += near.certificate.iterations;
  }
  EXPECT_LT(near_iterations, cold_iterations);
  std::printf("interior-point iterations over 30 piles: %d from the nearby answer, %d cold\n",
              near_iterations, cold_iterations);
}

TEST(SparseMlcp, ARankDeficientBasisStaysBoundedAndCertifies) {
  // A box on the ground on eight contacts, every normal row basic: N_BB has rank 3 (p_z, two
  // tilts), so the basis system is singular. Regularised by +δ and refined, the basis's answer
  // carries the box's weight with bounded impulses (docs/solvers.md "Large islands: the sparse
  // path").
  Mlcp p;
  const Real mass = 2, h = 0.01;
  MatX block = MatX::Identity(6, 6) * mass;
  block.bottomRightCorner(3, 3) = Mat3::Identity() * 0.05;
  p.M.add_block(block);
  const int contacts = 8;
  p.G = MatX::Zero(6, contacts);
  for (int j = 0; j < contacts; ++j) {
    const Real a = 2 * 3.14159265358979 * j / contacts;
    const Vec3 arm(0.1 * std::cos(a), 0.1 * std::sin(a), -0.1), n(0, 0, 1);
    p.G.col(j).head<3>() = n;
    p.G.col(j).tail<3>() = arm.cross(n);
  }
  p.H = p.G;
  p.D.resize(contacts, contacts);
  p.r = VecX::Zero(contacts);
  p.c = VecX::Zero(6);
  p.c[2] = -9.81 * mass * h;
  SparseMlcpScratch s;
  MlcpSolution x;
  const std::vector<bool> all(contacts, true);
  solve_sparse_mlcp(sparse_of(p), {}, s, x, &all);
  ASSERT_TRUE(x.certificate.ok()) << to_string(x.certificate.status);
  EXPECT_EQ(x.certificate.method, SolveMethod::kWarmStart);
  EXPECT_NEAR(x.z.sum(), 9.81 * mass * h, 1e-9);
  EXPECT_LT(x.z.maxCoeff(), 9.81 * mass * h);
  EXPECT_LT(x.nu.lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(SparseMlcp, ASymmetricProblemStopsWhereItsMultipliersCertifyAsAQp) {
  // A QP's answer is its multipliers z, certified at ν̂ = W (c + G z) (the position projection's
  // judge_qp_point, docs/robustness.md "Stabilisation"). A momentum residual rp within its
  // bound moves the rows by Gᵀ W rp, which light bodies (W large) carry beyond the rows' bound:
  // the interior point, flagged symmetric, stops on the rows at ν̂ and refines every Newton
  // direction. Piles of bodies 10⁻³ of pile_step's masses (0.5–5 g); stopped on its own ν and
  // momentum residual, trial 8 ends with min ŵ −5.7e-7 against the bound −2.6e-7.
  PileRng rng(43);
  for (int trial = 0; trial < 20; ++trial) {
    const int bodies = 5 + 3 * trial;
    SparseMlcp p = sparse_of(pile_step(bodies, 4 * bodies, 0, rng));
    for (MatX& block : p.M.blocks) block *= 1e-3;
    SparseMlcpScratch s;
    prepare_sparse_mlcp(p, s);
    s.symmetric = true;
    const Real tol = SolverOptions{}.tolerance * std::max<Real>(1, s.b.lpNorm<Eigen::Infinity>());
    const Real scale = sparse_mlcp_impulse_scale(p, s);
    VecX nu, z, w;
    int iterations = 0;
    ASSERT_TRUE(interior_point(p, tol, scale, 100, s, nu, z, w, iterations)) << trial;
    VecX impulse = p.c, nu_hat, w_hat;
    p.g.multiply_add(p.M, z, impulse);
    s.W.apply(impulse, nu_hat);
    sparse_rows(p, nu_hat, z, w_hat);
    EXPECT_GE(w_hat.minCoeff(), -tol) << trial;
    EXPECT_LE(z.cwiseProduct(w_hat).cwiseAbs().maxCoeff(), tol * scale) << trial;
  }
}

TEST(SparseMlcp, SymmetricProblemsFactoriseByBlocksOrCholeskyAndMatchTheDenseSolve) {
  // Frictionless (H = G, D = 0): the interior point's body-space system M + G Z⁻¹W Gᵀ is
  // symmetric positive definite and, flagged symmetric, factorised by blocks of bodies or, with
  // by_blocks off, by Cholesky (the position projection's QP, docs/robustness.md
  // "Stabilisation"). The velocities ν̂ = W (c + G z) of its multipliers z are within the QP's
  // duality gap of its unique minimiser ν* (the dense solve's, with z*): ‖ν̂ − ν*‖²_M <= zᵀŵ −
  // z*ᵀŵ, ŵ = Gᵀν̂ + r (strong convexity and optimality of ν*); and every path ends at the same
  // point.
  PileRng rng(41);
  MlcpScratch dense_scratch;
  for (int trial = 0; trial < 20; ++trial) {
    const int bodies = 5 + 3 * trial;
    const Mlcp dense_problem = pile_step(bodies, 4 * bodies, 0, rng);
    const SparseMlcp p = sparse_of(dense_problem);
    MlcpSolution dense;
    solve_mlcp(dense_problem, {}, dense_scratch, dense);
    ASSERT_TRUE(dense.certificate.ok()) << trial;
    VecX nu[3];
    for (const int path : {0, 1, 2}) {  // LU by blocks; symmetric by blocks; Cholesky
      const bool symmetric = path > 0;
      SparseMlcpScratch s;
      prepare_sparse_mlcp(p, s);
      s.symmetric = symmetric;
      s.by_blocks = path < 2;
      const Real tol = SolverOptions{}.tolerance * std::max<Real>(1, s.b.lpNorm<Eigen::Infinity>());
      const Real scale = sparse_mlcp_impulse_scale(p, s);
      VecX z, w;
      int iterations = 0;
      ASSERT_TRUE(interior_point(p, tol, scale, 100, s, nu[path], z, w, iterations))
          << trial << " path " << path;
      EXPECT_EQ(s.block_lu != nullptr && s.block_lu->size > 0, path < 2) << trial;
      EXPECT_EQ(s.lu->cholesky, path == 2 && sparse_lu_available(SparseLuBackend::kKlu)) << trial;
      EXPECT_TRUE(verify_sparse_mlcp(p, nu[path], z, tol, scale, {}, s, w).ok()) << trial;
      VecX impulse = p.c, nu_hat, w_hat, error_momentum;
      p.g.multiply_add(p.M, z, impulse);
      s.W.apply(impulse, nu_hat);
      sparse_rows(p, nu_hat, VecX::Zero(z.size()), w_hat);
      const VecX error = nu_hat - dense.nu;
      p.M.apply(error, error_momentum);
      const Real gap = z.dot(w_hat) - dense.z.dot(w_hat);
      EXPECT_LE(error.dot(error_momentum), gap + 1e-12 * dense.nu.squaredNorm())
          << trial << " path " << path;
    }
    for (const int path : {1, 2})
      EXPECT_LT((nu[0] - nu[path]).lpNorm<Eigen::Infinity>(),
                1e-9 * (1 + nu[0].lpNorm<Eigen::Infinity>()))
          << trial << " path " << path;
  }
}

TEST(SparseMlcp, TheCholeskyFactorSolvesAndRefusesAnIndefiniteMatrix) {
  if (!sparse_lu_available(SparseLuBackend::kKlu))
    GTEST_SKIP() << "built without SuiteSparse: factor_spd is the LU";
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-1, 1);
  const int n = 60;
  MatX a = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (rng() % 8 == 0) a(i, j) = a(j, i) = u(rng);
  a.diagonal().array() += a.cwiseAbs().rowwise().sum().array() + 0.5;  // diagonally dominant
  SparseBasisLu lu;
  lu.matrix = a.sparseView();
  ASSERT_TRUE(lu.factor_spd());
  EXPECT_TRUE(lu.cholesky);
  VecX b(n), x;
  for (int i = 0; i < n; ++i) b[i] = u(rng);
  x = b;
  lu.solve(x);
  EXPECT_LT((a * x - b).lpNorm<Eigen::Infinity>(), 1e-12);
  // The same pattern with one negative pivot: not positive definite.
  a(n / 2, n / 2) = -a(n / 2, n / 2);
  lu.matrix = a.sparseView();
  EXPECT_FALSE(lu.factor_spd());
  // And the LU again on it afterwards.
  ASSERT_TRUE(lu.factor(SparseLuBackend::kAuto));
  EXPECT_FALSE(lu.cholesky);
  x = b;
  lu.solve(x);
  EXPECT_LT((a * x - b).lpNorm<Eigen::Infinity>(), 1e-10);
}

TEST(SparseMlcp, AnLuWithOrWithoutRowScalingSolvesItsSystem) {
  // The interior point and the sparse Lemke factorise unscaled, block pivoting scaled, and the
  // interior point shares its LU object with block pivoting (docs/solvers.md "Interior point"):
  // each switch, on a fresh factorisation and on a refactorisation of the same pattern, solves
  // A x = b, A's rows 10⁻⁶–10⁶ apart.
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  const int n = 80;
  MatX a = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i == j || rng() % 10 == 0) a(i, j) = u(rng);
  a.diagonal().array() += 2;
  SparseBasisLu lu;
  int k = 0;
  for (const bool scaled : {true, false, false, true, false}) {
    MatX scaled_a = a;
    for (int i = 0; i < n; ++i) scaled_a.row(i) *= std::pow(10.0, 6 * u(rng));
    for (int i = 0; i < n; ++i) scaled_a(i, i) += u(rng);  // new values, the same pattern
    lu.matrix = scaled_a.sparseView(0, 0);
    ASSERT_TRUE(lu.factor(SparseLuBackend::kAuto, k > 0, SparseBasisLu::kMinPivotRatio, scaled))
        << k;
    VecX b(n), x;
    for (int i = 0; i < n; ++i) b[i] = u(rng);
    x = b;
    lu.solve(x);
    // Each row's residual against the size of its terms: a backward error, which a row's scale
    // does not change (the forward error grows with A's condition, up to 10¹² here). Measured:
    // 2.6e-10 at most scaled, 10⁻¹⁴–10⁻¹² unscaled.
    const VecX residual = (scaled_a * x - b).cwiseAbs();
    const VecX size = scaled_a.cwiseAbs() * x.cwiseAbs() + b.cwiseAbs();
    EXPECT_LT((residual.array() / size.array()).maxCoeff(), 1e-8) << k << " scaled " << scaled;
    ++k;
  }
}

}  // namespace
}  // namespace exactsim::sparse_mlcp_test
