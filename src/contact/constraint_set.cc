#include "exactsim/contact/constraint_set.h"

#include <algorithm>

namespace exactsim {

int ConstraintSet::cross_count() const {
  int n = 0;
  for (const auto& c : intercontacts) n += c.is_cross ? 1 : 0;
  return n;
}

void ConstraintSet::append_unilaterals(std::vector<int>& candidates,
                                       std::vector<unsigned char>& marks) {
  marks.assign(contacts.size(), 0);
  for (const IntercontactConstraint& ic : intercontacts) marks[ic.primary] = 1;
  for (int c : secondaries) marks[c] = 1;
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (int c : candidates)
    if (!marks[c]) unilateral.push_back(c);
}

int ConstraintSet::unused_contacts(std::vector<unsigned char>& marks) const {
  marks.assign(contacts.size(), 0);
  for (int c : unilateral) marks[c] = 1;
  for (const IntercontactConstraint& ic : intercontacts) marks[ic.primary] = 1;
  for (int c : secondaries) marks[c] = 1;
  int unused = 0;
  for (unsigned char m : marks) unused += m == 0;
  return unused;
}

}  // namespace exactsim
