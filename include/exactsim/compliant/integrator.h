// Error-controlled integrators (docs/compliant.md "Integrators"): Runge–Kutta–Merson (order 4 with
// an embedded 3rd-order estimate) and the variable-step explicit, semi-explicit and implicit
// (backward, modified Newton) Euler methods, all with the same error norm and controller.
#pragma once

#include <limits>

#include "exactsim/compliant/ode_system.h"
#include "exactsim/math/types.h"

namespace exactsim {

enum class IntegratorMethod {
  kRungeKuttaMerson,   // p = 4
  kExplicitEuler,      // e = (h/2)|f₀ − f(y₁)|, p = 2
  kSemiExplicitEuler,  // step doubling (Simbody SemiExplicitEuler2), p = 2
  kImplicitEuler,      // backward Euler by modified Newton, e = ½|y₁ − y_p|, p = 2
};

const char* to_string(IntegratorMethod m);

struct IntegratorOptions {
  IntegratorMethod method = IntegratorMethod::kRungeKuttaMerson;
  Real accuracy = 1e-3;                                   // a [–], > 0
  Real initial_step = 0.0;                                // s; 0 = timescale/10 = 0.01 s
  Real min_step = 0.0;                                    // s
  Real max_step = std::numeric_limits<Real>::infinity();  // s
  int max_attempts = 200;  // per accepted step before giving up (throws)
};

struct IntegratorStats {
  long attempts = 0, accepted = 0, rejected = 0;
  long evaluations = 0;  // f evaluations, Jacobian columns included
  long jacobians = 0, factorizations = 0, newton_iterations = 0;
};

struct Integrator {
  OdeSystem system;
  IntegratorOptions options;
  Real time = 0.0;  // s
  VecX state;       // y
  Real step = 0.0;  // nominal h for the next attempt [s]
  IntegratorStats stats;
  // scratch, reused between steps
  VecX f0, f1, y1, err, weights, k2, k3, k4, k5, tmp;
  MatX jacobian;
  Eigen::PartialPivLU<MatX> lu;
  bool jacobian_valid = false;
  Real factored_step = 0.0;
  int steps_since_jacobian = 0;
  bool f0_valid = false;
};

// A fresh integrator at (t0, y0) (throws InputError for bad options or a size mismatch).
Integrator make_integrator(const OdeSystem& system, const IntegratorOptions& options, Real t0,
                           const VecX& y0);

// Takes one accepted step, never past t_max (> time). Returns the step's error norm.
Real take_step(Integrator& in, Real t_max);

// One attempt of size h from (t, y0, f0), without control: y1 and the estimate e (for tests).
// Returns false if the attempt failed (non-finite values, Newton failure).
bool attempt_step(Integrator& in, Real h, VecX& y1, VecX& e);

}  // namespace exactsim
