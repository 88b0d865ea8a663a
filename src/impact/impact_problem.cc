#include "exactsim/impact/impact_problem.h"

#include <cmath>
#include <string>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

[[noreturn]] void fail(const std::string& field, const std::string& why) {
  throw InputError(field + ": " + why);
}

void check_finite_nonneg(Real value, const std::string& field) {
  if (!std::isfinite(value)) fail(field, "must be a finite number");
  if (value < 0.0) fail(field, "must be >= 0, got " + std::to_string(value));
}

}  // namespace

void check_impact_problem(const ImpactProblem& p) {
  if (p.bilateral_rows < 0) fail("bilateral_rows", "must be >= 0");
  const int n = p.rows();
  if (n == 0) fail("contacts", "no contacts and no bilateral rows: nothing to solve");
  for (size_t k = 0; k < p.contacts.size(); ++k) {
    const std::string c = "contacts[" + std::to_string(k) + "]";
    const ContactLaw& law = p.contacts[k];
    check_finite_nonneg(law.friction, c + ".friction");
    const RestitutionLaw& r = law.restitution;
    const std::string e = c + (r.is_constant() ? ".restitution.e" : ".restitution.e_min");
    if (!std::isfinite(r.e_min) || r.e_min < 0.0 || r.e_min > 1.0)
      fail(e, "must lie in [0, 1], got " + std::to_string(r.e_min));
    check_finite_nonneg(r.v_capture, c + ".restitution.v_capture");
    check_finite_nonneg(r.v_plastic, c + ".restitution.v_plastic");
    if (r.v_plastic < r.v_capture)
      fail(c + ".restitution.v_plastic", "must be >= v_capture (" + std::to_string(r.v_capture) +
                                             "), got " + std::to_string(r.v_plastic));
  }
  if (p.delassus.rows() != n || p.delassus.cols() != n)
    fail("delassus", "must be " + std::to_string(n) + " x " + std::to_string(n) +
                         " (3 rows per contact + bilateral_rows), got " +
                         std::to_string(p.delassus.rows()) + " x " +
                         std::to_string(p.delassus.cols()));
  if (p.velocity.size() != n)
    fail("velocity",
         "must have " + std::to_string(n) + " entries, got " + std::to_string(p.velocity.size()));
  if (!p.delassus.allFinite()) fail("delassus", "contains NaN or infinity");
  if (!p.velocity.allFinite()) fail("velocity", "contains NaN or infinity");
  const Real scale = p.delassus.diagonal().cwiseAbs().maxCoeff();
  const Real tol = 1e-9 * std::max(scale, 1e-300);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (std::abs(p.delassus(i, j) - p.delassus(j, i)) > tol)
        fail("delassus", "not symmetric: entries [" + std::to_string(i) + "][" + std::to_string(j) +
                             "] and [" + std::to_string(j) + "][" + std::to_string(i) + "] differ");
  const MatX sym = 0.5 * (p.delassus + p.delassus.transpose());
  const Eigen::SelfAdjointEigenSolver<MatX> eig(sym, Eigen::EigenvaluesOnly);
  if (eig.eigenvalues().minCoeff() < -tol)
    fail("delassus", "not positive semidefinite: smallest eigenvalue " +
                         std::to_string(eig.eigenvalues().minCoeff()));
  if (scale <= 0.0) fail("delassus", "is zero: the contacts cannot change any velocity");
  const ImpactOptions& o = p.options;
  check_finite_nonneg(o.v_transition, "options.v_transition");
  if (!std::isfinite(o.theta_max) || o.theta_max <= 0.0 || o.theta_max >= M_PI / 2)
    fail("options.theta_max", "must lie in (0, pi/2) rad, got " + std::to_string(o.theta_max));
  if (!std::isfinite(o.alpha_min) || o.alpha_min < 0.0 || o.alpha_min >= 1.0)
    fail("options.alpha_min", "must lie in [0, 1), got " + std::to_string(o.alpha_min));
  check_finite_nonneg(o.v_observe, "options.v_observe");
  if (o.max_rounds < 1) fail("options.max_rounds", "must be >= 1");
  if (o.max_intervals < 1) fail("options.max_intervals", "must be >= 1");
  if (o.mixed_rounds < 1) fail("options.mixed_rounds", "must be >= 1");
  if (o.induced_impacts == InducedImpacts::kMixed && o.mixed_rounds >= o.max_rounds)
    fail("options.mixed_rounds", "must be below options.max_rounds (" +
                                     std::to_string(o.max_rounds) + ") with mixed induced impacts");
}

Real kinetic_energy_change(const MatX& delassus, const VecX& v_before, const VecX& impulse) {
  // ΔT = πᵀ G u + ½ πᵀ G M⁻¹ Gᵀ π = ½ πᵀ (v_before + v_after), v_after = v_before + A π.
  return impulse.dot(v_before) + 0.5 * impulse.dot(delassus * impulse);
}

}  // namespace exactsim
