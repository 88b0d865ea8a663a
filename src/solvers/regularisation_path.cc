// docs/solvers.md "Regularisation path".
#include "exactsim/solvers/regularisation_path.h"
#include "solvers/lcp_scratch.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "exactsim/solvers/mlcp.h"  // active_set

namespace exactsim {

namespace {

// The regularised problem M + δ·max|M_ii|·I and what a solution of it is on the original.
struct PathProblem {
  const Lcp& lcp;
  SolverOptions options;
  Real z_scale, tolerance, diagonal;
  Lcp regularised;

  PathProblem(const Lcp& original, SolverOptions o)
      : lcp(original),
        options(o),
        z_scale(certificate_impulse_scale(original, o)),
        tolerance(verification_tolerance(original, o)),
        diagonal(original.M.rows() > 0 ? original.M.diagonal().cwiseAbs().maxCoeff() : 0.0),
        regularised(original) {
    options.exact_retry = false;
    options.regularisation_path_retry = false;
  }

  void set_delta(Real delta) {
    regularised.M.diagonal() = lcp.M.diagonal().array() + delta * diagonal;
  }

  RegularisationPoint point(Real delta, const LcpSolution& out) const {
    RegularisationPoint p{delta, out.certificate.ok()};
    p.max_z_over_scale = (out.z.size() > 0 ? out.z.lpNorm<Eigen::Infinity>() : 0.0) / z_scale;
    VecX w;
    const SolveCertificate original = verify_lcp(lcp, out.z, tolerance, z_scale, w);
    p.violation_over_tolerance = certificate_violation(original, out.z) / tolerance;
    return p;
  }
};

// The complementary basis `active` of the regularised problem solved in long double: an LU with
// partial pivoting of its active block and two steps of refinement on long-double residuals,
// verified in double. Lemke's own ending polishes in double, which on these blocks (condition
// ~1/δ) loses the digits the certificate needs from δ ~ 1e-11 on.
void solve_basis_in_long_double(const PathProblem& problem, const std::vector<bool>& active,
                                LcpSolution& out) {
  using L = long double;
  const Lcp& p = problem.regularised;
  std::vector<Eigen::Index> index;
  for (Eigen::Index i = 0; i < p.q.size(); ++i)
    if (active[i]) index.push_back(i);
  const auto k = static_cast<Eigen::Index>(index.size());
  Eigen::Matrix<L, Eigen::Dynamic, Eigen::Dynamic> a(k, k);
  Eigen::Matrix<L, Eigen::Dynamic, 1> b(k);
  for (Eigen::Index r = 0; r < k; ++r) {
    b(r) = -L(p.q(index[r]));
    for (Eigen::Index c = 0; c < k; ++c) a(r, c) = p.M(index[r], index[c]);
  }
  const Eigen::PartialPivLU<decltype(a)> lu(a);
  Eigen::Matrix<L, Eigen::Dynamic, 1> x = lu.solve(b);
  for (int step = 0; step < 2; ++step) x += lu.solve(b - a * x);
  VecX z = VecX::Zero(p.q.size());
  for (Eigen::Index r = 0; r < k; ++r) z(index[r]) = static_cast<Real>(x(r));
  if (!z.allFinite()) return;
  const Real tol = verification_tolerance(p, problem.options);
  VecX w;
  const SolveCertificate c =
      verify_lcp(p, z, tol, certificate_impulse_scale(p, problem.options), w);
  if (certificate_violation(c, z) > certificate_violation(out.certificate, out.z)) return;
  out.z.swap(z);
  out.w.swap(w);
  const int pivots = out.certificate.pivots;
  const SolveMethod method = out.certificate.method;
  out.certificate = c;
  out.certificate.pivots = pivots;
  out.certificate.method = method;
}

// The point at the problem's current δ: Lemke in long double from `basis` (the last certified
// point's; empty: none), its final basis solved again in long double, when that certifies; else
// `solve_double`. A certified point's basis replaces `basis`. Returns whether the point is the
// long-double continuation's.
template <class SolveDouble>
bool next_point(PathProblem& problem, std::vector<bool>& basis, LcpScratch& s, LcpSolution& out,
                SolveDouble&& solve_double) {
  // The basis a Lemke or warm-start answer ended on, degenerate basics included (s.active); an
  // answer of another method has only its active set.
  auto ending_basis = [&](std::vector<bool>& b) {
    const SolveMethod m = out.certificate.method;
    if ((m == SolveMethod::kLemke || m == SolveMethod::kWarmStart) &&
        s.active.size() == static_cast<std::size_t>(out.z.size()))
      b = s.active;
    else
      active_set(out.z, out.w, b);
  };
  bool continued = false;
  if (!basis.empty() &&
      solve_lemke_long_double(problem.regularised, &basis, problem.options, s, out)) {
    if (!out.certificate.ok()) {
      std::vector<bool> ending;
      ending_basis(ending);
      solve_basis_in_long_double(problem, ending, out);
    }
    continued = out.certificate.ok();
  }
  if (!continued) solve_double();
  if (out.certificate.ok()) ending_basis(basis);
  return continued;
}

// Each δ by the default stack in double, or (extended) continued in long double (next_point).
std::vector<RegularisationPoint> follow_path(const Lcp& lcp, SolverOptions options,
                                             std::span<const Real> deltas, bool extended) {
  PathProblem problem(lcp, options);
  LcpScratch scratch;
  LcpSolution out;
  std::vector<bool> basis;
  std::vector<RegularisationPoint> path;
  for (const Real delta : deltas) {
    problem.set_delta(delta);
    auto solve_double = [&] { solve_lcp(problem.regularised, problem.options, scratch, out); };
    bool continued = false;
    if (extended)
      continued = next_point(problem, basis, scratch, out, solve_double);
    else
      solve_double();
    RegularisationPoint p = problem.point(delta, out);
    p.long_double = continued;
    path.push_back(p);
  }
  return path;
}

}  // namespace

std::vector<RegularisationPoint> regularisation_path(const Lcp& lcp, SolverOptions options,
                                                     std::span<const Real> deltas) {
  validate_lcp(lcp, "regularisation_path");
  return follow_path(lcp, options, deltas, false);
}

std::vector<RegularisationPoint> extended_regularisation_path(const Lcp& lcp, SolverOptions options,
                                                              std::span<const Real> deltas) {
  validate_lcp(lcp, "extended_regularisation_path");
  return follow_path(lcp, options, deltas, true);
}

bool solve_by_regularisation_path(const Lcp& lcp, const SolverOptions& options, LcpScratch& s,
                                  LcpSolution& out) {
  if (lcp.q.size() == 0 || !long_double_lemke_fits(lcp.q.size(), options)) return false;
  PathProblem problem(lcp, options);
  LcpSolution point;
  std::vector<bool> basis;
  int pivots = 0;
  // The point's violation of the original problem over its tolerance (∞ when the regularised
  // problem itself was not certified); a point the certificate accepts there goes into `out`.
  bool taken = false;
  auto try_point = [&] {
    pivots += point.certificate.pivots;
    if (!point.certificate.ok()) return std::numeric_limits<Real>::infinity();
    VecX w;
    const SolveCertificate original =
        verify_lcp(lcp, point.z, problem.tolerance, problem.z_scale, w);
    const Real violation = certificate_violation(original, point.z) / problem.tolerance;
    if (!original.ok()) return violation;
    out.z.swap(point.z);
    out.w.swap(w);
    out.ray.resize(0);
    const SolveStatus primary = out.certificate.primary_status;
    const int previous_pivots = out.certificate.pivots;
    const bool extended = point.certificate.extended_precision;
    out.certificate = original;
    out.certificate.method = SolveMethod::kRegularisationPath;
    out.certificate.primary_status = primary;
    out.certificate.pivots = previous_pivots + pivots;
    out.certificate.extended_precision = extended;
    s.active = basis;
    taken = true;
    return violation;
  };
  auto solve_double = [&] { solve_lcp(problem.regularised, problem.options, s, point); };
  // Two points: the path's first δ, and the δ at which a path settled there would violate the
  // original problem by a tenth of its tolerance (the violation falls as δ; not below the
  // extended path's last δ).
  const Real first = kExtendedPathDeltas[0];
  problem.set_delta(first);
  next_point(problem, basis, s, point, solve_double);
  const Real violation = try_point();
  if (taken) return true;
  if (!(violation > 0) || !std::isfinite(violation)) return false;
  const Real last = kExtendedPathDeltas[std::size(kExtendedPathDeltas) - 1];
  problem.set_delta(std::max(first * 0.1 / violation, last));
  next_point(problem, basis, s, point, solve_double);
  try_point();
  return taken;
}

}  // namespace exactsim
