// A first-order ODE y' = f(t, y) with y = (q, u, z) and its error norm
// (docs/compliant.md "Integrators").
#pragma once

#include <functional>
#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

struct OdeSystem {
  int nq = 0;  // positions (joint angles, or per free body a unit quaternion (4) and COM (3))
  int nu = 0;  // velocities
  int nz = 0;  // extra quadratures (energy bookkeeping): integrated, not error-controlled
  std::vector<int> quaternions;  // start index (within q) of each unit-quaternion block
  // ẏ = f(t, y); must fill all nq + nu + nz components.
  std::function<void(Real t, const VecX& y, VecX& ydot)> derivative;
  // q̇ = N(q) u (needed by the semi-explicit Euler integrator only).
  std::function<void(const VecX& q, const VecX& u, VecX& qdot)> kinematics;

  int size() const { return nq + nu + nz; }
};

// Velocity weights σ_i = 1/|u₀,i| if |u₀,i| > 1 else 1, frozen over a step's attempts.
void velocity_weights(const OdeSystem& sys, const VecX& y0, VecX& weights);

// err = max(E_q, E_u) of estimate e ≥ 0 for candidate y1: E_u = RMS(σ e_u), E_q = RMS
// of e_q with each quaternion block's component along q removed. Not finite if e is not finite.
Real error_norm(const OdeSystem& sys, const VecX& weights, const VecX& y1, const VecX& e);

// Normalises every quaternion block of y in place.
void normalize_quaternions(const OdeSystem& sys, VecX& y);

}  // namespace exactsim
