// PEG's options (docs/peg.md, docs/peg3d.md "Options"): part of a scene's contact options.
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

enum class CrossRealisation {
  kImpulseCarrying,  // "X-code": X constraints become impulse-carrying I constraints (default)
  kImpulseFree,      // "X-paper": X constraints carry no impulse (PEG paper ≈ eq. 47)
};

// 3D relaxation parameters (docs/peg3d.md "Options"). Defaults: the authors'.
struct PegSpatialOptions {
  // ε_vf = ε_ee of the configuration tests (m): a vertex within this of a vertex / non-flat edge
  // of the other body is a vertex–vertex / vertex–edge configuration; also the proximity bound
  // of FEAS_vf and FEAS_ee. Independent of the detection distance (missing contacts are built).
  Real proximity = 0.1;
  Real epsilon_theta = -0.4;                   // APPL_vf (vertex–vertex faces), APPL_ee (ee U's)
  Real epsilon_theta_lone_vertex = -0.3;       // APPL_vf of a vertex near faces only
  Real epsilon_theta_edge_partner = -0.1;      // APPL_ee of A's edges in a vertex–edge X
  Real feasibility_angle = 0.4;                // φ of FEAS_vf (rad)
  Real feasibility_depth = 0.0025;             // δ of FEAS_vf (m)
  Real primary_tolerance_faces = 1e-4;         // primary rule, vertex against faces (m)
  Real primary_tolerance_vertex_edge = 0.005;  // primary rule, vertex–edge pair (m)
  // The vertex–vertex cross constraints of PEG paper ≈ eq. 38 (docs/peg3d.md
  // "Algorithm" step 3, low confidence; the authors
  // never ran them): X(C(v_a, f_b), C(e_a, e_b)) for the edges at the two vertices.
  bool vertex_vertex_cross = false;
  // Flush support (docs/peg3d.md "Algorithm" step 4): a vertex–edge configuration of two bodies
  // stacked edge to edge (the vertex's faces antiparallel to one face of the edge and parallel
  // to the other, within flush_support_cosine; the vertex at most flush_support_overhang beyond
  // the supporting face and the other face inapplicable) is a U on the supporting face, without
  // the I and its X's. false: the authors' I + X's for every vertex–edge configuration.
  bool flush_support = true;
  Real flush_support_cosine = 0.995;     // |cos| of "flush" (0.995: within 5.7°)
  Real flush_support_overhang = 0.0025;  // m, as feasibility_depth
};

struct PegOptions {
  Real epsilon_theta = -0.2;         // applicability relaxation ε_θ (2D experiments)
  Real cross_keep_threshold = -0.2;  // X-code: X kept when both contacts' APPL exceed this (2D)
  Real primary_tolerance = 1e-3;     // "non-penetrating enough" for the primary heuristic (2D), m
  CrossRealisation cross = CrossRealisation::kImpulseCarrying;
  // Which contact of an X pair is listed first (and so is primary unless the primary swap exchanges
  // it): true → the one with the larger gap ψ (ties: the paper's order), so the result does not
  // depend on which body is called A (docs/peg.md "Tricky cases" item 12); false → the authors'
  // order X(C1, C4), X(C2, C3) of PEG paper Fig. 5 with A the body whose vertex group comes first.
  bool canonical_cross_order = true;
  // 2D: the general intercontact form (Eqs. 20–23) on every impulse-carrying I whose contacts
  // are all applicable (iota_count = 2): the force may act only on a contact at zero gap that
  // realises the max (solved by primary switching in the stepper, docs/peg.md "General form").
  // false (default): every constraint uses |Cι| = 1 (Eqs. 20 + 24), as in all of the paper's
  // runs. The generator's output does not depend on it. 3D rejects true with InputError.
  bool general_form = false;
  PegSpatialOptions spatial;  // 3D only
};

}  // namespace exactsim
