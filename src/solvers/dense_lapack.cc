// LAPACK's dgetrf / dgetri and BLAS's dgemm (OpenBLAS, serial build: linked in CMakeLists.txt).
// Debian's serial OpenBLAS has no locks of its own, and the islands may be solved on several
// threads (docs/stepping.md "Parallel islands"): one mutex keeps its calls one at a time. It
// serialises only blocks large enough to come here; each call's result does not depend on the
// others, so a parallel run stays bit for bit a serial one.
#include "dense_lapack.h"

#include <cmath>
#include <mutex>

extern "C" {
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work,
             const int* lwork, int* info);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
}

namespace exactsim {
namespace {

std::mutex& lapack_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

bool lu_factor(DenseBlock a, std::vector<int>& swaps) {
  const int k = static_cast<int>(a.rows());
  swaps.resize(static_cast<std::size_t>(k));
  if (k == 0) return true;
  if (!a.allFinite()) return false;
  const int lda = static_cast<int>(a.outerStride());
  int info = 0;
  {
    const std::lock_guard<std::mutex> lock(lapack_mutex());
    dgetrf_(&k, &k, a.data(), &lda, swaps.data(), &info);
  }
  for (int& s : swaps) --s;  // LAPACK's rows are 1-based
  return info == 0 && a.diagonal().allFinite();
}

bool lu_inverse(DenseBlock lu, const std::vector<int>& swaps) {
  const int k = static_cast<int>(lu.rows());
  if (k == 0) return true;
  const int lda = static_cast<int>(lu.outerStride());
  thread_local std::vector<int> ipiv;
  thread_local std::vector<double> work;
  ipiv.resize(static_cast<std::size_t>(k));
  for (int j = 0; j < k; ++j)
    ipiv[static_cast<std::size_t>(j)] = swaps[static_cast<std::size_t>(j)] + 1;
  // getri's blocked form wants k × (block size) doubles; 64 columns is ample for OpenBLAS.
  const int lwork = 64 * k;
  work.resize(static_cast<std::size_t>(lwork));
  int info = 0;
  {
    const std::lock_guard<std::mutex> lock(lapack_mutex());
    dgetri_(&k, lu.data(), &lda, ipiv.data(), work.data(), &lwork, &info);
  }
  return info == 0;
}

void subtract_product(DenseBlock c, const DenseBlock& a, const DenseBlock& b) {
  const int m = static_cast<int>(c.rows()), n = static_cast<int>(c.cols());
  const int k = static_cast<int>(a.cols());
  if (m == 0 || n == 0 || k == 0) return;
  const int lda = static_cast<int>(a.outerStride()), ldb = static_cast<int>(b.outerStride());
  const int ldc = static_cast<int>(c.outerStride());
  const double minus_one = -1, one = 1;
  const std::lock_guard<std::mutex> lock(lapack_mutex());
  dgemm_("N", "N", &m, &n, &k, &minus_one, a.data(), &lda, b.data(), &ldb, &one, c.data(), &ldc);
}

}  // namespace exactsim
