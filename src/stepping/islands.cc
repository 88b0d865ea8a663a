#include "exactsim/stepping/islands.h"

namespace exactsim {

int find_root(std::vector<int>& parent, int b) {
  while (parent[b] != b) {
    parent[b] = parent[parent[b]];  // path halving
    b = parent[b];
  }
  return b;
}

namespace {

// Stable counting sort of the constraints by island: begin (count + 1 offsets) and index.
void bucket(const std::vector<int>& island, int count, std::vector<int>& begin,
            std::vector<int>& index, std::vector<int>& cursor) {
  begin.assign(count + 1, 0);
  for (int k : island) ++begin[k + 1];
  for (int k = 0; k < count; ++k) begin[k + 1] += begin[k];
  cursor.assign(begin.begin(), begin.end() - 1);
  index.resize(island.size());
  for (std::size_t j = 0; j < island.size(); ++j) index[cursor[island[j]]++] = static_cast<int>(j);
}

}  // namespace

void partition_islands(const World& world, const ConstraintSet& set, bool split,
                       IslandPartition& p) {
  const int nu = static_cast<int>(set.unilateral.size());
  const int ni = static_cast<int>(set.intercontacts.size());
  const int nj = static_cast<int>(set.joints.size());
  p.u_island.assign(nu, 0);
  p.i_island.assign(ni, 0);
  p.j_island.assign(nj, 0);
  p.count = nu + ni + nj > 0 ? 1 : 0;
  if (split && p.count > 0) {
    const int n = world.body_count();
    p.parent.resize(n);
    for (int b = 0; b < n; ++b) p.parent[b] = b;
    // The first dynamic body of two, after linking them (−1: none dynamic; b may be the world).
    auto link_bodies = [&](int a, int b, int anchor) {
      for (int body : {a, b}) {
        if (body == kWorldBody || world.bodies[body].is_static) continue;
        if (anchor < 0)
          anchor = body;
        else
          p.parent[find_root(p.parent, body)] = find_root(p.parent, anchor);
      }
      return anchor;
    };
    auto link = [&](int contact, int anchor) {
      const Contact& c = set.contacts[contact];
      return link_bodies(c.body_a, c.body_b, anchor);
    };
    // u_island / i_island hold each constraint's anchor body first, then its island.
    for (int j = 0; j < nu; ++j) p.u_island[j] = link(set.unilateral[j], -1);
    for (int j = 0; j < ni; ++j) {
      const IntercontactConstraint& ic = set.intercontacts[j];
      int anchor = link(ic.primary, -1);
      for (int s = 0; s < ic.secondary_count; ++s)
        anchor = link(set.secondaries[ic.first_secondary + s], anchor);
      p.i_island[j] = anchor;
    }
    for (int j = 0; j < nj; ++j) {
      const Joint& joint = world.joints[set.joints[j]];
      p.j_island[j] = link_bodies(joint.body_a, joint.body_b, -1);
    }
    // Number the islands by first constraint; a constraint on static bodies only (none are
    // generated) would be an island of its own.
    p.island_of.assign(n, -1);
    p.count = 0;
    auto island = [&](int anchor) {
      if (anchor < 0) return p.count++;
      int& k = p.island_of[find_root(p.parent, anchor)];
      if (k < 0) k = p.count++;
      return k;
    };
    for (int& k : p.u_island) k = island(k);
    for (int& k : p.i_island) k = island(k);
    for (int& k : p.j_island) k = island(k);
  }
  bucket(p.u_island, p.count, p.u_begin, p.u_index, p.cursor);
  bucket(p.i_island, p.count, p.i_begin, p.i_index, p.cursor);
  bucket(p.j_island, p.count, p.j_begin, p.j_index, p.cursor);
}

void extract_island(const ConstraintSet& set, const IslandPartition& p, int k, ConstraintSet& out,
                    std::vector<int>& contact_of, std::vector<int>& local) {
  out.clear();
  contact_of.clear();
  auto localise = [&](int c) {
    if (local[c] < 0) {
      local[c] = static_cast<int>(contact_of.size());
      contact_of.push_back(c);
      out.contacts.push_back(set.contacts[c]);
    }
    return local[c];
  };
  for (int u = p.u_begin[k]; u < p.u_begin[k + 1]; ++u)
    out.unilateral.push_back(localise(set.unilateral[p.u_index[u]]));
  for (int i = p.i_begin[k]; i < p.i_begin[k + 1]; ++i) {
    IntercontactConstraint ic = set.intercontacts[p.i_index[i]];
    const int first = ic.first_secondary;
    ic.primary = localise(ic.primary);
    ic.first_secondary = static_cast<int>(out.secondaries.size());
    for (int s = 0; s < ic.secondary_count; ++s)
      out.secondaries.push_back(localise(set.secondaries[first + s]));
    out.intercontacts.push_back(ic);
  }
  for (int j = p.j_begin[k]; j < p.j_begin[k + 1]; ++j)
    out.joints.push_back(set.joints[p.j_index[j]]);
  out.joint_time = set.joint_time;
  for (int c : contact_of) local[c] = -1;
}

}  // namespace exactsim
