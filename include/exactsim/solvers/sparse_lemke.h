// Lemke's complementary pivoting on the body-space MLCP without forming N = Hᵀ M⁻¹ G + D
// (docs/solvers.md "Large islands: the sparse path"; Lemke 1965, Cottle–Pang–Stone §4.4; the basis
// in product form, Dantzig & Orchard-Hays 1954, as in the revised simplex method, Chvátal 1983 ch.
// 24).
//
// Lemke's system I w − N z − d z₀ = b is kept unreduced, in the unknowns x = (ν, z, w, z₀):
//
//   M ν − G z             = c     (n_v rows)
//   w − Hᵀ ν − D z − d z₀ = r     (m rows),
//
// which is the same system after eliminating ν (b = Hᵀ M⁻¹ c + r). ν is always basic; for each
// row i exactly one of z_i, w_i is basic, except the one pair z₀ displaced. The basis matrix
// B ((n_v + m) square: M and −Hᵀ in the ν columns, −G_j over −D_j for a basic z_j, the unit
// column e_i for a basic w_i, −d for z₀) is held as a sparse LU of a recent basis and the eta
// file of the pivots since (B = B₀ E₁ ⋯ E_k). A pivot needs only the entering column's
// representation B⁻¹ a (FTRAN) and the basic solution: the complementary rule names the
// entering variable, so nothing is priced. Ties in the ratio test are broken lexicographically
// on the rows of B⁻¹ (one transposed solve, BTRAN, per tied row). Memory is O(nnz(L + U) + eta
// file); nothing of size m² or n_v × m is formed.
#pragma once

#include <memory>
#include <vector>

#include "exactsim/solvers/sparse_mlcp.h"

namespace exactsim {

// The sparse LU of the basis matrix. kAuto: KLU when SuiteSparse was found at build time
// (libsuitesparse-dev), else Eigen's SparseLU with COLAMD ordering.
enum class SparseLuBackend { kAuto, kEigen, kKlu, kUmfpack };
bool sparse_lu_available(SparseLuBackend backend);
const char* to_string(SparseLuBackend backend);

// What the last solve_sparse_lemke did (for benchmarks and reports).
struct SparseLemkeStats {
  int pivots = 0;                   // z₀'s entry included
  int refactorisations = 0;         // LU factorisations of a basis matrix, the first included
  int failed_refactorisations = 0;  // numerically singular bases (the eta file was kept)
  int lexicographic_ties = 0;       // ratio-test ties broken by the lexicographic rule
  int lexicographic_columns = 0;    // columns of B⁻¹ computed (FTRAN) to break them
  int lexicographic_rows = 0;       // rows of B⁻¹ computed (BTRAN) for ties the columns left
  int refined_decisions = 0;        // small pivots and rays decided again on a refined column
  long factor_nonzeros = 0;         // nnz(L + U) of the last factorisation
  long max_eta_nonzeros = 0;        // the largest eta file
  double factor_seconds = 0;        // assembly and factorisation of basis matrices
  double seconds = 0;               // the whole solve, certificate included
  int runs = 0;                     // Lemke runs: warm, cold, retries
  bool warm = false;                // the guess was a usable start
  int warm_dropped = 0;             // guessed unknowns left out as dependent on the others
  bool cold_after_warm = false;     // the warm run failed and a cold run followed
  SparseLuBackend backend = SparseLuBackend::kAuto;  // the one that ran
};

struct SparseLemkeState;  // buffers, the basis, its LU and eta file (sparse_lemke.cc)

// Buffers and factorisation reused across solves.
struct SparseLemkeScratch {
  SparseMlcpScratch mlcp;  // W = M⁻¹, b, N's diagonal, the certificate's buffers
  SparseLuBackend backend = SparseLuBackend::kAuto;
  // Refactorise when the eta file holds more than eta_growth · nnz(L + U) nonzeros (and every
  // SolverOptions::diagnostics.refactor_interval pivots, 0: automatic; docs/solvers.md "Large
  // islands: the sparse path").
  Real eta_growth = 3.0;
  // The complementary basis of the returned point (z_i basic) after a kSolved ending: the
  // warm-start guess for the next, similar problem.
  std::vector<bool> active;
  SparseLemkeStats stats;
  std::shared_ptr<SparseLemkeState> state;
};

// Lemke's complementary pivoting on LCP(N, b) with N = Hᵀ M⁻¹ G + D never formed (above).
// Starts from `guess` (z_i basic where guess[i]; size m) when given, without the unknowns whose
// columns depend on the others' (left out in index order), with covering vector d = B_r·1 (B_r
// the reduced basis, so that z₀'s column is −1 in basis coordinates, as cold); else cold with
// d = 1. A start whose basic solution passes the certificate ends with 0 pivots. A warm run that
// does not end solved is followed by a cold run, and with
// SolverOptions::diagnostics.extended_precision_retry by the dense Lemke's retries in double
// (near-exact ties, a larger pivot tolerance, two other covering vectors), all within one budget of
// max_pivots pivots (0: max_pivots_per_unknown · m + 1, and at most max_pivot_work / 4m: a
// pivot here is at least 4m operations); the best answer is kept. out: ν, z, w certified on the
// whole problem with verify_sparse_mlcp; method kLemke; certificate.pivots = pivots of all runs
// (iterations 0, as the dense Lemke's). Status: kSolved; kInfeasible (a secondary ray whose z-part
// is a verified Farkas vector, as the dense Lemke's); kRay; kMaxIterations (budget, or a repeated
// basis); kNumerical (NaN, or no usable factorisation); kVerificationFailed (z₀ left but the point
// fails the certificate).
void solve_sparse_lemke(const SparseMlcp& p, const SolverOptions& options, SparseLemkeScratch& s,
                        MlcpSolution& out, const std::vector<bool>* guess = nullptr,
                        int max_pivots = 0);

}  // namespace exactsim
