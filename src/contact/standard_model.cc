#include "exactsim/contact/standard_model.h"

namespace exactsim {

void build_standard_constraints(ConstraintSet& set) {
  set.unilateral.resize(set.contacts.size());
  for (std::size_t i = 0; i < set.contacts.size(); ++i) set.unilateral[i] = static_cast<int>(i);
  set.intercontacts.clear();
  set.secondaries.clear();
}

}  // namespace exactsim
