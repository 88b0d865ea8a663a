// Which configurations the 2D detection looks at (docs/collision.md "Narrow phase: detection
// rules"): a scene option (ContactOptions::proximity).
#pragma once

namespace exactsim {

enum class ProximityRule {
  kCurrent,             // distance ≤ ε in the current configuration only
  kCurrentOrPredicted,  // the authors' 2D rule: ≤ ε now or in the predicted config
  kSwept,               // ≤ ε anywhere along the vertex's relative path over the step
};

}  // namespace exactsim
