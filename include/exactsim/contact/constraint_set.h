// Constraint groups over one step's contacts (docs/peg.md "Constraint types"): unilateral (U)
// contacts, and intercontact (I) / cross-contact (X) constraints with one primary and k
// secondaries.
#pragma once

#include <vector>

#include "exactsim/collision/contact.h"

namespace exactsim {

// I constraint j (PEG paper eqs. 39–40): the primary carries the impulse p_Ij; the slacks c_js
// let the bodies separate at any one of the secondaries instead. An X constraint realised the
// paper's way carries no impulse (carries_impulse = false, "X-paper").
struct IntercontactConstraint {
  int primary = -1;         // contact index
  int first_secondary = 0;  // into ConstraintSet::secondaries
  int secondary_count = 0;  // k_j >= 1
  bool carries_impulse = true;
  bool is_cross = false;  // came from an X (cross-contact) constraint
  // |Cι| (docs/peg.md "Constraint types"): the primary and the first iota_count − 1 secondaries may
  // carry the force. The |Cι| = 1 form (Eq. 24) loads the primary only; the general form (Eqs.
  // 20–23, PegOptions::general_form) may move the force to another Cι contact.
  int iota_count = 1;
};

struct ConstraintSet {
  std::vector<Contact> contacts;                      // every potential contact of the step
  std::vector<int> unilateral;                        // U: contact indices
  std::vector<IntercontactConstraint> intercontacts;  // I and X
  std::vector<int> secondaries;                       // contact indices, grouped per constraint
  std::vector<int> joints;  // World::joints indices of the step's joints (docs/joints.md)
  // s: a step of length h corrects its joints' errors over max(h, joint_time) (docs/joints.md
  // "Rows"); advance() sets the user's step, so that a part of a step corrects its share.
  Real joint_time = 0;

  void clear() {
    contacts.clear();
    clear_constraints();
  }
  // Keeps the contacts, drops the groups built from them (a generator's first step).
  void clear_constraints() {
    unilateral.clear();
    intercontacts.clear();
    secondaries.clear();
    joints.clear();
  }
  int cross_count() const;
  // Appends the candidate U's sorted, unique and never inside an I (docs/peg.md "Tricky
  // cases" item 13, "Defects not replicated" item 8); sorts `candidates` in place, `marks` is
  // scratch. Called after the I's are built.
  void append_unilaterals(std::vector<int>& candidates, std::vector<unsigned char>& marks);
  // Potential contacts that no constraint uses (PEG drops inapplicable ones); `marks` is scratch.
  int unused_contacts(std::vector<unsigned char>& marks) const;
};

}  // namespace exactsim
