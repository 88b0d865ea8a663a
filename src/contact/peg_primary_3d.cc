#include "exactsim/contact/peg_primary_3d.h"

namespace exactsim {

// 3D vertex against several faces (docs/peg3d.md "Tests and their definitions").
int primary_vertex_faces(std::span<const Contact> contacts, std::span<const int> candidates,
                         Real tolerance) {
  int best = -1, largest = -1;
  for (int i = 0; i < static_cast<int>(candidates.size()); ++i) {
    const Real gap = contacts[candidates[i]].gap;
    if (largest < 0 || gap > contacts[candidates[largest]].gap) largest = i;
    if (gap >= -tolerance && (best < 0 || gap < contacts[candidates[best]].gap)) best = i;
  }
  return best >= 0 ? best : largest;
}

// 3D vertex–edge pair (same section).
bool vertex_edge_primary_is_first(const Contact& c1, const Contact& c2, Real tolerance) {
  if (c1.gap > -tolerance && c1.gap < c2.gap) return true;
  if (c2.gap > -tolerance) return false;
  return c1.gap >= c2.gap;
}

}  // namespace exactsim
