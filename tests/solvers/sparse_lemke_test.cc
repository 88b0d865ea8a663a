// The sparse Lemke (docs/solvers.md "Large islands: the sparse path"): Lemke's pivoting on the
// unreduced body-space MLCP with a sparse LU of the basis and eta updates. The same algorithm as
// the dense Lemke on LCP(N, b), so where the answer is unique (frictionless: ν; positive definite
// N: z too) it must be the dense solve_mlcp's, and otherwise it must certify; warm starts from the
// answer's basis end at once; rays are reported; the captured LCPs of tests/solvers/data/ end as
// the dense Lemke's first run does.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "exactsim/solvers/lcp_io.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_lemke.h"
#include "pile_step.h"

namespace exactsim::sparse_lemke_test {
namespace {

using solvers_test::lcp_as_mlcp;
using solvers_test::pile_step;
using solvers_test::PileRng;

SolverOptions no_fallback() {
  SolverOptions o;
  o.fallback = false;
  return o;
}

std::vector<SparseLuBackend> backends() {
  std::vector<SparseLuBackend> all;
  for (SparseLuBackend b :
       {SparseLuBackend::kEigen, SparseLuBackend::kKlu, SparseLuBackend::kUmfpack})
    if (sparse_lu_available(b)) all.push_back(b);
  return all;
}

TEST(SparseLemke, FrictionlessPilesMatchTheDenseSolve) {
  // Frictionless: N = Gᵀ W G is PSD, so ν (the minimiser of a strictly convex QP) is unique and z
  // too where G has full column rank (fewer contacts than body freedoms: N positive definite).
  PileRng rng(11);
  MlcpScratch dense_scratch;
  for (SparseLuBackend backend : backends()) {
    SparseLemkeScratch s;
    s.backend = backend;
    for (int trial = 0; trial < 30; ++trial) {
      const int bodies = 1 + trial % 6;
      const int contacts = trial % 2 == 0 ? 1 + trial % (3 * bodies) : 2 + (trial * 7) % 40;
      const Mlcp p = pile_step(bodies, contacts, 0, rng);
      MlcpSolution dense, sparse;
      solve_mlcp(p, {}, dense_scratch, dense);
      ASSERT_TRUE(dense.certificate.ok()) << trial;
      solve_sparse_lemke(sparse_of(p), {}, s, sparse);
      const std::string what = std::string(to_string(backend)) + " " + std::to_string(trial);
      ASSERT_TRUE(sparse.certificate.ok()) << what << " " << to_string(sparse.certificate.status);
      EXPECT_EQ(sparse.certificate.method, SolveMethod::kLemke);
      EXPECT_EQ(sparse.certificate.pivots, s.stats.pivots);
      EXPECT_EQ(sparse.certificate.iterations, 0);
      const Real nu_scale = 1 + dense.nu.lpNorm<Eigen::Infinity>();
      EXPECT_LT((sparse.nu - dense.nu).lpNorm<Eigen::Infinity>(), 1e-8 * nu_scale) << what;
      if (contacts <= 3 * bodies) {
        const Real z_scale = 1 + dense.z.lpNorm<Eigen::Infinity>();
        EXPECT_LT((sparse.z - dense.z).lpNorm<Eigen::Infinity>(), 1e-8 * z_scale) << what;
      }
      EXPECT_LE(sparse.certificate.newton_euler_residual,
                sparse.certificate.newton_euler_tolerance);
    }
  }
}

TEST(SparseLemke, FrictionalPilesCertify) {
  // Stewart–Trinkle friction: N is copositive-plus only and the answer need not be unique. The
  // sparse Lemke must certify every one (the dense Lemke's status, first run and no retries, is
  // in the message).
  PileRng rng(23);
  SolverOptions dense_options = no_fallback();
  dense_options.diagnostics.extended_precision_retry = false;
  MlcpScratch dense_scratch;
  for (SparseLuBackend backend : backends()) {
    SparseLemkeScratch s;
    s.backend = backend;
    for (int trial = 0; trial < 40; ++trial) {
      const int bodies = 1 + trial % 8;
      const int contacts = 1 + (trial * 5) % (4 * bodies + 1);
      const Mlcp p = pile_step(bodies, contacts, 0.2 + 0.1 * (trial % 8), rng);
      MlcpSolution dense, sparse;
      solve_mlcp(p, dense_options, dense_scratch, dense);
      solve_sparse_lemke(sparse_of(p), {}, s, sparse);
      const std::string what = std::string(to_string(backend)) + " " + std::to_string(trial);
      EXPECT_TRUE(sparse.certificate.ok())
          << what << ": sparse " << to_string(sparse.certificate.status) << ", dense "
          << to_string(dense.certificate.status);
      if (sparse.certificate.ok()) {
        EXPECT_LE(sparse.certificate.newton_euler_residual,
                  sparse.certificate.newton_euler_tolerance);
        // The friction of each contact stays inside its pyramid: Σ β <= μ p_n.
        const int nc = static_cast<int>(p.r.size()) / 6;
        const Real mu = 0.2 + 0.1 * (trial % 8), tol = 1e-8 * (1 + sparse.z.norm());
        for (int j = 0; j < nc; ++j)
          EXPECT_LE(sparse.z.segment(nc + 4 * j, 4).sum(), mu * sparse.z(j) + tol) << what;
      }
    }
  }
}

TEST(SparseLemke, RefactorisationAndEtaFileGiveTheSameAnswer) {
  // Refactorising at every pivot (no eta file) and rarely (a long eta file) are the same basis
  // sequence up to rounding: on untied problems the same answer.
  PileRng rng(5);
  for (int trial = 0; trial < 10; ++trial) {
    const SparseMlcp p = sparse_of(pile_step(3 + trial % 4, 4 + trial * 2, 0.5, rng));
    SparseLemkeScratch every, rare;
    SolverOptions at_every = no_fallback(), seldom = no_fallback();
    at_every.diagnostics.refactor_interval = 1;
    seldom.diagnostics.refactor_interval = 100000;
    rare.eta_growth = 1e6;
    MlcpSolution a, b;
    solve_sparse_lemke(p, at_every, every, a);
    solve_sparse_lemke(p, seldom, rare, b);
    const std::string what = std::to_string(trial);
    ASSERT_TRUE(a.certificate.ok()) << what;
    ASSERT_TRUE(b.certificate.ok()) << what;
    EXPECT_EQ(a.certificate.pivots, b.certificate.pivots) << what;
    EXPECT_LT((a.z - b.z).lpNorm<Eigen::Infinity>(), 1e-8 * (1 + a.z.lpNorm<Eigen::Infinity>()))
        << what;
    EXPECT_GE(every.stats.refactorisations, a.certificate.pivots - 1) << what;
    EXPECT_EQ(rare.stats.refactorisations, 1) << what;
  }
}

TEST(SparseLemke, WarmStartFromTheAnswersBasisEndsAtOnce) {
  PileRng rng(41);
  for (int trial = 0; trial < 12; ++trial) {
    const SparseMlcp p =
        sparse_of(pile_step(2 + trial % 5, 3 + 3 * trial, trial % 3 == 0 ? 0 : 0.4, rng));
    SparseLemkeScratch s;
    MlcpSolution cold, warm;
    solve_sparse_lemke(p, {}, s, cold);
    const std::string what = std::to_string(trial);
    ASSERT_TRUE(cold.certificate.ok()) << what;
    const std::vector<bool> basis = s.active;
    solve_sparse_lemke(p, {}, s, warm, &basis);
    ASSERT_TRUE(warm.certificate.ok()) << what;
    EXPECT_TRUE(s.stats.warm) << what;
    EXPECT_LE(warm.certificate.pivots, 1) << what;
    EXPECT_LT((warm.nu - cold.nu).lpNorm<Eigen::Infinity>(),
              1e-8 * (1 + cold.nu.lpNorm<Eigen::Infinity>()))
        << what;
    // A guess of the wrong size is ignored (cold).
    const std::vector<bool> wrong(basis.size() + 1, true);
    solve_sparse_lemke(p, {}, s, warm, &wrong);
    EXPECT_FALSE(s.stats.warm) << what;
    EXPECT_TRUE(warm.certificate.ok()) << what;
  }
}

TEST(SparseLemke, AGuessWithDependentUnknownsIsMadeNonsingular) {
  // A contact duplicated (two equal columns): a guess with both basic has a singular basis
  // matrix. The start leaves the later one out and the run still certifies.
  PileRng rng(17);
  for (int trial = 0; trial < 6; ++trial) {
    Mlcp p = pile_step(2 + trial % 3, 4 + trial, trial % 2 == 0 ? 0 : 0.5, rng);
    const Eigen::Index m = p.r.size();
    p.G.conservativeResize(Eigen::NoChange, m + 1);
    p.G.col(m) = p.G.col(0);
    p.H = p.G;
    p.r.conservativeResize(m + 1);
    p.r(m) = p.r(0) - 1.0;  // approaching: both would push
    SparseRowMatX d(m + 1, m + 1);
    std::vector<Eigen::Triplet<Real>> t;
    for (int i = 0; i < p.D.outerSize(); ++i)
      for (SparseRowMatX::InnerIterator e(p.D, i); e; ++e) t.emplace_back(i, e.col(), e.value());
    d.setFromTriplets(t.begin(), t.end());
    p.D = d;
    const SparseMlcp sp = sparse_of(p);
    SparseLemkeScratch s;
    MlcpSolution cold, warm;
    solve_sparse_lemke(sp, {}, s, cold);
    ASSERT_TRUE(cold.certificate.ok()) << trial;
    std::vector<bool> guess = s.active;
    guess[0] = guess[m] = true;
    solve_sparse_lemke(sp, {}, s, warm, &guess);
    EXPECT_TRUE(s.stats.warm) << trial;
    EXPECT_GE(s.stats.warm_dropped, 1) << trial;
    ASSERT_TRUE(warm.certificate.ok()) << trial << " " << to_string(warm.certificate.status);
    EXPECT_LT((warm.nu - cold.nu).lpNorm<Eigen::Infinity>(),
              1e-8 * (1 + cold.nu.lpNorm<Eigen::Infinity>()))
        << trial;
  }
}

TEST(SparseLemke, WarmStartFromANeighbouringProblemsBasis) {
  // The next step's problem (gaps and velocities moved a little) from this step's basis: fewer
  // pivots than cold, the same certified answer.
  PileRng rng(3);
  int warm_pivots = 0, cold_pivots = 0;
  for (int trial = 0; trial < 8; ++trial) {
    std::mt19937 copy = rng;
    Mlcp p = pile_step(4 + trial % 3, 10 + 2 * trial, 0.5, rng);
    SparseLemkeScratch s;
    MlcpSolution first, cold, warm;
    solve_sparse_lemke(sparse_of(p), {}, s, first);
    ASSERT_TRUE(first.certificate.ok());
    const std::vector<bool> basis = s.active;
    std::normal_distribution<Real> normal;
    const Eigen::Index contacts = p.r.size() / 6;  // the normal rows come first
    for (Eigen::Index i = 0; i < contacts; ++i) p.r(i) += 1e-2 * normal(copy);
    for (Eigen::Index i = 0; i < p.c.size(); ++i) p.c(i) += 1e-2 * normal(copy);
    const SparseMlcp next = sparse_of(p);
    solve_sparse_lemke(next, {}, s, cold);
    solve_sparse_lemke(next, {}, s, warm, &basis);
    ASSERT_TRUE(cold.certificate.ok()) << trial << " " << to_string(cold.certificate.status);
    ASSERT_TRUE(warm.certificate.ok()) << trial << " " << to_string(warm.certificate.status);
    EXPECT_TRUE(s.stats.warm) << trial;
    warm_pivots += warm.certificate.pivots;
    cold_pivots += cold.certificate.pivots;
  }
  EXPECT_LT(warm_pivots, cold_pivots);
}

TEST(SparseLemke, WarmStartFromASmallerSetsBasis) {
  // The working set's round after a solved one (docs/solvers.md "Large islands: the sparse path"):
  // the basis of the problem on the first contacts, the other contacts' rows nonbasic (z = 0), is
  // complementary for the whole problem and violated only in those rows. From it: the same
  // certificate as cold, in fewer pivots.
  PileRng rng(23);
  int warm_pivots = 0, cold_pivots = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const int contacts = 12 + 2 * trial, kept = contacts - 2 - trial % 3;
    const Mlcp p = pile_step(4 + trial % 3, contacts, 0.4, rng);
    // The rows of the first `kept` contacts: normal, four β, σ (pile_step's order).
    std::vector<int> rows;
    for (int j = 0; j < kept; ++j) rows.push_back(j);
    for (int j = 0; j < 4 * kept; ++j) rows.push_back(contacts + j);
    for (int j = 0; j < kept; ++j) rows.push_back(5 * contacts + j);
    const int n = static_cast<int>(rows.size());
    Mlcp sub;
    sub.M = p.M;
    sub.c = p.c;
    sub.G.resize(p.G.rows(), n);
    sub.r.resize(n);
    std::vector<int> sub_of(p.r.size(), -1);
    for (int q = 0; q < n; ++q) {
      sub.G.col(q) = p.G.col(rows[q]);
      sub.r(q) = p.r(rows[q]);
      sub_of[rows[q]] = q;
    }
    sub.H = sub.G;
    std::vector<Eigen::Triplet<Real>> d;
    for (int i = 0; i < p.D.outerSize(); ++i)
      for (SparseRowMatX::InnerIterator e(p.D, i); e; ++e)
        if (sub_of[i] >= 0 && sub_of[e.col()] >= 0)
          d.emplace_back(sub_of[i], sub_of[e.col()], e.value());
    sub.D.resize(n, n);
    sub.D.setFromTriplets(d.begin(), d.end());
    SparseLemkeScratch s;
    MlcpSolution small, cold, warm;
    solve_sparse_lemke(sparse_of(sub), {}, s, small);
    ASSERT_TRUE(small.certificate.ok()) << trial;
    std::vector<bool> start(p.r.size(), false);
    for (int q = 0; q < n; ++q) start[rows[q]] = s.active[q];
    const SparseMlcp whole = sparse_of(p);
    solve_sparse_lemke(whole, {}, s, cold);
    solve_sparse_lemke(whole, {}, s, warm, &start);
    ASSERT_TRUE(cold.certificate.ok()) << trial << " " << to_string(cold.certificate.status);
    ASSERT_TRUE(warm.certificate.ok()) << trial << " " << to_string(warm.certificate.status);
    EXPECT_TRUE(s.stats.warm) << trial;
    warm_pivots += warm.certificate.pivots;
    cold_pivots += cold.certificate.pivots;
  }
  EXPECT_LT(warm_pivots, cold_pivots);
}

// LCP(N, q) with N = A Aᵀ + I/10 positive definite (a unique solution) and a third of q's entries
// equal to each of 0, −1 and 0.5 (m = 40 + 4 trial).
Lcp lcp_with_equal_rows(int trial) {
  std::mt19937 rng(7 + trial);
  std::uniform_real_distribution<Real> u(-1, 1);
  const int m = 40 + 4 * trial;
  MatX a(m, 6);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = u(rng);
  Lcp lcp{a * a.transpose() + 0.1 * MatX::Identity(m, m), VecX(m)};
  for (int i = 0; i < m; ++i) lcp.q[i] = i % 3 == 0 ? 0.0 : (i % 3 == 1 ? -1.0 : 0.5);
  return lcp;
}

TEST(SparseLemke, WideTiesAreBrokenByColumnsOfTheInverseToTheUniqueSolution) {
  // lcp_with_equal_rows (a unique solution, the dense Lemke's and the certificate its oracles),
  // one run with the covering vector d = 1 (the options' run, no retries: the retries' first
  // covering vector has distinct entries and leaves these ratios untied, below). The cold start's
  // first ratio test ties every row of a block, and later ones tie rows at 0. The sparse Lemke
  // breaks the ties a column of B⁻¹ at a time (sparse_lemke.cc, lexicographic), its rows only for
  // what the columns leave tied; with SolverOptions::diagnostics.lexicographic_columns off, by
  // the rows only, to the same answer.
  SparseLemkeScratch s;
  int columns = 0, ties = 0;
  SolverOptions unit_cover = no_fallback();
  unit_cover.diagnostics.extended_precision_retry = false;
  for (int trial = 0; trial < 10; ++trial) {
    const Lcp lcp = lcp_with_equal_rows(trial);
    const LcpSolution dense = solve_lemke(lcp, no_fallback());
    ASSERT_TRUE(dense.certificate.ok()) << trial;
    MlcpSolution sparse;
    solve_sparse_lemke(lcp_as_mlcp(lcp), unit_cover, s, sparse);
    ASSERT_TRUE(sparse.certificate.ok()) << trial;
    EXPECT_LT((sparse.z - dense.z).lpNorm<Eigen::Infinity>(), 1e-8 * (1 + dense.z.norm())) << trial;
    ties += s.stats.lexicographic_ties;
    columns += s.stats.lexicographic_columns;
    SolverOptions rows_only = unit_cover;
    rows_only.diagnostics.lexicographic_columns = false;
    MlcpSolution by_rows;
    solve_sparse_lemke(lcp_as_mlcp(lcp), rows_only, s, by_rows);
    ASSERT_TRUE(by_rows.certificate.ok()) << trial;
    EXPECT_EQ(s.stats.lexicographic_columns, 0) << trial;
    EXPECT_LT((by_rows.z - dense.z).lpNorm<Eigen::Infinity>(), 1e-8 * (1 + dense.z.norm()))
        << trial;
  }
  EXPECT_GT(ties, 0);     // the case arose
  EXPECT_GT(columns, 0);  // and the columns broke ties
}

TEST(SparseLemke, ColdRunsStartWithACoveringVectorOfDistinctEntries) {
  // The same LCPs with the default retries: the first cold run's covering vector has distinct
  // entries (sparse_lemke.cc, kColdStrategies; docs/solvers.md "Sparse Lemke"), so the equal
  // rows' ratios differ and no ratio test ties, to the same unique answer. With d = 1 (above)
  // they tie.
  SparseLemkeScratch s;
  for (int trial = 0; trial < 10; ++trial) {
    const Lcp lcp = lcp_with_equal_rows(trial);
    const LcpSolution dense = solve_lemke(lcp, no_fallback());
    ASSERT_TRUE(dense.certificate.ok()) << trial;
    MlcpSolution sparse;
    solve_sparse_lemke(lcp_as_mlcp(lcp), no_fallback(), s, sparse);
    ASSERT_TRUE(sparse.certificate.ok()) << trial;
    EXPECT_EQ(s.stats.runs, 1) << trial;
    EXPECT_EQ(s.stats.lexicographic_ties, 0) << trial;
    EXPECT_LT((sparse.z - dense.z).lpNorm<Eigen::Infinity>(), 1e-8 * (1 + dense.z.norm())) << trial;
  }
}

TEST(SparseLemke, SecondaryRaysAreReported) {
  // w = −z − 1: no z >= 0 gives w >= 0; the ray's z-part is a Farkas vector.
  Lcp infeasible{MatX::Constant(1, 1, -1.0), VecX::Constant(1, -1.0)};
  SparseLemkeScratch s;
  MlcpSolution out;
  solve_sparse_lemke(lcp_as_mlcp(infeasible), {}, s, out);
  EXPECT_EQ(out.certificate.status, SolveStatus::kInfeasible);
  // A solvable problem that is not copositive-plus: N = [[−1, 2], [2, −1]], q = (−1, −1) is
  // solved by z = (1, 1), but after z₀'s pivot (w₂ leaves) z₂ enters and nothing blocks it
  // (w₁ = 3 z₂, z₀ = 1 + z₂): a ray that proves nothing, as in the dense Lemke's first run.
  Lcp ray{(MatX(2, 2) << -1, 2, 2, -1).finished(), (VecX(2) << -1, -1).finished()};
  SolverOptions dense_options = no_fallback();
  dense_options.diagnostics.extended_precision_retry = false;
  const LcpSolution dense = solve_lemke(ray, dense_options);
  solve_sparse_lemke(lcp_as_mlcp(ray), {}, s, out);
  EXPECT_EQ(out.certificate.status, dense.certificate.status);
  EXPECT_NE(out.certificate.status, SolveStatus::kSolved);
  EXPECT_EQ(out.certificate.status, SolveStatus::kRay);
}

TEST(SparseLemke, EmptyAndFeasibleStartsTakeNoPivots) {
  Mlcp p;
  p.M.add_block(MatX::Identity(6, 6));
  p.G = MatX::Zero(6, 0);
  p.H = p.G;
  p.D.resize(0, 0);
  p.c = VecX::Ones(6);
  p.r = VecX(0);
  SparseLemkeScratch s;
  MlcpSolution out;
  solve_sparse_lemke(sparse_of(p), {}, s, out);
  EXPECT_TRUE(out.certificate.ok());
  EXPECT_LT((out.nu - p.c).norm(), 1e-15);
  // Bodies at rest without gravity, contacts apart: b >= 0, z = 0.
  PileRng rng(9);
  Mlcp apart = pile_step(3, 6, 0.3, rng);
  apart.r.head(6).setConstant(100.0);
  apart.c.setZero();
  solve_sparse_lemke(sparse_of(apart), {}, s, out);
  EXPECT_TRUE(out.certificate.ok());
  EXPECT_EQ(out.certificate.pivots, 0);
  EXPECT_EQ(out.z.cwiseAbs().maxCoeff(), 0.0);
}

TEST(SparseLemke, ItsWorkCapCountsAPivotAs4m) {
  // At most max_pivots_per_unknown · m + 1 pivots over all runs, and at most max_pivot_work / 4m
  // (sparse_lemke.h): a solve that needs more ends kMaxIterations within the cap.
  PileRng rng(5);
  SparseLemkeScratch s;
  int capped = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const SparseMlcp p = sparse_of(pile_step(4, 12, 0.5, rng));
    const Real m = static_cast<Real>(p.r.size());
    MlcpSolution free_run, run;
    SolverOptions o = no_fallback();
    o.max_pivot_work = 0;
    solve_sparse_lemke(p, o, s, free_run);
    ASSERT_TRUE(free_run.certificate.ok()) << trial;
    const int needed = free_run.certificate.pivots;
    if (needed < 4) continue;
    o.max_pivot_work = 4 * m * (needed / 2);
    solve_sparse_lemke(p, o, s, run);
    EXPECT_EQ(run.certificate.status, SolveStatus::kMaxIterations) << trial;
    EXPECT_LE(run.certificate.pivots, needed / 2) << trial;
    o.max_pivot_work = 4 * m * needed;
    solve_sparse_lemke(p, o, s, run);
    EXPECT_TRUE(run.certificate.ok()) << trial;
    ++capped;
  }
  EXPECT_GT(capped, 5);  // the case arose
}

TEST(SparseLemke, CapturedLcpsEndAsTheDenseLemke) {
  // The captured hard LCPs (tests/solvers/data/*.lcp; regression_test.cc) as MLCPs with D = N,
  // solved by one run (no retries) and with the retries, as the dense Lemke (without its
  // long-double retry and the fallbacks). The sparse one must solve at least as many as the
  // dense one each way, and never certify what must be refused (`-infeasible-`,
  // `-nonphysical-`, `-beyond-scale-`).
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(EXACTSIM_SOURCE_DIR) / "tests/solvers/data"))
    if (e.path().extension() == ".lcp") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  SparseLemkeScratch s;
  for (const bool retries : {false, true}) {
    int dense_solved = 0, sparse_solved = 0;
    for (const fs::path& f : files) {
      LcpFileInfo info;
      const Lcp lcp = read_lcp(f.string(), &info);
      SolverOptions o = no_fallback();
      o.diagnostics.extended_precision_retry = retries;
      o.regularisation_path_retry = false;
      o.impulse_scale = info.impulse_scale;
      SolverOptions dense_options = o;
      dense_options.max_pivot_work = 0;  // no long-double retry: it is not the sparse form's
      dense_options.max_pivots = 0;
      const LcpSolution dense = solve_lemke(lcp, dense_options);
      MlcpSolution sparse;
      solve_sparse_lemke(lcp_as_mlcp(lcp), o, s, sparse);
      const std::string name = f.filename().string();
      const bool refuse = name.find("-infeasible-") != std::string::npos ||
                          name.find("-nonphysical-") != std::string::npos ||
                          name.find("-beyond-scale-") != std::string::npos;
      if (refuse) {
        EXPECT_FALSE(sparse.certificate.ok()) << name;
      }
      if (retries && name.find("-infeasible-") != std::string::npos) {
        EXPECT_EQ(sparse.certificate.status, SolveStatus::kInfeasible) << name;
      }
      dense_solved += dense.certificate.ok();
      sparse_solved += sparse.certificate.ok();
      std::cout << "  " << (retries ? "retries " : "one run ") << name << ": dense "
                << to_string(dense.certificate.status) << " (" << dense.certificate.pivots
                << " pivots), sparse " << to_string(sparse.certificate.status) << " ("
                << sparse.certificate.pivots << " pivots, " << s.stats.runs << " runs, "
                << s.stats.refactorisations << " factorisations, " << s.stats.lexicographic_rows
                << " lexicographic rows)\n";
    }
    EXPECT_GE(sparse_solved, dense_solved) << retries;
  }
}

}  // namespace
}  // namespace exactsim::sparse_lemke_test
