#include "exactsim/contact/peg_primary.h"

namespace exactsim {

// Spec §3.6.1, 2D rule.
bool swap_primary_2d(const Contact& first, const Contact& other, Real tolerance) {
  return first.gap < -tolerance && other.gap > first.gap && other.gap > -tolerance;
}

}  // namespace exactsim
