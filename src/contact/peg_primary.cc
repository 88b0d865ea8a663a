#include "exactsim/contact/peg_primary.h"

namespace exactsim {

// The 2D primary rule (docs/peg.md "Algorithm" step 6).
bool swap_primary_2d(const Contact& first, const Contact& other, Real tolerance) {
  return first.gap < -tolerance && other.gap > first.gap && other.gap > -tolerance;
}

}  // namespace exactsim
