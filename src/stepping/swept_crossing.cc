#include "exactsim/stepping/swept_crossing.h"

#include <algorithm>
#include <cmath>

#include "detect.h"
#include "exactsim/geometry/pose.h"
#include "exactsim/geometry/pose3.h"
#include "exactsim/metrics/collider_pair.h"
#include "exactsim/stepping/step.h"

namespace exactsim {
namespace {

// Samples of one pair at most: beyond it (a relative motion of more than 5e4 ε in one step) the
// samples are spread over the interval, further apart than ε/2.
constexpr long kMaxSamples = 100000;
// A crossing is deeper than ε and than the pair's depth at the start of the step by this share
// of ε (as a new deep penetration for step splitting, adaptive_step.cc).
constexpr Real kDeeperThanStart = 0.01;

SweptMotion motion_of(const World& world, const State& state, const VecX& start_q, int b) {
  SweptMotion m;
  m.radius = bounding_radius(world, b);
  const int nq = config_size(world.dimension);
  const auto q0 = start_q.segment(static_cast<Eigen::Index>(b) * nq, nq);
  const auto q1 = state.q_of(b);
  if (world.dimension == 2) {
    m.x0 = Vec3(q0[0], q0[1], 0);
    m.dx = Vec3(q1[0] - q0[0], q1[1] - q0[1], 0);
    m.theta0 = q0[2];
    m.dtheta = q1[2] - q0[2];
    m.angle = std::abs(m.dtheta);
    return m;
  }
  m.x0 = q0.head<3>();
  m.dx = q1.head<3>() - q0.head<3>();
  m.q0 = Quat(q0[3], q0[4], q0[5], q0[6]).normalized();
  m.q1 = Quat(q1[3], q1[4], q1[5], q1[6]).normalized();
  if (m.q0.dot(m.q1) < 0) m.q1.coeffs() = -m.q1.coeffs();
  m.angle = 2 * std::acos(std::clamp<Real>(m.q0.dot(m.q1), -1, 1));
  return m;
}

// The interval of step fractions f in [0, 1] where the bounding spheres of a and b overlap
// (|Δ0 + f dΔ| <= r_a + r_b); false when there is none.
bool spheres_meet(const SweptMotion& a, const SweptMotion& b, Real& lo, Real& hi) {
  const Vec3 d0 = b.x0 - a.x0, dd = b.dx - a.dx;
  const Real r = a.radius + b.radius;
  const Real qa = dd.squaredNorm(), qb = 2 * d0.dot(dd), qc = d0.squaredNorm() - r * r;
  if (qa <= 0) {
    if (qc > 0) return false;
    lo = 0, hi = 1;
    return true;
  }
  const Real disc = qb * qb - 4 * qa * qc;
  if (disc < 0) return false;
  const Real s = std::sqrt(disc);
  lo = std::max<Real>(0, (-qb - s) / (2 * qa));
  hi = std::min<Real>(1, (-qb + s) / (2 * qa));
  return lo <= hi;
}

class CrossingFinder {
 public:
  CrossingFinder(const World& world, const State& state, const VecX& start_q, Real h, Real eps,
                 Workspace& ws)
      : world_(world),
        state_(state),
        start_q_(start_q),
        h_(h),
        eps_(eps),
        ws_(ws),
        s_(ws.crossing) {}

  void run(StepReport& report) {
    const int n = world_.body_count();
    s_.motions.resize(n);
    s_.fast.assign(n, 0);
    bool any_fast = false;
    for (int b = 0; b < n; ++b) {
      if (!state_.present[b]) continue;
      s_.motions[b] = motion_of(world_, state_, start_q_, b);
      s_.fast[b] = !world_.bodies[b].is_static && s_.motions[b].reach() > 0.5 * eps_;
      any_fast = any_fast || s_.fast[b];
    }
    if (!any_fast) return;
    const int colliders = world_.collider_count();
    if (world_.dimension == 2)
      s_.boxes2.resize(colliders);
    else
      s_.boxes3.resize(colliders);
    for (int c = 0; c < colliders; ++c)
      if (ws_.collider_present[c]) swept_box(c);
    s_.pairs.clear();  // (sweep_and_prune appends)
    if (world_.dimension == 2)
      sweep_and_prune(s_.boxes2, ws_.is_static, ws_.collider_present, s_.pairs, s_.broad_phase);
    else
      sweep_and_prune(s_.boxes3, ws_.is_static, ws_.collider_present, s_.pairs, s_.broad_phase);
    drop_pairs_that_never_collide(world_, s_.pairs);
    for (const BodyPair& p : s_.pairs)
      if (s_.fast[world_.collider_body(p.a)] || s_.fast[world_.collider_body(p.b)])
        check_pair(p.a, p.b, report);
  }

 private:
  // Collider c's end box grown by its body's reach: every point of the motion lies within reach
  // of its end position.
  void swept_box(int c) {
    const Real grow = s_.motions[world_.collider_body(c)].reach();
    if (world_.dimension == 2)
      s_.boxes2[c] = ws_.polygons[c].aabb.inflated(grow);
    else
      s_.boxes3[c] = ws_.polyhedra[c].aabb.inflated(grow);
  }

  // Collider c placed at fraction f of its body's motion into slot k (0 or 1) of the scratch;
  // static bodies are read from their placement.
  void place_at(int c, Real f, int k) {
    const SweptMotion& m = s_.motions[world_.collider_body(c)];
    if (world_.dimension == 2) {
      const ConvexPolygon& shape = world_.polygons[world_.collider_shape(c)];
      const Vec3 x = m.x0 + f * m.dx;
      place(shape, Pose2{Vec2(x.x(), x.y()), m.theta0 + f * m.dtheta}, s_.polygons[k]);
    } else {
      s_.colliders[k] =
          place_collider(world_, c, Pose3{m.x0 + f * m.dx, m.q0.slerp(f, m.q1)}, s_.polyhedra[k]);
    }
  }

  Real depth_at(int a, int b, Real f) {
    place_at(a, f, 0);
    place_at(b, f, 1);
    if (world_.dimension == 2) return penetration_depth(s_.polygons[0], s_.polygons[1]).depth;
    return penetration_depth(s_.colliders[0], s_.colliders[1], ws_.penetration).depth;
  }

  // Colliders a and b; the crossing is reported for their bodies.
  void check_pair(int a, int b, StepReport& report) {
    const SweptMotion& ma = s_.motions[world_.collider_body(a)];
    const SweptMotion& mb = s_.motions[world_.collider_body(b)];
    const Real relative = (ma.dx - mb.dx).norm() + ma.angle * ma.radius + mb.angle * mb.radius;
    if (!(relative > 0.5 * eps_)) return;
    Real lo = 0, hi = 1;
    if (!spheres_meet(ma, mb, lo, hi)) return;
    const long samples = std::min<long>(
        kMaxSamples, static_cast<long>(std::ceil((hi - lo) * relative / (0.5 * eps_))) + 1);
    Real start_depth = -1;  // computed when first needed
    for (long k = 0; k < samples; ++k) {
      const Real f = samples == 1 ? lo : lo + (hi - lo) * static_cast<Real>(k) / (samples - 1);
      if (f <= 0 || f >= 1) continue;  // the ends are the watchdog's
      const Real depth = depth_at(a, b, f);
      if (!(depth > eps_)) continue;
      if (start_depth < 0) start_depth = depth_at(a, b, 0);
      if (depth > start_depth + kDeeperThanStart * eps_) {
        report.crossings.push_back({std::min(world_.collider_body(a), world_.collider_body(b)),
                                    std::max(world_.collider_body(a), world_.collider_body(b)),
                                    state_.time - (1 - f) * h_, depth});
        return;
      }
    }
  }

  const World& world_;
  const State& state_;
  const VecX& start_q_;
  Real h_, eps_;
  Workspace& ws_;
  CrossingScratch& s_;
};

}  // namespace

void find_crossings(const World& world, const State& state, const VecX& start_q, Real h, Real eps,
                    Workspace& ws, StepReport& report) {
  report.crossings.clear();
  CrossingFinder(world, state, start_q, h, eps, ws).run(report);
}

}  // namespace exactsim
