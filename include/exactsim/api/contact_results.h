// The contacts of the last step and the impulses they carried (docs/api.md "Contact results"):
// read from the step's constraint set and the impulses the step recorded per contact
// (Workspace::contact_impulses, from each island's z = (p_U | p_I | c_I | β | σ)).
#pragma once

#include <cstdint>
#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

struct Workspace;

// How the contact model used a detected contact (docs/peg.md "Constraint types").
enum class ContactRole : std::uint8_t {
  kUnilateral,  // a U constraint: impulse p_U ≥ 0 along n̂
  kPrimary,     // primary of an I or X constraint: carries the constraint's impulse p_I (none for
                // an X constraint realised the paper's way, "X-paper")
  kSecondary,   // secondary of an I or X constraint: no impulse of its own; its slack c lets the
                // bodies separate here instead of at the primary
  kUnused,      // in no constraint (PEG: an inapplicable contact)
};

const char* to_string(ContactRole role);

struct ContactResult {
  int body_a = -1, body_b = -1;  // n̂ points from A to B
  ContactRole role = ContactRole::kUnused;
  bool cross = false;           // part of an X (cross-contact) constraint
  Vec3 point = Vec3::Zero();    // p_a on A, m, world frame (2D: z = 0), at the start of the step
  Vec3 normal = Vec3::UnitX();  // n̂, unit, world frame
  Real gap = 0;                 // ψ, m, signed (> 0 separated), at the start of the step
  // Impulses applied over the step (N·s; divide by h for the mean force in N). On B; A receives
  // the opposite. Zero when the step's solve failed and was not recovered (the bodies flew free).
  Real normal_impulse = 0;               // along n̂, ≥ 0
  Vec3 friction_impulse = Vec3::Zero();  // tangential, Σ β_r d_r of the friction cone
};

// One entry per potential contact of the step just taken (ws.constraints.contacts, same order),
// with the impulses of the islands whose solution the step applied (certified, or a failed solve
// recovered by regularisation; zero in an island whose bodies flew free).
std::vector<ContactResult> contact_results(const Workspace& ws);

}  // namespace exactsim
