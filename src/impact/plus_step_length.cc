#include "exactsim/impact/plus_step_length.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace exactsim {
namespace {
constexpr Real kSignificantReal = 1.8e-14;  // Simbody 3.7's SignificantReal
}  // namespace

Real alpha_closest_point(const Vec2& t0, const Vec2& delta, Real v_transition) {
  const Real q = delta.squaredNorm();
  if (t0.norm() < v_transition || q < kSignificantReal) return 1.0;
  return std::clamp(-t0.dot(delta) / q, 0.0, 1.0);
}

DirectionChangeLimit::DirectionChangeLimit(Real theta_max)
    : cos_theta(std::cos(theta_max)),
      cos2(std::cos(theta_max) * std::cos(theta_max)),
      sin2(std::sin(theta_max) * std::sin(theta_max)),
      cos_sin(std::sqrt(cos2 * sin2)) {}

Real alpha_direction_change(const Vec2& t0, const Vec2& delta, Real theta_max) {
  return alpha_direction_change(t0, delta, DirectionChangeLimit(theta_max));
}

Real alpha_direction_change(const Vec2& t0, const Vec2& delta, const DirectionChangeLimit& limit) {
  const Real c = limit.cos2;
  const Real one_minus_c = limit.sin2;
  const Real n = t0.squaredNorm(), p = t0.dot(delta), q = delta.squaredNorm();
  const Real cross = cross2(t0, delta);  // n q − p² = (t⁰ × Δ)² in 2-D
  const Real a = p * p - c * n * q;
  const Real b = 2.0 * n * p * one_minus_c;
  const Real k = n * n * one_minus_c;
  Real best = std::numeric_limits<Real>::infinity();
  auto consider = [&](Real alpha) {
    if (std::isfinite(alpha) && alpha >= 0.0 && alpha < best) best = alpha;
  };
  if (std::abs(a) <= 1e-14 * (p * p + c * n * q)) {
    if (b != 0.0) consider(-k / b);  // degenerate: linear equation
  } else {
    const Real root = limit.cos_sin * std::abs(cross);
    consider(n * (-one_minus_c * p + root) / a);
    consider(n * (-one_minus_c * p - root) / a);
  }
  return best <= 1.0 ? best : 1.0;
}

StepLength sliding_step_length(const Vec2& t0, const Vec2& t1, const ImpactOptions& options) {
  return sliding_step_length(t0, t1, options, DirectionChangeLimit(options.theta_max));
}

StepLength sliding_step_length(const Vec2& t0, const Vec2& t1, const ImpactOptions& options,
                               const DirectionChangeLimit& limit) {
  const Real vt = options.v_transition;
  const Vec2 delta = t1 - t0;
  if (t1.norm() <= vt) {  // the whole interval would end inside the rolling disc (docs/plus.md "The
                          // solver as implemented", step length)
    if (options.step_length == StepLengthRule::kWholeStep || t1.norm() < kSignificantReal)
      return {1.0, StepLimit::kWhole};
    return {alpha_closest_point(t0, delta, vt), StepLimit::kEndInRollingDisc};
  }
  const Real denom = t0.norm() * t1.norm();
  if (t0.dot(t1) >= limit.cos_theta * denom) return {1.0, StepLimit::kWhole};
  const Real acp = alpha_closest_point(t0, delta, vt);
  if ((t0 + acp * delta).norm() <= vt) return {acp, StepLimit::kRollingTransition};
  const Real adc = alpha_direction_change(t0, delta, limit);
  if (adc < options.alpha_min) return {options.alpha_min, StepLimit::kAlphaMin};
  return {adc, StepLimit::kDirectionChange};
}

}  // namespace exactsim
