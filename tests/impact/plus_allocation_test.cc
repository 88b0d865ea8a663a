// The interval loop reuses its scratch (style: no allocation in hot paths): the heap calls of an
// impact do not depend on how many intervals it takes. malloc is interposed to count calls;
// skipped under sanitizers, which own malloc.
#include <gtest/gtest.h>

#include "exactsim/impact/plus.h"

#include "malloc_counter.h"

namespace exactsim {
namespace {

#if EXACTSIM_COUNT_MALLOC
// One point of a free body below and beside its centre of mass, sliding and approaching: the
// slip direction turns during the impact, so θ_max sets the number of intervals.
ImpactProblem turning_slip(Real theta_max) {
  const Vec3 r(0.3, -0.2, -0.5);
  MatX G(3, 6);
  for (int d = 0; d < 3; ++d) {
    G.block<1, 3>(d, 0) = Vec3::Unit(d).transpose();
    G.block<1, 3>(d, 3) = r.cross(Vec3::Unit(d)).transpose();
  }
  VecX minv(6);
  minv << 0.5, 0.5, 0.5, 6.0, 7.5, 11.5;
  Vec6 u;
  u << -5.0, 0.0, -5.74, 0.0, 0.0, 0.0;
  ImpactProblem p;
  p.contacts.push_back({0.325, {0.4, 0.01, 0.1}});
  p.delassus = G * minv.asDiagonal() * G.transpose();
  p.velocity = G * u;
  p.options.theta_max = theta_max;
  p.options.record_log = false;
  return p;
}

long allocations(const ImpactProblem& p, PlusWorkspace& ws, ImpactResult& result) {
  solve_plus(p, ws, result);  // warm-up
  const long before = malloc_calls;
  solve_plus(p, ws, result);
  return malloc_calls - before;
}
#endif

TEST(PlusAllocation, HeapCallsDoNotGrowWithTheIntervals) {
#if EXACTSIM_COUNT_MALLOC
  const ImpactProblem fine = turning_slip(0.01), coarse = turning_slip(0.25);
  PlusWorkspace ws;
  ImpactResult rf, rc;
  const long af = allocations(fine, ws, rf);
  const long ac = allocations(coarse, ws, rc);
  ASSERT_GT(rf.intervals, 5 * rc.intervals) << rf.intervals << " vs " << rc.intervals;
  EXPECT_EQ(af, ac) << rf.intervals << " intervals: " << af << " calls; " << rc.intervals
                    << " intervals: " << ac << " calls";
#else
  GTEST_SKIP() << "malloc is owned by the sanitizer";
#endif
}

}  // namespace
}  // namespace exactsim
