#include "exactsim/compliant/material.h"

#include <cmath>

#include "exactsim/math/error.h"

namespace exactsim {

void check_material(const CompliantMaterial& m, const std::string& name) {
  auto fail = [&](const char* field, const std::string& why) {
    throw InputError(name + "." + field + ": " + why);
  };
  if (!std::isfinite(m.stiffness) || m.stiffness <= 0.0) fail("stiffness", "must be > 0 Pa");
  if (!std::isfinite(m.dissipation) || m.dissipation < 0.0) fail("dissipation", "must be >= 0 s/m");
  if (!std::isfinite(m.dynamic_friction) || m.dynamic_friction < 0.0)
    fail("dynamic_friction", "must be >= 0");
  if (!std::isfinite(m.static_friction) || m.static_friction < m.dynamic_friction)
    fail("static_friction", "must be >= dynamic_friction");
  if (!std::isfinite(m.viscous_friction) || m.viscous_friction < 0.0)
    fail("viscous_friction", "must be >= 0 s/m");
}

Real combine_friction(Real mu1, Real mu2) {
  const Real product = mu1 * mu2;
  return product == 0.0 ? 0.0 : 2.0 * product / (mu1 + mu2);
}

// docs/compliant.md "Normal force": κ_i = k_i^{2/3}, s₁ = κ₂/(κ₁+κ₂), E_eff = (κ₁κ₂/(κ₁+κ₂))^{3/2}.
CombinedMaterial combine_compliant_materials(const CompliantMaterial& a,
                                             const CompliantMaterial& b) {
  const Real ka = std::cbrt(a.stiffness * a.stiffness), kb = std::cbrt(b.stiffness * b.stiffness);
  CombinedMaterial c;
  c.share1 = kb / (ka + kb);
  c.effective_stiffness = std::pow(ka * kb / (ka + kb), 1.5);
  c.dissipation = c.share1 * a.dissipation + (1.0 - c.share1) * b.dissipation;
  c.static_friction = combine_friction(a.static_friction, b.static_friction);
  c.dynamic_friction = combine_friction(a.dynamic_friction, b.dynamic_friction);
  c.viscous_friction = combine_friction(a.viscous_friction, b.viscous_friction);
  return c;
}

}  // namespace exactsim
