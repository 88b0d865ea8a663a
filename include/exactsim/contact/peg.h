// PEG: polytopal exact geometry contact (spec peg.md §3). Turns potential contacts into
// unilateral (U), intercontact (I) and cross-contact (X) constraints by configuration case.
#pragma once

#include <cstdint>
#include <span>

#include "exactsim/contact/constraint_set.h"
#include "exactsim/geometry/polygon.h"

namespace exactsim {

enum class CrossRealisation {
  kImpulseCarrying,  // "X-code": X constraints become impulse-carrying I constraints (default)
  kImpulseFree,      // "X-paper": X constraints carry no impulse (spec §3.7 ≈ Eq. 47)
};

struct PegOptions {
  Real epsilon_theta = -0.2;  // applicability relaxation ε_θ (2D experiments, spec §3.5 table)
  Real cross_keep_threshold = -0.2;  // X-code: X kept when both contacts' APPL exceed this (2D)
  Real primary_tolerance = 1e-3;     // "non-penetrating enough" for the primary heuristic (2D), m
  CrossRealisation cross = CrossRealisation::kImpulseCarrying;
  // Which contact of an X pair is listed first (and so is primary unless §3.6.1 swaps it):
  // true → the one with the larger gap ψ (ties: the spec's order), so the result does not depend
  // on which body is called A (spec §6.1 item 12); false → the authors' order X(C1, C4),
  // X(C2, C3) of spec §3.3 with A the body whose vertex group comes first.
  bool canonical_cross_order = true;
  // |Cι| = 2 general form (Eqs. 20–23): NOT implemented; true is rejected with InputError.
  // Every constraint uses |Cι| = 1 (Eqs. 20 + 24), as in all of the paper's runs.
  bool general_form = false;
};

// 2D: from the potential contacts already in set.contacts (vertex–edge, spec §1.4) and the
// placed polygons (indexed by body), fills set.unilateral / intercontacts / secondaries by the
// configuration cases of spec §3.6.2 with the primary heuristic of §3.6.1:
//  * a vertex near one edge (or near a run of edges that yields no vertex–vertex pair) → U if
//    APPL_ve > ε_θ;
//  * a vertex near two edges meeting at B's vertex v_b, with both contacts of v_b against A's
//    edges at v_a detected → I(C1, C2), I(C3, C4), X(C1, C4), X(C2, C3) (spec §3.3), once per
//    vertex pair; an I whose contacts are all inapplicable is dropped with both X's;
//  * U's are deduplicated, sorted by contact index and never name a contact inside an I.
// When no vertex–vertex configuration arises the result is U's only, in contact order: then the
// assembled problem is the standard model's (spec §3.7 last bullet) minus inapplicable contacts.
// is_static (by body) may be empty; polygons of bodies without contacts are not read.
// InputError for non-finite options, general_form = true, a non-vertex–edge contact or one that
// names a body / feature outside `polygons`.
void build_peg_constraints_2d(std::span<const WorldPolygon> polygons,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set);

}  // namespace exactsim
