// The 3D primary-contact heuristics for |Cι| = 1 (docs/peg3d.md "Tests and their definitions";
// the authors' code).
#pragma once

#include <span>

#include "exactsim/collision/contact.h"

namespace exactsim {

// A vertex against several faces: the candidate with the smallest ψ among those with
// ψ ≥ −tolerance (the nearest plane not already violated; ties: the first). If none qualifies,
// the one with the largest ψ (the least violated; [proposed], the authors kept the first).
// Returns a position in `candidates` (contact indices into `contacts`); −1 if empty.
int primary_vertex_faces(std::span<const Contact> contacts, std::span<const int> candidates,
                         Real tolerance);

// A vertex near an edge, C1 = C(v_a, f_1), C2 = C(v_a, f_2): C1 if ψ_1 > −tol and ψ_1 < ψ_2;
// else C2 if ψ_2 > −tol; else the larger ψ (C1 on a tie). True when C1 is primary.
bool vertex_edge_primary_is_first(const Contact& c1, const Contact& c2, Real tolerance);

}  // namespace exactsim
