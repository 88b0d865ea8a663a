// Semismooth Newton on the Fischer–Burmeister reformulation (docs/solvers.md "Algorithms"):
//   Φ_i(z) = √(z_i² + w_i²) − z_i − w_i,  w = M z + q;  Φ(z) = 0  ⇔  0 <= z ⊥ w >= 0.
// Generalized Jacobian J = diag(a) + diag(b) M with a_i = z_i/ρ_i − 1, b_i = w_i/ρ_i − 1,
// ρ_i = ‖(z_i, w_i)‖; at z_i = w_i = 0 the De Luca–Facchinei–Kanzow element (ξ_i = 1 on the
// degenerate set, a_i = ξ_i/‖(ξ_i,(Mξ)_i)‖ − 1, b_i = (Mξ)_i/‖·‖ − 1), an element of the
// B-subdifferential. Direction: Newton (LU) when J's LU pivots are not tiny, otherwise
// Levenberg–Marquardt (JᵀJ + μI) d = −JᵀΦ with μ = ‖Φ‖ (keeps fast convergence on the
// non-isolated solutions of degenerate problems), and steepest descent −JᵀΦ when the direction
// is not a sufficient descent direction of θ = ½‖Φ‖². Armijo backtracking on θ.
#include <algorithm>
#include <cmath>

#include "exactsim/math/error.h"
#include "exactsim/solvers/lcp.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {
namespace {

// w = M z + q, Φ; returns θ = ½‖Φ‖² (NaN propagates).
Real fb_merit(const Lcp& lcp, const VecX& z, VecX& w, VecX& phi) {
  w.noalias() = lcp.M * z;
  w += lcp.q;
  for (Eigen::Index i = 0; i < z.size(); ++i) phi(i) = std::hypot(z(i), w(i)) - z(i) - w(i);
  return 0.5 * phi.squaredNorm();
}

}  // namespace

int fischer_burmeister_iterations(Eigen::Index n, const SolverOptions& options) {
  if (!(options.fb_max_work > 0) || n == 0) return options.fb_max_iterations;
  const Real cube = static_cast<Real>(n) * static_cast<Real>(n) * static_cast<Real>(n);
  const Real by_work = std::floor(options.fb_max_work / cube);
  return by_work < static_cast<Real>(options.fb_max_iterations) ? static_cast<int>(by_work)
                                                                : options.fb_max_iterations;
}

void solve_fischer_burmeister(const Lcp& lcp, const VecX& z0, const SolverOptions& options,
                              LcpScratch& s, LcpSolution& out) {
  validate_lcp(lcp, "solve_fischer_burmeister");
  const Eigen::Index n = lcp.q.size();
  if (z0.size() != n) {
    throw InputError("solve_fischer_burmeister: start z0 has " + std::to_string(z0.size()) +
                     " entries, the LCP has " + std::to_string(n));
  }
  if (!z0.allFinite()) throw InputError("solve_fischer_burmeister: start z0 is not finite");
  const Real tol = verification_tolerance(lcp, options);
  out.ray.resize(0);
  if (n == 0) {
    out.z.resize(0);
    out.w.resize(0);
    out.certificate = SolveCertificate{};
    out.certificate.status = out.certificate.primary_status = SolveStatus::kSolved;
    out.certificate.tolerance = tol;
    out.certificate.impulse_scale = certificate_impulse_scale(lcp, options);
    return;
  }
  s.z = z0;  // z0 may alias out.z
  for (VecX* v : {&s.w, &s.phi, &s.a, &s.b, &s.grad, &s.dir, &s.z_trial, &s.w_trial, &s.phi_trial,
                  &s.xi, &s.m_xi}) {
    v->resize(n);
  }
  const Real stop = options.diagnostics.fb_residual_factor * tol;
  // Below this ‖(z_i, w_i)‖ the pair counts as the kink z_i = w_i = 0.
  const Real kink = 1e-3 * stop;
  Real theta = fb_merit(lcp, s.z, s.w, s.phi);
  int iterations = 0;
  bool converged = false, numerical = false;
  Real theta_checkpoint = theta;
  const int max_iterations = fischer_burmeister_iterations(n, options);
  for (; iterations < max_iterations; ++iterations) {
    if (options.diagnostics.fb_stall_window > 0 && iterations > 0 &&
        iterations % options.diagnostics.fb_stall_window == 0) {
      if (theta > 0.5 * theta_checkpoint) break;  // stalled: not even halved over the window
      theta_checkpoint = theta;
    }
    if (!std::isfinite(theta)) {
      numerical = true;
      break;
    }
    if (s.phi.lpNorm<Eigen::Infinity>() <= stop) {
      converged = true;
      break;
    }
    // Generalized Jacobian.
    bool degenerate = false;
    for (Eigen::Index i = 0; i < n; ++i) {
      const Real rho = std::hypot(s.z(i), s.w(i));
      s.xi(i) = rho <= kink ? 1.0 : 0.0;
      degenerate = degenerate || rho <= kink;
      if (rho > kink) {
        s.a(i) = s.z(i) / rho - 1.0;
        s.b(i) = s.w(i) / rho - 1.0;
      }
    }
    if (degenerate) {
      s.m_xi.noalias() = lcp.M * s.xi;
      for (Eigen::Index i = 0; i < n; ++i) {
        if (s.xi(i) == 0.0) continue;
        const Real rho = std::hypot(1.0, s.m_xi(i));
        s.a(i) = 1.0 / rho - 1.0;
        s.b(i) = s.m_xi(i) / rho - 1.0;
      }
    }
    s.jacobian = lcp.M;
    s.jacobian.array().colwise() *= s.b.array();
    s.jacobian.diagonal() += s.a;
    s.grad.noalias() = s.jacobian.transpose() * s.phi;

    // Newton direction, or Levenberg–Marquardt when J is (nearly) singular.
    s.jacobian_lu.compute(s.jacobian);
    bool have_dir = false;
    if (lu_pivot_ratio(s.jacobian_lu) > 1e-12) {
      s.dir.noalias() = s.jacobian_lu.solve(s.phi);
      s.dir = -s.dir;
      have_dir = s.dir.allFinite();
    }
    if (!have_dir) {
      s.normal_matrix.noalias() = s.jacobian.transpose() * s.jacobian;
      s.normal_matrix.diagonal().array() += std::sqrt(2.0 * theta);
      s.normal_ldlt.compute(s.normal_matrix);
      s.dir.noalias() = s.normal_ldlt.solve(s.grad);
      s.dir = -s.dir;
      have_dir = s.dir.allFinite();
    }
    Real slope = have_dir ? s.grad.dot(s.dir) : 0.0;
    // Sufficient descent (De Luca–Facchinei–Kanzow): slope <= −1e-8 ‖d‖^2.1, else steepest descent.
    if (!have_dir || !(slope <= -1e-8 * std::pow(s.dir.norm(), 2.1))) {
      s.dir = -s.grad;
      slope = -s.grad.squaredNorm();
    }
    if (!(slope < 0)) break;  // stationary point of θ that is not a solution

    Real step = 1.0, theta_trial = theta;
    bool accepted = false;
    while (step >= options.diagnostics.fb_min_step) {
      s.z_trial = s.z + step * s.dir;
      theta_trial = fb_merit(lcp, s.z_trial, s.w_trial, s.phi_trial);
      if (theta_trial <= theta + options.diagnostics.fb_armijo * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) break;  // stalled line search
    s.z.swap(s.z_trial);
    s.w.swap(s.w_trial);
    s.phi.swap(s.phi_trial);
    theta = theta_trial;
  }
  if (!numerical && !converged && s.phi.lpNorm<Eigen::Infinity>() <= stop) converged = true;

  out.z = s.z;
  SolveCertificate cert =
      verify_lcp(lcp, out.z, tol, certificate_impulse_scale(lcp, options), out.w);
  if (options.diagnostics.polish && cert.status != SolveStatus::kNumerical) {
    polish_complementary_basis(lcp, tol, s, out.z, out.w, cert);
  }
  if (cert.status != SolveStatus::kSolved) {
    if (numerical || cert.status == SolveStatus::kNumerical) {
      cert.status = SolveStatus::kNumerical;
    } else if (!converged) {
      cert.status = SolveStatus::kMaxIterations;
    }  // converged but not verified: kVerificationFailed from verify_lcp
  }
  cert.primary_status = cert.status;
  cert.method = SolveMethod::kFischerBurmeister;
  cert.iterations = iterations;
  out.certificate = cert;
}

LcpSolution solve_fischer_burmeister(const Lcp& lcp, const VecX& z0, const SolverOptions& options,
                                     LcpScratch* scratch) {
  LcpScratch local;
  LcpSolution out;
  solve_fischer_burmeister(lcp, z0, options, scratch ? *scratch : local, out);
  return out;
}

}  // namespace exactsim
