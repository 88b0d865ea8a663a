// The closed-form inverse of a friction cone's interior-point matrix (src/solvers/cone_inverse.h,
// docs/solvers.md "Interior point") against the exact inverse in rational arithmetic.
#include "solvers/cone_inverse.h"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace exactsim {
namespace {

// A Stewart–Trinkle cone's D_gg: rows p, β_1 … β_k, σ (σ's row μ, −1 …; σ's column +1 on β).
MatX cone(int k, Real mu) {
  const int n = k + 2, last = n - 1;
  MatX d = MatX::Zero(n, n);
  d(last, 0) = mu;
  for (int j = 1; j <= k; ++j) {
    d(last, j) = -1;
    d(j, last) = 1;
  }
  return d;
}

// (d + diag(w/z))⁻¹ exactly: Gauss–Jordan over the rationals on the exact entries.
std::vector<mpq_class> exact_inverse(const MatX& d, const VecX& z, const VecX& w) {
  const int n = static_cast<int>(d.rows());
  std::vector<mpq_class> a(n * n), inv(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      a[i + j * n] = mpq_class(d(i, j));
      if (i == j) a[i + j * n] += mpq_class(w[i]) / mpq_class(z[i]);
      inv[i + j * n] = i == j ? 1 : 0;
    }
  for (int j = 0; j < n; ++j) {
    int p = j;
    while (a[p + j * n] == 0) ++p;
    for (int c = 0; c < n; ++c) {
      std::swap(a[p + c * n], a[j + c * n]);
      std::swap(inv[p + c * n], inv[j + c * n]);
    }
    const mpq_class pivot = a[j + j * n];
    for (int c = 0; c < n; ++c) {
      a[j + c * n] /= pivot;
      inv[j + c * n] /= pivot;
    }
    for (int i = 0; i < n; ++i) {
      if (i == j || a[i + j * n] == 0) continue;
      const mpq_class f = a[i + j * n];
      for (int c = 0; c < n; ++c) {
        a[i + c * n] -= f * a[j + c * n];
        inv[i + c * n] -= f * inv[j + c * n];
      }
    }
  }
  return inv;
}

TEST(ConeInverse, EveryEntryIsWithinAFewRoundingsOfTheExactInverseHoweverFarApartTheRowsAre) {
  // z_i and w_i log-uniform over 24 decades, so λ_i = w_i/z_i spans 10⁻²⁴–10²⁴: a sliding
  // contact's one active β (z large, w small) against the others, where an elimination cancels.
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> decade(-12, 12), friction(0, 1.5);
  std::uniform_int_distribution<int> directions(1, 8);
  const std::vector<int> rows = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  Real worst = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int k = directions(rng), n = k + 2;
    const MatX d = cone(k, trial % 10 == 0 ? 0 : friction(rng));
    ASSERT_TRUE(is_cone(d));
    VecX z(n), w(n);
    for (int i = 0; i < n; ++i) {
      z[i] = std::pow(10.0, decade(rng));
      w[i] = std::pow(10.0, decade(rng));
    }
    std::vector<Real> inv(n * n);
    cone_inverse(d, z.data(), w.data(), rows.data(), inv.data());
    const std::vector<mpq_class> exact = exact_inverse(d, z, w);
    for (int e = 0; e < n * n; ++e) {
      if (exact[e] == 0) {
        EXPECT_EQ(inv[e], 0) << "trial " << trial << " entry " << e;
        continue;
      }
      const mpq_class error = (mpq_class(inv[e]) - exact[e]) / exact[e];
      worst = std::max(worst, std::abs(error.get_d()));
    }
  }
  // Each entry is a product and quotient of sums of non-negative terms: at most about
  // (k + 6) roundings of 2⁻⁵³ each, k ≤ 8.
  EXPECT_LT(worst, 16 * std::numeric_limits<Real>::epsilon());
  EXPECT_GT(worst, 0);  // the comparison sees rounding: it is not vacuous
}

TEST(ConeInverse, ZAndWAreReadThroughTheGroupsRows) {
  const MatX d = cone(4, 0.3);
  VecX z(12), w(12);
  for (int i = 0; i < 12; ++i) {
    z[i] = 1 + i;
    w[i] = 2 + 0.5 * i;
  }
  const std::vector<int> rows = {7, 2, 9, 0, 11, 4};
  VecX zg(6), wg(6);
  for (int i = 0; i < 6; ++i) {
    zg[i] = z[rows[i]];
    wg[i] = w[rows[i]];
  }
  std::vector<Real> inv(36);
  cone_inverse(d, z.data(), w.data(), rows.data(), inv.data());
  MatX k = d;
  for (int i = 0; i < 6; ++i) k(i, i) += wg[i] / zg[i];
  const MatX product = k * Eigen::Map<const MatX>(inv.data(), 6, 6);
  EXPECT_LT((product - MatX::Identity(6, 6)).lpNorm<Eigen::Infinity>(), 1e-14);
}

TEST(ConeInverse, OnlyTheConesShapeIsACone) {
  EXPECT_TRUE(is_cone(cone(2, 0.3)));
  EXPECT_TRUE(is_cone(cone(4, 0)));
  // A PEG group: an impulse row and its slack coupled ahead of the cone (PEG paper eq. 20).
  MatX peg = MatX::Zero(7, 7);
  peg(0, 1) = peg(1, 1) = 1;
  peg.bottomRightCorner(5, 5) = cone(3, 0.3).bottomRightCorner(5, 5);
  peg(6, 0) = 0.3;
  EXPECT_FALSE(is_cone(peg));
  MatX same_signs = cone(2, 0.3);
  same_signs(1, 3) = -1;  // r_1 c_1 = 1 > 0: the Schur complement could cancel
  EXPECT_FALSE(is_cone(same_signs));
  MatX negative = cone(2, 0.3);
  negative(3, 3) = -1;
  EXPECT_FALSE(is_cone(negative));
  EXPECT_FALSE(is_cone(MatX::Zero(1, 1)));
}

}  // namespace
}  // namespace exactsim
