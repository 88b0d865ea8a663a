// The time-step MLCP with free velocities, solved through its Schur complement
// (docs/solvers.md "Problem forms", "Reduction"): with W = M⁻¹,
//   N = Hᵀ W G + D,  b = Hᵀ W c + r,  0 <= N z + b ⊥ z >= 0,  ν = W (G z + c).
// The certificate is recomputed on the unreduced equations.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "exactsim/math/error.h"
#include "exactsim/math/storage.h"
#include "exactsim/solvers/dual_active_set.h"
#include "exactsim/solvers/lcp_io.h"
#include "exactsim/solvers/mlcp.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {
namespace {

void check_shape(const char* who, const char* name, Eigen::Index rows, Eigen::Index cols,
                 Eigen::Index want_rows, Eigen::Index want_cols) {
  if (rows == want_rows && cols == want_cols) return;
  std::ostringstream msg;
  msg << who << ": MLCP " << name << " is " << rows << "x" << cols << ", expected " << want_rows
      << "x" << want_cols << " (n_v = size of M, m = columns of G)";
  throw InputError(msg.str());
}

// D's stored entries (explicit zeros included).
Eigen::Map<const VecX> d_values(const SparseRowMatX& d) {
  return {d.valuePtr(), static_cast<Eigen::Index>(d.nonZeros())};
}

SolveCertificate certify(const Mlcp& mlcp, const VecX& nu, const VecX& z, Real tol,
                         Real impulse_scale, const SolverOptions& options, VecX& w, VecX& momentum,
                         VecX& impulse) {
  const Eigen::Index m = z.size();
  // Unreduced complementarity rows.
  w.resize(m);
  w.noalias() = mlcp.H.transpose() * nu;
  w.noalias() += mlcp.D * z;
  w += mlcp.r;
  // Newton–Euler rows: M ν − G z − c.
  impulse.resize(mlcp.G.rows());
  impulse.noalias() = mlcp.G * z;
  mlcp.M.apply(nu, momentum);
  momentum -= impulse;
  momentum -= mlcp.c;
  return judge_mlcp_point(nu, z, w, momentum, mlcp.c, tol, impulse_scale, options, mlcp.bilateral);
}

// The dual active-set fallback treats a row as dependent on the active ones below this relative
// independence (solve_dual_active_set): only what round-off cannot tell from dependent.
constexpr Real kQpIndependence = 1e-8;

// H = G and D = 0: the KKT conditions of min ½ νᵀMν − cᵀν s.t. Gᵀν + r >= 0 (frictionless; the
// standard model's rows, PEG's without I rows).
bool is_frictionless_qp(const Mlcp& mlcp) {
  return mlcp.H.cwiseEqual(mlcp.G).all() && (d_values(mlcp.D).array() == 0).all();
}

// EXACTSIM_DUMP_LCP (lcp_io.h): the reduced LCP of a failed solve (of every solve with
// EXACTSIM_DUMP_LCP_ALL); nothing without it.
void dump_reduced(const Mlcp& mlcp, const MlcpScratch& s, Real impulse_scale,
                  const SolveCertificate& cert) {
  if (lcp_dump_dir().empty() || (!lcp_dump_all() && cert.ok())) return;
  LcpFileInfo info;
  info.impulse_scale = impulse_scale;  // so that the file certifies as the step did
  info.note = std::string("solve_mlcp: ") + to_string(cert.status) + " (Lemke " +
              to_string(cert.primary_status) + "), method " + to_string(cert.method) + ", pivots " +
              std::to_string(cert.pivots) + ", n_v " + std::to_string(mlcp.M.size());
  dump_lcp(s.reduced, info, cert.ok() ? "ok" : "fail");
}

}  // namespace

void validate_mlcp(const Mlcp& mlcp, const char* who) {
  validate_block_diagonal(mlcp.M, who);
  const Eigen::Index nv = mlcp.M.size(), m = mlcp.G.cols();
  check_shape(who, "G", mlcp.G.rows(), mlcp.G.cols(), nv, m);
  check_shape(who, "H", mlcp.H.rows(), mlcp.H.cols(), nv, m);
  check_shape(who, "D", mlcp.D.rows(), mlcp.D.cols(), m, m);
  check_shape(who, "c", mlcp.c.rows(), mlcp.c.cols(), nv, 1);
  check_shape(who, "r", mlcp.r.rows(), mlcp.r.cols(), m, 1);
  if (!mlcp.G.allFinite() || !mlcp.H.allFinite() || !d_values(mlcp.D).allFinite() ||
      !mlcp.c.allFinite() || !mlcp.r.allFinite()) {
    throw InputError(std::string(who) + ": MLCP G, H, D, c or r contains NaN or Inf");
  }
}

void reduce_mlcp(const Mlcp& mlcp, MlcpScratch& s) {
  validate_mlcp(mlcp, "reduce_mlcp");
  invert_spd(mlcp.M, s.W);
  s.W.apply(mlcp.G, s.WG);
  s.W.apply(mlcp.c, s.Wc);
  // Hᵀ W G over the body blocks that both columns touch: O(Σ_k h_k g_k) for h_k, g_k columns of H,
  // G on block k, instead of the dense m² n_v (docs/solvers.md "Reduction").
  s.g.from_dense(mlcp.G, s.W);
  s.h.from_dense(mlcp.H, s.W);
  // A lane reduces its large island, then the small ones, every step: an N of kLargeBlockBytes
  // or more is kept in a buffer of its own, resized by reallocation (resize_keeping_pages), and
  // the small ones in the other (docs/solvers.md "Allocation").
  const Eigen::Index m = mlcp.D.rows();
  if (is_large_block(m * m) != is_large_block(s.reduced.M.size())) s.reduced.M.swap(s.spare_n);
  resize_keeping_pages(s.reduced.M, m, m);
  s.reduced.M.setZero();
  for (Eigen::Index i = 0; i < mlcp.D.outerSize(); ++i)
    for (SparseRowMatX::InnerIterator e(mlcp.D, i); e; ++e) s.reduced.M(i, e.col()) = e.value();
  s.reduced.q = mlcp.r;
  for (std::size_t k = 0; k < s.W.blocks.size(); ++k) {
    const int nb = static_cast<int>(s.W.blocks[k].rows()), offset = s.W.offsets[k];
    for (int a = s.h.block_begin[k]; a < s.h.block_begin[k + 1]; ++a) {
      const int eh = s.h.by_block[a], i = s.h.column[eh];
      const auto hv = s.h.values[eh].head(nb);
      s.reduced.q(i) += hv.dot(s.Wc.segment(offset, nb));
      for (int b = s.g.block_begin[k]; b < s.g.block_begin[k + 1]; ++b) {
        const int j = s.g.column[s.g.by_block[b]];
        s.reduced.M(i, j) += hv.dot(s.WG.col(j).segment(offset, nb));
      }
    }
  }
}

Real mlcp_impulse_scale(const Mlcp& mlcp, const Lcp& reduced) {
  // Momentum of the free motion (c = M ν + h f: m g h for a body at rest) ...
  Real scale = mlcp.c.size() > 0 ? mlcp.c.lpNorm<1>() : 0.0;
  // ... the impulse that gives all bodies the largest free / stabilisation velocity ...
  Real mass = 0;
  for (const MatX& block : mlcp.M.blocks) mass += block.diagonal().maxCoeff();
  const Real b_max = reduced.q.size() > 0 ? reduced.q.lpNorm<Eigen::Infinity>() : 0.0;
  scale = std::max(scale, mass * b_max);
  // ... and the reduced LCP's own scale.
  scale = std::max(scale, lcp_impulse_scale(reduced));
  return std::isfinite(scale) ? std::max<Real>(1.0, scale) : 1.0;
}

SolveCertificate judge_mlcp_point(const VecX& nu, const VecX& z, const VecX& w,
                                  const VecX& momentum, const VecX& c, Real tol, Real impulse_scale,
                                  const SolverOptions& options, int bilateral) {
  SolveCertificate cert;
  cert.tolerance = tol;
  cert.impulse_scale = impulse_scale;
  const Real c_max = c.size() > 0 ? c.lpNorm<Eigen::Infinity>() : 0.0;
  cert.newton_euler_residual = momentum.size() > 0 ? momentum.lpNorm<Eigen::Infinity>() : 0.0;
  // Problem scale only (momentum c and the impulse scale), never ‖G z‖ of the candidate.
  cert.newton_euler_tolerance = options.tolerance * std::max({Real(1), c_max, impulse_scale});
  if (!nu.allFinite() || !z.allFinite() || !w.allFinite() ||
      !std::isfinite(cert.newton_euler_residual)) {
    cert.status = cert.primary_status = SolveStatus::kNumerical;
    return cert;
  }
  // Complementarity rows first, the equality rows (joints) last.
  const Eigen::Index m = std::max<Eigen::Index>(0, z.size() - bilateral);
  if (m > 0 && w.size() >= m) {
    cert.min_z = z.head(m).minCoeff();
    cert.min_w = w.head(m).minCoeff();
    cert.complementarity = z.head(m).cwiseProduct(w.head(m)).cwiseAbs().maxCoeff();
  }
  if (bilateral > 0 && w.size() >= bilateral)
    cert.bilateral_residual = w.tail(bilateral).lpNorm<Eigen::Infinity>();
  const bool ok = cert.min_z >= -tol && cert.min_w >= -tol && cert.bilateral_residual <= tol &&
                  cert.complementarity <= tol * impulse_scale &&
                  cert.newton_euler_residual <= cert.newton_euler_tolerance;
  cert.status = cert.primary_status = ok ? SolveStatus::kSolved : SolveStatus::kVerificationFailed;
  return cert;
}

SolveCertificate verify_mlcp(const Mlcp& mlcp, const VecX& nu, const VecX& z, Real tol,
                             const SolverOptions& options, VecX& w) {
  validate_mlcp(mlcp, "verify_mlcp");
  if (nu.size() != mlcp.M.size() || z.size() != mlcp.G.cols()) {
    throw InputError("verify_mlcp: nu or z has the wrong size");
  }
  VecX momentum, impulse;
  Real scale = options.impulse_scale;
  if (!(scale > 0)) {
    MlcpScratch s;
    reduce_mlcp(mlcp, s);
    scale = mlcp_impulse_scale(mlcp, s.reduced);
  }
  return certify(mlcp, nu, z, tol, scale, options, w, momentum, impulse);
}

SolveCertificate verify_mlcp(const Mlcp& mlcp, const VecX& nu, const VecX& z, Real tol,
                             const SolverOptions& options, VecX& w, MlcpScratch& scratch) {
  if (nu.size() != mlcp.M.size() || z.size() != mlcp.G.cols() || !(options.impulse_scale > 0))
    throw InputError("verify_mlcp: nu or z has the wrong size, or no impulse scale");
  return certify(mlcp, nu, z, tol, options.impulse_scale, options, w, scratch.momentum,
                 scratch.impulse);
}

void solve_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& s, MlcpSolution& out) {
  solve_mlcp(mlcp, options, s, out, WarmGuess{});
}

void solve_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& s, MlcpSolution& out,
                const std::vector<bool>* active_guess) {
  WarmGuess guess;
  guess.basis = active_guess;
  solve_mlcp(mlcp, options, s, out, guess);
}

void solve_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& s, MlcpSolution& out,
                const WarmGuess& guess) {
  reduce_mlcp(mlcp, s);
  solve_reduced_mlcp(mlcp, options, s, out, guess);
}

namespace {

// The LCP on the complementarity rows of an MLCP with f equality rows last (Mlcp::bilateral,
// docs/joints.md "Solve"): with N and b split into complementarity (c) and free (f) parts, the
// free unknowns z_f = −(X z_c + y), X = N_ff⁻¹ N_fc, y = N_ff⁻¹ b_f, leave
//   N' = N_cc − N_cf X,   b' = b_c − N_cf y.
// N_ff = J_fᵀ W J_f is solved in the least-squares, minimum-norm sense (a complete orthogonal
// decomposition), so redundant joint rows give the smallest multipliers; rows that cannot hold
// together leave a residual the certificate reports.
const Lcp& condense(MlcpScratch& s, int f) {
  const Eigen::Index m = s.reduced.q.size(), mc = m - f;
  const MatX& n = s.reduced.M;
  s.free_block.compute(n.bottomRightCorner(f, f));
  s.eliminate = s.free_block.solve(n.bottomLeftCorner(f, mc));
  s.eliminate_rate = s.free_block.solve(s.reduced.q.tail(f));
  s.condensed.M = n.topLeftCorner(mc, mc);
  s.condensed.M.noalias() -= n.topRightCorner(mc, f) * s.eliminate;
  s.condensed.q = s.reduced.q.head(mc);
  s.condensed.q.noalias() -= n.topRightCorner(mc, f) * s.eliminate_rate;
  return s.condensed;
}

}  // namespace

void solve_reduced_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch& s,
                        MlcpSolution& out, const WarmGuess& given) {
  LcpSolution& red = s.reduced_solution;
  SolverOptions physical = options;
  if (!(physical.impulse_scale > 0)) physical.impulse_scale = mlcp_impulse_scale(mlcp, s.reduced);
  // With equality rows the LCP is the condensed one, and a guessed basis its first rows.
  const int f = mlcp.bilateral;
  const Lcp& lcp = f > 0 ? condense(s, f) : s.reduced;
  WarmGuess guess = given;
  if (f > 0) {
    guess = WarmGuess{};
    if (given.basis != nullptr &&
        given.basis->size() == static_cast<std::size_t>(lcp.q.size() + f)) {
      s.condensed_basis.assign(given.basis->begin(), given.basis->end() - f);
      guess.basis = &s.condensed_basis;
    }
  }
  // The reduced solve's z, with ν recovered and certified on the unreduced equations, and its
  // account (method, effort, why it stopped).
  auto adopt_reduced = [&]() {
    out.z = red.z;
    if (f > 0 && red.z.size() == lcp.q.size()) {  // (a failed solve may return no z)
      out.z.conservativeResize(red.z.size() + f);
      out.z.tail(f).noalias() = -s.eliminate * red.z;
      out.z.tail(f) -= s.eliminate_rate;
    }
    out.nu.resize(mlcp.M.size());
    out.nu.noalias() = s.WG * out.z;
    out.nu += s.Wc;
    const SolveCertificate& reduced = red.certificate;
    SolveCertificate cert = certify(mlcp, out.nu, out.z, reduced.tolerance, physical.impulse_scale,
                                    options, out.w, s.momentum, s.impulse);
    cert.method = reduced.method;
    cert.pivots = reduced.pivots;
    cert.iterations = reduced.iterations;
    cert.primary_status = reduced.primary_status;
    if (reduced.status != SolveStatus::kSolved) cert.status = reduced.status;
    out.certificate = cert;
  };
  // A frictionless problem whose Lemke path fails goes to the dual active-set method first
  // (docs/solvers.md "Dual active set"); the stack's Fischer–Burmeister run, which before it made
  // the standard model's 3D pours take 4–8× the CPU, comes only after.
  const bool qp = options.fallback && f == 0 && is_frictionless_qp(mlcp);
  SolverOptions first = physical;
  if (qp) {
    first.fallback = false;
    first.diagnostics.extended_precision_retry = false;
  }
  solve_lcp(lcp, first, s.lcp, red, guess);
  adopt_reduced();
  if (out.certificate.ok() || !qp) {
    dump_reduced(mlcp, s, physical.impulse_scale, out.certificate);
    return;
  }
  const SolveCertificate lemke = out.certificate;
  const Real tol = red.certificate.tolerance;
  // The Gram form first; where its answer does not certify, the orthogonal form, which does not
  // square the rows' condition number (docs/solvers.md "Dual active set").
  for (const DualActiveSetForm form : {DualActiveSetForm::kGram, DualActiveSetForm::kOrthogonal}) {
    const DualActiveSetResult by_qp =
        solve_dual_active_set(mlcp.M, mlcp.G, mlcp.c, mlcp.r, 0.1 * tol, kQpIndependence, 0, s.dual,
                              s.qp_nu, s.qp_z, form);
    if (by_qp.status != SolveStatus::kSolved) continue;
    SolveCertificate c = certify(mlcp, s.qp_nu, s.qp_z, tol, physical.impulse_scale, options,
                                 s.qp_w, s.momentum, s.impulse);
    if (!c.ok()) continue;
    c.method = SolveMethod::kDualActiveSet;
    c.pivots = lemke.pivots;
    c.iterations = by_qp.iterations;
    c.primary_status = lemke.primary_status;
    out.nu = s.qp_nu;
    out.z = s.qp_z;
    out.w = s.qp_w;
    out.certificate = c;
    break;
  }
  // Then the stack's fallbacks from a cold start, Fischer–Burmeister and the regularisation path,
  // without Lemke's retries in double and long double: after the dual active set's two forms
  // they rescue few QPs at most of a failed solve's cost (docs/solvers.md "Dual active set").
  if (!out.certificate.ok()) {
    SolverOptions stack = physical;
    stack.diagnostics.extended_precision_retry = false;
    solve_lcp(lcp, stack, s.lcp, red, WarmGuess{});
    if (red.certificate.ok()) {
      adopt_reduced();
      out.certificate.primary_status = lemke.primary_status;
    }
  }
  dump_reduced(mlcp, s, physical.impulse_scale, out.certificate);
}

MlcpSolution solve_mlcp(const Mlcp& mlcp, const SolverOptions& options, MlcpScratch* scratch) {
  MlcpScratch local;
  MlcpSolution out;
  solve_mlcp(mlcp, options, scratch ? *scratch : local, out);
  return out;
}

}  // namespace exactsim
