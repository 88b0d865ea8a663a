#include "exactsim/compliant/integrator.h"

#include <cmath>
#include <string>

#include "exactsim/compliant/step_controller.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

int controller_order(IntegratorMethod m) {
  return m == IntegratorMethod::kRungeKuttaMerson ? 4 : 2;
}

bool all_finite(const VecX& v) { return v.allFinite(); }

void eval(Integrator& in, Real t, const VecX& y, VecX& out) {
  out.resize(y.size());
  in.system.derivative(t, y, out);
  ++in.stats.evaluations;
}

// Merson's 5-stage pair (docs/compliant.md "Integrators"); e = |y₁ − Y₅|/5.
bool attempt_merson(Integrator& in, Real h, VecX& y1, VecX& e) {
  const VecX& y0 = in.state;
  const VecX& k1 = in.f0;
  const Real t = in.time;
  in.tmp = y0 + (h / 3.0) * k1;
  eval(in, t + h / 3.0, in.tmp, in.k2);
  in.tmp = y0 + (h / 6.0) * (k1 + in.k2);
  eval(in, t + h / 3.0, in.tmp, in.k3);
  in.tmp = y0 + h * (0.125 * k1 + 0.375 * in.k3);
  eval(in, t + 0.5 * h, in.tmp, in.k4);
  in.tmp = y0 + h * (0.5 * k1 - 1.5 * in.k3 + 2.0 * in.k4);  // Y₅
  eval(in, t + h, in.tmp, in.k5);
  y1 = y0 + (h / 6.0) * (k1 + 4.0 * in.k4 + in.k5);
  e = (y1 - in.tmp).cwiseAbs() / 5.0;
  return all_finite(y1) && all_finite(e);
}

// e = (h/2)|f₀ − f(y₁)| (distance to the trapezoidal rule).
bool attempt_explicit_euler(Integrator& in, Real h, VecX& y1, VecX& e) {
  y1 = in.state + h * in.f0;
  if (!all_finite(y1)) return false;
  eval(in, in.time + h, y1, in.f1);
  e = (0.5 * h) * (in.f0 - in.f1).cwiseAbs();
  return all_finite(e);
}

// One big semi-explicit step against two half steps.
bool attempt_semi_explicit_euler(Integrator& in, Real h, VecX& y1, VecX& e) {
  const OdeSystem& s = in.system;
  const int nq = s.nq, nu = s.nu, nz = s.nz;
  const VecX& y0 = in.state;
  const VecX& f0 = in.f0;
  VecX qd(nq);
  // big step into k3
  in.k3.resize(y0.size());
  in.k3.segment(nq, nu) = y0.segment(nq, nu) + h * f0.segment(nq, nu);
  s.kinematics(y0.head(nq), in.k3.segment(nq, nu), qd);
  in.k3.head(nq) = y0.head(nq) + h * qd;
  in.k3.tail(nz) = y0.tail(nz) + h * f0.tail(nz);
  // first half into tmp
  in.tmp.resize(y0.size());
  in.tmp.segment(nq, nu) = y0.segment(nq, nu) + (0.5 * h) * f0.segment(nq, nu);
  s.kinematics(y0.head(nq), in.tmp.segment(nq, nu), qd);
  in.tmp.head(nq) = y0.head(nq) + (0.5 * h) * qd;
  in.tmp.tail(nz) = y0.tail(nz) + (0.5 * h) * f0.tail(nz);
  eval(in, in.time + 0.5 * h, in.tmp, in.k2);
  y1.resize(y0.size());
  y1.segment(nq, nu) = in.tmp.segment(nq, nu) + (0.5 * h) * in.k2.segment(nq, nu);
  s.kinematics(in.tmp.head(nq), y1.segment(nq, nu), qd);
  y1.head(nq) = in.tmp.head(nq) + (0.5 * h) * qd;
  y1.tail(nz) = in.tmp.tail(nz) + (0.5 * h) * in.k2.tail(nz);
  e = (y1 - in.k3).cwiseAbs();
  return all_finite(y1) && all_finite(e);
}

void compute_jacobian(Integrator& in) {
  const int n = static_cast<int>(in.state.size());
  in.jacobian.resize(n, n);
  const Real sqrt_eps = std::sqrt(std::numeric_limits<Real>::epsilon());
  for (int j = 0; j < n; ++j) {
    in.tmp = in.state;
    const Real delta = sqrt_eps * std::max(std::abs(in.state(j)), 1.0);
    in.tmp(j) += delta;
    eval(in, in.time, in.tmp, in.k4);
    in.jacobian.col(j) = (in.k4 - in.f0) / delta;
  }
  ++in.stats.jacobians;
  in.jacobian_valid = true;
  in.steps_since_jacobian = 0;
  in.factored_step = 0.0;  // force a refactorisation
}

void factorize(Integrator& in, Real h) {
  const int n = static_cast<int>(in.state.size());
  in.lu.compute(MatX::Identity(n, n) - h * in.jacobian);
  in.factored_step = h;
  ++in.stats.factorizations;
}

// Modified Newton on y − y₀ − h f(t₁, y) = 0 from the predictor (docs/compliant.md
// "Decisions"). Returns false on
// divergence, non-convergence in 4 iterations or non-finite values.
bool newton_solve(Integrator& in, Real h, const VecX& yp, VecX& y) {
  const Real t1 = in.time + h;
  y = yp;
  Real previous = std::numeric_limits<Real>::infinity();
  for (int it = 0; it < 4; ++it) {
    eval(in, t1, y, in.k2);
    in.k3 = y - in.state - h * in.k2;  // residual g(y)
    in.k5 = in.lu.solve(in.k3);
    y -= in.k5;
    ++in.stats.newton_iterations;
    const Real norm = error_norm(in.system, in.weights, y, in.k5.cwiseAbs());
    if (!std::isfinite(norm)) return false;
    if (norm <= 0.1 * in.options.accuracy) return true;
    if (it > 0 && norm > 2.0 * previous) return false;
    previous = norm;
  }
  return false;
}

bool attempt_implicit_euler(Integrator& in, Real h, VecX& y1, VecX& e) {
  const VecX yp = in.state + h * in.f0;
  if (!all_finite(yp)) return false;
  bool fresh = false;
  if (!in.jacobian_valid || in.steps_since_jacobian >= 20) {
    compute_jacobian(in);
    fresh = true;
  }
  if (in.factored_step == 0.0 || std::abs(h - in.factored_step) > 0.3 * in.factored_step)
    factorize(in, h);
  bool ok = newton_solve(in, h, yp, y1);
  if (!ok && !fresh) {  // stale Jacobian: recompute and retry the same h
    compute_jacobian(in);
    factorize(in, h);
    ok = newton_solve(in, h, yp, y1);
  }
  if (!ok) return false;
  e = 0.5 * (y1 - yp).cwiseAbs();
  return all_finite(e);
}

}  // namespace

const char* to_string(IntegratorMethod m) {
  switch (m) {
    case IntegratorMethod::kRungeKuttaMerson:
      return "rk-merson";
    case IntegratorMethod::kExplicitEuler:
      return "explicit-euler";
    case IntegratorMethod::kSemiExplicitEuler:
      return "semi-explicit-euler";
    case IntegratorMethod::kImplicitEuler:
      return "implicit-euler";
  }
  return "?";
}

Integrator make_integrator(const OdeSystem& system, const IntegratorOptions& options, Real t0,
                           const VecX& y0) {
  if (system.nq < 0 || system.nu < 0 || system.nz < 0 || system.size() == 0)
    throw InputError("integrator: the system has no states");
  if (y0.size() != system.size())
    throw InputError("integrator: state has " + std::to_string(y0.size()) +
                     " components, the system " + std::to_string(system.size()));
  if (!y0.allFinite()) throw InputError("integrator: initial state is not finite");
  if (!system.derivative) throw InputError("integrator: system.derivative is empty");
  if (options.method == IntegratorMethod::kSemiExplicitEuler && !system.kinematics)
    throw InputError("integrator: semi-explicit Euler needs system.kinematics");
  if (!(options.accuracy > 0.0) || !std::isfinite(options.accuracy))
    throw InputError("integrator.accuracy: must be > 0");
  if (options.initial_step < 0.0 || !std::isfinite(options.initial_step))
    throw InputError("integrator.initial_step: must be >= 0 s");
  if (options.min_step < 0.0 || !(options.max_step >= options.min_step) ||
      !(options.max_step > 0.0))
    throw InputError("integrator: need 0 <= min_step <= max_step, max_step > 0");
  if (options.max_attempts < 1) throw InputError("integrator.max_attempts: must be >= 1");
  Integrator in;
  in.system = system;
  in.options = options;
  in.time = t0;
  in.state = y0;
  const Real h0 = options.initial_step > 0.0 ? options.initial_step
                                             : 0.01;  // step control 1: timescale 0.1 s / 10
  in.step = std::clamp(h0, options.min_step, options.max_step);
  return in;
}

bool attempt_step(Integrator& in, Real h, VecX& y1, VecX& e) {
  if (!in.f0_valid) {
    eval(in, in.time, in.state, in.f0);
    in.f0_valid = true;
  }
  if (in.weights.size() != in.system.nu) velocity_weights(in.system, in.state, in.weights);
  switch (in.options.method) {
    case IntegratorMethod::kRungeKuttaMerson:
      return attempt_merson(in, h, y1, e);
    case IntegratorMethod::kExplicitEuler:
      return attempt_explicit_euler(in, h, y1, e);
    case IntegratorMethod::kSemiExplicitEuler:
      return attempt_semi_explicit_euler(in, h, y1, e);
    case IntegratorMethod::kImplicitEuler:
      return attempt_implicit_euler(in, h, y1, e);
  }
  return false;
}

Real take_step(Integrator& in, Real t_max) {
  if (!(t_max > in.time)) throw InputError("integrator: t_max must be after the current time");
  if (!in.f0_valid) {
    eval(in, in.time, in.state, in.f0);
    in.f0_valid = true;
  }
  velocity_weights(in.system, in.state, in.weights);  // frozen over the attempts
  const int order = controller_order(in.options.method);
  for (int attempt = 0; attempt < in.options.max_attempts; ++attempt) {
    const Real h = in.step;
    bool limited = false;
    Real t1;  // step-size control step 2 (docs/compliant.md)
    if (t_max < in.time + 0.95 * h) {
      t1 = t_max;
      limited = true;
    } else if (t_max > in.time + 1.001 * h) {
      t1 = in.time + h;
    } else {
      t1 = t_max;
    }
    const bool ok = attempt_step(in, t1 - in.time, in.y1, in.err);
    const Real err = ok ? error_norm(in.system, in.weights, in.y1, in.err)
                        : std::numeric_limits<Real>::infinity();
    ++in.stats.attempts;
    const StepDecision d = control_step(h, err, in.options.accuracy, order, limited,
                                        in.options.min_step, in.options.max_step);
    in.step = d.next_step;
    if (!d.accept) {
      ++in.stats.rejected;
      continue;
    }
    ++in.stats.accepted;
    ++in.steps_since_jacobian;
    in.time = t1;
    in.state.swap(in.y1);
    normalize_quaternions(in.system, in.state);
    if (in.options.method == IntegratorMethod::kExplicitEuler && in.system.quaternions.empty()) {
      in.f0.swap(in.f1);  // f(y₁) is already known
    } else {
      eval(in, in.time, in.state, in.f0);
    }
    return err;
  }
  throw InputError("integrator: no acceptable step after " +
                   std::to_string(in.options.max_attempts) +
                   " attempts at t = " + std::to_string(in.time) + " s");
}

}  // namespace exactsim
