// The LCP certificate (docs/solvers.md "Certificate"), checked on the original (unscaled) problem:
// min z >= −tol, min w >= −tol, max_i |z_i w_i| <= tol · Z, Z the problem's impulse scale.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "exactsim/math/error.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {

const char* to_string(SolveStatus status) {
  switch (status) {
    case SolveStatus::kSolved:
      return "solved";
    case SolveStatus::kInfeasible:
      return "infeasible";
    case SolveStatus::kRay:
      return "secondary ray";
    case SolveStatus::kMaxIterations:
      return "max iterations";
    case SolveStatus::kNumerical:
      return "numerical failure";
    case SolveStatus::kVerificationFailed:
      return "verification failed";
    case SolveStatus::kBeyondScale:
      return "solution beyond the problem's scale";
  }
  return "unknown";
}

const char* to_string(SolveMethod method) {
  switch (method) {
    case SolveMethod::kNone:
      return "none";
    case SolveMethod::kLemke:
      return "lemke";
    case SolveMethod::kFischerBurmeister:
      return "fischer-burmeister";
    case SolveMethod::kEnumeration:
      return "enumeration";
    case SolveMethod::kWarmStart:
      return "warm-start basis";
    case SolveMethod::kExactLemke:
      return "exact lemke";
    case SolveMethod::kDualActiveSet:
      return "dual active set";
    case SolveMethod::kRegularisationPath:
      return "regularisation path";
    case SolveMethod::kBlockPivoting:
      return "block pivoting";
    case SolveMethod::kInteriorPoint:
      return "interior point";
  }
  return "unknown";
}

bool is_fallback(SolveMethod method) {
  return method == SolveMethod::kFischerBurmeister || method == SolveMethod::kDualActiveSet ||
         method == SolveMethod::kRegularisationPath;
}

void validate_lcp(const Lcp& lcp, const char* who) {
  if (lcp.M.rows() != lcp.M.cols()) {
    std::ostringstream msg;
    msg << who << ": LCP matrix M is " << lcp.M.rows() << "x" << lcp.M.cols()
        << ", it must be square";
    throw InputError(msg.str());
  }
  if (lcp.q.size() != lcp.M.rows()) {
    std::ostringstream msg;
    msg << who << ": LCP vector q has " << lcp.q.size() << " entries, M has " << lcp.M.rows()
        << " rows";
    throw InputError(msg.str());
  }
  if (!lcp.M.allFinite() || !lcp.q.allFinite()) {
    throw InputError(std::string(who) + ": LCP M or q contains NaN or Inf");
  }
}

Real verification_tolerance(const Lcp& lcp, const SolverOptions& options) {
  const Real q_max = lcp.q.size() > 0 ? lcp.q.lpNorm<Eigen::Infinity>() : 0.0;
  return options.tolerance * std::max<Real>(1.0, q_max);
}

Real lcp_impulse_scale(Eigen::Index n, Real q_max, Real mobility) {
  if (n == 0 || !(mobility > 0)) return 1.0;
  const Real z = static_cast<Real>(n) * q_max / mobility;
  return std::isfinite(z) ? std::max<Real>(1.0, z) : 1.0;
}

Real lcp_impulse_scale(const Lcp& lcp) {
  const Eigen::Index n = lcp.q.size();
  if (n == 0) return 1.0;
  Real mobility = lcp.M.diagonal().cwiseAbs().maxCoeff();
  if (!(mobility > 0)) mobility = lcp.M.cwiseAbs().maxCoeff();
  return lcp_impulse_scale(n, lcp.q.lpNorm<Eigen::Infinity>(), mobility);
}

Real certificate_impulse_scale(const Lcp& lcp, const SolverOptions& options) {
  return options.impulse_scale > 0 ? options.impulse_scale : lcp_impulse_scale(lcp);
}

SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol, VecX& w) {
  return verify_lcp(lcp, z, tol, lcp_impulse_scale(lcp), w);
}

SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol, Real impulse_scale, VecX& w) {
  if (lcp.M.rows() != lcp.M.cols() || lcp.q.size() != lcp.M.rows()) validate_lcp(lcp, "verify_lcp");
  if (z.size() != lcp.q.size()) {
    throw InputError("verify_lcp: z has " + std::to_string(z.size()) + " entries, the LCP has " +
                     std::to_string(lcp.q.size()));
  }
  w.resize(z.size());
  if (z.size() > 0) {
    w.noalias() = lcp.M * z;
    w += lcp.q;
  }
  // M's and q's entries are checked only when w is not finite: the product forms every M_ij z_j,
  // so an entry that is not finite leaves w not finite (one pass over M instead of two).
  if (z.size() > 0 && (!z.allFinite() || !w.allFinite())) validate_lcp(lcp, "verify_lcp");
  return judge_lcp_point(z, w, tol, impulse_scale);
}

SolveCertificate judge_lcp_point(const VecX& z, const VecX& w, Real tol, Real impulse_scale) {
  SolveCertificate cert;
  cert.tolerance = tol;
  cert.impulse_scale = impulse_scale;
  cert.primary_status = SolveStatus::kSolved;
  if (z.size() == 0) {
    cert.status = SolveStatus::kSolved;
    return cert;
  }
  if (!z.allFinite() || !w.allFinite()) {
    cert.status = SolveStatus::kNumerical;
    cert.min_z = cert.min_w = cert.complementarity = std::numeric_limits<Real>::quiet_NaN();
    cert.primary_status = cert.status;
    return cert;
  }
  cert.min_z = z.minCoeff();
  cert.min_w = w.minCoeff();
  cert.complementarity = z.cwiseProduct(w).cwiseAbs().maxCoeff();
  // Problem scale, not solution scale: a wrong, huge z must not relax its own test.
  const bool ok =
      cert.min_z >= -tol && cert.min_w >= -tol && cert.complementarity <= tol * impulse_scale;
  cert.status = ok ? SolveStatus::kSolved : SolveStatus::kVerificationFailed;
  cert.primary_status = cert.status;
  return cert;
}

SolveCertificate verify_lcp(const Lcp& lcp, const VecX& z, Real tol) {
  VecX w;
  return verify_lcp(lcp, z, tol, w);
}

}  // namespace exactsim
