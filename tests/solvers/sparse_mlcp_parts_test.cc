// The independent parts of a body-space MLCP (docs/solvers.md "The working set's parts"): the
// partition against a breadth-first search over the dense pattern, each part's problem against
// the whole problem's blocks, and the parts' answers, solved one at a time, certified on the
// whole problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>
#include <random>
#include <vector>

#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "pile_step.h"

namespace exactsim::sparse_mlcp_parts_test {
namespace {

using solvers_test::pile_step;
using solvers_test::PileRng;

// Two problems side by side: a's bodies and rows, then b's (no row of one touches the other's
// bodies).
Mlcp side_by_side(const Mlcp& a, const Mlcp& b) {
  Mlcp p;
  for (const Mlcp* q : {&a, &b})
    for (const MatX& block : q->M.blocks) p.M.add_block(block);
  const int nva = a.M.size(), nvb = b.M.size();
  const int ma = static_cast<int>(a.r.size()), mb = static_cast<int>(b.r.size());
  p.G = MatX::Zero(nva + nvb, ma + mb);
  p.G.topLeftCorner(nva, ma) = a.G;
  p.G.bottomRightCorner(nvb, mb) = b.G;
  p.H = MatX::Zero(nva + nvb, ma + mb);
  p.H.topLeftCorner(nva, ma) = a.H;
  p.H.bottomRightCorner(nvb, mb) = b.H;
  std::vector<Eigen::Triplet<Real>> t;
  for (int i = 0; i < ma; ++i)
    for (SparseRowMatX::InnerIterator e(a.D, i); e; ++e) t.emplace_back(i, e.col(), e.value());
  for (int i = 0; i < mb; ++i)
    for (SparseRowMatX::InnerIterator e(b.D, i); e; ++e)
      t.emplace_back(ma + i, ma + e.col(), e.value());
  p.D.resize(ma + mb, ma + mb);
  p.D.setFromTriplets(t.begin(), t.end());
  p.c.resize(nva + nvb);
  p.c << a.c, b.c;
  p.r.resize(ma + mb);
  p.r << a.r, b.r;
  return p;
}

// The oracle: rows joined when they share a body (a nonzero of G or H in its block) or a nonzero
// of D, by breadth-first search over the dense matrices. Returns each row's component, numbered
// by first row.
std::vector<int> components(const Mlcp& p) {
  const int m = static_cast<int>(p.r.size()), bodies = static_cast<int>(p.M.blocks.size());
  const MatX d = p.D.toDense();
  const auto touches = [&](int j, int b) {
    const int o = p.M.offsets[b], n = static_cast<int>(p.M.blocks[b].rows());
    return p.G.col(j).segment(o, n).cwiseAbs().maxCoeff() > 0 ||
           p.H.col(j).segment(o, n).cwiseAbs().maxCoeff() > 0;
  };
  std::vector<int> part(m, -1);
  int parts = 0;
  for (int s = 0; s < m; ++s) {
    if (part[s] >= 0) continue;
    std::queue<int> open;
    open.push(s);
    part[s] = parts;
    while (!open.empty()) {
      const int i = open.front();
      open.pop();
      for (int j = 0; j < m; ++j) {
        if (part[j] >= 0) continue;
        bool linked = d(i, j) != 0 || d(j, i) != 0;
        for (int b = 0; b < bodies && !linked; ++b) linked = touches(i, b) && touches(j, b);
        if (linked) part[j] = parts, open.push(j);
      }
    }
    ++parts;
  }
  return part;
}

TEST(SparseMlcpParts, ThePartsAreTheComponentsOfTheRowsThroughBodiesAndD) {
  PileRng rng(11);
  MlcpParts parts;
  for (int trial = 0; trial < 20; ++trial) {
    const Mlcp a = pile_step(1 + trial % 4, 1 + trial % 5, trial % 2 ? 0.3 : 0, rng);
    const Mlcp b = pile_step(2 + trial % 3, 2 + trial % 4, 0.5, rng);
    const Mlcp p = side_by_side(a, b);
    split_parts(sparse_of(p), parts);
    const std::vector<int> expected = components(p);
    const int m = static_cast<int>(p.r.size()), ma = static_cast<int>(a.r.size());
    ASSERT_EQ(parts.count(), *std::max_element(expected.begin(), expected.end()) + 1) << trial;
    EXPECT_GE(parts.count(), 2) << trial;
    for (int i = 0; i < m; ++i) {
      EXPECT_EQ(parts.part_of_row[i], expected[i]) << trial << " row " << i;
      EXPECT_EQ(parts.rows[parts.row_begin[parts.part_of_row[i]] + parts.local_row[i]], i);
      if (i >= ma) {  // a's rows and b's never share a part
        EXPECT_NE(parts.part_of_row[i], parts.part_of_row[0]) << trial;
      }
    }
  }
}

TEST(SparseMlcpParts, EachPartIsTheWholeProblemsBlockAndTheirAnswersCertifyTheWhole) {
  PileRng rng(5);
  MlcpParts parts;
  SparseMlcpScratch scratch;
  for (int trial = 0; trial < 20; ++trial) {
    const Mlcp p = side_by_side(pile_step(2 + trial % 3, 6 + trial % 7, 0.4, rng),
                                pile_step(3 + trial % 2, 8 + trial % 5, 0.2, rng));
    const SparseMlcp whole = sparse_of(p);
    split_parts(whole, parts);
    MlcpSolution x;
    // Bodies no row touches move freely: ν = M⁻¹ c.
    x.nu.resize(p.M.size());
    for (std::size_t b = 0; b < p.M.blocks.size(); ++b) {
      const int o = p.M.offsets[b], n = static_cast<int>(p.M.blocks[b].rows());
      x.nu.segment(o, n) = p.M.blocks[b].llt().solve(p.c.segment(o, n));
    }
    x.z.setZero(p.r.size());
    SparseMlcp part;
    Mlcp dense_part;
    for (int k = 0; k < parts.count(); ++k) {
      part_problem(whole, parts, k, part);
      dense_of(part, dense_part);
      // The part's blocks of M, G, H, D, c and r are the whole problem's.
      std::vector<int> v;  // the whole problem's ν index of each of the part's
      for (int q = parts.block_begin[k]; q < parts.block_begin[k + 1]; ++q)
        for (int a = 0; a < 6; ++a) v.push_back(p.M.offsets[parts.blocks[q]] + a);
      const int n = parts.row_begin[k + 1] - parts.row_begin[k];
      const int* rows = parts.rows.data() + parts.row_begin[k];
      ASSERT_EQ(dense_part.M.size(), static_cast<int>(v.size()));
      const MatX md = p.M.dense(), pd = dense_part.M.dense(), d = p.D.toDense(),
                 dp = dense_part.D.toDense();
      for (std::size_t i = 0; i < v.size(); ++i) {
        EXPECT_EQ(dense_part.c[i], p.c[v[i]]);
        for (std::size_t j = 0; j < v.size(); ++j) EXPECT_EQ(pd(i, j), md(v[i], v[j]));
        for (int q = 0; q < n; ++q) {
          EXPECT_EQ(dense_part.G(i, q), p.G(v[i], rows[q]));
          EXPECT_EQ(dense_part.H(i, q), p.H(v[i], rows[q]));
        }
      }
      for (int q = 0; q < n; ++q) {
        EXPECT_EQ(dense_part.r[q], p.r[rows[q]]);
        for (int s = 0; s < n; ++s) EXPECT_EQ(dp(q, s), d(rows[q], rows[s]));
      }
      // Solved alone, its answer goes back in place.
      MlcpSolution y;
      solve_sparse_mlcp(part, {}, scratch, y);
      ASSERT_TRUE(y.certificate.ok()) << trial << " part " << k;
      for (std::size_t i = 0; i < v.size(); ++i) x.nu[v[i]] = y.nu[i];
      for (int q = 0; q < n; ++q) x.z[rows[q]] = y.z[q];
    }
    // The whole problem's certificate, with dense products, at the sparse solve's tolerance.
    SparseMlcpScratch whole_scratch;
    prepare_sparse_mlcp(whole, whole_scratch);
    SolverOptions o;
    o.impulse_scale = sparse_mlcp_impulse_scale(whole, whole_scratch);
    const Real tol = o.tolerance * std::max<Real>(1, whole_scratch.b.lpNorm<Eigen::Infinity>());
    VecX w;
    const SolveCertificate c = verify_mlcp(p, x.nu, x.z, tol, o, w);
    EXPECT_TRUE(c.ok()) << trial << " " << to_string(c.status) << " complementarity "
                        << c.complementarity;
  }
}

}  // namespace
}  // namespace exactsim::sparse_mlcp_parts_test
