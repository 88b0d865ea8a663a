// PEG: polytopal exact geometry contact (docs/peg.md, docs/peg3d.md). Turns potential contacts into
// unilateral (U), intercontact (I) and cross-contact (X) constraints by configuration case.
#pragma once

#include <cstdint>
#include <span>

#include "exactsim/contact/constraint_set.h"
#include "exactsim/contact/peg_options.h"
#include "exactsim/contact/peg_scratch_2d.h"
#include "exactsim/contact/peg_scratch_3d.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// 2D: from the potential contacts already in set.contacts (vertex–edge records) and the
// placed polygons (indexed by body), fills set.unilateral / intercontacts / secondaries by the
// configuration cases of docs/peg.md "Algorithm" with its primary heuristic:
//  * a vertex near one edge (or near a run of edges that yields no vertex–vertex pair) → U if
//    APPL_ve > ε_θ;
//  * a vertex near two edges meeting at B's vertex v_b, with both contacts of v_b against A's
//    edges at v_a detected → I(C1, C2), I(C3, C4), X(C1, C4), X(C2, C3) (PEG paper Fig. 5), once
//    per vertex pair; an I whose contacts are all inapplicable is dropped with both X's;
//  * U's are deduplicated, sorted by contact index and never name a contact inside an I.
// When no vertex–vertex configuration arises the result is U's only, in contact order: then the
// assembled problem is the standard model's (docs/peg.md "Constraint types") minus inapplicable
// contacts. is_static (by body) may be empty; polygons of bodies without contacts are not read. I's
// with both contacts applicable get iota_count = 2 (the general form may load either). InputError
// for non-finite options, a non-vertex–edge contact or one that names a body / feature outside
// `polygons`.
void build_peg_constraints_2d(std::span<const WorldPolygon> polygons,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set);
// The same with buffers reused between calls (the stepper's form: no heap use once warmed up).
void build_peg_constraints_2d(std::span<const WorldPolygon> polygons,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set, PegScratch2d& scratch);

// 3D (docs/peg3d.md "Algorithm", with the defects of docs/peg.md fixed): from the potential
// contacts already in set.contacts (vertex–face both ways and edge–edge) and the placed polyhedra
// (shapes[i], placed[i] by body), every vertex near the other body of its pair is put in exactly
// one configuration by its nearest feature of that body within options.spatial.proximity:
//  * a vertex v_b → vertex–vertex: one constraint over v_a against the faces at v_b that pass
//    FEAS_vf and APPL_vf > ε_θ (U for one face, I for several; the other vertex gets its own);
//  * else a non-flat edge e_b → vertex–edge: I(C(v_a, f_1), C(v_a, f_2)) and, for every edge of
//    A at v_a with APPL_ee > ε_θ(edge partner) against e_b, X(C(v_a, f_side), C(e_a, e_b)) on
//    the side its orientation ê·O_{e_b} points to;
//  * else → U on one face of the other body (FEAS_vf, APPL_vf > ε_θ(lone vertex), primary rule);
// and every detected edge–edge contact with APPL_ee > ε_θ becomes a U unless one of its
// endpoints is in a vertex–edge configuration with its other edge or in a vertex–vertex
// configuration with one of that edge's endpoints. Contacts the configurations need but detection
// did not produce are appended to set.contacts. U's are sorted, unique and never inside an I.
// is_static may be empty. `reach` (by body, may be empty: zeros) bounds how far each body's
// points move over the step, h(|v| + |ω| r): FEAS_vf of a pair accepts a vertex up to
// reach_a + reach_b beyond the proximity in front of a face it is heading for, as detection's ε
// grows, so that a contact detected ahead of a fast body becomes a constraint (docs/peg3d.md
// "Tests and their definitions"); the configurations are still classified within `proximity`.
// InputError for invalid options, or a contact that names a body without a placed polyhedron or
// a feature outside it.
void build_peg_constraints_3d(std::span<const ConvexPolyhedron* const> shapes,
                              std::span<const WorldPolyhedron> placed,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set, std::span<const Real> reach = {});
// The same with buffers reused between calls (the stepper's form: no heap use once warmed up).
void build_peg_constraints_3d(std::span<const ConvexPolyhedron* const> shapes,
                              std::span<const WorldPolyhedron> placed,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set, PegScratch3d& scratch,
                              std::span<const Real> reach = {});

}  // namespace exactsim
