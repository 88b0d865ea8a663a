// Block LU in minimum-degree order (src/solvers/block_lu.h).
#include "solvers/block_lu.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/Dense>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace exactsim {
namespace {

// Eliminates the block graph `adjacent` (each list sorted, without itself) in minimum-degree order
// (ties to the lower index): eliminating v joins its neighbours into a clique, and its neighbours
// then are L's rows in its column. `adjacent` ends as those rows.
void minimum_degree(std::vector<std::vector<int>>& adjacent, std::vector<int>& order) {
  const int n = static_cast<int>(adjacent.size());
  std::vector<char> done(n, 0);
  order.clear();
  std::vector<int> merged;
  for (int step = 0; step < n; ++step) {
    // (a scan: n is a part's bodies, and the ordering is once a solve)
    int v = -1;
    for (int u = 0; u < n; ++u)
      if (!done[u] && (v < 0 || adjacent[u].size() < adjacent[v].size())) v = u;
    done[v] = 1;
    order.push_back(v);
    const std::vector<int>& rows = adjacent[v];
    for (const int u : rows) {
      std::vector<int>& list = adjacent[u];
      merged.clear();
      std::set_union(list.begin(), list.end(), rows.begin(), rows.end(),
                     std::back_inserter(merged));
      merged.erase(
          std::remove_if(merged.begin(), merged.end(), [&](int x) { return x == u || x == v; }),
          merged.end());
      list.swap(merged);
    }
  }
}

template <int B>
using Block = Eigen::Map<Eigen::Matrix<Real, B, B>>;
template <int B>
using Segment = Eigen::Map<Eigen::Matrix<Real, B, 1>>;

// d = P L U in place (L unit lower), the interchanges in `swaps`; false at a zero or non-finite
// pivot. Tracks the largest |U| entry.
template <int B>
bool factor_diagonal(Block<B> d, int* swaps, Real& u_max) {
  for (int k = 0; k < B; ++k) {
    int p = k;
    for (int i = k + 1; i < B; ++i)
      if (std::abs(d(i, k)) > std::abs(d(p, k))) p = i;
    swaps[k] = p;
    if (p != k) d.row(p).swap(d.row(k));
    const Real pivot = d(k, k);
    if (!(std::abs(pivot) > 0) || !std::isfinite(pivot)) return false;
    d.col(k).tail(B - k - 1) /= pivot;
    d.bottomRightCorner(B - k - 1, B - k - 1).noalias() -=
        d.col(k).tail(B - k - 1) * d.row(k).tail(B - k - 1);
  }
  for (int k = 0; k < B; ++k)
    for (int i = 0; i <= k; ++i) u_max = std::max(u_max, std::abs(d(i, k)));
  return true;
}

// c −= a b for B × B blocks (6 × 6: subtract_product_6x6).
template <int B>
void subtract_product(Real* c, const Real* a, const Real* b) {
  if constexpr (B == 6) {
    subtract_product_6x6(c, a, b);
  } else {
    using ConstBlock = Eigen::Map<const Eigen::Matrix<Real, B, B>>;
    Block<B>(c).noalias() -= ConstBlock(a) * ConstBlock(b);
  }
}

template <int B>
void apply_swaps(const int* swaps, Block<B> x) {
  for (int k = 0; k < B; ++k)
    if (swaps[k] != k) x.row(k).swap(x.row(swaps[k]));
}

template <int B>
void apply_swaps(const int* swaps, Segment<B> x) {
  for (int k = 0; k < B; ++k)
    if (swaps[k] != k) std::swap(x[k], x[swaps[k]]);
}

template <int B>
bool factor_blocks(BlockLu& f) {
  constexpr int B2 = B * B;
  Real* values = f.values.data();
  const std::size_t lower0 = f.lower_offset(), upper0 = f.upper_offset();
  // max |a| over S's entries, four running maxima (one chain of dependent maxima took 3 % of a
  // large pile's run); as std::max, a NaN is passed over.
  Real a_max4[4] = {0, 0, 0, 0};
  const std::size_t count = f.values.size();
  for (std::size_t e = 0; e + 4 <= count; e += 4)
    for (int q = 0; q < 4; ++q) a_max4[q] = std::max(a_max4[q], std::abs(values[e + q]));
  for (std::size_t e = count - count % 4; e < count; ++e)
    a_max4[0] = std::max(a_max4[0], std::abs(values[e]));
  const Real a_max = std::max(std::max(a_max4[0], a_max4[1]), std::max(a_max4[2], a_max4[3]));
  const auto lower = [&](int t) { return values + lower0 + t * B2; };
  const auto upper = [&](int t) { return values + upper0 + t * B2; };
  f.mark.assign(f.blocks, -1);
  Real u_max = 0, l_max = 1;
  for (int j = 0; j < f.blocks; ++j) {
    Block<B> d(values + j * B2);
    int* swaps = f.pivots.data() + j * B;
    if (!factor_diagonal<B>(d, swaps, u_max)) return false;
    // U's row j: L_j⁻¹ P_j A_ji; L's column j: A_ij U_j⁻¹.
    for (int t = f.begin[j]; t < f.begin[j + 1]; ++t) {
      Block<B> u(upper(t)), l(lower(t));
      apply_swaps<B>(swaps, u);
      d.template triangularView<Eigen::UnitLower>().solveInPlace(u);
      d.template triangularView<Eigen::Upper>().template solveInPlace<Eigen::OnTheRight>(l);
      u_max = std::max(u_max, u.cwiseAbs().maxCoeff());
      l_max = std::max(l_max, l.cwiseAbs().maxCoeff());
    }
    // The Schur complement on the rows below: block (i, k) −= L_ij U_jk.
    for (int ta = f.begin[j]; ta < f.begin[j + 1]; ++ta) {
      const int i = f.below[ta];
      const Real *l_i = lower(ta), *u_i = upper(ta);
      subtract_product<B>(values + i * B2, l_i, u_i);
      for (int s = f.begin[i]; s < f.begin[i + 1]; ++s) f.mark[f.below[s]] = s;
      for (int tb = ta + 1; tb < f.begin[j + 1]; ++tb) {
        const int s = f.mark[f.below[tb]];  // (k > i: in column i's pattern)
        subtract_product<B>(lower(s), lower(tb), u_i);
        subtract_product<B>(upper(s), l_i, upper(tb));
      }
    }
  }
  f.growth = l_max * u_max / std::max(a_max, std::numeric_limits<Real>::min());
  return std::isfinite(f.growth) && f.growth <= BlockLu::kMaxGrowth;
}

template <int B>
void solve_blocks(const BlockLu& f, VecX& x) {
  constexpr int B2 = B * B;
  const Real* values = f.values.data();
  const std::size_t lower0 = f.lower_offset(), upper0 = f.upper_offset();
  using ConstBlock = Eigen::Map<const Eigen::Matrix<Real, B, B>>;
  for (int j = 0; j < f.blocks; ++j) {
    Segment<B> xj(x.data() + f.order[j] * B);
    apply_swaps<B>(f.pivots.data() + j * B, xj);
    ConstBlock(values + j * B2).template triangularView<Eigen::UnitLower>().solveInPlace(xj);
    for (int t = f.begin[j]; t < f.begin[j + 1]; ++t)
      Segment<B>(x.data() + f.order[f.below[t]] * B).noalias() -=
          ConstBlock(values + lower0 + t * B2) * xj;
  }
  for (int j = f.blocks - 1; j >= 0; --j) {
    Segment<B> xj(x.data() + f.order[j] * B);
    for (int t = f.begin[j]; t < f.begin[j + 1]; ++t)
      xj.noalias() -=
          ConstBlock(values + upper0 + t * B2) * Segment<B>(x.data() + f.order[f.below[t]] * B);
    ConstBlock(values + j * B2).template triangularView<Eigen::Upper>().solveInPlace(xj);
  }
}

}  // namespace

// With SSE2, a's three row pairs held in registers over the six columns: 39 ns an update against
// 64 ns for Eigen's product on the 2-core machine (docs/solvers.md "Interior point").
void subtract_product_6x6(Real* c, const Real* a, const Real* b) {
#if defined(__SSE2__)
  __m128d a0[6], a1[6], a2[6];
  for (int k = 0; k < 6; ++k) {
    a0[k] = _mm_loadu_pd(a + 6 * k);
    a1[k] = _mm_loadu_pd(a + 6 * k + 2);
    a2[k] = _mm_loadu_pd(a + 6 * k + 4);
  }
  for (int j = 0; j < 6; ++j) {
    const Real* bj = b + 6 * j;
    __m128d s = _mm_set1_pd(bj[0]);
    __m128d r0 = _mm_mul_pd(a0[0], s), r1 = _mm_mul_pd(a1[0], s), r2 = _mm_mul_pd(a2[0], s);
    for (int k = 1; k < 6; ++k) {
      s = _mm_set1_pd(bj[k]);
      r0 = _mm_add_pd(_mm_mul_pd(a0[k], s), r0);
      r1 = _mm_add_pd(_mm_mul_pd(a1[k], s), r1);
      r2 = _mm_add_pd(_mm_mul_pd(a2[k], s), r2);
    }
    Real* cj = c + 6 * j;
    _mm_storeu_pd(cj, _mm_sub_pd(_mm_loadu_pd(cj), r0));
    _mm_storeu_pd(cj + 2, _mm_sub_pd(_mm_loadu_pd(cj + 2), r1));
    _mm_storeu_pd(cj + 4, _mm_sub_pd(_mm_loadu_pd(cj + 4), r2));
  }
#else
  using ConstBlock = Eigen::Map<const Eigen::Matrix<Real, 6, 6>>;
  Block<6>(c).noalias() -= ConstBlock(a) * ConstBlock(b);
#endif
}

bool BlockLu::analyse(const Eigen::SparseMatrix<Real>& a, int block_size) {
  const int n = static_cast<int>(a.rows());
  const int* outer = a.outerIndexPtr();
  const int* inner = a.innerIndexPtr();
  if (size == block_size && a.isCompressed() && a.cols() == n &&
      static_cast<int>(analysed_outer.size()) == n + 1 &&
      std::equal(outer, outer + n + 1, analysed_outer.begin()) &&
      std::equal(inner, inner + outer[n], analysed_inner.begin()))
    return true;
  size = 0;
  if ((block_size != 3 && block_size != 6) || n % block_size != 0 || a.cols() != n ||
      !a.isCompressed())
    return false;
  const int b = block_size;
  blocks = n / b;
  std::vector<std::vector<int>> adjacent(blocks);
  for (int c = 0; c < n; ++c)
    for (int e = outer[c]; e < outer[c + 1]; ++e) {
      const int r = inner[e] / b;
      if (r == c / b) continue;
      adjacent[r].push_back(c / b);
      adjacent[c / b].push_back(r);
    }
  for (std::vector<int>& list : adjacent) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  minimum_degree(adjacent, order);
  position.assign(blocks, 0);
  for (int j = 0; j < blocks; ++j) position[order[j]] = j;
  begin.assign(blocks + 1, 0);
  below.clear();
  for (int j = 0; j < blocks; ++j) {
    const std::size_t first = below.size();
    for (const int v : adjacent[order[j]]) below.push_back(position[v]);
    std::sort(below.begin() + static_cast<std::ptrdiff_t>(first), below.end());
    begin[j + 1] = static_cast<int>(below.size());
  }
  // Where a value (row r, column c) goes: the diagonal block, L's block in column min(j_r, j_c),
  // or U's in row min(j_r, j_c); L's and U's blocks of one pair share an index t.
  size = b;  // (lower_offset and upper_offset read it)
  const std::size_t b2 = static_cast<std::size_t>(b) * b;
  const std::size_t lower0 = lower_offset(), upper0 = upper_offset();
  const auto index = [&](int column, int row) {
    return static_cast<std::size_t>(
        std::lower_bound(below.begin() + begin[column], below.begin() + begin[column + 1], row) -
        below.begin());
  };
  slot.resize(a.nonZeros());
  for (int c = 0; c < n; ++c)
    for (int e = outer[c]; e < outer[c + 1]; ++e) {
      const int r = inner[e];
      const int jr = position[r / b], jc = position[c / b];
      const std::size_t local = static_cast<std::size_t>(r % b + (c % b) * b);
      if (jr == jc)
        slot[e] = static_cast<int>(jr * b2 + local);
      else if (jr > jc)
        slot[e] = static_cast<int>(lower0 + index(jc, jr) * b2 + local);
      else
        slot[e] = static_cast<int>(upper0 + index(jr, jc) * b2 + local);
    }
  values.assign(upper0 + below.size() * b2, 0);
  pivots.assign(n, 0);
  analysed_outer.assign(outer, outer + n + 1);
  analysed_inner.assign(inner, inner + outer[n]);
  return true;
}

bool BlockLu::factor(const Eigen::SparseMatrix<Real>& a) {
  std::fill(values.begin(), values.end(), Real(0));
  const Real* v = a.valuePtr();
  for (std::size_t e = 0; e < slot.size(); ++e) values[slot[e]] = v[e];
  return factor();
}

bool BlockLu::factor() {
  if (size == 0) return false;
  return size == 6 ? factor_blocks<6>(*this) : factor_blocks<3>(*this);
}

void BlockLu::solve(VecX& x) const {
  if (size == 6)
    solve_blocks<6>(*this, x);
  else
    solve_blocks<3>(*this, x);
}

}  // namespace exactsim
