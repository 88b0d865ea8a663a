// Disjoint sets over 0 … n − 1 in a parent array (path halving; a set's root is its smallest
// element): the row groups of D (couple_rows) and the parts of an MLCP (split_parts).
#pragma once

#include <algorithm>
#include <vector>

namespace exactsim {

inline int union_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

inline void union_join(std::vector<int>& parent, int a, int b) {
  a = union_root(parent, a);
  b = union_root(parent, b);
  if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

}  // namespace exactsim
