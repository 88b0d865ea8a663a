#include "exactsim/api/contact_results.h"

#include "exactsim/stepping/step.h"

namespace exactsim {

const char* to_string(ContactRole role) {
  switch (role) {
    case ContactRole::kUnilateral:
      return "unilateral";
    case ContactRole::kPrimary:
      return "primary";
    case ContactRole::kSecondary:
      return "secondary";
    case ContactRole::kUnused:
      return "unused";
  }
  return "?";
}

std::vector<ContactResult> contact_results(const Workspace& ws) {
  const ConstraintSet& set = ws.constraints;
  std::vector<ContactResult> out(set.contacts.size());
  for (std::size_t i = 0; i < set.contacts.size(); ++i) {
    const Contact& c = set.contacts[i];
    ContactResult& r = out[i];
    r.body_a = c.body_a;
    r.body_b = c.body_b;
    r.point = c.point_a;
    r.normal = c.normal;
    r.gap = c.gap;
    if (i < ws.contact_impulses.size()) {  // the step's islands whose solution was applied
      r.normal_impulse = ws.contact_impulses[i].normal;
      r.friction_impulse = ws.contact_impulses[i].friction;
    }
  }
  for (int c : set.unilateral) out[c].role = ContactRole::kUnilateral;
  for (const IntercontactConstraint& ic : set.intercontacts) {
    out[ic.primary].role = ContactRole::kPrimary;
    out[ic.primary].cross = ic.is_cross;
    for (int s = 0; s < ic.secondary_count; ++s) {
      ContactResult& r = out[set.secondaries[ic.first_secondary + s]];
      if (r.role == ContactRole::kUnused) r.role = ContactRole::kSecondary;
      r.cross = r.cross || ic.is_cross;
    }
  }
  return out;
}

}  // namespace exactsim
