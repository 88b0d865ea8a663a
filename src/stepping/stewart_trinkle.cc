#include "exactsim/stepping/stewart_trinkle.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "contact/pair_coefficient.h"
#include "exactsim/collision/contact_jacobian.h"
#include "exactsim/dynamics/mass_matrix.h"

namespace exactsim {
namespace {

Real body_friction(const World& w, int i) {
  const Real mu = w.bodies[i].friction;
  return std::isnan(mu) ? w.contact.friction : mu;
}

// Adds body b's block g of a row to column `col` of `a` if b is active (static and kinematic
// bodies, and the world frame kWorldBody, have no unknowns: docs/collision.md "Conventions").
void write_block(const World& w, const MlcpLayout& layout, int b, const Vec6& g, BlockColumns& a,
                 int col) {
  if (b == kWorldBody) return;
  if (const int k = layout.block_of_body[b]; k >= 0) {
    const int nb = velocity_size(w.dimension);
    Vec6 v = Vec6::Zero();
    v.head(nb) = g.head(nb);
    a.add(col, k, v);
  }
}

// Adds the column of direction d at contact c, times sign, to column `col` of `a`.
void write_column(const World& w, const State& s, const MlcpLayout& layout, const Contact& c,
                  const Vec3& d, Real sign, BlockColumns& a, int col) {
  Vec6 g_a, g_b;
  direction_jacobian(d, c.point_a, c.point_b(), w.dimension, body_position(s, c.body_a),
                     body_position(s, c.body_b), g_a, g_b);
  write_block(w, layout, c.body_a, sign * g_a, a, col);
  write_block(w, layout, c.body_b, sign * g_b, a, col);
}

// Body b's share of a row's rate from its prescribed velocity: g·ν_b if b is kinematic, else 0.
Real kinematic_share(const World& w, const State& s, int b, const Vec6& g) {
  if (b == kWorldBody || !w.bodies[b].kinematic) return 0;
  return g.head(velocity_size(w.dimension)).dot(s.v_of(b));
}

// The rate at which contact c's kinematic bodies move along direction d (d from a toward b): the
// column of d times their prescribed velocities; 0 when neither body is kinematic.
Real kinematic_rate(const World& w, const State& s, const Contact& c, const Vec3& d) {
  if (!w.bodies[c.body_a].kinematic && !w.bodies[c.body_b].kinematic) return 0;
  Vec6 g_a, g_b;
  direction_jacobian(d, c.point_a, c.point_b(), w.dimension, body_position(s, c.body_a),
                     body_position(s, c.body_b), g_a, g_b);
  return kinematic_share(w, s, c.body_a, g_a) + kinematic_share(w, s, c.body_b, g_b);
}

}  // namespace

Real pair_friction(const World& world, int a, int b) {
  return pair_coefficient(body_friction(world, a), body_friction(world, b));
}

void assemble_stewart_trinkle(const World& world, const State& state, const ConstraintSet& set,
                              Real h, MlcpLayout& layout, SparseMlcp& mlcp,
                              std::span<const FrictionDirection> previous_friction) {
  const int dim = world.dimension, nb = velocity_size(dim);
  const auto& contacts = set.contacts;

  // Active bodies: dynamic bodies touched by a constraint (only they enter the MLCP:
  // docs/stepping.md stage 4); static and kinematic bodies have no unknowns.
  layout.block_of_body.assign(world.body_count(), -1);
  auto mark = [&](int contact) {
    for (int b : {contacts[contact].body_a, contacts[contact].body_b})
      if (!world.bodies[b].is_static) layout.block_of_body[b] = 0;
  };
  for (int c : set.unilateral) mark(c);
  for (int j : set.joints)
    for (int b : {world.joints[j].body_a, world.joints[j].body_b})
      if (b != kWorldBody && !world.bodies[b].is_static) layout.block_of_body[b] = 0;
  for (const auto& ic : set.intercontacts) {
    mark(ic.primary);
    for (int s = 0; s < ic.secondary_count; ++s) mark(set.secondaries[ic.first_secondary + s]);
  }
  layout.active_bodies.clear();
  for (int b = 0; b < world.body_count(); ++b)
    if (layout.block_of_body[b] == 0) {
      layout.block_of_body[b] = static_cast<int>(layout.active_bodies.size());
      layout.active_bodies.push_back(b);
    }

  // Friction cones sit on every impulse-carrying contact (docs/peg.md "Constraint types") with μ >
  // 0.
  layout.n_unilateral = static_cast<int>(set.unilateral.size());
  layout.n_intercontact = static_cast<int>(set.intercontacts.size());
  layout.n_slack = static_cast<int>(set.secondaries.size());
  layout.friction_directions = dim == 2 ? 2 : world.contact.friction_directions;
  layout.friction_contact.clear();
  layout.friction_impulse.clear();
  layout.friction_mu.clear();
  auto add_cone = [&](int contact, int impulse) {
    const Real mu = pair_friction(world, contacts[contact].body_a, contacts[contact].body_b);
    if (mu > 0) {
      layout.friction_contact.push_back(contact);
      layout.friction_impulse.push_back(impulse);
      layout.friction_mu.push_back(mu);
    }
  };
  for (int j = 0; j < layout.n_unilateral; ++j) add_cone(set.unilateral[j], j);
  for (int j = 0; j < layout.n_intercontact; ++j)
    if (set.intercontacts[j].carries_impulse)
      add_cone(set.intercontacts[j].primary, layout.n_unilateral + j);
  layout.n_friction_contacts = static_cast<int>(layout.friction_contact.size());
  // The cones turned toward where their force will act (docs/stepping.md "Friction directions").
  if (dim == 3)
    first_friction_directions(world, state, h, contacts, layout.friction_contact, previous_friction,
                              layout.friction_tangent, layout.friction_first, layout.patches);
  else
    layout.friction_first.assign(layout.friction_contact.size(), Vec3::Zero());

  layout.n_bilateral = 0;
  for (int j : set.joints) layout.n_bilateral += joint_row_count(world.joints[j], dim);

  const int nv = nb * static_cast<int>(layout.active_bodies.size());
  const int m = layout.size();
  mlcp.bilateral = layout.n_bilateral;

  // M and c = M ν + h F_ext (PEG paper ≈ eq. 8).
  // (blocks are assigned in place, not re-appended: their storage survives from step to step)
  mlcp.M.offsets.resize(layout.active_bodies.size());
  mlcp.M.blocks.resize(layout.active_bodies.size());
  mlcp.c.resize(nv);
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k) {
    const int b = layout.active_bodies[k];
    const BodyMatrix mb = mass_block(world.bodies[b], state, b);
    mlcp.M.offsets[k] = static_cast<int>(k) * nb;
    mlcp.M.blocks[k] = mb;
    mlcp.c.segment(k * nb, nb) =
        mb * state.v_of(b) + external_impulse(world.bodies[b], state, b, h, world.gravity);
  }
  mlcp.g.pending.clear();
  mlcp.h.pending.clear();
  std::vector<MlcpLayout::Entry>& d = layout.d_entries;
  d.clear();
  auto set_d = [&d](int row, int col, Real value) {
    d.push_back({row, col, static_cast<int>(d.size()), value});
  };
  mlcp.r.setZero(m);
  layout.kinematic_rate.setZero(m);
  VecX& kin = layout.kinematic_rate;

  // ψ/h, or −cap for contacts deeper than h·cap when the stabilisation is capped (docs/peg.md
  // "Tricky cases" item 10); the split stabilisation's cap is 0: max(ψ/h, 0), docs/robustness.md.
  const Real cap = velocity_stabilisation_cap(world.contact);
  auto gap_rate = [h, cap](const Contact& c) { return std::max(c.gap / h, -cap); };
  // (uncapped: (ψ₁ − ψ_s)/h exactly as before, so published runs reproduce bit for bit)
  auto slack_rate = [&](const Contact& p, const Contact& s) {
    return std::isfinite(cap) ? gap_rate(p) - gap_rate(s) : (p.gap - s.gap) / h;
  };

  // U rows: 0 <= ψ/h + Gᵀν ⊥ p_n >= 0 (PEG paper ≈ eq. 7).
  for (int j = 0; j < layout.n_unilateral; ++j) {
    const Contact& c = contacts[set.unilateral[j]];
    write_column(world, state, layout, c, c.normal, 1.0, mlcp.g, j);
    write_column(world, state, layout, c, c.normal, 1.0, mlcp.h, j);
    kin[j] = kinematic_rate(world, state, c, c.normal);
    mlcp.r[j] = gap_rate(c);
  }
  // I rows (PEG paper eqs. 39–40): p_I carries G_{j1}; slack rows use G_{j1} − G_{js} and E_I1.
  for (int j = 0, slack = layout.slack_begin(); j < layout.n_intercontact; ++j) {
    const IntercontactConstraint& ic = set.intercontacts[j];
    const Contact& primary = contacts[ic.primary];
    const int row = layout.pi_begin() + j;
    write_column(world, state, layout, primary, primary.normal, 1.0, mlcp.h, row);
    if (ic.carries_impulse)
      write_column(world, state, layout, primary, primary.normal, 1.0, mlcp.g, row);
    kin[row] = kinematic_rate(world, state, primary, primary.normal);
    mlcp.r[row] = gap_rate(primary);
    for (int s = 0; s < ic.secondary_count; ++s, ++slack) {
      const Contact& sec = contacts[set.secondaries[ic.first_secondary + s]];
      kin[slack] = kin[row] - kinematic_rate(world, state, sec, sec.normal);
      write_column(world, state, layout, primary, primary.normal, 1.0, mlcp.h, slack);
      write_column(world, state, layout, sec, sec.normal, -1.0, mlcp.h, slack);
      mlcp.r[slack] = slack_rate(primary, sec);
      set_d(row, slack, 1.0);                                         // E_I2
      for (int t = 0; t <= s; ++t) set_d(slack, slack - s + t, 1.0);  // E_I1 (lower ones)
    }
  }
  // Friction (docs/solvers.md "Problem forms"): ρ_f = G_fᵀν + E σ ⊥ β;  ζ = μ p − Eᵀβ ⊥ σ.
  std::vector<Vec3>& dirs = layout.directions;
  const int k = layout.friction_directions;
  for (int f = 0; f < layout.n_friction_contacts; ++f) {
    const int ci = layout.friction_contact[f];
    const Contact& c = contacts[ci];
    friction_directions(c.normal, layout.friction_first[f], dim, k, dirs);
    const int sigma = layout.sigma_begin() + f;
    set_d(sigma, layout.friction_impulse[f], layout.friction_mu[f]);  // U p
    for (int r = 0; r < k; ++r) {
      const int col = layout.beta_begin() + f * k + r;
      kin[col] = kinematic_rate(world, state, c, dirs[r]);
      write_column(world, state, layout, c, dirs[r], 1.0, mlcp.g, col);
      write_column(world, state, layout, c, dirs[r], 1.0, mlcp.h, col);
      set_d(col, sigma, 1.0);
      set_d(sigma, col, -1.0);
    }
  }
  // Joint rows (docs/joints.md "Rows"): Jᵀν + φ/τ = 0 with a free multiplier, G = H = J, and
  // τ = max(h, joint_time): a part of the user's step corrects its share of φ.
  const Real joint_time = std::max(h, set.joint_time);
  for (int row = layout.bilateral_begin(); const int ji : set.joints) {
    const Joint& joint = world.joints[ji];
    layout.joint_rows.clear();
    joint_rows(joint, state, layout.joint_rows);
    for (const JointRow& jr : layout.joint_rows) {
      for (BlockColumns* a : {&mlcp.g, &mlcp.h}) {
        write_block(world, layout, joint.body_a, jr.g_a, *a, row);
        write_block(world, layout, joint.body_b, jr.g_b, *a, row);
      }
      kin[row] = kinematic_share(world, state, joint.body_a, jr.g_a) +
                 kinematic_share(world, state, joint.body_b, jr.g_b);
      mlcp.r[row] = jr.error / joint_time;
      ++row;
    }
  }
  // Kinematic bodies have no unknowns: their motion enters each row's constant term.
  mlcp.r += kin;
  // D row by row from its entries, the last at each place (sorted in place and inserted in
  // order: no allocation once D's storage has grown to the pile's size).
  std::sort(d.begin(), d.end(), [](const MlcpLayout::Entry& a, const MlcpLayout::Entry& b) {
    return std::tie(a.row, a.col, a.order) < std::tie(b.row, b.col, b.order);
  });
  mlcp.D.resize(m, m);
  mlcp.D.reserve(static_cast<Eigen::Index>(d.size()));
  std::size_t e = 0;
  for (int i = 0; i < m; ++i) {
    mlcp.D.startVec(i);
    for (; e < d.size() && d[e].row == i; ++e)
      if (e + 1 == d.size() || d[e + 1].row != i || d[e + 1].col != d[e].col)
        mlcp.D.insertBack(i, d[e].col) = d[e].value;
  }
  mlcp.D.finalize();
  const int blocks = static_cast<int>(layout.active_bodies.size());
  mlcp.g.compress(m, blocks);
  mlcp.h.compress(m, blocks);
}

void assemble_stewart_trinkle(const World& world, const State& state, const ConstraintSet& set,
                              Real h, MlcpLayout& layout, Mlcp& mlcp,
                              std::span<const FrictionDirection> previous_friction) {
  SparseMlcp sparse;
  assemble_stewart_trinkle(world, state, set, h, layout, sparse, previous_friction);
  dense_of(sparse, mlcp);
}

}  // namespace exactsim
