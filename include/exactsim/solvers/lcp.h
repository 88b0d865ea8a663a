// The linear complementarity problem, its solve certificate and the solvers (docs/solvers.md).
//
//   w = M z + q,   0 <= z ⊥ w >= 0
//
// In a time step z holds impulses (N·s) and w velocities (m/s). Every solver returns a
// SolveCertificate computed on the unscaled problem, so a caller can trust `ok()` without
// re-checking. The default stack is solve_lcp(): Lemke → verify → Fischer–Burmeister → verify.
#pragma once

#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

struct LcpScratch;  // the solvers' buffers (src/solvers/lcp_scratch.h)

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
  kBeyondScale,         // exact Lemke found a true solution, but its impulses are so far beyond
                        // the problem's impulse scale Z that it fails the certificate in double
                        // (the model's answer is a jam, docs/solvers.md "Exact Lemke")
};

enum class SolveMethod {
  kNone,               // empty problem (n = 0): nothing to solve
  kLemke,              // lexicographic Lemke (solve_lemke)
  kFischerBurmeister,  // semismooth Newton on the Fischer–Burmeister function
  kEnumeration,        // brute force over complementary bases (test oracle)
  kWarmStart,          // the caller's guessed complementary basis, solved and verified directly
  kExactLemke,         // lexicographic Lemke in exact integer arithmetic (solve_lemke_exact)
  kDualActiveSet,      // the frictionless MLCP as a QP, Goldfarb–Idnani (solve_dual_active_set)
  kRegularisationPath,  // M + δI followed as δ falls, certified on M (solve_by_regularisation_path)
  kBlockPivoting,       // block principal pivoting on the sparse basis system (solve_sparse_mlcp)
  kInteriorPoint,       // primal–dual interior point in body space (solve_sparse_mlcp)
};

// A method that ran only after Lemke failed (the stack's fallbacks).
bool is_fallback(SolveMethod method);

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
  // <= tolerance · impulse_scale: w-units times the PROBLEM's impulse scale (an energy bound),
  // never the solution's ‖z‖∞ (which would let a huge, wrong z certify itself).
  Real complementarity = 0;
  Real newton_euler_residual = 0;  // ‖M ν − G z − c‖∞ of the mixed problem; 0 for a plain LCP
  // its bound: options.tolerance · max(1, ‖c‖∞, impulse_scale) (problem data only)
  Real newton_euler_tolerance = 0;
  // max |w_i| over an MLCP's equality rows (Mlcp::bilateral, joints); <= tolerance when solved
  Real bilateral_residual = 0;
  Real tolerance = 0;  // options.tolerance · max(1, ‖q‖∞), in the units of w
  // Z, the problem's impulse scale (units of z): options.impulse_scale when set, otherwise
  // lcp_impulse_scale() of the LCP; solve_mlcp sets it from the momentum scale of the MLCP.
  Real impulse_scale = 1;
  // The returned point came from the long-double Lemke retry.
  bool extended_precision = false;
  // A warm start was given (solve_lcp / solve_mlcp with an active guess); the guessed basis
  // itself verified when method == kWarmStart.
  bool warm_started = false;
  // The exact-arithmetic Lemke ran (solve_lcp's last retry, or solve_lemke_exact): its verdict
  // (kSolved, kBeyondScale, kInfeasible, kRay) is the problem's, not round-off's.
  bool exact = false;
  bool ok() const { return status == SolveStatus::kSolved; }
};

struct LcpSolution {
  VecX z, w;
  SolveCertificate certificate;
  // With status kInfeasible: the Farkas vector y (‖y‖∞ = 1) with y >= 0, Mᵀy <= 0, qᵀy < 0.
  // With kRay: the z-part of the ray direction. Empty otherwise.
  VecX ray;
};

// The LCP solvers' options (docs/solvers.md "Options"). All tolerances are relative; "scale"
// factors are named in each comment. Three groups a user has a reason to set: what a certificate
// accepts, how much work a solve may take before it is reported failed, and which rescues run
// after Lemke fails. The algorithms' own constants are fenced off in `diagnostics`: the tests and
// bench_paired vary them, and the defaults are what every measured table in docs/ used.
struct SolverOptions {
  // --- The certificate (docs/solvers.md "Certificate") ---
  // Verification tolerance, relative: tol = tolerance · max(1, ‖q‖∞) in the units of w (m/s for
  // a time step); nominal 1e-10.
  Real tolerance = 1e-10;
  // The certificate's impulse scale Z (units of z, N·s in a time step): complementarity must be
  // <= tol · Z. 0: derived from the problem (lcp_impulse_scale; solve_mlcp uses
  // mlcp_impulse_scale).
  Real impulse_scale = 0;

  // --- Budgets: a solve that exceeds one ends with kMaxIterations ---
  // Lemke: stop after max_pivots_per_unknown · n pivots (+ 1). Spec: ~50 n.
  int max_pivots_per_unknown = 50;
  // Lemke: a hard cap on pivots regardless of n (runaway protection; 0: none). Each pivot costs
  // O(n²); together with max_pivots_per_unknown it keeps a failed solve cheap.
  int max_pivots = 20000;
  // Lemke: and a work cap, pivots · n² <= max_pivot_work (a pivot is ~n² multiply-adds), so that
  // a huge failing LCP (n in the thousands) ends in seconds, not minutes (0: none). The
  // long-double retry is skipped when its cost (~4× per pivot) would exceed the same cap. The
  // sparse Lemke (sparse_lemke.h) counts a pivot as 4m on its m unknowns.
  Real max_pivot_work = 4e9;
  // Fischer–Burmeister: Newton iteration budget (quadratic convergence needs ~10–30).
  int fb_max_iterations = 100;
  // Fischer–Burmeister: iterations are also capped so that iterations · n³ <= fb_max_work
  // (one LU per iteration; 0: none, at least one iteration always runs).
  Real fb_max_work = 2e10;

  // --- Rescues after Lemke fails (docs/solvers.md "Fallback policy") ---
  // solve_lcp / solve_mlcp: run Fischer–Burmeister (warm-started from Lemke's last iterate)
  // when Lemke ends on a ray, on the pivot budget, on NaN or on a failed verification.
  bool fallback = true;
  // solve_lcp: when the floating-point attempts failed, solve M + δI at two points of δ (1e-8 of
  // max|M_ii|, then where a settled path would meet the tolerance) and take a solution the
  // certificate accepts on M itself (solve_by_regularisation_path, docs/solvers.md
  // "Regularisation path"). Skipped where the long-double run exceeds max_pivot_work (4n³).
  bool regularisation_path_retry = true;
  // solve_lcp: when every floating-point attempt failed, rerun Lemke in exact arithmetic
  // (solve_lemke_exact) for problems of at most exact_max_size unknowns; its answer is taken
  // when it certifies, and otherwise names why the problem failed (docs/solvers.md "Exact Lemke").
  // Off by default: on the standard model's 2D pours it costs ~0.3–0.7 s per failed step and
  // rescues ~4 % of them (the rest are the model's own jams); a diagnosis tool.
  bool exact_retry = false;
  int exact_max_size = 96;
  // Exact Lemke: stop with kMaxIterations once Σ over pivots of n · (2n + 2) · limbs(det)² (word
  // multiplications; det is the basis determinant, whose size bounds every entry's) exceeds this
  // (0: none). ~1e9 is about a second on one core.
  Real exact_max_work = 2e9;

  // --- Diagnostics: the algorithms' constants, for tests and comparisons, not for tuning a scene
  struct Diagnostics {
    // Lemke: a pivot element d_r must exceed pivot_tolerance · max(1, ‖d‖∞) (~1e-12·scale).
    Real pivot_tolerance = 1e-12;
    // Lemke: two ratios tie when they differ by <= ratio_tie_tolerance · max(1, |min ratio|);
    // ties go to the lexicographic rule on the basis-inverse rows.
    Real ratio_tie_tolerance = 1e-12;
    // Lemke: a ray's z-part y counts as a Farkas certificate when max(Mᵀy) <=
    // farkas_tolerance · max(1, max|M|) with ‖y‖∞ = 1 (and qᵀy < −tol). Then any feasible z
    // would need ‖z‖₁ >= |qᵀy| / max(Mᵀy), i.e. be absurdly large.
    Real farkas_tolerance = 1e-9;
    // Lemke: recompute B⁻¹ and x_B from an LU of the basis columns every this many pivots
    // (0: automatic, max(25, n / 2)); removes the drift of long runs of rank-one updates.
    int refactor_interval = 0;
    // Lemke: when the double-precision run ends without a verified answer (ray without Farkas
    // certificate, pivot budget, verification failure), rerun it once in long double (64-bit
    // mantissa) with refactorisation, from the same start. Bounded by the same pivot budget.
    bool extended_precision_retry = true;
    // Lemke: problems of at least this many unknowns pivot in the revised form, on the inverse of
    // the basis's k×k block of z columns (O(k² + n k) per pivot, no n × (n+1) tableau) instead of
    // the dense tableau (O(n²)); 0: always dense (docs/solvers.md "Revised Lemke"). Below 128 the
    // two cost about the same, and the papers' scenes keep the dense form's paths.
    int revised_min_size = 128;
    // Revised form: when at most this fraction of M's entries is nonzero, the basis solve reads
    // M's columns compressed (O(nnz) per basic column instead of O(n)); the sums are the same, so
    // the path is bit-identical. A pile's Delassus matrix couples only rows that share a body.
    // 0: never.
    Real revised_sparse_density = 0.25;
    // Warm start (solve_lcp with a guess): a capped Lemke run from a guessed basis that ends on a
    // secondary ray with w_j entering, z_j guessed active, is run again without z_j, at most this
    // many times (docs/solvers.md "Fallback policy", ray restart); 0: never.
    int max_ray_restarts = 3;
    // Sparse Lemke: break a ratio-test tie a column of B⁻¹ at a time before the tied rows of B⁻¹
    // (docs/solvers.md "Ties, a column at a time"); false: by the rows only.
    bool lexicographic_columns = true;
    // Working set: solve each independent part of the set alone (docs/solvers.md "The working
    // set's parts"); false: the whole set as one problem.
    bool working_set_parts = true;
    // Working set: the first round's interior point starts near last step's answer, mapped by
    // contact (docs/solvers.md "The working set"); false: from its cold starts only.
    bool first_round_from_last_answer = false;
    // Working set: where every start of the interior point stalled, one more start near last
    // step's answer, mapped by contact (docs/solvers.md "The working set").
    bool rescue_from_last_answer = true;
    // Sparse interior point: a run that has met an iterate within 3/4 of the certificate's bounds
    // ends at the best such iterate once μ has not halved in 4 iterations, or where it stalls or
    // runs out of iterations (docs/solvers.md "Interior point"); false: at its last iterate.
    bool interior_point_best = true;
    // Working set: once a round's answer leaves a row closed, the left-out units whose row is
    // open by less than this many times |g| h (the speed gravity gives in one step) join with
    // it (docs/solvers.md "The working set"); 0: only the closed ones.
    Real working_set_margin = 0.3;
    // Working set of a step that a failed solve takes again as halves: its sparse Lemke runs stop
    // after this many pivots per unknown of their problem (docs/solvers.md "The working set");
    // 0: the sparse Lemke's own budget, as any other run.
    Real retaken_pivots_per_unknown = 0.02;
    // Position projection: a QP with at least this many rows is solved by the interior point in
    // body space first, by the dual active set where that does not certify; 0: by the dual active
    // set only (docs/robustness.md "Stabilisation": below about 1,000 rows the dual active set is
    // faster).
    int projection_interior_min_rows = 1000;
    // The QP that stops the projected contacts' approach (docs/robustness.md "Stabilisation"):
    // with at least this many rows, by the interior point in body space first, as above; 0: by
    // the dual active set only.
    int approach_interior_min_rows = 1000;
    // A sparse solve of at least this many rows on which every interior-point start stalled
    // follows the central path by arc-length continuation before the sparse Lemke
    // (docs/solvers.md "Arc-length continuation"); 0: never; −1: 2,000 where the bodies are
    // planar (3 velocities), never where they are spatial.
    int arc_length_min_rows = -1;
    // The working set takes an I (PEG paper eq. 24) into its set with its impulse row alone, its
    // slacks (eq. 20) at their closed form, and adds the slacks where the whole problem's check
    // finds that row's product z w beyond the certificate's bound (docs/solvers.md "The working
    // set": "An I's slacks on demand"); 1: always, 0: never (each I with its slacks), −1: where
    // the bodies are planar (3 velocities).
    int slacks_on_demand = -1;
    // Both Lemke and Fischer–Burmeister: re-solve the final complementary basis (active set)
    // exactly with an LU and keep it when it verifies better. Removes the drift of the updated
    // basis inverse / Newton iterate.
    bool polish = true;
    // Fischer–Burmeister: give up when ½‖Φ‖² has not halved over this many iterations (0:
    // never). On an infeasible problem (a standard-model trap) FB creeps towards a non-zero
    // stationary point of the merit and would otherwise spend the whole budget there.
    int fb_stall_window = 10;
    // Fischer–Burmeister: stop when ‖Φ‖∞ <= fb_residual_factor · tol (margin below
    // verification).
    Real fb_residual_factor = 1e-2;
    // Fischer–Burmeister: Armijo sufficient-decrease constant on ½‖Φ‖².
    Real fb_armijo = 1e-4;
    // Fischer–Burmeister: the line search gives up below this step length (kMaxIterations).
    Real fb_min_step = 1e-12;
  };
  Diagnostics diagnostics;
};

// The default stack (docs/solvers.md "Fallback policy"): lexicographic Lemke → verify → on ray /
// pivot budget / NaN / failed verification: Fischer–Burmeister warm-started from Lemke's iterate →
// verify. A verified Farkas certificate (kInfeasible) is final: no fallback runs.
LcpSolution solve_lcp(const Lcp& lcp, const SolverOptions& options = {},
                      LcpScratch* scratch = nullptr);
// Lemke's complementary pivoting with covering vector e = 1 and the lexicographic ratio test
// (ties broken on the rows of B⁻¹). Returns z = 0 at once when q >= 0.
LcpSolution solve_lemke(const Lcp& lcp, const SolverOptions& options = {},
                        LcpScratch* scratch = nullptr);
// Lexicographic Lemke in exact integer arithmetic (fraction-free tableau over GMP integers; the
// doubles of M and q are exact dyadic rationals). Ends kSolved when the rounded solution passes the
// certificate, kBeyondScale when the exact solution does not (impulses beyond the problem's
// scale), kInfeasible with an exactly verified Farkas vector in `ray`, kRay otherwise, or
// kMaxIterations after max_pivots_per_unknown · n pivots. Cost: each pivot touches n · 2n
// integers whose size grows with the minors of the input; meant for n up to ~100.
void solve_lemke_exact(const Lcp& lcp, const SolverOptions& options, LcpSolution& out);

// The Newton iterations Fischer–Burmeister may take on n unknowns: fb_max_iterations, and at
// most fb_max_work / n³ (one n × n LU each). 0 when a single LU would exceed fb_max_work (n > 2714
// at the default 2e10): then the default stack skips the fallback, whose buffers (4 n² doubles)
// are never allocated, and one iteration would cost minutes for next to no chance of success.
int fischer_burmeister_iterations(Eigen::Index n, const SolverOptions& options);

// Whether a Lemke run in long double on n unknowns fits options.max_pivot_work: it costs ~4× a
// double pivot, and even a short run (n pivots) must fit, ~4n³. The rule of Lemke's long-double
// retry and of the regularisation-path rescue (n <= 1000 at the default 4e9), and of the memory
// budget's count of their buffers.
bool long_double_lemke_fits(Eigen::Index n, const SolverOptions& options);

// Semismooth Newton on Φ_i = √(z_i² + w_i²) − z_i − w_i with Armijo line search on ½‖Φ‖²,
// started from z0 (any sign; size n).
LcpSolution solve_fischer_burmeister(const Lcp& lcp, const VecX& z0,
                                     const SolverOptions& options = {},
                                     LcpScratch* scratch = nullptr);
// Every solution found by brute force over the 2^n complementary index sets α (z_α basic):
// solve M_αα z_α = −q_α, keep z if verify_lcp(z, tol) passes, drop duplicates. When M_αα is
// singular the minimum-norm solution of the (consistent) system stands for its whole face, so for
// non-unique problems the list is a sample of the solution set. Throws InputError for n > 20.
std::vector<VecX> enumerate_lcp_solutions(const Lcp& lcp, Real tol);

// The certificate of z for this LCP with an absolute tolerance tol (units of w): status kSolved
// or kVerificationFailed (kNumerical on NaN/Inf); method kNone. `w` receives M z + q.
SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol);
SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol, VecX& w);

// tol = options.tolerance · max(1, ‖q‖∞): the verification tolerance (docs/solvers.md
// "Certificate").
Real verification_tolerance(const Lcp& lcp, const SolverOptions& options);

// The impulse scale Z of a plain LCP, from the problem alone: max(1, n ‖q‖∞ / max_i |M_ii|)
// (max |M_ij| when the diagonal is zero): n times the impulse that changes the most mobile row's
// velocity by the largest free velocity. Upper-bounds legitimate impulses (stacks carry at most n
// such loads) up to conditioning, and is independent of any candidate solution.
Real lcp_impulse_scale(const Lcp& lcp);
// The same from n, ‖q‖∞ and the mobility max_i |M_ii| (1 when the mobility is not positive).
Real lcp_impulse_scale(Eigen::Index n, Real q_max, Real mobility);
// options.impulse_scale when > 0, else lcp_impulse_scale(lcp).
Real certificate_impulse_scale(const Lcp& lcp, const SolverOptions& options);

// The certificate with an explicit impulse scale Z: min z >= −tol, min w >= −tol,
// max_i |z_i w_i| <= tol · Z. (The overloads without Z use lcp_impulse_scale.)
SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol, Real impulse_scale, VecX& w);
// The same judgement of z and w = M z + q formed by the caller (M not at hand: a sparse product).
SolveCertificate judge_lcp_point(const VecX& z, const VecX& w, Real tol, Real impulse_scale);

// How far a certificate is from passing: max(0, −min z, −min w, complementarity / Z) with Z the
// certificate's impulse_scale, +∞ for NaN. 0 does not mean "solved" (compare with the tolerance).
Real certificate_violation(const SolveCertificate& certificate, const VecX& z);

// Throws InputError unless M is square, q matches and all entries are finite. `who` names the
// caller in the message.
void validate_lcp(const Lcp& lcp, const char* who);

}  // namespace exactsim
