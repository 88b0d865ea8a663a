// LU with partial pivoting, the inverse from it, and matrix products, of large dense blocks:
// LAPACK's getrf and getri and BLAS's gemm from OpenBLAS's serial build (docs/solvers.md "Dense
// factorisations"). OpenBLAS picks its kernels for the CPU at run time (AVX2, AVX-512 where there
// are), which the portable build of Eigen cannot; its results therefore depend on the CPU, as any
// BLAS's do.
#pragma once

#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

using DenseBlock = Eigen::Ref<MatX, 0, Eigen::OuterStride<>>;

// a = P L U in place (unit lower L below the diagonal, U on and above it); swaps[j] is the row
// exchanged with row j at step j (0-based, whole rows: LAPACK's ipiv − 1). False when a pivot is
// exactly zero or any entry is not finite; a is then overwritten.
bool lu_factor(DenseBlock a, std::vector<int>& swaps);

// The inverse of P L U from lu_factor's a and swaps, in place. False when U is singular.
bool lu_inverse(DenseBlock lu, const std::vector<int>& swaps);

// c −= a b (BLAS's dgemm).
void subtract_product(DenseBlock c, const DenseBlock& a, const DenseBlock& b);

}  // namespace exactsim
