#include "exactsim/api/contact_results.h"

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

bool step_used_solution(const StepReport& r) { return r.solution_applied; }

std::vector<ContactResult> contact_results(const World& world, const Workspace& ws,
                                           const StepReport& report) {
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
  // The layout is that of this step only when the step assembled an MLCP (solver_called).
  const MlcpLayout& L = ws.layout;
  const VecX& z = ws.solution.z;
  if (!step_used_solution(report) || z.size() != L.size()) return out;
  // Normal impulses: U rows p_U, impulse-carrying I/X rows p_I on their primary (docs/peg.md
  // "Constraint types").
  for (int j = 0; j < L.n_unilateral; ++j)
    out[set.unilateral[j]].normal_impulse += z[L.p_begin() + j];
  for (int j = 0; j < L.n_intercontact; ++j)
    if (set.intercontacts[j].carries_impulse)
      out[set.intercontacts[j].primary].normal_impulse += z[L.pi_begin() + j];
  // Friction: β_r along the cone's directions d_r (docs/stepping.md stage 4), rebuilt as the
  // assembly built them.
  std::vector<Vec3> dirs;
  const int k = L.friction_directions;
  for (int f = 0; f < L.n_friction_contacts; ++f) {
    ContactResult& r = out[L.friction_contact[f]];
    friction_directions(r.normal, world.dimension, k, dirs);
    for (int d = 0; d < k; ++d) r.friction_impulse += z[L.beta_begin() + f * k + d] * dirs[d];
  }
  return out;
}

}  // namespace exactsim
