#include "exactsim/contact/constraint_set.h"

namespace exactsim {

int ConstraintSet::cross_count() const {
  int n = 0;
  for (const auto& c : intercontacts) n += c.is_cross ? 1 : 0;
  return n;
}

}  // namespace exactsim
