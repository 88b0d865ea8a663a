// docs/solvers.md "Regularisation path".
#include "exactsim/solvers/regularisation_path.h"

namespace exactsim {

std::vector<RegularisationPoint> regularisation_path(const Lcp& lcp, SolverOptions options,
                                                     std::span<const Real> deltas) {
  validate_lcp(lcp, "regularisation_path");
  options.exact_retry = false;
  const Real z_scale = certificate_impulse_scale(lcp, options);
  const Real diagonal = lcp.M.rows() > 0 ? lcp.M.diagonal().cwiseAbs().maxCoeff() : 0.0;
  Lcp regularised = lcp;
  LcpScratch scratch;
  LcpSolution out;
  std::vector<RegularisationPoint> path;
  for (const Real delta : deltas) {
    regularised.M.diagonal() = lcp.M.diagonal().array() + delta * diagonal;
    solve_lcp(regularised, options, scratch, out);
    const Real z_max = out.z.size() > 0 ? out.z.lpNorm<Eigen::Infinity>() : 0.0;
    path.push_back({delta, out.certificate.ok(), z_max / z_scale});
  }
  return path;
}

}  // namespace exactsim
