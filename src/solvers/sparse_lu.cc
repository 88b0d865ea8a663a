#include "solvers/sparse_lu.h"

#include <algorithm>
#include <cmath>
#include <limits>

#ifdef EXACTSIM_HAVE_SUITESPARSE
#include <cholmod.h>
#include <klu.h>
#include <umfpack.h>
#endif

namespace exactsim {

struct SparseBasisLu::SuiteSparse {
#ifdef EXACTSIM_HAVE_SUITESPARSE
  klu_common klu{};
  klu_symbolic* klu_symbolic_ = nullptr;
  klu_numeric* klu_numeric_ = nullptr;
  void* umf_symbolic = nullptr;
  void* umf_numeric = nullptr;
  double umf_control[UMFPACK_CONTROL];
  double umf_info[UMFPACK_INFO];
  cholmod_common cholmod{};
  cholmod_factor* cholmod_factor_ = nullptr;
  bool cholmod_started = false;
  ~SuiteSparse() {
    if (cholmod_factor_ != nullptr) cholmod_free_factor(&cholmod_factor_, &cholmod);
    if (cholmod_started) cholmod_finish(&cholmod);
  }
#endif
};

SparseBasisLu::SparseBasisLu() = default;
SparseBasisLu::~SparseBasisLu() { release(); }

bool sparse_lu_available(SparseLuBackend backend) {
#ifdef EXACTSIM_HAVE_SUITESPARSE
  (void)backend;
  return true;
#else
  return backend == SparseLuBackend::kAuto || backend == SparseLuBackend::kEigen;
#endif
}

const char* to_string(SparseLuBackend backend) {
  switch (backend) {
    case SparseLuBackend::kAuto:
      return "auto";
    case SparseLuBackend::kEigen:
      return "eigen-sparselu";
    case SparseLuBackend::kKlu:
      return "klu";
    case SparseLuBackend::kUmfpack:
      return "umfpack";
  }
  return "unknown";
}

namespace {

// A refactorisation with the old pivots is kept while its pivot ratio is at least this fraction
// of the last full factorisation's (partial pivoting chose those pivots for other values).
constexpr Real kRefactorPivotRatio = 1e-2;
// CHOLMOD factorises supernodally (dense blocks through BLAS) where its analysis counts at least
// this many flops per nonzero of L, else column by column. The projection's system of the 3D pile
// of 1,000 hulls (6,000 unknowns, 71 flops per nonzero) took 17 ms supernodally and 9 ms column
// by column; CHOLMOD's default switch is 40.
constexpr double kSupernodalSwitch = 100;

void release_numeric(SparseBasisLu::SuiteSparse* ss) {
#ifdef EXACTSIM_HAVE_SUITESPARSE
  if (ss == nullptr) return;
  if (ss->klu_numeric_ != nullptr) klu_free_numeric(&ss->klu_numeric_, &ss->klu);
  if (ss->umf_numeric != nullptr) umfpack_di_free_numeric(&ss->umf_numeric);
  if (ss->cholmod_factor_ != nullptr) cholmod_free_factor(&ss->cholmod_factor_, &ss->cholmod);
#else
  (void)ss;
#endif
}

// Whether lu.matrix (compressed) has the pattern lu's analysis was made for.
bool analysed_pattern(const SparseBasisLu& lu) {
  const auto& a = lu.matrix;
  const std::size_t n = static_cast<std::size_t>(a.outerSize());
  return lu.analysed_outer.size() == n + 1 &&
         lu.analysed_inner.size() == static_cast<std::size_t>(a.nonZeros()) &&
         std::equal(lu.analysed_outer.begin(), lu.analysed_outer.end(), a.outerIndexPtr()) &&
         std::equal(lu.analysed_inner.begin(), lu.analysed_inner.end(), a.innerIndexPtr());
}

// Resets lu's statistics and, for a new analysis (not `reuse`), records the pattern it is made
// for. False for an empty matrix: nothing to factorise (pivot ratio 1).
bool start_factorisation(SparseBasisLu& lu, bool reuse) {
  lu.pivot_ratio = 0;
  lu.nonzeros = 0;
  const auto& a = lu.matrix;
  const Eigen::Index n = a.rows();
  if (n == 0) {
    lu.pivot_ratio = 1;
    return false;
  }
  if (!reuse) {
    lu.analysed_outer.assign(a.outerIndexPtr(), a.outerIndexPtr() + n + 1);
    lu.analysed_inner.assign(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
  }
  return true;
}

}  // namespace

void SparseBasisLu::release() {
  release_numeric(suitesparse.get());
#ifdef EXACTSIM_HAVE_SUITESPARSE
  if (suitesparse) {
    if (suitesparse->klu_symbolic_ != nullptr)
      klu_free_symbolic(&suitesparse->klu_symbolic_, &suitesparse->klu);
    if (suitesparse->umf_symbolic != nullptr) umfpack_di_free_symbolic(&suitesparse->umf_symbolic);
  }
#endif
  analysed = false;
  cholesky = false;
}

bool SparseBasisLu::factor(SparseLuBackend which, bool same_pattern, Real min_pivot_ratio,
                           bool scale_rows) {
  if (which == SparseLuBackend::kAuto || !sparse_lu_available(which))
    which = sparse_lu_available(SparseLuBackend::kKlu) ? SparseLuBackend::kKlu
                                                       : SparseLuBackend::kEigen;
  matrix.makeCompressed();
  const bool reuse =
      analysed && !cholesky && which == backend && (same_pattern || analysed_pattern(*this));
#ifdef EXACTSIM_HAVE_SUITESPARSE
  // KLU refactorises with the pivots of the last factorisation where they stay sound.
  const bool refactor = reuse && which == SparseLuBackend::kKlu && suitesparse->klu_numeric_;
#else
  const bool refactor = false;
#endif
  if (!reuse)
    release();
  else if (!refactor)
    release_numeric(suitesparse.get());
  backend = which;
  if (!start_factorisation(*this, reuse)) return true;
  const int n = static_cast<int>(matrix.rows());
#ifdef EXACTSIM_HAVE_SUITESPARSE
  if (!suitesparse) suitesparse = std::make_unique<SuiteSparse>();
  auto& [klu, klu_symbolic_, klu_numeric_, umf_symbolic, umf_numeric, umf_control, umf_info,
         cholmod, cholmod_factor_, cholmod_started] = *suitesparse;
#endif
  switch (backend) {
#ifdef EXACTSIM_HAVE_SUITESPARSE
    case SparseLuBackend::kKlu: {
      if (!reuse) {
        klu_defaults(&klu);
        klu_symbolic_ = klu_analyze(n, matrix.outerIndexPtr(), matrix.innerIndexPtr(), &klu);
        if (klu_symbolic_ == nullptr) return false;
        analysed = true;
      }
      klu.scale = scale_rows ? 2 : -1;
      if (refactor) {
        const bool sound =
            klu_refactor(matrix.outerIndexPtr(), matrix.innerIndexPtr(), matrix.valuePtr(),
                         klu_symbolic_, klu_numeric_, &klu) == 1 &&
            klu.status == KLU_OK && klu_rcond(klu_symbolic_, klu_numeric_, &klu) == 1 &&
            klu.rcond >= kRefactorPivotRatio * factored_pivot_ratio;
        if (!sound) klu_free_numeric(&klu_numeric_, &klu);
      }
      if (klu_numeric_ == nullptr) {
        klu_numeric_ = klu_factor(matrix.outerIndexPtr(), matrix.innerIndexPtr(), matrix.valuePtr(),
                                  klu_symbolic_, &klu);
        if (klu_numeric_ == nullptr || klu.status != KLU_OK) return false;
        if (klu_rcond(klu_symbolic_, klu_numeric_, &klu) != 1) return false;
        factored_pivot_ratio = klu.rcond;
      }
      pivot_ratio = klu.rcond;
      nonzeros = static_cast<long>(klu_numeric_->lnz) + klu_numeric_->unz + klu_numeric_->nzoff;
      break;
    }
    case SparseLuBackend::kUmfpack: {
      if (!reuse) {
        umfpack_di_defaults(umf_control);
        umf_control[UMFPACK_IRSTEP] = 0;  // refinement is the caller's
        if (umfpack_di_symbolic(n, n, matrix.outerIndexPtr(), matrix.innerIndexPtr(),
                                matrix.valuePtr(), &umf_symbolic, umf_control,
                                umf_info) != UMFPACK_OK)
          return false;
        analysed = true;
      }
      if (umfpack_di_numeric(matrix.outerIndexPtr(), matrix.innerIndexPtr(), matrix.valuePtr(),
                             umf_symbolic, &umf_numeric, umf_control, umf_info) != UMFPACK_OK)
        return false;  // UMFPACK_WARNING_singular_matrix included
      pivot_ratio = umf_info[UMFPACK_RCOND];
      nonzeros = static_cast<long>(umf_info[UMFPACK_LNZ] + umf_info[UMFPACK_UNZ]);
      out.resize(n);
      break;
    }
#endif
    default: {
      backend = SparseLuBackend::kEigen;
      if (!eigen) eigen = std::make_unique<EigenLu>();
      if (!reuse) {
        eigen->analyzePattern(matrix);
        analysed = true;
      }
      eigen->factorize(matrix);
      if (eigen->info() != Eigen::Success) return false;
      // U's diagonal sits in the supernodes of L (SparseLU::logAbsDeterminant reads it so).
      const auto& l = eigen->matrixL().m_mapL;
      Real least = std::numeric_limits<Real>::infinity(), largest = 0;
      for (Eigen::Index j = 0; j < n; ++j)
        for (EigenLu::SCMatrix::InnerIterator it(l, j); it; ++it) {
          if (it.row() != j) continue;
          least = std::min(least, std::abs(it.value()));
          largest = std::max(largest, std::abs(it.value()));
          break;
        }
      pivot_ratio = largest > 0 ? least / largest : 0;
      nonzeros = static_cast<long>(eigen->nnzL() + eigen->nnzU());
      break;
    }
  }
  return std::isfinite(pivot_ratio) && pivot_ratio > min_pivot_ratio;
}

bool SparseBasisLu::factor_spd(bool same_pattern, Real min_pivot_ratio) {
#ifdef EXACTSIM_HAVE_SUITESPARSE
  matrix.makeCompressed();
  const bool reuse = analysed && cholesky && (same_pattern || analysed_pattern(*this));
  if (!reuse) release();
  cholesky = true;
  if (!start_factorisation(*this, reuse)) return true;
  const int n = static_cast<int>(matrix.rows());
  if (!suitesparse) suitesparse = std::make_unique<SuiteSparse>();
  SuiteSparse& ss = *suitesparse;
  if (!ss.cholmod_started) {
    cholmod_start(&ss.cholmod);
    ss.cholmod.print = 0;  // failures are return values here
    ss.cholmod.error_handler = nullptr;
    ss.cholmod.quick_return_if_not_posdef = 1;
    ss.cholmod.supernodal_switch = kSupernodalSwitch;
    ss.cholmod.final_ll = 1;  // L Lᵀ column by column too (an LDLᵀ accepts indefinite matrices)
    ss.cholmod_started = true;
  }
  cholmod_sparse a{};
  a.nrow = a.ncol = static_cast<std::size_t>(n);
  a.nzmax = static_cast<std::size_t>(matrix.nonZeros());
  a.p = matrix.outerIndexPtr();
  a.i = matrix.innerIndexPtr();
  a.x = matrix.valuePtr();
  a.stype = -1;  // the lower triangle
  a.itype = CHOLMOD_INT;
  a.xtype = CHOLMOD_REAL;
  a.dtype = CHOLMOD_DOUBLE;
  a.sorted = 1;
  a.packed = 1;
  if (!reuse) {
    ss.cholmod_factor_ = cholmod_analyze(&a, &ss.cholmod);
    if (ss.cholmod_factor_ == nullptr) return false;
    analysed = true;
  }
  if (cholmod_factorize(&a, ss.cholmod_factor_, &ss.cholmod) != 1 ||
      ss.cholmod.status != CHOLMOD_OK)
    return false;  // (CHOLMOD_NOT_POSDEF included)
  pivot_ratio = cholmod_rcond(ss.cholmod_factor_, &ss.cholmod);
  nonzeros = static_cast<long>(ss.cholmod.lnz);
  return std::isfinite(pivot_ratio) && pivot_ratio > min_pivot_ratio;
#else
  return factor(SparseLuBackend::kAuto, same_pattern, min_pivot_ratio);
#endif
}

void SparseBasisLu::solve(VecX& x, bool transpose) {
  if (x.size() == 0) return;
#ifdef EXACTSIM_HAVE_SUITESPARSE
  auto& ss = *suitesparse;
  if (cholesky) {  // (symmetric: A⁻ᵀ = A⁻¹)
    cholmod_dense b{};
    b.nrow = b.d = b.nzmax = static_cast<std::size_t>(x.size());
    b.ncol = 1;
    b.x = x.data();
    b.xtype = CHOLMOD_REAL;
    b.dtype = CHOLMOD_DOUBLE;
    cholmod_dense* solution = cholmod_solve(CHOLMOD_A, ss.cholmod_factor_, &b, &ss.cholmod);
    if (solution == nullptr) {
      x.setConstant(std::numeric_limits<Real>::quiet_NaN());
      return;
    }
    std::copy_n(static_cast<const double*>(solution->x), x.size(), x.data());
    cholmod_free_dense(&solution, &ss.cholmod);
    return;
  }
  auto& [klu, klu_symbolic_, klu_numeric_, umf_symbolic, umf_numeric, umf_control, umf_info,
         cholmod, cholmod_factor_, cholmod_started] = ss;
#endif
  switch (backend) {
#ifdef EXACTSIM_HAVE_SUITESPARSE
    case SparseLuBackend::kKlu: {
      const int n = static_cast<int>(x.size());
      if (transpose)
        klu_tsolve(klu_symbolic_, klu_numeric_, n, 1, x.data(), &klu);
      else
        klu_solve(klu_symbolic_, klu_numeric_, n, 1, x.data(), &klu);
      return;
    }
    case SparseLuBackend::kUmfpack:
      umfpack_di_solve(transpose ? UMFPACK_At : UMFPACK_A, matrix.outerIndexPtr(),
                       matrix.innerIndexPtr(), matrix.valuePtr(), out.data(), x.data(), umf_numeric,
                       umf_control, umf_info);
      x.swap(out);
      return;
#endif
    default:
      if (transpose)
        x = eigen->transpose().solve(x);
      else
        x = eigen->solve(x);
      return;
  }
}

}  // namespace exactsim
