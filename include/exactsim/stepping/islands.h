// Islands of one step (docs/stepping.md "Islands"): the dynamic bodies linked by the step's
// constraints, through U contacts and through every contact of an I/X group, fall into
// independent groups. Static bodies link nothing (they have no velocity unknowns), so the MLCP
// of the step is block-diagonal over the islands and each island is solved on its own.
#pragma once

#include <vector>

#include "exactsim/contact/constraint_set.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// The constraints of each island, in the set's order (CSR: island k owns
// unilateral[u_begin[k] .. u_begin[k+1]) and intercontacts[i_begin[k] .. i_begin[k+1]) of the
// index lists below; joints likewise). Islands are numbered by their first constraint in the set's
// order (U's first, then I's, then joints), so the partition is deterministic.
struct IslandPartition {
  int count = 0;
  std::vector<int> u_begin, u_index;  // U positions in ConstraintSet::unilateral
  std::vector<int> i_begin, i_index;  // I positions in ConstraintSet::intercontacts
  std::vector<int> j_begin, j_index;  // joint positions in ConstraintSet::joints
  // scratch
  std::vector<int> parent;              // (n_bodies) union–find over dynamic bodies
  std::vector<int> island_of;           // (n_bodies) root → island, −1 unset
  std::vector<int> u_island, i_island, j_island;  // (U's, I's, joints) island of each
  std::vector<int> cursor;
};

// The root of b in the union–find forest `parent` (parent[r] == r at a root), halving the path.
int find_root(std::vector<int>& parent, int b);

// Partitions `set`'s constraints into islands. With `split` false everything is one island (the
// whole step as one MLCP).
void partition_islands(const World& world, const ConstraintSet& set, bool split,
                       IslandPartition& out);

// The constraint set of island k over its own contacts (renumbered in order of first use);
// contact_of[l] is the index in `set` of the island's contact l. `local` is scratch of
// set.contacts.size() entries, all −1 on entry and on return.
void extract_island(const ConstraintSet& set, const IslandPartition& p, int k, ConstraintSet& out,
                    std::vector<int>& contact_of, std::vector<int>& local);

}  // namespace exactsim
