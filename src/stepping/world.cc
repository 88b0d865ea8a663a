#include "exactsim/stepping/world.h"

#include <cmath>

namespace exactsim {

const char* to_string(ContactModel m) {
  switch (m) {
    case ContactModel::kStandard:
      return "standard";
    case ContactModel::kPeg:
      return "peg";
    case ContactModel::kCorrective:
      return "corrective";
  }
  return "?";
}

const char* to_string(Stabilisation s) { return s == Stabilisation::kSplit ? "split" : "velocity"; }

int Scene::step_count() const { return static_cast<int>(std::llround(duration / step)); }

}  // namespace exactsim
