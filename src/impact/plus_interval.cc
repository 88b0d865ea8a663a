#include "exactsim/impact/plus_interval.h"

#include <algorithm>
#include <cmath>

namespace exactsim {
namespace {

constexpr Real kViolationRel =
    1e-11;  // active-set violations below this × impulse scale are round-off
constexpr Real kNewtonRel = 1e-13;  // Newton stops when ‖F‖ ≤ this × residual scale
constexpr int kNewtonMaxIterations = 40;
constexpr Real kTieRel = 1e-9;
constexpr Real kZeroSlipRel = 1e-9;
constexpr Real kNewtonAcceptRel =
    1e-9;  // a Newton result with a larger residual is rejected     // end slips below this ×
           // velocity scale are zero         // violations this close to the worst are ties

int normal_column(const PlusWorkspace& ws, int k) {
  return ws.col[k] + (ws.friction[k] != FrictionState::kOff ? 2 : 0);
}

// Lists the unknowns of the current active set (contact rows, then bilateral rows).
int build_columns(const IntervalSetup& setup, PlusWorkspace& ws) {
  const int nc = static_cast<int>(setup.laws->size());
  ws.rows.clear();
  ws.kind.clear();
  ws.linear.clear();  // unknowns whose rows are linear (normal, rolling, bilateral) …
  ws.unit.clear();    // … and sliding-type rows x_T + μ d x_N = w_T (identity in their columns)
  ws.unit_normal.clear();
  ws.impending = false;
  for (int k = 0; k < nc; ++k) {
    ws.col[k] = -1;
    const bool has_friction = ws.friction[k] != FrictionState::kOff;
    const bool has_normal = ws.normal[k] == NormalState::kActive;
    if (!has_friction && !has_normal) continue;
    ws.col[k] = static_cast<int>(ws.rows.size());
    if (has_friction) {
      const char kind = ws.friction[k] == FrictionState::kRolling   ? 'L'
                        : ws.friction[k] == FrictionState::kSliding ? 'S'
                                                                    : 'I';
      for (int j = 0; j < 2; ++j) {
        if (kind == 'L') {
          ws.linear.push_back(static_cast<int>(ws.rows.size()));
        } else {
          ws.unit.push_back(static_cast<int>(ws.rows.size()));
          // its normal's complement position: the next linear entry, if the normal is active
          ws.unit_normal.push_back(has_normal ? static_cast<int>(ws.linear.size()) : -1);
        }
        ws.rows.push_back(3 * k + j);
        ws.kind.push_back(kind);
      }
      ws.impending = ws.impending || kind == 'I';
    }
    if (has_normal) {
      ws.linear.push_back(static_cast<int>(ws.rows.size()));
      ws.rows.push_back(3 * k + 2);
      ws.kind.push_back('L');
    }
  }
  for (int b = 0; b < setup.bilateral_rows; ++b) {
    ws.linear.push_back(static_cast<int>(ws.rows.size()));
    ws.rows.push_back(3 * nc + b);
    ws.kind.push_back('L');
  }
  return static_cast<int>(ws.rows.size());
}

// B x = w with sliding rows π_T + μ π_N d = 0 (impending rows linearised with their guess d).
void assemble_linear(const IntervalSetup& setup, int m, PlusWorkspace& ws) {
  const MatX& A = *setup.delassus;
  for (int i = 0; i < m; ++i) {
    const int row = ws.rows[i];
    if (ws.kind[i] == 'L') {
      for (int j = 0; j < m; ++j) ws.B(i, j) = A(row, ws.rows[j]);
      ws.w(i) = -ws.r(row) + ws.target(row);
      continue;
    }
    const int k = row / 3, c = row % 3;
    const Real mu = (*setup.laws)[k].friction;
    const Real d = ws.direction[k](c);
    ws.B.row(i).head(m).setZero();
    ws.B(i, i) = 1.0;
    if (ws.normal[k] == NormalState::kActive) {
      ws.B(i, normal_column(ws, k)) = mu * d;
      ws.w(i) = 0.0;
    } else {  // expanding: the normal impulse is the known Poisson impulse
      ws.w(i) = -mu * ws.expansion_rows(3 * k + 2) * d;
    }
  }
}

// x = B⁺ w. Sliding (and linearised impending) rows x_T + μ d x_N = w_T are the identity in their
// own columns plus at most one entry, in their contact's normal column, so they are eliminated
// first: the Schur complement onto the linear rows has one unknown per sliding contact instead of
// three. B is nonsingular exactly when the complement is, and both then give the unique
// solution; a singular complement (redundant contacts) sends the whole system to the
// minimum-norm COD (docs/plus.md, active set). Needs ws.linear / ws.unit / ws.unit_normal from
// build_columns.
void solve_linear_system(int m, PlusWorkspace& ws) {
  const int l = static_cast<int>(ws.linear.size());
  if (ws.unit.empty()) {
    solve_min_norm(ws.B, m, ws.w, ws.solver, ws.x);
    return;
  }
  if (ws.complement.rows() < l) {
    ws.complement.resize(m, m);
    ws.complement_rhs.resize(m);
    ws.complement_x.resize(m);
  }
  const int nu = static_cast<int>(ws.unit.size());
  for (int a = 0; a < l; ++a) {
    const int row = ws.linear[a];
    Real rhs = ws.w(row);
    for (int b = 0; b < l; ++b) ws.complement(a, b) = ws.B(row, ws.linear[b]);
    for (int j = 0; j < nu; ++j) {
      const int u = ws.unit[j];
      const Real coef = ws.B(row, u);
      if (coef == 0.0) continue;
      rhs -= coef * ws.w(u);
      const int b = ws.unit_normal[j];
      if (b >= 0) ws.complement(a, b) -= coef * ws.B(u, ws.linear[b]);
    }
    ws.complement_rhs(a) = rhs;
  }
  // The unit rows' pivots (1) take part in the pivot test, as in an elimination of all of B.
  // One linear row (a lone sliding contact) is a scalar: the same test and division inline.
  const Real c0 = l == 1 ? ws.complement(0, 0) : 0.0;
  const bool nonsingular =
      l == 0 || (l == 1 ? std::abs(c0) > kMinNormPivotRel * std::max(1.0, std::abs(c0))
                        : solve_nonsingular(ws.complement, l, ws.complement_rhs, ws.solver,
                                            ws.complement_x, 1.0));
  if (l == 1 && nonsingular) ws.complement_x(0) = ws.complement_rhs(0) / c0;
  if (!nonsingular) {  // then B is singular too
    solve_min_norm_cod(ws.B, m, ws.w, ws.solver, ws.x);
    return;
  }
  for (int b = 0; b < l; ++b) ws.x(ws.linear[b]) = ws.complement_x(b);
  for (int j = 0; j < nu; ++j) {
    const int u = ws.unit[j], b = ws.unit_normal[j];
    ws.x(u) = b >= 0 ? ws.w(u) - ws.B(u, ws.linear[b]) * ws.complement_x(b) : ws.w(u);
  }
}

// Residual F(x) of the full (nonlinear) system; impending rows use the end slip direction.
void residual(const IntervalSetup& setup, int m, const VecX& x, Real smoothing, PlusWorkspace& ws,
              VecX& F) {
  const MatX& A = *setup.delassus;
  F.head(m).noalias() = ws.B.topLeftCorner(m, m) * x.head(m) - ws.w.head(m);
  for (int i = 0; i < m; i += 1) {
    if (ws.kind[i] != 'I') continue;
    const int k = ws.rows[i] / 3;
    Vec2 e = ws.r.segment<2>(3 * k);
    for (int j = 0; j < m; ++j) e += A.block<2, 1>(3 * k, ws.rows[j]) * x(j);
    const Real n = ws.normal[k] == NormalState::kActive ? std::max(x(normal_column(ws, k)), 0.0)
                                                        : ws.expansion_rows(3 * k + 2);
    const Real norm = std::sqrt(e.squaredNorm() + smoothing * smoothing);
    const Real mu = (*setup.laws)[k].friction;
    F.segment<2>(i) = x.segment<2>(i) + mu * n * e / norm;  // eq. 2.9: friction opposes end slip
    ++i;
  }
}

// Jacobian of residual(): linear rows are B; impending rows are differentiated analytically.
void jacobian(const IntervalSetup& setup, int m, const VecX& x, Real smoothing, PlusWorkspace& ws) {
  const MatX& A = *setup.delassus;
  ws.J.topLeftCorner(m, m) = ws.B.topLeftCorner(m, m);
  for (int i = 0; i < m; ++i) {
    if (ws.kind[i] != 'I') continue;
    const int k = ws.rows[i] / 3;
    Vec2 e = ws.r.segment<2>(3 * k);
    for (int j = 0; j < m; ++j) e += A.block<2, 1>(3 * k, ws.rows[j]) * x(j);
    const bool active = ws.normal[k] == NormalState::kActive;
    const int nc = active ? normal_column(ws, k) : -1;
    const Real n = active ? std::max(x(nc), 0.0) : ws.expansion_rows(3 * k + 2);
    const Real s2 = e.squaredNorm() + smoothing * smoothing, s = std::sqrt(s2);
    const Real mu = (*setup.laws)[k].friction;
    // d(e/‖e‖)/de = (‖e‖² I − e eᵀ)/‖e‖³ ; de/dx = A[T_k, active columns].
    const Mat2 P = (s2 * Mat2::Identity() - e * e.transpose()) / (s2 * s);
    ws.J.block(i, 0, 2, m).setZero();
    ws.J(i, i) = 1.0;
    ws.J(i + 1, i + 1) = 1.0;
    for (int j = 0; j < m; ++j)
      ws.J.block<2, 1>(i, j) += mu * n * P * A.block<2, 1>(3 * k, ws.rows[j]);
    if (active && x(nc) > 0.0) ws.J.block<2, 1>(i, nc) += mu * e / s;
    ++i;
  }
}

// Newton with backtracking on the impending-slip system, from the linearised solution.
int solve_impending(const IntervalSetup& setup, int m, PlusWorkspace& ws) {
  const MatX& A = *setup.delassus;
  Real vscale = setup.options->v_transition;
  for (int i = 0; i < m; ++i) vscale = std::max(vscale, std::abs(ws.r(ws.rows[i])));
  const Real smoothing = 1e-13 * vscale;
  // The linearised solution used the guessed directions (friction the rolling solution needed,
  // scaled onto the cone). Where its end slip is numerically zero the direction is undetermined
  // and the contact is effectively rolling on the cone boundary (docs/plus.md, impending slip):
  // keep the guess, as Newton would only chase the round-off direction of a zero vector.
  bool all_zero_slip = true;
  for (int i = 0; i < m; ++i) {
    if (ws.kind[i] != 'I') continue;
    const int k = ws.rows[i] / 3;
    Vec2 e = ws.r.segment<2>(3 * k);
    for (int j = 0; j < m; ++j) e += A.block<2, 1>(3 * k, ws.rows[j]) * ws.x(j);
    if (e.norm() > kZeroSlipRel * vscale) {
      all_zero_slip = false;
    } else {
      ws.kind[i] = ws.kind[i + 1] = 'S';  // friction fixed along the guessed direction
    }
    ++i;
  }
  if (all_zero_slip) return 0;
  ws.x_start.head(m) = ws.x.head(m);
  residual(setup, m, ws.x, smoothing, ws, ws.F);
  Real fnorm = ws.F.head(m).norm();
  int it = 0;
  for (; it < kNewtonMaxIterations; ++it) {
    const Real scale = std::max(
        {ws.x.head(m).lpNorm<Eigen::Infinity>(), ws.w.head(m).lpNorm<Eigen::Infinity>(), 1e-300});
    if (fnorm <= kNewtonRel * scale) break;
    jacobian(setup, m, ws.x, smoothing, ws);
    solve_min_norm(ws.J, m, ws.F, ws.solver, ws.step);
    Real beta = 1.0;
    bool improved = false;
    for (int ls = 0; ls < 30; ++ls, beta *= 0.5) {
      ws.x_trial.head(m) = ws.x.head(m) - beta * ws.step.head(m);
      residual(setup, m, ws.x_trial, smoothing, ws, ws.F_trial);
      const Real trial = ws.F_trial.head(m).norm();
      if (trial < fnorm) {
        ws.x.head(m) = ws.x_trial.head(m);
        ws.F.head(m) = ws.F_trial.head(m);
        fnorm = trial;
        improved = true;
        break;
      }
    }
    if (!improved) break;  // stagnated
  }
  const Real scale = std::max(
      {ws.x.head(m).lpNorm<Eigen::Infinity>(), ws.w.head(m).lpNorm<Eigen::Infinity>(), 1e-300});
  if (fnorm > kNewtonAcceptRel * scale) {
    // Not converged (the max(π_N, 0) kink can stall it): fall back to the linearised solution,
    // whose friction lies on the cone along the guessed direction, and report it.
    ws.x.head(m) = ws.x_start.head(m);
    ws.newton_failed = true;
  }
  return it;
}

Vec2 friction_guess(const Vec2& tangential_impulse, const Vec2& fallback) {
  const Real n = tangential_impulse.norm();
  if (n > 0.0) return -tangential_impulse / n;  // slip opposes the friction it needed
  const Real f = fallback.norm();
  return f > 0.0 ? Vec2(fallback / f) : Vec2(1.0, 0.0);
}

}  // namespace

void classify_interval(const IntervalSetup& setup, const VecX& v, PlusWorkspace& ws) {
  const int nc = static_cast<int>(setup.laws->size());
  if (static_cast<int>(ws.normal.size()) != nc) {
    ws.normal.resize(nc);
    ws.friction.resize(nc);
    ws.direction.resize(nc);
    ws.col.resize(nc);
    ws.normal_violation.resize(nc);
    ws.friction_violation.resize(nc);
  }
  for (int k = 0; k < nc; ++k) {
    const ContactPhase phase = (*setup.phase)[k];
    ws.normal[k] = phase == ContactPhase::kCompressing ? NormalState::kActive
                   : phase == ContactPhase::kExpanding ? NormalState::kKnown
                                                       : NormalState::kOff;
    const Vec2 slip = v.segment<2>(3 * k);
    const Real speed = slip.norm();
    ws.direction[k] = speed > 0.0 ? Vec2(slip / speed) : Vec2(1.0, 0.0);
    if (phase == ContactPhase::kObserving || (*setup.laws)[k].friction == 0.0)
      ws.friction[k] = FrictionState::kOff;
    else
      ws.friction[k] =
          speed > setup.options->v_transition ? FrictionState::kSliding : FrictionState::kRolling;
  }
}

IntervalSolveStats solve_interval_active_set(const IntervalSetup& setup, PlusWorkspace& ws) {
  const int nc = static_cast<int>(setup.laws->size());
  const int n = static_cast<int>(ws.r.size());
  const int max_m = n;
  if (ws.B.rows() < max_m) {
    ws.x_start.resize(max_m);
    ws.B.resize(max_m, max_m);
    ws.J.resize(max_m, max_m);
    ws.w.resize(max_m);
    ws.x.resize(max_m);
    ws.F.resize(max_m);
    ws.step.resize(max_m);
    ws.x_trial.resize(max_m);
    ws.F_trial.resize(max_m);
    ws.rows.reserve(max_m);  // the column lists never outgrow the rows
    ws.kind.reserve(max_m);
    ws.linear.reserve(max_m);
    ws.unit.reserve(max_m);
    ws.unit_normal.reserve(max_m);
  }
  IntervalSolveStats stats;
  Real expansion_scale = 0.0;
  for (int k = 0; k < nc; ++k)
    expansion_scale = std::max(expansion_scale, ws.expansion_rows(3 * k + 2));
  for (int pass = 0; pass < 3 * nc + 2; ++pass) {
    ++stats.passes;
    const int m = build_columns(setup, ws);
    if (m == 0) {
      ws.impulse.setZero(n);
      return stats;
    }
    assemble_linear(setup, m, ws);
    solve_linear_system(m, ws);  // minimum-norm least squares (load spreading)
    ws.newton_failed = false;
    if (ws.impending) stats.newton_iterations += solve_impending(setup, m, ws);
    stats.newton_failures += ws.newton_failed;

    // Check the candidate (PLUS paper Algorithm 1): pulling normals, rolling friction outside the
    // cone.
    const Real scale = std::max(ws.x.head(m).lpNorm<Eigen::Infinity>(), expansion_scale);
    const Real tol = kViolationRel * scale;
    Real worst_normal = 0.0, worst_friction = 0.0;
    for (int k = 0; k < nc; ++k) {
      ws.normal_violation[k] = ws.friction_violation[k] = 0.0;
      if (ws.col[k] < 0) continue;
      const bool active = ws.normal[k] == NormalState::kActive;
      const Real xn = active ? ws.x(normal_column(ws, k)) : ws.expansion_rows(3 * k + 2);
      if (active && -xn > tol) ws.normal_violation[k] = -xn;
      if (ws.friction[k] == FrictionState::kRolling) {
        const Real excess =
            ws.x.segment<2>(ws.col[k]).norm() - (*setup.laws)[k].friction * std::max(xn, 0.0);
        if (excess > tol) ws.friction_violation[k] = excess;
      }
      worst_normal = std::max(worst_normal, ws.normal_violation[k]);
      worst_friction = std::max(worst_friction, ws.friction_violation[k]);
    }
    if (worst_normal == 0.0 && worst_friction == 0.0) break;
    // Change the worst constraint, and every constraint tied with it to round-off, at once:
    // releasing symmetric contacts one by one would break the symmetry of the solution.
    const bool normal_first = worst_normal >= worst_friction;
    const Real worst = normal_first ? worst_normal : worst_friction;
    const Real tie = worst - kTieRel * std::max(worst, tol);
    for (int k = 0; k < nc; ++k) {
      const Real violation = normal_first ? ws.normal_violation[k] : ws.friction_violation[k];
      if (violation == 0.0 || violation < tie) continue;
      const Vec2 xt =
          ws.friction[k] != FrictionState::kOff ? Vec2(ws.x.segment<2>(ws.col[k])) : Vec2::Zero();
      if (ws.friction[k] == FrictionState::kRolling) {  // friction is released before the normal
        ws.friction[k] = FrictionState::kImpending;
        ws.direction[k] = friction_guess(xt, ws.direction[k]);
      } else {
        ws.normal[k] = NormalState::kOff;
        ws.friction[k] = FrictionState::kOff;
      }
    }
  }
  ws.impulse.setZero(n);
  for (int i = 0; i < static_cast<int>(ws.rows.size()); ++i) ws.impulse(ws.rows[i]) = ws.x(i);
  return stats;
}

}  // namespace exactsim
