// The linear complementarity problem, its solve certificate and the solvers (spec peg.md §4).
//
//   w = M z + q,   0 <= z ⊥ w >= 0
//
// In a time step z holds impulses (N·s) and w velocities (m/s). Every solver returns a
// SolveCertificate computed on the unscaled problem, so a caller can trust `ok()` without
// re-checking. The default stack is solve_lcp(): Lemke → verify → Fischer–Burmeister → verify.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

// w = M z + q, 0 <= z ⊥ w >= 0. M is n×n (any sign structure), q has n entries.
struct Lcp {
  MatX M;
  VecX q;
};

enum class SolveStatus {
  kSolved,              // verified: min z, min w >= -tol and complementarity <= tol (see below)
  kInfeasible,          // Lemke ray whose z-part y is a verified Farkas certificate:
                        // y >= 0, Mᵀy <= 0, qᵀy < 0 (no z >= 0 has M z + q >= 0)
  kRay,                 // Lemke ended on a secondary ray that certifies nothing
  kMaxIterations,       // pivot / Newton budget exhausted, or the FB line search stalled
  kNumerical,           // NaN/Inf appeared or a required factorisation was singular
  kVerificationFailed,  // the method terminated but its answer fails the certificate
};

enum class SolveMethod {
  kNone,               // empty problem (n = 0): nothing to solve
  kLemke,              // lexicographic Lemke (solve_lemke)
  kFischerBurmeister,  // semismooth Newton on the Fischer–Burmeister function
  kEnumeration,        // brute force over complementary bases (test oracle)
};

const char* to_string(SolveStatus status);
const char* to_string(SolveMethod method);

struct SolveCertificate {
  SolveStatus status = SolveStatus::kNumerical;
  SolveMethod method = SolveMethod::kNone;
  // Status of the first (Lemke) attempt inside solve_lcp / solve_mlcp; equal to `status` when
  // no fallback ran. Lets a step report say "Lemke ray, rescued by FB".
  SolveStatus primary_status = SolveStatus::kNumerical;
  int pivots = 0;      // Lemke pivots (including the initial z0 pivot)
  int iterations = 0;  // Fischer–Burmeister Newton iterations
  Real min_z = 0;      // min_i z_i  (>= -tolerance when solved)
  Real min_w = 0;      // min_i w_i  (>= -tolerance when solved)
  // max_i |z_i w_i|, the worst single pair (not |zᵀw|, which lets pairs cancel). Accepted when
  // <= tolerance · max(1, ‖z‖∞): w-units times the impulse scale, so the test is scale-consistent.
  Real complementarity = 0;
  Real newton_euler_residual = 0;  // ‖M ν − G z − c‖∞ of the mixed problem; 0 for a plain LCP
  Real newton_euler_tolerance = 0;  // its bound: options.tolerance · max(1, ‖c‖∞, ‖G z‖∞)
  Real tolerance = 0;               // options.tolerance · max(1, ‖q‖∞), in the units of w
  bool ok() const { return status == SolveStatus::kSolved; }
};

struct LcpSolution {
  VecX z, w;
  SolveCertificate certificate;
  // With status kInfeasible: the Farkas vector y (‖y‖∞ = 1) with y >= 0, Mᵀy <= 0, qᵀy < 0.
  // With kRay: the z-part of the ray direction. Empty otherwise.
  VecX ray;
};

// All tolerances are relative; "scale" factors are named in each comment.
struct SolverOptions {
  // Verification tolerance, relative: tol = tolerance · max(1, ‖q‖∞) in the units of w (m/s for
  // a time step); spec §4 recommends 1e-10.
  Real tolerance = 1e-10;
  // Lemke: a pivot element d_r must exceed pivot_tolerance · max(1, ‖d‖∞) (spec §4: ~1e-12·scale).
  Real pivot_tolerance = 1e-12;
  // Lemke: two ratios tie when they differ by <= ratio_tie_tolerance · max(1, |min ratio|);
  // ties go to the lexicographic rule on the basis-inverse rows.
  Real ratio_tie_tolerance = 1e-12;
  // Lemke: stop with kMaxIterations after max_pivots_per_unknown · n pivots (+ 1). Spec: ~50 n.
  int max_pivots_per_unknown = 50;
  // Lemke: a ray's z-part y counts as a Farkas certificate when max(Mᵀy) <=
  // farkas_tolerance · max(1, max|M|) with ‖y‖∞ = 1 (and qᵀy < −tol). Then any feasible z would
  // need ‖z‖₁ >= |qᵀy| / max(Mᵀy), i.e. be absurdly large.
  Real farkas_tolerance = 1e-9;
  // Fischer–Burmeister: Newton iteration budget (quadratic convergence needs ~10–30).
  int fb_max_iterations = 100;
  // Fischer–Burmeister: give up when ½‖Φ‖² has not halved over this many iterations (0: never).
  // On an infeasible problem (a standard-model SM trap) FB creeps towards a non-zero stationary
  // point of the merit and would otherwise spend the whole budget there.
  int fb_stall_window = 10;
  // Fischer–Burmeister: stop when ‖Φ‖∞ <= fb_residual_factor · tol (margin below verification).
  Real fb_residual_factor = 1e-2;
  // Fischer–Burmeister: Armijo sufficient-decrease constant on ½‖Φ‖².
  Real fb_armijo = 1e-4;
  // Fischer–Burmeister: the line search gives up below this step length (status kMaxIterations).
  Real fb_min_step = 1e-12;
  // Both: re-solve the final complementary basis (active set) exactly with an LU and keep it when
  // it verifies better. Removes the drift of the updated basis inverse / Newton iterate.
  bool polish = true;
  // solve_lcp / solve_mlcp: run Fischer–Burmeister (warm-started from Lemke's last iterate)
  // when Lemke ends on a ray, on the pivot budget, on NaN or on a failed verification.
  bool fallback = true;
};

// Reusable buffers: pass the same scratch to repeated solves of the same size and no heap
// allocation happens after the first (all buffers are fixed n×n or n×(n+1); Eigen's resize to an
// unchanged size keeps the storage).
struct LcpScratch {
  // Lemke: tableau [x_B | B⁻¹] (n × (n+1)), entering column, basis variable ids.
  MatX tableau;
  Eigen::RowVectorXd pivot_row;
  VecX column;
  std::vector<int> basis;       // basis[row] = variable id: w_i = i, z_i = n + i, z0 = 2n
  std::vector<int> candidates;  // ratio-test rows
  // Complementary-basis solve (polish): B = [e_j or −M_j], LU.
  std::vector<bool> active;  // z_i basic
  VecX z_polish, w_polish;
  MatX basis_matrix;
  VecX basis_solution;
  Eigen::PartialPivLU<MatX> basis_lu;
  // Fischer–Burmeister.
  VecX z, w, phi, a, b, grad, dir, z_trial, w_trial, phi_trial, xi, m_xi;
  MatX jacobian, normal_matrix;
  Eigen::PartialPivLU<MatX> jacobian_lu;
  Eigen::LDLT<MatX> normal_ldlt;
  // solve_lcp keeps the fallback result here while comparing.
  VecX z_best, w_best;
  VecX fb_z, fb_w, fb_ray;
};

// The default stack (spec §4): lexicographic Lemke → verify → on ray / pivot budget / NaN /
// failed verification: Fischer–Burmeister warm-started from Lemke's iterate → verify.
// A verified Farkas certificate (kInfeasible) is final: no fallback runs.
LcpSolution solve_lcp(const Lcp& lcp, const SolverOptions& options = {},
                      LcpScratch* scratch = nullptr);
void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& scratch, LcpSolution& out);

// Lemke's complementary pivoting with covering vector e = 1 and the lexicographic ratio test
// (ties broken on the rows of B⁻¹). Returns z = 0 at once when q >= 0.
LcpSolution solve_lemke(const Lcp& lcp, const SolverOptions& options = {},
                        LcpScratch* scratch = nullptr);
void solve_lemke(const Lcp& lcp, const SolverOptions& options, LcpScratch& scratch,
                 LcpSolution& out);

// Semismooth Newton on Φ_i = √(z_i² + w_i²) − z_i − w_i with Armijo line search on ½‖Φ‖²,
// started from z0 (any sign; size n).
LcpSolution solve_fischer_burmeister(const Lcp& lcp, const VecX& z0,
                                     const SolverOptions& options = {},
                                     LcpScratch* scratch = nullptr);
void solve_fischer_burmeister(const Lcp& lcp, const VecX& z0, const SolverOptions& options,
                              LcpScratch& scratch, LcpSolution& out);

// Every solution found by brute force over the 2^n complementary index sets α (z_α basic):
// solve M_αα z_α = −q_α, keep z if verify_lcp(z, tol) passes, drop duplicates. When M_αα is
// singular the minimum-norm solution of the (consistent) system stands for its whole face, so for
// non-unique problems the list is a sample of the solution set. Throws InputError for n > 20.
std::vector<VecX> enumerate_lcp_solutions(const Lcp& lcp, Real tol);

// The certificate of z for this LCP with an absolute tolerance tol (units of w): status kSolved
// or kVerificationFailed (kNumerical on NaN/Inf); method kNone. `w` receives M z + q.
SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol);
SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol, VecX& w);

// tol = options.tolerance · max(1, ‖q‖∞): the verification tolerance of spec §4.
Real verification_tolerance(const Lcp& lcp, const SolverOptions& options);

// Solves the complementary basis "z_i basic for active[i], w_i basic otherwise" exactly:
// B x = q with B_j = −M_j (active) or e_j (inactive); writes z (0 where inactive). Returns false
// when B is numerically singular (then z is untouched).
bool solve_complementary_basis(const Lcp& lcp, const std::vector<bool>& active, LcpScratch& scratch,
                               VecX& z);

// Polish: solves the complementary basis `active` exactly (default: the guess
// α = {i : z_i > w_i}) and replaces (z, w, certificate) when the polished point violates the
// certificate no more. certificate must be verify_lcp(lcp, z, tol); method/pivots/iterations kept.
void polish_complementary_basis(const Lcp& lcp, Real tol, LcpScratch& scratch, VecX& z, VecX& w,
                                SolveCertificate& certificate,
                                const std::vector<bool>* active = nullptr);

// How far a certificate is from passing: max(0, −min z, −min w, complementarity / max(1,‖z‖∞)),
// +∞ for NaN. 0 does not mean "solved" (compare with the tolerance).
Real certificate_violation(const SolveCertificate& certificate, const VecX& z);

// min |U_ii| / max |U_ii| of an LU factor: a cheap, allocation-free singularity indicator (Eigen's
// rcond() estimate allocates). 0 for a singular or empty factor.
Real lu_pivot_ratio(const Eigen::PartialPivLU<MatX>& lu);

// Throws InputError unless M is square, q matches and all entries are finite. `who` names the
// caller in the message.
void validate_lcp(const Lcp& lcp, const char* who);

}  // namespace exactsim
