// Compliant contact materials and the two-material combination rules (docs/compliant.md "The
// model").
#pragma once

#include <string>

#include "exactsim/math/types.h"

namespace exactsim {

// One surface's material. Units: stiffness k [Pa] (the paper's "stiffness E", a plane-strain
// modulus, taken as given), dissipation c [s/m], μ_s and μ_d [–], viscous μ_v [s/m].
struct CompliantMaterial {
  Real stiffness = 1e10;        // k [Pa], > 0
  Real dissipation = 0.0;       // c [s/m], ≥ 0 (Hunt–Crossley)
  Real static_friction = 0.0;   // μ_s [–], ≥ μ_d
  Real dynamic_friction = 0.0;  // μ_d [–], ≥ 0
  Real viscous_friction = 0.0;  // μ_v [s/m], ≥ 0
};

// The contact's combined parameters (docs/compliant.md "Normal force", "Materials").
struct CombinedMaterial {
  Real effective_stiffness = 0.0;  // E_eff [Pa]: E_eff^{-2/3} = k₁^{-2/3} + k₂^{-2/3}
  Real share1 = 0.5;               // s₁ [–], surface 1's share of the deformation
  Real dissipation = 0.0;          // c = s₁c₁ + s₂c₂ [s/m]
  Real static_friction = 0.0;      // 2μ₁μ₂/(μ₁+μ₂), 0 if the product is 0
  Real dynamic_friction = 0.0;
  Real viscous_friction = 0.0;  // [s/m]
};

// Throws InputError naming `name` and the field for non-finite or out-of-range values
// (k ≤ 0, c < 0, μ_d < 0, μ_s < μ_d, μ_v < 0).
void check_material(const CompliantMaterial& m, const std::string& name);

// Surface 1 owns the normal. Equal materials give E_eff = k/2^{3/2}, c unchanged, s₁ = ½.
CombinedMaterial combine_compliant_materials(const CompliantMaterial& surface1,
                                             const CompliantMaterial& surface2);

// The friction rule for one coefficient: harmonic-mean-like 2μ₁μ₂/(μ₁+μ₂), 0 if μ₁μ₂ = 0.
Real combine_friction(Real mu1, Real mu2);

}  // namespace exactsim
