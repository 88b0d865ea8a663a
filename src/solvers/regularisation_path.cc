// docs/solvers.md "Regularisation path".
#include "exactsim/solvers/regularisation_path.h"

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

// Each δ by the default stack in double, or (extended) by Lemke in long double from the last
// certified point's basis where there is one and that certifies.
std::vector<RegularisationPoint> follow_path(const Lcp& lcp, SolverOptions options,
                                             std::span<const Real> deltas, bool extended) {
  PathProblem problem(lcp, options);
  LcpScratch scratch;
  LcpSolution out;
  std::vector<bool> basis;  // of the last certified point; empty before the first
  std::vector<RegularisationPoint> path;
  for (const Real delta : deltas) {
    problem.set_delta(delta);
    const bool continued =
        extended && !basis.empty() &&
        solve_lemke_long_double(problem.regularised, &basis, problem.options, scratch, out) &&
        out.certificate.ok();
    if (!continued) solve_lcp(problem.regularised, problem.options, scratch, out);
    RegularisationPoint p = problem.point(delta, out);
    p.long_double = continued;
    if (extended && p.solved) active_set(out.z, out.w, basis);
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

}  // namespace exactsim
