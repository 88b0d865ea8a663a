// Interval step length α of a sliding contact (PLUS paper eqs. 2.12–2.14; docs/plus.md).
#pragma once

#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/impact_result.h"
#include "exactsim/math/types.h"

namespace exactsim {

// α_CP (eq. 2.13): the step to the point of the slip segment t⁰ + αΔ closest to the origin,
// clamped to [0, 1]; 1 when ‖t⁰‖ < v_transition or Δ ≈ 0.
Real alpha_closest_point(const Vec2& t0, const Vec2& delta, Real v_transition);

// α_DC (eq. 2.14): the smallest non-negative root of the squared direction-change equation
// cos θ_max = t⁰·(t⁰ + αΔ) / (‖t⁰‖‖t⁰ + αΔ‖), i.e.
// (p² − c n q) α² + 2 n p (1 − c) α + n² (1 − c) = 0 with c = cos²θ_max, n = ‖t⁰‖², p = t⁰·Δ,
// q = ‖Δ‖². Returns 1 when no root lies in (0, 1].
Real alpha_direction_change(const Vec2& t0, const Vec2& delta, Real theta_max);

// θ_max's trigonometry, computed once per round rather than per contact and interval.
struct DirectionChangeLimit {
  explicit DirectionChangeLimit(Real theta_max);
  Real cos_theta;   // cos θ_max
  Real cos2, sin2;  // c = cos²θ_max and 1 − c = sin²θ_max (no cancellation)
  Real cos_sin;     // √(c (1 − c))
};
Real alpha_direction_change(const Vec2& t0, const Vec2& delta, const DirectionChangeLimit& limit);

struct StepLength {
  Real alpha = 1.0;
  StepLimit limit = StepLimit::kWhole;
};

// α_k of one sliding contact whose slip would go from t0 to t1 over the whole interval.
StepLength sliding_step_length(const Vec2& t0, const Vec2& t1, const ImpactOptions& options);
// The same with DirectionChangeLimit(options.theta_max) precomputed (the interval loop's form).
StepLength sliding_step_length(const Vec2& t0, const Vec2& t1, const ImpactOptions& options,
                               const DirectionChangeLimit& limit);

}  // namespace exactsim
