// The 2D primary-contact heuristic for |Cι| = 1 (docs/peg.md "Algorithm" step 6;
// the authors' code).
#pragma once

#include "exactsim/collision/contact.h"

namespace exactsim {

// Of a two-contact I (or X) constraint listed as (first, other): `first` stays primary unless it
// is violated beyond the tolerance (ψ_first < −tolerance) while `other` is both less violated
// (ψ_other > ψ_first) and "non-penetrating enough" (ψ_other > −tolerance); then `other` is.
// Returns true when the roles are swapped. Deterministic: ties keep `first`.
bool swap_primary_2d(const Contact& first, const Contact& other, Real tolerance);

}  // namespace exactsim
