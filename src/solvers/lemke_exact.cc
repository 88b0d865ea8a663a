// Lemke's method in exact integer arithmetic (docs/solvers.md "Exact Lemke"): the oracle that
// decides, for an LCP whose floating-point solves failed, whether it has a solution, whether that
// solution lies within the problem's impulse scale, or whether it has none (Farkas vector).
//
// Every double is an exact dyadic rational, so each row of [q | M] times a power of two is an
// integer row; scaling row i by 2^s_i scales w_i only and leaves the LCP's solutions unchanged.
// The tableau T = B⁻¹ [I | −M | −e | q] is kept fraction-free (Bareiss / integer pivoting): T holds
// integers, the true entries are T / det with det = |det B| > 0, and a pivot on (r, c) maps
//   T'_rj = σ T_rj,   T'_ij = σ (T_ij T_rc − T_ic T_rj) / det   (exact division),
//   det' = |T_rc|,    σ = sign T_rc,
// so every entry stays a minor of the integer input. The ratio test is the lexicographic one on
// (x_B, B⁻¹) (B⁻¹ is the block of the w columns), compared by cross-multiplication: no tolerance
// anywhere, so degeneracy cannot cycle and round-off cannot end the path on a false ray.
#include <gmpxx.h>

#include <algorithm>
#include <cmath>

#include "exactsim/solvers/lcp.h"

namespace exactsim {
namespace {

// x = mantissa · 2^exponent with an integer mantissa of at most 53 bits (x finite, non-zero).
void split(Real x, mpz_class& mantissa, long& exponent) {
  int e = 0;
  const Real f = std::frexp(x, &e);  // x = f · 2^e, |f| in [0.5, 1)
  mantissa = std::ldexp(f, 53);      // exact: an integer of at most 53 bits
  exponent = static_cast<long>(e) - 53;
}

struct ExactTableau {
  int n = 0;
  int cols = 0;  // w: 0..n−1, z: n..2n−1, z0: 2n, rhs: 2n+1
  std::vector<mpz_class> t;
  mpz_class det = 1;
  std::vector<long> row_shift;  // row i of the input was multiplied by 2^row_shift[i]
  std::vector<int> basis;       // basic variable of each row
  mpz_class& at(int i, int j) { return t[static_cast<std::size_t>(i) * cols + j]; }
  const mpz_class& at(int i, int j) const { return t[static_cast<std::size_t>(i) * cols + j]; }
  int z0() const { return 2 * n; }
  int rhs() const { return 2 * n + 1; }
};

// [I | −S M | −S e | S q] with S = diag(2^row_shift): integer rows (the w columns stay I, i.e.
// the scaled rows' w_i are the unknowns; their sign pattern is that of the original w).
void build(const Lcp& lcp, ExactTableau& T) {
  const int n = static_cast<int>(lcp.q.size());
  T.n = n;
  T.cols = 2 * n + 2;
  T.t.assign(static_cast<std::size_t>(n) * T.cols, mpz_class(0));
  T.row_shift.assign(n, 0);
  T.basis.resize(n);
  mpz_class mant;
  long exp = 0;
  for (int i = 0; i < n; ++i) {
    T.basis[i] = i;
    long lowest = 0;  // the row's smallest exponent (≤ 0 so that the scale is ≥ 1)
    auto visit = [&](Real x) {
      if (x == 0) return;
      split(x, mant, exp);
      lowest = std::min(lowest, exp);
    };
    visit(lcp.q(i));
    for (int j = 0; j < n; ++j) visit(lcp.M(i, j));
    T.row_shift[i] = -lowest;
    auto integer = [&](Real x, mpz_class& out) {
      if (x == 0) {
        out = 0;
        return;
      }
      split(x, mant, exp);
      mpz_mul_2exp(out.get_mpz_t(), mant.get_mpz_t(), static_cast<mp_bitcnt_t>(exp - lowest));
    };
    T.at(i, i) = 1;
    for (int j = 0; j < n; ++j) {
      integer(lcp.M(i, j), T.at(i, n + j));
      T.at(i, n + j) = -T.at(i, n + j);
    }
    mpz_mul_2exp(T.at(i, T.z0()).get_mpz_t(), mpz_class(-1).get_mpz_t(),
                 static_cast<mp_bitcnt_t>(-lowest));
    integer(lcp.q(i), T.at(i, T.rhs()));
  }
  T.det = 1;
}

void pivot(ExactTableau& T, int r, int c, mpz_class& p, mpz_class& ic) {
  p = T.at(r, c);
  const bool negative = sgn(p) < 0;
  const bool same_det = cmp(p, T.det) == 0;
  for (int i = 0; i < T.n; ++i) {
    if (i == r) continue;
    ic = T.at(i, c);
    if (sgn(ic) == 0 && same_det) continue;  // the row is unchanged
    for (int j = 0; j < T.cols; ++j) {
      mpz_ptr x = T.at(i, j).get_mpz_t();
      mpz_mul(x, x, p.get_mpz_t());
      if (sgn(ic) != 0) mpz_submul(x, ic.get_mpz_t(), T.at(r, j).get_mpz_t());
      mpz_divexact(x, x, T.det.get_mpz_t());
      if (negative) mpz_neg(x, x);
    }
  }
  if (negative)
    for (int j = 0; j < T.cols; ++j) mpz_neg(T.at(r, j).get_mpz_t(), T.at(r, j).get_mpz_t());
  mpz_abs(T.det.get_mpz_t(), p.get_mpz_t());
}

// Row a before row b in the lexicographic ratio order (x_B, B⁻¹) / T_·c when T_ac, T_bc > 0
// (cross-multiplied: x_a T_bc < x_b T_ac, component by component).
bool lex_less(const ExactTableau& T, int a, int b, int c) {
  mpz_class lhs, rhs;
  auto compare = [&](int j) {
    lhs = T.at(a, j) * T.at(b, c);
    rhs = T.at(b, j) * T.at(a, c);
    return cmp(lhs, rhs);
  };
  if (const int s = compare(T.rhs()); s != 0) return s < 0;
  for (int j = 0; j < T.n; ++j)
    if (const int s = compare(j); s != 0) return s < 0;
  return false;  // identical rows cannot occur (B⁻¹ is nonsingular)
}

Real to_real(const mpz_class& num, const mpz_class& den) { return mpq_class(num, den).get_d(); }

// The ray's z-part y (y_j ≥ 0 by construction) is a Farkas certificate when Mᵀy ≤ 0 and
// qᵀy < 0, checked exactly on the doubles of the problem (each an exact rational).
bool farkas(const Lcp& lcp, const ExactTableau& T, int entering, std::vector<mpz_class>& y) {
  const int n = T.n;
  y.assign(n, mpz_class(0));  // y scaled by det: y_j = Y_j / det
  if (entering >= n && entering < 2 * n) y[entering - n] = T.det;
  for (int i = 0; i < n; ++i)
    if (const int b = T.basis[i]; b >= n && b < 2 * n) y[b - n] = -T.at(i, entering);
  mpq_class sum;
  auto dot = [&](auto value) {  // Σ_i value(i) · y_i, exactly
    sum = 0;
    for (int i = 0; i < n; ++i)
      if (sgn(y[i]) != 0) sum += mpq_class(value(i)) * mpq_class(y[i]);
    return sgn(sum);
  };
  for (int j = 0; j < n; ++j)
    if (dot([&](int i) { return lcp.M(i, j); }) > 0) return false;
  return dot([&](int i) { return lcp.q(i); }) < 0;
}

}  // namespace

void solve_lemke_exact(const Lcp& lcp, const SolverOptions& options, LcpSolution& out) {
  validate_lcp(lcp, "solve_lemke_exact");
  const int n = static_cast<int>(lcp.q.size());
  const Real tol = verification_tolerance(lcp, options);
  const Real z_scale = certificate_impulse_scale(lcp, options);
  out.z.setZero(n);
  out.ray.resize(0);
  auto finish = [&](SolveStatus status, int pivots) {
    out.certificate = verify_lcp(lcp, out.z, tol, z_scale, out.w);
    out.certificate.pivots = pivots;
    out.certificate.method = SolveMethod::kExactLemke;
    out.certificate.exact = true;
    if (status == SolveStatus::kSolved && !out.certificate.ok())
      status = SolveStatus::kBeyondScale;  // a true solution the certificate cannot verify
    out.certificate.status = out.certificate.primary_status = status;
  };
  if (n == 0 || lcp.q.minCoeff() >= 0) return finish(SolveStatus::kSolved, 0);

  ExactTableau T;
  build(lcp, T);
  // z0 enters; the leaving row is the lexicographic minimum of (x_i, B⁻¹_i) / |T_i,z0| (all
  // T_i,z0 < 0, equal up to the row scale). With negative denominators lex_less's order reverses:
  // row i comes before row r exactly when lex_less(r, i).
  int r = 0;
  for (int i = 1; i < n; ++i)
    if (lex_less(T, r, i, T.z0())) r = i;
  mpz_class p, ic;  // pivot() scratch
  int leaving = T.basis[r];
  pivot(T, r, T.z0(), p, ic);
  T.basis[r] = T.z0();
  int pivots = 1;
  const long budget = static_cast<long>(options.max_pivots_per_unknown) * n + 1;
  std::vector<mpz_class> y;
  // Work: a pivot updates n · (2n + 2) entries, each a product of two numbers of det's size
  // (limbs² word multiplications).
  Real work = 0;
  while (pivots < budget) {
    const Real limbs = static_cast<Real>(std::max<std::size_t>(1, mpz_size(T.det.get_mpz_t())));
    work += static_cast<Real>(n) * T.cols * limbs * limbs;
    if (options.exact_max_work > 0 && work > options.exact_max_work) break;
    const int entering = leaving < n ? leaving + n : leaving - n;
    r = -1;
    for (int i = 0; i < n; ++i)
      if (sgn(T.at(i, entering)) > 0 && (r < 0 || lex_less(T, i, r, entering))) r = i;
    if (r < 0) {
      const bool certified = farkas(lcp, T, entering, y);
      out.ray.setZero(n);
      for (int j = 0; j < n; ++j) out.ray(j) = to_real(y[j], T.det);
      if (const Real m = out.ray.lpNorm<Eigen::Infinity>(); m > 0) out.ray /= m;
      finish(certified ? SolveStatus::kInfeasible : SolveStatus::kRay, pivots);
      return;
    }
    leaving = T.basis[r];
    pivot(T, r, entering, p, ic);
    T.basis[r] = entering;
    ++pivots;
    if (leaving == T.z0()) {
      for (int i = 0; i < n; ++i)
        if (const int b = T.basis[i]; b >= n && b < 2 * n)
          out.z(b - n) = to_real(T.at(i, T.rhs()), T.det);
      return finish(SolveStatus::kSolved, pivots);
    }
  }
  finish(SolveStatus::kMaxIterations, pivots);
}

}  // namespace exactsim
