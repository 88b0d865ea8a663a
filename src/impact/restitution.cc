#include "exactsim/impact/restitution.h"

namespace exactsim {

Real effective_cor(const RestitutionLaw& law, Real w) {
  if (w <= law.v_capture || w <= 0.0) return 0.0;
  if (w >= law.v_plastic) return law.e_min;
  // The middle branch is anchored at (0, 1), not at v_capture: e jumps at v_capture (PLUS paper
  // Fig. 2).
  return 1.0 - (1.0 - law.e_min) * w / law.v_plastic;
}

}  // namespace exactsim
