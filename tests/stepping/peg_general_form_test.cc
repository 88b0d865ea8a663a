// The general intercontact form (PEG paper eqs. 20–23) through the step, solved by
// primary switching (docs/peg.md "General form"), against an independent oracle: brute-force
// enumeration of every general-form solution of a small frictionless scene.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "exactsim/collision/contact_jacobian.h"
#include "exactsim/contact/peg.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/peg_general_form.h"
#include "stepping/planar_sim.h"

namespace exactsim {
namespace {

using planar_test::box;
using planar_test::Sim;
using planar_test::worked_example;

// The worked example's four constraints I1..I4 as docs/peg.md lists them (ε_θ = −0.5 makes C1, C2
// applicable too, so every I has |Cι| = 2; the authors' X labelling, canonical_cross_order =
// false).
PegOptions relaxed(bool general, bool canonical = false) {
  PegOptions o;
  o.epsilon_theta = -0.5;
  o.cross_keep_threshold = -0.5;
  o.canonical_cross_order = canonical;
  o.general_form = general;
  return o;
}

// One loaded contact of an oracle solution: (group, contact); group −1 for a U.
struct Load {
  int group, contact;
};

struct OracleSolution {
  Vec3 nu;
  std::vector<Load> loads;
};

// Every solution of the general form (Eqs. 20–23 for |Cι| = 2 groups, Eq. 24 for |Cι| = 1, U
// rows 0 <= ψ̇ ⊥ λ) for the constraint set of one step with ONE dynamic body (index `body`, the
// others static), frictionless, by enumeration of active sets: every U free or at ψ̇ = 0; every
// |Cι| = 2 group free, or loaded on one or both of its contacts with ψ̇ = 0 there; every |Cι| = 1
// group free or loaded on its primary with the max at zero on either contact. Each square
// system is solved and the answer kept if it satisfies every inequality and sign condition.
std::vector<OracleSolution> enumerate_general_form(const World& world, const State& state,
                                                   const ConstraintSet& set, Real h, int body) {
  const Real tol = 1e-9;
  const Body& b = world.bodies[body];
  const Vec3 m_diag(b.mass, b.mass, b.planar_inertia);
  const Vec3 nu_free =
      state.v.segment<3>(3 * body) + h * Vec3(world.gravity.x(), world.gravity.y(), 0);
  auto column = [&](int contact) {  // G of the contact for the dynamic body
    const Contact& c = set.contacts[contact];
    Vec6 g_a, g_b;
    direction_jacobian(c.normal, c.point_a, c.point_b(), 2, body_position(state, c.body_a),
                       body_position(state, c.body_b), g_a, g_b);
    Vec3 g = Vec3::Zero();
    if (c.body_a == body) g += g_a.head<3>();
    if (c.body_b == body) g += g_b.head<3>();
    return g;
  };
  auto rate = [&](int contact, const Vec3& nu) {
    return set.contacts[contact].gap / h + column(contact).dot(nu);
  };
  // Choices: per U {0 free, 1 loaded}; per I group with contacts (p, s):
  // |Cι| = 2: {free, p, s, both}; |Cι| = 1: {free, p at ψ̇_p = 0, p at ψ̇_s = 0}; X-paper: {free}.
  const int nu_count = static_cast<int>(set.unilateral.size());
  const int ni = static_cast<int>(set.intercontacts.size());
  std::vector<int> options(nu_count + ni);
  for (int u = 0; u < nu_count; ++u) options[u] = 2;
  for (int j = 0; j < ni; ++j) {
    const IntercontactConstraint& ic = set.intercontacts[j];
    EXPECT_EQ(ic.secondary_count, 1);
    options[nu_count + j] = !ic.carries_impulse ? 1 : ic.iota_count == 2 ? 4 : 3;
  }
  std::vector<OracleSolution> out;
  std::vector<int> choice(options.size(), 0);
  for (;;) {
    std::vector<int> force, equal;  // contacts with an impulse, contacts with ψ̇ = 0
    std::vector<Load> loads;
    for (int u = 0; u < nu_count; ++u)
      if (choice[u] == 1) {
        force.push_back(set.unilateral[u]);
        equal.push_back(set.unilateral[u]);
        loads.push_back({-1, set.unilateral[u]});
      }
    for (int j = 0; j < ni; ++j) {
      const IntercontactConstraint& ic = set.intercontacts[j];
      const int p = ic.primary, s = set.secondaries[ic.first_secondary];
      const int k = choice[nu_count + j];
      if (k == 0) continue;
      if (ic.iota_count == 2) {
        if (k == 1 || k == 3) force.push_back(p), equal.push_back(p), loads.push_back({j, p});
        if (k == 2 || k == 3) force.push_back(s), equal.push_back(s), loads.push_back({j, s});
      } else {
        force.push_back(p);
        equal.push_back(k == 1 ? p : s);
        loads.push_back({j, p});
      }
    }
    const int n = static_cast<int>(force.size());
    Vec3 nu = nu_free;
    VecX lambda = VecX::Zero(n);
    bool solved = true;
    if (n > 0) {
      MatX a(n, n);
      VecX rhs(n);
      for (int e = 0; e < n; ++e) {
        const Vec3 ge = column(equal[e]);
        rhs[e] = -rate(equal[e], nu_free);
        for (int f = 0; f < n; ++f) a(e, f) = ge.dot(column(force[f]).cwiseQuotient(m_diag));
      }
      Eigen::FullPivLU<MatX> lu(a);
      solved = lu.isInvertible();
      if (solved) {
        lambda = lu.solve(rhs);
        for (int f = 0; f < n; ++f) nu += column(force[f]).cwiseQuotient(m_diag) * lambda[f];
      }
    }
    bool ok = solved && (n == 0 || lambda.minCoeff() >= -tol);
    for (int u = 0; ok && u < nu_count; ++u) ok = rate(set.unilateral[u], nu) >= -tol;
    for (int j = 0; ok && j < ni; ++j) {
      const IntercontactConstraint& ic = set.intercontacts[j];
      const Real top =
          std::max(rate(ic.primary, nu), rate(set.secondaries[ic.first_secondary], nu));
      ok = top >= -tol && (choice[nu_count + j] == 0 || top <= tol);  // Eq. 21; Eq. 23 / 24
    }
    if (ok) out.push_back({nu, loads});
    std::size_t d = 0;  // next choice vector
    while (d < choice.size() && ++choice[d] == options[d]) choice[d++] = 0;
    if (d == choice.size()) break;
  }
  return out;
}

// Index of the oracle solution with this motion (to 1e-7 m/s), −1 if none.
int find_motion(const std::vector<OracleSolution>& all, const Vec3& nu) {
  for (int i = 0; i < static_cast<int>(all.size()); ++i)
    if ((all[i].nu - nu).cwiseAbs().maxCoeff() < 1e-7) return i;
  return -1;
}

Real motion_spread(const std::vector<OracleSolution>& all) {
  Real spread = 0;
  for (const auto& a : all)
    for (const auto& b : all) spread = std::max(spread, (a.nu - b.nu).norm());
  return spread;
}

// The worked example's scene with all four contacts applicable, the triangle thrown at the apex:
// the |Cι| = 1 answer from the heuristic primaries loads a contact that is not at the max (not a
// general-form solution); primary switching moves the force and lands on one of the enumerated
// general-form solutions, which differ among themselves by metres per second.
TEST(PegGeneralForm, ApexThrowSolvesAndNamesTheLoadedContact) {
  const Real h = 0.01;
  const Vec3 throw_velocity(-1, -6, 0);
  // (each Sim built afresh: copying a Workspace copies never-computed factorisations)
  auto thrown = [&](bool general_form) {
    Sim s = worked_example(ContactModel::kPeg);
    s.world.contact.peg = relaxed(general_form);
    s.state.v_of(0) = throw_velocity;
    return s;
  };
  Sim plain = thrown(false), general = thrown(true);
  const State start = general.state;

  const StepReport rp = plain.step(h);
  ASSERT_EQ(rp.status, StepStatus::kOk);
  EXPECT_GT(inconsistent_primaries(plain.ws), 0);
  EXPECT_FALSE(certify_general_form(plain.world, start, plain.ws, h, rp.solver.tolerance).ok());

  const StepReport rg = general.step(h);
  ASSERT_EQ(rg.status, StepStatus::kOk);
  EXPECT_FALSE(rg.general_form_failed);
  EXPECT_GT(rg.primary_switches, 0);
  EXPECT_EQ(inconsistent_primaries(general.ws), 0);
  const GeneralFormCertificate cert =
      certify_general_form(general.world, start, general.ws, h, rg.solver.tolerance);
  EXPECT_TRUE(cert.ok());
  EXPECT_EQ(cert.general_groups, 4);

  const auto all = enumerate_general_form(general.world, start, general.ws.constraints, h, 0);
  ASSERT_FALSE(all.empty());
  const int hit = find_motion(all, general.v(0));
  ASSERT_GE(hit, 0) << "the switched answer is not a general-form solution";
  EXPECT_LT(find_motion(all, plain.v(0)), 0);
  EXPECT_GT(motion_spread(all), 1.0);  // the general form alone does not fix the motion

  // Which contacts carry force, named as in PEG paper Fig. 5 (C1, C2: A's tip against B's edges at
  // the apex; C3, C4: B's apex against A's edges at the tip).
  auto lowest = [](const ConvexPolygon& p, Real sign) {
    int best = 0;
    for (int i = 1; i < static_cast<int>(p.vertices.size()); ++i)
      if (sign * p.vertices[i].y() < sign * p.vertices[best].y()) best = i;
    return best;
  };
  const int tip = lowest(general.world.polygons[0], 1),
            apex = lowest(general.world.polygons[1], -1);
  auto name = [&](const Contact& c) -> std::string {
    if (c.body_a == 0 && c.feature_a == tip) return c.feature_b == apex ? "C2" : "C1";
    if (c.body_a == 1 && c.feature_a == apex) return c.feature_b == tip ? "C4" : "C3";
    return "?";
  };
  auto loads = [&](const Sim& s) {
    std::string out;
    const ConstraintSet& set = s.ws.constraints;
    const std::vector<ContactResult> contacts = s.contacts();
    for (const IntercontactConstraint& ic : set.intercontacts) {
      const Real lambda = ic.carries_impulse ? contacts[ic.primary].normal_impulse : 0.0;
      if (lambda > 1e-12)
        out += std::string(ic.is_cross ? "X(" : "I(") + name(set.contacts[ic.primary]) + "; " +
               name(set.contacts[set.secondaries[ic.first_secondary]]) + ") " +
               std::to_string(lambda) + " ";
    }
    return out;
  };
  const std::string loaded = loads(general);
  EXPECT_FALSE(loaded.empty());
  EXPECT_EQ(loaded.find('?'), std::string::npos);
  RecordProperty("loaded", loaded);
  RecordProperty("loaded_by_the_default_form", loads(plain));
  RecordProperty("solutions", static_cast<int>(all.size()));
}

// The worked example's scene thrown in random directions (fixed seed), X-code and X-paper: every
// step solves, certifies against Eqs. 20–23 and is one of the enumerated general-form solutions;
// some throws need a primary switch, and the heuristic primaries are kept whenever they are
// consistent.
TEST(PegGeneralForm, RandomThrowsAtTheApexMatchTheEnumeration) {
  const Real h = 0.01;
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> ux(-3, 3), uy(-8, 2), uw(-6, 6);
  int switched = 0, inconsistent_before = 0;
  for (int t = 0; t < 60; ++t) {
    const Vec3 v(ux(rng), uy(rng), uw(rng));
    for (CrossRealisation x :
         {CrossRealisation::kImpulseCarrying, CrossRealisation::kImpulseFree}) {
      auto thrown = [&](bool general_form) {
        Sim s = worked_example(ContactModel::kPeg);
        s.world.contact.peg = relaxed(general_form);
        s.world.contact.peg.cross = x;
        s.state.v_of(0) = v;
        return s;
      };
      Sim plain = thrown(false), general = thrown(true);
      const State start = general.state;
      ASSERT_EQ(plain.step(h).status, StepStatus::kOk);
      const StepReport r = general.step(h);
      ASSERT_EQ(r.status, StepStatus::kOk) << "throw " << t;
      const bool was_inconsistent = inconsistent_primaries(plain.ws) > 0;
      inconsistent_before += was_inconsistent;
      switched += r.primary_switches > 0;
      EXPECT_EQ(r.primary_switches > 0, was_inconsistent) << "throw " << t;
      if (!was_inconsistent) {
        EXPECT_EQ(general.state.v, plain.state.v) << "throw " << t;
      }
      EXPECT_TRUE(
          certify_general_form(general.world, start, general.ws, h, r.solver.tolerance).ok())
          << "throw " << t;
      const auto all = enumerate_general_form(general.world, start, general.ws.constraints, h, 0);
      EXPECT_GE(find_motion(all, general.v(0)), 0) << "throw " << t;
    }
  }
  EXPECT_GT(switched, 0);
  EXPECT_EQ(switched, inconsistent_before);
  RecordProperty("throws_switched", switched);
}

// Where the heuristic primaries are already consistent the general form changes nothing: these
// runs (rim drop, box into a container corner, the worked example with detection, the default X
// order) never switch and are bit-identical to the |Cι| = 1 form, step by step.
TEST(PegGeneralForm, BitIdenticalToTheDefaultFormWhereThePrimariesAreConsistent) {
  auto rim = [] {
    Sim s;
    s.world.contact.model = ContactModel::kPeg;
    s.add(box(-0.1, -1, 0.1, 0), true);
    s.add(box(0.02, 0.01, 0.22, 0.21), false);
    return s;
  };
  auto corner = [] {
    Sim s;
    s.world.contact.model = ContactModel::kPeg;
    s.world.contact.friction = 0.3;
    s.add(box(-1, -1, 1, 0), true);
    s.add(box(1, -1, 1.2, 1), true);
    s.add(box(0.7, 0.001, 0.95, 0.25), false, Vec2(2, 0));
    return s;
  };
  auto apex = [] {
    Sim s = worked_example(ContactModel::kPeg);
    PegOptions o = relaxed(false, true);
    s.world.contact.peg = o;
    s.state.v_of(0) = Vec3(-1, -6, 0);
    return s;
  };
  int general_groups = 0;
  for (const auto& make : {+rim, +corner, +apex}) {
    Sim plain = make(), general = make();
    general.world.contact.peg.general_form = true;
    for (int k = 0; k < 150; ++k) {
      const StepReport rp = plain.step(0.005), rg = general.step(0.005);
      ASSERT_EQ(rg.status, StepStatus::kOk) << "step " << k;
      ASSERT_EQ(rg.primary_switches, 0) << "step " << k;
      ASSERT_EQ(rp.intercontact, rg.intercontact);
      for (const IntercontactConstraint& ic : general.ws.constraints.intercontacts)
        general_groups += ic.carries_impulse && ic.iota_count == 2;
      ASSERT_EQ(plain.state.q, general.state.q) << "step " << k;
      ASSERT_EQ(plain.state.v, general.state.v) << "step " << k;
    }
  }
  EXPECT_GT(general_groups, 0);  // the general form had groups to act on
}

// The apex throw continued for 40 steps with detection. With the authors' X labelling the general
// form switches once (step 0) and from then on follows the default X order's motion (larger gap
// first, whose primaries are consistent here) to round-off. Both overlap by up to ~5e-6 m² for a
// while (linearisation error: the impact sets the triangle spinning at 2.8 rad/s) and reach zero.
TEST(PegGeneralForm, ApexThrowContinuationFollowsTheCanonicalOrder) {
  auto thrown = [](const PegOptions& o) {
    Sim s = worked_example(ContactModel::kPeg);
    s.world.contact.peg = o;
    s.state.v_of(0) = Vec3(-1, -6, 0);
    return s;
  };
  Sim general = thrown(relaxed(true)), canonical = thrown(relaxed(false, true));
  int switches = 0;
  Real worst = 0;
  for (int k = 0; k < 40; ++k) {
    const StepReport r = general.step(0.01);
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k;
    ASSERT_EQ(canonical.step(0.01).status, StepStatus::kOk);
    switches += r.primary_switches;
    worst = std::max(worst, r.overlap);
    ASSERT_LT((general.state.q - canonical.state.q).cwiseAbs().maxCoeff(), 1e-12) << "step " << k;
    ASSERT_LT((general.state.v - canonical.state.v).cwiseAbs().maxCoeff(), 1e-10) << "step " << k;
    if (k == 39) {
      EXPECT_EQ(r.overlap, 0.0);
    }
  }
  EXPECT_GT(switches, 0);
  RecordProperty("max_overlap_m2", std::to_string(worst));
}

// Whole runs checked step by step against the enumeration: a box thrown spinning onto a wall's
// rim corner (one dynamic body, frictionless, every vertex–vertex I with |Cι| = 2 by ε_θ = −0.5),
// from several throws. Every step that has constraints lands on an enumerated general-form
// solution; the runs do switch primaries.
TEST(PegGeneralForm, RimThrowsMatchTheEnumerationEveryStep) {
  const Real h = 0.005;
  int switches = 0, checked = 0;
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> ux(-2, 2), uy(-4, 0), uw(-8, 8);
  for (int t = 0; t < 12; ++t) {
    const Vec3 throw_velocity(ux(rng), uy(rng), uw(rng));
    Sim s;
    s.world.contact.model = ContactModel::kPeg;
    s.world.contact.peg = relaxed(true);
    // The enumeration oracle solves the paper's velocity form (ψ/h rows, PEG paper eqs. 39–40).
    s.world.contact.stabilisation = Stabilisation::kVelocity;
    s.add(box(-0.1, -1, 0.1, 0), true);
    s.add(box(0.02, 0.01, 0.22, 0.21), false);
    s.state.v_of(1) = throw_velocity;
    for (int k = 0; k < 60; ++k) {
      const State start = s.state;
      const StepReport r = s.step(h);
      ASSERT_EQ(r.status, StepStatus::kOk) << "throw " << t << " step " << k;
      switches += r.primary_switches;
      if (r.unilateral + r.intercontact == 0) continue;
      ++checked;
      const auto all = enumerate_general_form(s.world, start, s.ws.constraints, h, 1);
      EXPECT_GE(find_motion(all, s.v(1)), 0) << "throw " << t << " step " << k;
    }
  }
  EXPECT_GT(checked, 0);
  EXPECT_GT(switches, 0);
  RecordProperty("switches", switches);
  RecordProperty("steps_checked", checked);
}

// 3D has no general form: the option is still rejected there.
TEST(PegGeneralForm, RejectedIn3d) {
  PegOptions o;
  o.general_form = true;
  ConstraintSet set;
  set.contacts.push_back(Contact{});
  EXPECT_THROW(build_peg_constraints_3d({}, {}, {}, o, set), InputError);
}

}  // namespace
}  // namespace exactsim
