// Lemke in the revised form (docs/solvers.md "Revised Lemke"): the inverse of the basis's k×k
// block of z columns updated per pivot instead of the dense tableau. The same algorithm, so on
// problems with a unique answer it must give the dense form's answer, certified; the oracles are
// enumeration and the dense form. (Degenerate ties: Lemke.DuplicateContactsAndZeroGapsAreSolved
// runs both forms.)
#include <gtest/gtest.h>

#include <random>

#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/lcp_io.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {
namespace {

SolverOptions revised(bool on = true) {
  SolverOptions o;
  o.fallback = false;
  o.diagnostics.revised_min_size = on ? 1 : 0;
  return o;
}

Lcp random_lcp(std::mt19937& rng, int n, int kind) {
  std::normal_distribution<Real> normal;
  Lcp p{MatX(n, n), VecX(n)};
  MatX a(n, std::max(1, n / 2));
  for (Eigen::Index k = 0; k < a.size(); ++k) a.data()[k] = normal(rng);
  MatX s(n, n);
  for (Eigen::Index k = 0; k < s.size(); ++k) s.data()[k] = normal(rng);
  switch (kind) {
    case 0:  // P-matrix: positive definite plus skew (a unique solution)
      p.M = a * a.transpose() + MatX::Identity(n, n) + (s - s.transpose());
      break;
    case 1:  // PSD, rank n/2 (contacts outnumbering the bodies' freedoms)
      p.M = a * a.transpose();
      break;
    default:  // PSD plus skew: copositive-plus, solvable or proven infeasible by Lemke
      p.M = a * a.transpose() + (s - s.transpose());
  }
  for (int i = 0; i < n; ++i) p.q(i) = normal(rng);
  return p;
}

TEST(RevisedLemke, RandomProblemsAgreeWithEnumeration) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 120; ++trial) {
    const int n = 1 + trial % 12, kind = trial % 3;
    const Lcp p = random_lcp(rng, n, kind);
    const LcpSolution s = solve_lemke(p, revised());
    const auto all = enumerate_lcp_solutions(p, 1e-9);
    if (all.empty()) {
      EXPECT_EQ(s.certificate.status, SolveStatus::kInfeasible) << trial;
      continue;
    }
    ASSERT_TRUE(s.certificate.ok()) << trial << " " << to_string(s.certificate.status);
    // w is unique for PSD (+ skew) problems; z too for a P-matrix.
    EXPECT_LT((p.M * all[0] + p.q - s.w).lpNorm<Eigen::Infinity>(), 1e-8) << trial;
    if (kind == 0) {
      EXPECT_LT((all[0] - s.z).lpNorm<Eigen::Infinity>(), 1e-8) << trial;
    }
  }
}

TEST(RevisedLemke, FollowsTheDensePathOnLargerProblems) {
  // n = 40 … 150: no ties, so both forms take the same pivots and end on the same basis.
  std::mt19937 rng(8);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 40 + 10 * trial;
    const Lcp p = random_lcp(rng, n, trial % 2 == 0 ? 0 : 2);
    const LcpSolution dense = solve_lemke(p, revised(false));
    const LcpSolution rev = solve_lemke(p, revised());
    ASSERT_EQ(rev.certificate.status, dense.certificate.status) << trial;
    EXPECT_EQ(rev.certificate.pivots, dense.certificate.pivots) << trial;
    if (dense.certificate.ok()) {
      EXPECT_LT((rev.z - dense.z).lpNorm<Eigen::Infinity>(),
                1e-9 * std::max<Real>(1, dense.z.lpNorm<Eigen::Infinity>()))
          << trial;
    }
  }
}

// A Delassus matrix Jᵀ J of rows that each touch two of 40 bodies (about 10 % of M nonzero):
// the basis solve on M's compressed columns adds the same products in the same order as on the
// dense columns, so the path and the answer are the same to the last bit.
TEST(RevisedLemke, CompressedColumnsFollowTheDenseColumnsExactly) {
  std::mt19937 rng(12);
  std::normal_distribution<Real> normal;
  std::uniform_int_distribution<int> body(0, 39);
  for (int trial = 0; trial < 4; ++trial) {
    const int n = 100 + 40 * trial, dof = 6 * 40;  // n < dof: M positive definite
    MatX j = MatX::Zero(dof, n);
    for (int c = 0; c < n; ++c) {
      const int a = body(rng);
      int b = body(rng);
      while (b == a) b = body(rng);
      for (int d = 0; d < 6; ++d) j(6 * a + d, c) = normal(rng), j(6 * b + d, c) = normal(rng);
    }
    Lcp p{j.transpose() * j, VecX(n)};
    for (int i = 0; i < n; ++i) p.q(i) = normal(rng);
    ASSERT_LT((p.M.array() != 0).count(), p.M.size() / 4) << trial;
    SolverOptions dense_columns = revised();
    dense_columns.diagnostics.revised_sparse_density = 0;
    const LcpSolution a = solve_lemke(p, revised());
    const LcpSolution b = solve_lemke(p, dense_columns);
    ASSERT_TRUE(a.certificate.ok()) << trial << " " << to_string(a.certificate.status);
    EXPECT_EQ(a.certificate.pivots, b.certificate.pivots) << trial;
    EXPECT_TRUE(a.z == b.z) << trial;  // bitwise
  }
}

TEST(RevisedLemke, FrequentRefactorisationKeepsTheAnswer) {
  // Every pivot recomputes G = C⁻¹ from an LU of C: the updates and the factorisation agree.
  std::mt19937 rng(13);
  for (int trial = 0; trial < 10; ++trial) {
    const Lcp p = random_lcp(rng, 30 + 5 * trial, 0);
    SolverOptions every = revised();
    every.diagnostics.refactor_interval = 1;
    const LcpSolution a = solve_lemke(p, revised()), b = solve_lemke(p, every);
    ASSERT_TRUE(a.certificate.ok() && b.certificate.ok()) << trial;
    EXPECT_EQ(a.certificate.pivots, b.certificate.pivots) << trial;
    EXPECT_LT((a.z - b.z).lpNorm<Eigen::Infinity>(), 1e-10) << trial;
  }
}

TEST(RevisedLemke, WarmStartsFromAComplementaryBasis) {
  // From the solution's own basis: no pivot. From a basis off by a few unknowns: certified. From
  // a singular one (two identical columns both basic): refused, as the dense form refuses it.
  std::mt19937 rng(17);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 20 + 4 * trial;
    const Lcp p = random_lcp(rng, n, 0);
    LcpScratch scratch;
    LcpSolution cold;
    solve_lemke(p, revised(), scratch, cold);
    ASSERT_TRUE(cold.certificate.ok()) << trial;
    const std::vector<bool> basis = scratch.active;
    LcpSolution warm;
    ASSERT_TRUE(solve_lemke_from(p, basis, revised(), scratch, warm)) << trial;
    EXPECT_TRUE(warm.certificate.ok()) << trial;
    EXPECT_EQ(warm.certificate.pivots, 0) << trial;
    std::vector<bool> off = basis;
    for (int i = 0; i < n; i += 5) off[i] = !off[i];
    ASSERT_TRUE(solve_lemke_from(p, off, revised(), scratch, warm)) << trial;
    EXPECT_TRUE(warm.certificate.ok()) << trial;
    EXPECT_LT((warm.z - cold.z).lpNorm<Eigen::Infinity>(), 1e-9) << trial;  // P-matrix: unique
  }
  Lcp dup{MatX::Ones(3, 3), VecX::Constant(3, -1.0)};
  dup.M(2, 2) = 2;
  const std::vector<bool> both = {true, true, false};
  LcpScratch scratch;
  LcpSolution out;
  EXPECT_FALSE(solve_lemke_from(dup, both, revised(), scratch, out));
  EXPECT_FALSE(solve_lemke_from(dup, both, revised(false), scratch, out));
}

TEST(RevisedLemke, ARayRestartDowndatesTheLastStartsInverse) {
  // A ray restart starts from the last run's start without one unknown (docs/solvers.md "Fallback
  // policy"): its C⁻¹ is the last start's, downdated in O(k²), not factorised again. The run from
  // it must take the fresh factorisation's path to its answer. A start that differs by more than
  // one unknown is factorised.
  std::mt19937 rng(23);
  SolverOptions first = revised();
  first.max_pivots = 3;  // ends before any refactorisation: C's inverse stays the start's
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 60 + 20 * trial;
    const Lcp p = random_lcp(rng, n, 0);
    std::vector<bool> start(n);
    for (int i = 0; i < n; ++i) start[i] = (7 * i + trial) % 3 == 0;
    std::vector<bool> without = start;
    int j = n / 2;
    while (!start[j]) ++j;
    without[j] = false;
    LcpScratch restarted, fresh;
    LcpSolution a, b;
    restarted.revised.capped_run = true;
    ASSERT_TRUE(solve_lemke_from(p, start, first, restarted, a)) << trial;
    restarted.revised.restart = true;
    ASSERT_TRUE(solve_lemke_from(p, without, revised(), restarted, a)) << trial;
    EXPECT_EQ(restarted.revised.downdated_starts, 1) << trial;
    ASSERT_TRUE(solve_lemke_from(p, without, revised(), fresh, b)) << trial;
    EXPECT_EQ(fresh.revised.downdated_starts, 0) << trial;
    ASSERT_TRUE(b.certificate.ok()) << trial;
    EXPECT_TRUE(a.certificate.ok()) << trial;
    EXPECT_EQ(a.certificate.pivots, b.certificate.pivots) << trial;
    EXPECT_LT((a.z - b.z).lpNorm<Eigen::Infinity>(),
              1e-9 * std::max<Real>(1, b.z.lpNorm<Eigen::Infinity>()))
        << trial;
    // Two unknowns off the last start: factorised.
    ASSERT_TRUE(solve_lemke_from(p, start, first, restarted, a)) << trial;
    std::vector<bool> two_off = without;
    two_off[j == 0 ? 1 : 0] = !two_off[j == 0 ? 1 : 0];
    ASSERT_TRUE(solve_lemke_from(p, two_off, revised(), restarted, a)) << trial;
    EXPECT_EQ(restarted.revised.downdated_starts, 1) << trial;
    EXPECT_TRUE(a.certificate.ok()) << trial;
  }
}

TEST(RevisedLemke, ALargeBasisBlockWorksInTheCornerOfALargerBuffer) {
  // Once C is a large block (4 MB or more: k >= 725) its buffer only grows, and C lives in its
  // top-left corner (docs/solvers.md "Allocation"). A scratch that held a larger start must then
  // factorise a smaller one, and downdate it for a ray restart, in that corner: the answer and the
  // pivots are a fresh scratch's.
  std::mt19937 rng(41);
  const int n = 800;
  const Lcp p = random_lcp(rng, n, 0);
  std::vector<bool> larger(n), start(n);
  for (int i = 0; i < n; ++i) larger[i] = i % 40 != 0, start[i] = i % 20 != 0;  // k = 780, 760
  std::vector<bool> without = start;
  without[n / 2 + 1] = false;
  ASSERT_TRUE(start[n / 2 + 1]);
  SolverOptions capped = revised();
  capped.max_pivots = 3;  // ends before any refactorisation: C's inverse stays the start's
  LcpScratch reused, fresh;
  LcpSolution a, b;
  reused.revised.capped_run = true;
  ASSERT_TRUE(solve_lemke_from(p, larger, capped, reused, a));
  ASSERT_TRUE(solve_lemke_from(p, start, capped, reused, a));
  EXPECT_GE(reused.revised.c.rows(), 780);  // C's 760 columns in the corner of the larger buffer
  reused.revised.restart = true;
  ASSERT_TRUE(solve_lemke_from(p, without, revised(), reused, a));
  EXPECT_EQ(reused.revised.downdated_starts, 1);
  ASSERT_TRUE(solve_lemke_from(p, without, revised(), fresh, b));
  ASSERT_TRUE(b.certificate.ok()) << to_string(b.certificate.status);
  EXPECT_TRUE(a.certificate.ok()) << to_string(a.certificate.status);
  EXPECT_EQ(a.certificate.pivots, b.certificate.pivots);
  EXPECT_LT((a.z - b.z).lpNorm<Eigen::Infinity>(),
            1e-9 * std::max<Real>(1, b.z.lpNorm<Eigen::Infinity>()));
}

TEST(RevisedLemke, AStartTakesTheBasisChecksLu) {
  // solve_lcp's first run from last step's basis starts from the LU its basis check made of the
  // same block (RevisedLemkeScratch::start_lu): C = −M_αα has that LU with U negated. The run
  // must be the one that factorises C itself — bit for bit when both LUs are LAPACK's (k >= 128),
  // to round-off when the check's own small-block LU made it.
  std::mt19937 rng(31);
  for (const int every : {2, 5}) {  // k = 150 and 60 of n = 300
    const int n = 300;
    const Lcp p = random_lcp(rng, n, 0);
    std::vector<bool> basis(n);
    for (int i = 0; i < n; ++i) basis[i] = i % every == 0;
    LcpScratch with_lu, without;
    LcpSolution a, b;
    VecX z;
    ASSERT_TRUE(solve_active_block(p, basis, with_lu, z, 1e-8)) << every;
    with_lu.revised.start_lu = &with_lu.block_matrix;
    with_lu.revised.start_lu_swaps = &with_lu.basis_swaps;
    ASSERT_TRUE(solve_lemke_from(p, basis, revised(), with_lu, a)) << every;
    EXPECT_EQ(with_lu.revised.start_lu, nullptr) << every;  // consumed
    ASSERT_TRUE(solve_lemke_from(p, basis, revised(), without, b)) << every;
    ASSERT_TRUE(a.certificate.ok() && b.certificate.ok()) << every;
    EXPECT_EQ(a.certificate.pivots, b.certificate.pivots) << every;
    const Real diff = (a.z - b.z).lpNorm<Eigen::Infinity>();
    if (every == 2)
      EXPECT_EQ(diff, 0) << every;
    else
      EXPECT_LT(diff, 1e-9 * std::max<Real>(1, b.z.lpNorm<Eigen::Infinity>())) << every;
  }
}

TEST(RevisedLemke, PolishRefinesTheFinalBasisWithItsInverse) {
  // The revised form polishes its final basis by iterative refinement with the updated G instead
  // of an LU of the active block: the answer must be that LU solve's, and solve the basis's
  // equations M_αα z_α + q_α = 0 to round-off.
  std::mt19937 rng(29);
  int solved = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const int n = 80 + 30 * trial;
    // Unknowns of scales 1e-2 … 1e2 (N's rows of light and heavy bodies): the updates' drift
    // is then well above round-off.
    Lcp p = random_lcp(rng, n, 0);
    const VecX scales = (VecX::Random(n) * 2 * std::log(10.0)).array().exp();
    p.M = scales.asDiagonal() * p.M * scales.asDiagonal();
    p.q = scales.asDiagonal() * p.q;
    LcpScratch s;
    LcpSolution out;
    solve_lemke(p, revised(), s, out);
    if (!out.certificate.ok() || out.certificate.pivots == 0) continue;
    ++solved;
    EXPECT_EQ(s.revised.refined_polishes, 1) << trial;
    const std::vector<bool> active = s.active;
    VecX z_lu;
    ASSERT_TRUE(solve_active_block(p, active, s, z_lu, 1e-14)) << trial;
    const Real z_max = std::max<Real>(1, z_lu.lpNorm<Eigen::Infinity>());
    EXPECT_LT((out.z - z_lu).lpNorm<Eigen::Infinity>(), 1e-10 * z_max) << trial;
    const Real scale = p.M.cwiseAbs().maxCoeff() * z_max + p.q.lpNorm<Eigen::Infinity>();
    for (int i = 0; i < n; ++i) {
      if (active[i]) {
        EXPECT_LT(std::abs(out.w(i)), 1e-13 * scale) << trial << " row " << i;
      }
    }
  }
  EXPECT_EQ(solved, 8);
}

TEST(RevisedLemke, CapturedFrictionalStepsCertify) {
  // Frictional PEG steps of the regression suite that need the retries (2D pour, n = 196; the 3D
  // four-box stack, n = 224): with the same retries as the dense form, the revised form ends
  // solved, certified with the physical scale of each file. (The 15-box pyramid's step, n = 1,184:
  // Lemke.SmallPivotsAreDecidedOnARefinedColumn, in both forms.)
  for (const char* name :
       {"peg2d-friction-mu03-seed1-step922-oldray.lcp", "peg3d-boxstack-mu04-step24.lcp"}) {
    LcpFileInfo info;
    const Lcp p = read_lcp(std::string(EXACTSIM_SOURCE_DIR "/tests/solvers/data/") + name, &info);
    SolverOptions o = revised();
    o.impulse_scale = info.impulse_scale;
    const LcpSolution s = solve_lemke(p, o);
    ASSERT_EQ(s.certificate.status, SolveStatus::kSolved) << name;
    VecX w;
    EXPECT_TRUE(
        verify_lcp(p, s.z, verification_tolerance(p, o), certificate_impulse_scale(p, o), w).ok())
        << name;
  }
}

}  // namespace
}  // namespace exactsim
