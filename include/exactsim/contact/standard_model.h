// The standard contact model (PEG paper eqs. 3–9): one unilateral constraint per detected contact.
#pragma once

#include "exactsim/contact/constraint_set.h"

namespace exactsim {

// Every contact becomes a U constraint, in contact order.
void build_standard_constraints(ConstraintSet& set);

}  // namespace exactsim
