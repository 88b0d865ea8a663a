// Minimum-norm least-squares solve of the small dense systems of a PLUS interval (docs/plus.md,
// active set: load spreading is the global minimum-norm impulse). Most interval systems are
// nonsingular (one contact, or contacts that are not redundant) and their minimum-norm solution is
// the unique one; Gaussian elimination with partial pivoting finds it in a fraction of the time of
// a complete orthogonal decomposition. Singular or nearly singular systems (redundant contacts) go
// to Eigen's CompleteOrthogonalDecomposition. The elimination works in reused scratch (no heap call
// once warm); the COD path may still allocate (Eigen's temporaries, or a change of size).
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

struct MinNormSolver {
  MatX lu;   // elimination scratch (capacity ≥ m × m)
  VecX rhs;  // eliminated right-hand side
  Eigen::CompleteOrthogonalDecomposition<MatX> cod;
};

// Elimination is trusted when every pivot is at least this fraction of the largest one;
// otherwise the system is treated as (nearly) singular and solved by the COD.
constexpr Real kMinNormPivotRel = 1e-8;

// x.head(m) = B⁻¹ w.head(m) for the top-left m × m block of B by Gaussian elimination with
// partial pivoting. Returns false, leaving x unspecified, when a pivot is not above
// kMinNormPivotRel × the largest pivot (or × `pivot_scale`, if larger: the pivots of rows already
// eliminated by the caller, e.g. a Schur complement's).
bool solve_nonsingular(const MatX& B, int m, const VecX& w, MinNormSolver& solver, VecX& x,
                       Real pivot_scale = 0.0);

// x.head(m) = B⁺ w.head(m) for the top-left m × m block of B (minimum-norm least squares):
// solve_nonsingular, or the COD when that fails. Returns true when the COD was used.
bool solve_min_norm(const MatX& B, int m, const VecX& w, MinNormSolver& solver, VecX& x);

// The COD alone, for a system already known to be singular (skips the elimination attempt).
void solve_min_norm_cod(const MatX& B, int m, const VecX& w, MinNormSolver& solver, VecX& x);

}  // namespace exactsim
