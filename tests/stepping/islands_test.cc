// Islands (docs/stepping.md "Islands"): the step's MLCP is block-diagonal over groups of bodies
// linked by constraints; solving each group alone must give the step of the whole MLCP.
#include <gtest/gtest.h>

#include "exactsim/stepping/islands.h"
#include "stepping/planar_sim.h"

namespace exactsim {
namespace {

using planar_test::box;
using planar_test::Sim;

// A floor, two two-box stacks far apart and a lone box: three islands, since the static floor
// links nothing. The boxes start 1 mm apart, inside the contact distance.
Sim three_islands(Real friction, bool islands) {
  Sim s;
  s.world.contact.model = ContactModel::kPeg;
  s.world.contact.friction = friction;
  s.world.stepping.islands = islands;
  s.add(box(-6, -1, 6, 0), true);
  for (Real x : {-3.0, 3.0}) {
    s.add(box(x, 0.001, x + 0.4, 0.201), false);
    s.add(box(x + 0.1, 0.202, x + 0.3, 0.302), false);
  }
  s.add(box(0, 0.001, 0.3, 0.101), false);
  return s;
}

TEST(Islands, StaticBodiesLinkNothing) {
  Sim s = three_islands(0.3, true);
  StepReport r;
  for (int k = 0; k < 100; ++k) ASSERT_EQ((r = s.step(0.005)).status, StepStatus::kOk);
  EXPECT_EQ(r.islands, 3);
  EXPECT_EQ(r.active_bodies, 5);
  EXPECT_LT(r.largest_island_lcp, r.lcp_size);
  // At rest after 0.5 s, every floor contact carries weight, in all three islands.
  int loaded = 0;
  const std::vector<ContactResult> contacts = s.contacts();
  for (int j : s.ws.constraints.unilateral) {
    const ContactResult& c = contacts[j];
    if (c.body_a == 0 || c.body_b == 0) {
      EXPECT_GT(c.normal_impulse, 0) << "floor contact " << j;
      ++loaded;
    }
  }
  EXPECT_GE(loaded, 6);
}

// An I constraint joins the bodies of all its contacts; U constraints chain bodies.
TEST(Islands, PartitionFollowsTheConstraintGraph) {
  World world;
  world.bodies.resize(5);
  world.bodies[0].is_static = true;
  ConstraintSet set;
  auto contact = [&](int a, int b) {
    Contact c;
    c.body_a = a;
    c.body_b = b;
    set.contacts.push_back(c);
    return static_cast<int>(set.contacts.size()) - 1;
  };
  set.unilateral = {contact(0, 1), contact(0, 2), contact(3, 0)};  // 1, 2, 3 alone on the floor
  IntercontactConstraint ic;
  ic.primary = contact(1, 0);
  ic.first_secondary = 0;
  ic.secondary_count = 1;
  set.secondaries = {contact(4, 3)};  // I joins 1 with 3 and 4
  set.intercontacts = {ic};
  IslandPartition p;
  partition_islands(world, set, true, p);
  ASSERT_EQ(p.count, 2);
  EXPECT_EQ(p.u_island, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(p.i_island, (std::vector<int>{0}));
  ConstraintSet island;
  std::vector<int> contact_of, local(set.contacts.size(), -1);
  extract_island(set, p, 0, island, contact_of, local);
  EXPECT_EQ(contact_of, (std::vector<int>{0, 2, 3, 4}));
  EXPECT_EQ(island.unilateral, (std::vector<int>{0, 1}));
  ASSERT_EQ(island.intercontacts.size(), 1u);
  EXPECT_EQ(island.intercontacts[0].primary, 2);
  EXPECT_EQ(island.secondaries, (std::vector<int>{3}));
  EXPECT_EQ(local, std::vector<int>(set.contacts.size(), -1));
  partition_islands(world, set, false, p);
  EXPECT_EQ(p.count, 1);
}

// Frictionless, ν⁺ is unique (the projection of the free velocity onto the feasible cone), so
// the islands' steps and the one-MLCP step agree to round-off over a whole settling run.
TEST(Islands, FrictionlessStepEqualsTheOneMlcpStep) {
  Sim split = three_islands(0.0, true), whole = three_islands(0.0, false);
  for (int k = 0; k < 200; ++k) {
    const StepReport a = split.step(0.005), b = whole.step(0.005);
    ASSERT_EQ(a.status, StepStatus::kOk) << "step " << k;
    ASSERT_EQ(b.status, StepStatus::kOk) << "step " << k;
    ASSERT_EQ(b.islands, b.solver_called ? 1 : 0);
    ASSERT_LE((split.state.v - whole.state.v).lpNorm<Eigen::Infinity>(), 1e-9) << "step " << k;
    ASSERT_LE((split.state.q - whole.state.q).lpNorm<Eigen::Infinity>(), 1e-9) << "step " << k;
  }
}

// A scene that is one island steps bit for bit as the one MLCP (same rows, same order).
TEST(Islands, OneIslandIsBitIdentical) {
  auto stack = [](bool islands) {
    Sim s;
    s.world.contact.model = ContactModel::kPeg;
    s.world.contact.friction = 0.5;
    s.world.stepping.islands = islands;
    s.add(box(-2, -1, 2, 0), true);
    s.add(box(0, 0.001, 0.4, 0.201), false, Vec2(0.3, 0));
    s.add(box(0.05, 0.202, 0.35, 0.352), false);
    return s;
  };
  Sim a = stack(true), b = stack(false);
  for (int k = 0; k < 200; ++k) {
    const StepReport ra = a.step(0.005), rb = b.step(0.005);
    ASSERT_EQ(ra.status, StepStatus::kOk) << "step " << k;
    ASSERT_EQ(ra.islands, ra.solver_called ? 1 : 0);
    ASSERT_EQ(ra.solver.pivots, rb.solver.pivots) << "step " << k;
    ASSERT_TRUE(a.state.q == b.state.q && a.state.v == b.state.v) << "step " << k;
  }
}

}  // namespace
}  // namespace exactsim
