// After warm-up, repeated solves with reused scratch do not touch the heap (the stepper's
// requirement). malloc is interposed to count calls; skipped under sanitizers, which own malloc.
#include <gtest/gtest.h>

#include <random>

#include "exactsim/solvers/mlcp.h"
#include "solvers/lcp_scratch.h"

#include "malloc_counter.h"

namespace exactsim {
namespace {

#if EXACTSIM_COUNT_MALLOC
Mlcp scene(unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<Real> normal;
  Mlcp p;
  for (int b = 0; b < 4; ++b) p.M.add_block(Vec3(2.0, 2.0, 0.3).asDiagonal().toDenseMatrix());
  const int nv = 12, m = 10;
  p.G.resize(nv, m);
  for (Eigen::Index i = 0; i < p.G.size(); ++i) p.G.data()[i] = normal(rng);
  p.H = p.G;
  p.D.resize(m, m);
  p.c.resize(nv);
  p.r.resize(m);
  for (int i = 0; i < nv; ++i) p.c(i) = normal(rng);
  // Planted so that it is solvable: r = s − Hᵀν − D z for a complementary (z, s).
  VecX z = VecX::Zero(m), s = VecX::Zero(m);
  for (int i = 0; i < m; ++i) (i % 2 ? z(i) : s(i)) = std::abs(normal(rng));
  const VecX nu = p.M.dense().inverse() * (p.G * z + p.c);
  p.r = s - p.H.transpose() * nu;
  return p;
}
#endif

TEST(Allocation, RepeatedSolvesReuseScratch) {
#if EXACTSIM_COUNT_MALLOC
  std::vector<Mlcp> problems;
  for (unsigned k = 0; k < 5; ++k) problems.push_back(scene(k));
  MlcpScratch scratch;
  MlcpSolution out;
  SolverOptions o;
  for (const Mlcp& p : problems) solve_mlcp(p, o, scratch, out);  // warm-up
  for (const Mlcp& p : problems) {
    const long before = malloc_calls;
    solve_mlcp(p, o, scratch, out);
    const long calls = malloc_calls - before;
    ASSERT_TRUE(out.certificate.ok());
    EXPECT_EQ(calls, 0) << "heap allocations in a warmed-up solve_mlcp";
  }
  // The Fischer–Burmeister path too.
  LcpScratch lcp_scratch;
  LcpSolution lcp_out;
  const Lcp& reduced = scratch.reduced;
  const VecX z0 = VecX::Zero(reduced.q.size());
  solve_fischer_burmeister(reduced, z0, o, lcp_scratch, lcp_out);
  const long before = malloc_calls;
  solve_fischer_burmeister(reduced, z0, o, lcp_scratch, lcp_out);
  EXPECT_TRUE(lcp_out.certificate.ok());
  EXPECT_EQ(malloc_calls - before, 0) << "heap allocations in a warmed-up FB solve";
  // The counter works at all.
  const long probe = malloc_calls;
  VecX v(1000);
  v.setZero();
  EXPECT_GT(malloc_calls, probe);
#else
  GTEST_SKIP() << "malloc interposition is unavailable under sanitizers";
#endif
}

}  // namespace
}  // namespace exactsim
