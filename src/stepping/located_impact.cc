// Located PLUS impacts inside the time step (docs/impacts.md).
#include "exactsim/stepping/located_impact.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "contact/pair_coefficient.h"
#include "detect.h"
#include "exactsim/collision/closest_points.h"
#include "exactsim/collision/contact_jacobian.h"
#include "exactsim/collision/edge_edge.h"
#include "exactsim/collision/polyhedron_contacts.h"
#include "exactsim/collision/sphere_contact.h"
#include "exactsim/collision/vertex_edge.h"
#include "exactsim/collision/vertex_face.h"
#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/geometry/pose.h"
#include "exactsim/geometry/pose3.h"
#include "exactsim/impact/plus.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/friction_directions.h"
#include "exactsim/stepping/islands.h"
#include "exactsim/stepping/step.h"
#include "exactsim/stepping/stewart_trinkle.h"

namespace exactsim {
namespace {

// The location's tolerance on the gap at the returned time, as a share of impact.proximity: the
// root is refined until 0 ≤ ψ(t) ≤ this (1e-12 m at the nominal proximity), far inside the band
// in which contacts share an impact.
constexpr Real kLocationShare = 1e-6;
constexpr int kMaxLocationIterations = 200;
// Round-off allowance of an impact's kinetic energy change, relative to the kinetic energy of its
// bodies (docs/impacts.md "The certificate").
constexpr Real kEnergyRoundOff = 1e-9;
// Round-off allowance of the friction cone, relative to the larger of the contact's normal
// impulse and the impact's largest impulse component (its own scale: a contact that ends with no
// normal impulse keeps the round-off of the others' in its friction impulse).
constexpr Real kConeRoundOff = 1e-9;
// A proximal contact approaching slower than this share of the capture speed observes PLUS's
// rounds (docs/impacts.md "The step", item 3): it is persistent contact, whose velocities carry
// the step's stabilisation (ψ/h, φ/τ: 1.8e-7 m/s on a row of pinned bobs at rest), not an impact.
// As Simbody (observers above −0.1 consTol, capture speed 2 consTol).
constexpr Real kObserveShare = 0.05;

// The joint groups of `state` (ImpactScratch::joint_group): union–find over the present joints
// between dynamic bodies; a body joined only to the world or to a static or kinematic body is a
// group of its own.
void find_joint_groups(const World& world, const State& state, ImpactScratch& s) {
  const int nb = world.body_count();
  s.joint_parent.resize(nb);
  std::iota(s.joint_parent.begin(), s.joint_parent.end(), 0);
  s.joint_group.assign(nb, -1);
  auto dynamic = [&](int b) { return b != kWorldBody && !world.bodies[b].is_static; };
  for (const Joint& j : world.joints) {
    if (!joint_present(j, state)) continue;
    for (const int b : {j.body_a, j.body_b})
      if (dynamic(b)) s.joint_group[b] = b;
    if (dynamic(j.body_a) && dynamic(j.body_b))
      s.joint_parent[find_root(s.joint_parent, j.body_a)] = find_root(s.joint_parent, j.body_b);
  }
  for (int b = 0; b < nb; ++b)
    if (s.joint_group[b] >= 0) s.joint_group[b] = find_root(s.joint_parent, b);
}

// Whether joint j acts on the bodies with a velocity index in `dof` (add_joint_rows' joints).
bool joint_acts(const Joint& j, const State& state, const std::vector<int>& dof) {
  auto in = [&](int b) { return b != kWorldBody && dof[b] >= 0; };
  return joint_present(j, state) && (in(j.body_a) || in(j.body_b));
}

// Appends to J (from row `first` on) the rows of every present joint with a body that has a
// velocity index in `dof`, and to `rate` their constant terms: φ/τ (τ = 0: none) plus the
// kinematic bodies' share of the row's rate. Returns the number of rows.
int add_joint_rows(const World& world, const State& state, const std::vector<int>& dof, Real tau,
                   int first, MatX& jacobian, VecX& rate, ImpactScratch& s) {
  const int nv = velocity_size(world.dimension);
  auto in = [&](int b) { return b != kWorldBody && dof[b] >= 0; };
  auto kinematic = [&](int b) { return b != kWorldBody && world.bodies[b].kinematic; };
  int rows = 0;
  for (const Joint& j : world.joints)
    if (joint_acts(j, state, dof)) rows += joint_row_count(j, world.dimension);
  jacobian.conservativeResize(first + rows, Eigen::NoChange);
  jacobian.bottomRows(rows).setZero();
  rate.conservativeResize(first + rows);
  int row = first;
  for (const Joint& j : world.joints) {
    if (!joint_acts(j, state, dof)) continue;
    s.joint_rows.clear();
    joint_rows(j, state, s.joint_rows);
    for (const JointRow& jr : s.joint_rows) {
      rate[row] = tau > 0 ? jr.error / tau : 0;
      for (const auto& [b, g] : {std::pair{j.body_a, jr.g_a}, std::pair{j.body_b, jr.g_b}}) {
        if (in(b)) jacobian.block(row, dof[b], 1, nv) += g.head(nv).transpose();
        if (kinematic(b)) rate[row] += g.head(nv).dot(state.v_of(b));
      }
      ++row;
    }
  }
  return rows;
}

// Adds the impulses of add_joint_rows' rows (their multipliers `lambda`, in its order) to the
// joints' impulses of the step.
void add_impact_joint_impulses(const World& world, const State& state, const std::vector<int>& dof,
                               const Eigen::Ref<const VecX>& lambda, ImpactScratch& s,
                               std::vector<JointImpulse>& out) {
  Eigen::Index row = 0;
  for (std::size_t j = 0; j < world.joints.size(); ++j) {
    if (!joint_acts(world.joints[j], state, dof)) continue;
    s.joint_rows.clear();
    joint_rows(world.joints[j], state, s.joint_rows);
    const auto n = static_cast<Eigen::Index>(s.joint_rows.size());
    add_joint_impulse(world.joints[j], state, s.joint_rows, lambda.segment(row, n), out[j]);
    row += n;
  }
}

// The joint group `root` of `moved` set to its motion from `start` over t: ν = ν₀ + M⁻¹(tF + Jᵀλ)
// with Jν + φ/τ + (kinematic share) = 0, λ of minimum norm (a singular J W Jᵀ when rows are
// redundant), then q ← q + tΓν: what a step of length t without contact impulses gives
// (docs/joints.md "Located impacts").
void move_joint_group(const World& world, const State& start, State& moved, int root, Real t,
                      ImpactScratch& s) {
  const int nv = velocity_size(world.dimension);
  const int nb = world.body_count();
  s.group_dof.assign(nb, -1);
  int dofs = 0;
  for (int b = 0; b < nb; ++b)
    if (s.joint_group[b] == root) {
      s.group_dof[b] = dofs;
      dofs += nv;
    }
  s.group_velocity.resize(dofs);
  for (int b = 0; b < nb; ++b)
    if (const int d = s.group_dof[b]; d >= 0) {
      const Body& body = world.bodies[b];
      s.group_velocity.segment(d, nv) =
          start.v_of(b) +
          inverse_mass_block(body, start, b) * external_impulse(body, start, b, t, world.gravity);
    }
  s.group_jacobian.resize(0, dofs);
  s.group_rate.resize(0);
  const int rows = add_joint_rows(world, start, s.group_dof, std::max(t, s.joint_time), 0,
                                  s.group_jacobian, s.group_rate, s);
  s.group_w_jt.resize(dofs, rows);
  for (int b = 0; b < nb; ++b)
    if (const int d = s.group_dof[b]; d >= 0)
      s.group_w_jt.middleRows(d, nv) = inverse_mass_block(world.bodies[b], start, b) *
                                       s.group_jacobian.middleCols(d, nv).transpose();
  s.group_delassus.noalias() = s.group_jacobian * s.group_w_jt;
  s.group_rate.noalias() += s.group_jacobian * s.group_velocity;
  s.group_solve.compute(s.group_delassus);
  s.group_velocity.noalias() -= s.group_w_jt * s.group_solve.solve(s.group_rate);
  for (int b = 0; b < nb; ++b)
    if (const int d = s.group_dof[b]; d >= 0) {
      moved.q_of(b) = start.q_of(b);
      moved.v_of(b) = s.group_velocity.segment(d, nv);
      integrate_position(moved, b, t, world.stepping.rotation);
    }
}

// Body b of `moved` set to its free flight from `start` over t, as a step moves it: along the
// exact parabola or semi-implicitly; a joined body with its joint group.
void move_body(const World& world, const State& start, State& moved, int b, Real t, bool exact,
               ImpactScratch& s) {
  if (s.joint_group[b] >= 0) {
    move_joint_group(world, start, moved, s.joint_group[b], t, s);
    return;
  }
  moved.q_of(b) = start.q_of(b);
  moved.v_of(b) = start.v_of(b);
  const Body& body = world.bodies[b];
  if (is_fixed(body)) return;
  integrate_flight(body, moved, b, t, world.gravity, world.stepping.rotation, exact);
}

// −v_N of a contact record (body indices in body_a/body_b) in state s; a fixed body is at rest.
Real closing_speed(const World& world, const State& s, const Contact& c) {
  Vec6 ga, gb;
  contact_jacobian(c, world.dimension, body_position(s, c.body_a), body_position(s, c.body_b), ga,
                   gb);
  const int nv = velocity_size(world.dimension);
  Real v = 0;
  if (!is_fixed(world.bodies[c.body_a])) v += ga.head(nv).dot(s.v_of(c.body_a));
  if (!is_fixed(world.bodies[c.body_b])) v += gb.head(nv).dot(s.v_of(c.body_b));
  return -v;
}

// Two unit tangents orthogonal to n̂ (3D); in 2D the in-plane tangent and ẑ, whose rows vanish.
void tangents(const Vec3& n, int dimension, Vec3& t1, Vec3& t2) {
  if (dimension == 2) {
    t1 = Vec3(-n.y(), n.x(), 0);
    t2 = Vec3::UnitZ();
    return;
  }
  t1 = any_tangent(n);
  t2 = n.cross(t1);
}

}  // namespace

Real pair_restitution(const World& world, int a, int b) {
  const Real scene = world.contact.impact.restitution.e_min;
  const Real ea = std::isnan(world.bodies[a].restitution) ? scene : world.bodies[a].restitution;
  const Real eb = std::isnan(world.bodies[b].restitution) ? scene : world.bodies[b].restitution;
  return pair_coefficient(ea, eb);
}

RestitutionLaw restitution_law(const Body& body, const RestitutionLaw& scene) {
  RestitutionLaw law = scene;
  if (!std::isnan(body.restitution)) law.e_min = body.restitution;
  if (!std::isnan(body.capture_speed)) law.v_capture = body.capture_speed;
  if (!std::isnan(body.plastic_speed)) law.v_plastic = body.plastic_speed;
  return law;
}

RestitutionLaw body_restitution_law(const World& world, int b) {
  return restitution_law(world.bodies[b], world.contact.impact.restitution);
}

RestitutionLaw pair_restitution_law(const World& world, int a, int b) {
  const RestitutionLaw la = body_restitution_law(world, a), lb = body_restitution_law(world, b);
  RestitutionLaw law;
  law.e_min = pair_restitution(world, a, b);
  law.v_capture = std::max(la.v_capture, lb.v_capture);
  law.v_plastic = std::max(la.v_plastic, lb.v_plastic);
  return law;
}

bool contact_at(const World& world, const State& state, const Contact& contact, Real t, bool exact,
                ImpactScratch& scratch, Contact& out) {
  const int ca = contact.collider_a(), cb = contact.collider_b();
  const int ba = world.collider_body(ca), bb = world.collider_body(cb);
  State& moved = scratch.moved;
  move_body(world, state, moved, ba, t, exact, scratch);
  if (scratch.joint_group[bb] < 0 || scratch.joint_group[bb] != scratch.joint_group[ba])
    move_body(world, state, moved, bb, t, exact, scratch);
  if (world.dimension == 2) {
    scratch.polygons.resize(2);
    WorldPolygon& pa = scratch.polygons[0];
    WorldPolygon& pb = scratch.polygons[1];
    const auto qa = moved.q_of(ba);
    const auto qb = moved.q_of(bb);
    place(world.polygons[world.collider_shape(ca)], Pose2{Vec2(qa[0], qa[1]), qa[2]}, pa);
    place(world.polygons[world.collider_shape(cb)], Pose2{Vec2(qb[0], qb[1]), qb[2]}, pb);
    const int ne = static_cast<int>(pb.vertices.size());
    const Vec2& v = pa.vertices[contact.feature_a];
    const Vec2& tail = pb.vertices[contact.feature_b];
    const Vec2& head = pb.vertices[(contact.feature_b + 1) % ne];
    out = vertex_edge_contact(ca, contact.feature_a, v, cb, contact.feature_b, tail,
                              pb.edge_normals[contact.feature_b],
                              point_segment_distance(v, tail, head));
  } else {
    scratch.polyhedra.resize(2);
    WorldPolyhedron& pa = scratch.polyhedra[0];
    WorldPolyhedron& pb = scratch.polyhedra[1];
    if (contact.type == ContactType::kSphere) {  // the closest points at the moved poses
      auto collider = [&](int c, int b, WorldPolyhedron& placed) {
        return place_collider(world, c, Pose3{body_position(moved, b), body_orientation(moved, b)},
                              placed);
      };
      scratch.sphere_contacts.clear();
      sphere_contact(collider(ca, ba, pa), ca, collider(cb, bb, pb), cb,
                     std::numeric_limits<Real>::infinity(), scratch.sphere_contacts);
      if (scratch.sphere_contacts.empty()) return false;
      out = scratch.sphere_contacts[0];
      out.part_a = out.body_a;
      out.part_b = out.body_b;
      out.body_a = world.collider_body(out.part_a);
      out.body_b = world.collider_body(out.part_b);
      return true;
    }
    const ConvexPolyhedron& sa = world.polyhedra[world.collider_shape(ca)];
    const ConvexPolyhedron& sb = world.polyhedra[world.collider_shape(cb)];
    place(sa, Pose3{body_position(moved, ba), body_orientation(moved, ba)}, pa);
    place(sb, Pose3{body_position(moved, bb), body_orientation(moved, bb)}, pb);
    if (contact.type == ContactType::kVertexFace) {
      out = vertex_face_contact(pa.vertices[contact.feature_a], ca, contact.feature_a, sb, pb, cb,
                                contact.feature_b);
    } else if (!edge_edge_contact(sa, pa, ca, contact.feature_a, sb, pb, cb, contact.feature_b,
                                  PolyhedronContactOptions{}.parallel_sine, out)) {
      return false;
    }
  }
  out.part_a = ca;
  out.part_b = cb;
  out.body_a = ba;
  out.body_b = bb;
  return true;
}

namespace {

// The earliest impact among `contacts` on [0, T], each pair followed as scratch.flying says.
LocatedImpact earliest_impact(const World& world, const State& state,
                              const std::vector<Contact>& contacts, Real T,
                              ImpactScratch& scratch) {
  const ImpactStepOptions& o = world.contact.impact;
  const Real tolerance = kLocationShare * o.proximity;
  LocatedImpact best;
  Contact at;
  for (const Contact& c : contacts) {
    const int ba = world.collider_body(c.collider_a()), bb = world.collider_body(c.collider_b());
    if (world.bodies[ba].is_static && world.bodies[bb].is_static) continue;  // no dynamic body
    const bool exact = scratch.flying[ba] && scratch.flying[bb];
    const Real horizon = best.found ? best.time : T;
    Real t = 0;
    if (c.gap > o.proximity) {
      // Bracket [0, horizon]: an impact later than the best one found cannot be the first.
      if (!contact_at(world, state, c, horizon, exact, scratch, at) || at.gap > 0) continue;
      Real lo = 0, hi = horizon, g_lo = c.gap, g_hi = at.gap;
      int side = 0;  // Illinois: halve the value of an end kept twice
      for (int it = 0; it < kMaxLocationIterations && g_lo > tolerance; ++it) {
        Real mid = lo + (hi - lo) * g_lo / (g_lo - g_hi);
        if (!(mid > lo && mid < hi)) mid = 0.5 * (lo + hi);
        if (!contact_at(world, state, c, mid, exact, scratch, at)) break;
        if (at.gap > 0) {
          lo = mid;
          g_lo = at.gap;
          if (side == -1) g_hi *= 0.5;
          side = -1;
        } else {
          hi = mid;
          g_hi = at.gap;
          if (side == 1) g_lo *= 0.5;
          side = 1;
        }
        if (hi - lo <= 1e-15 * T) break;
      }
      t = lo;
    } else if (c.gap < -o.proximity) {
      continue;  // overlapping beyond the band: persistent contact and the projection's
    }
    if (!contact_at(world, state, c, t, exact, scratch, at)) continue;
    // The features must touch there, not just their planes or lines.
    if (at.distance > o.proximity || std::abs(at.gap) > o.proximity) continue;
    const Real speed = closing_speed(world, scratch.moved, at);
    if (speed <= pair_restitution_law(world, ba, bb).v_capture) continue;
    if (!best.found || t < best.time) {
      best.found = true;
      best.time = t;
      best.exact = exact;
      best.contact = c;
    }
  }
  return best;
}

// Whether a contact of the located pair other than its impact has crossed (ψ < −proximity with
// its features over each other) at the impact's time along the exact parabola.
bool pair_crossed_by(const World& world, const State& state, const std::vector<Contact>& contacts,
                     const LocatedImpact& hit, ImpactScratch& scratch) {
  const Real proximity = world.contact.impact.proximity;
  const int a = world.collider_body(hit.contact.collider_a());
  const int b = world.collider_body(hit.contact.collider_b());
  Contact at;
  for (const Contact& c : contacts) {
    const int ca = world.collider_body(c.collider_a()), cb = world.collider_body(c.collider_b());
    if (!((ca == a && cb == b) || (ca == b && cb == a))) continue;
    if (!contact_at(world, state, c, hit.time, true, scratch, at)) continue;
    if (at.gap < -proximity && at.distance <= -at.gap + proximity) return true;
  }
  return false;
}

}  // namespace

LocatedImpact locate_first_impact(const World& world, const State& state,
                                  const std::vector<Contact>& contacts, Real T, Real joint_time,
                                  ImpactScratch& scratch) {
  const ImpactStepOptions& o = world.contact.impact;
  scratch.moved = state;
  scratch.joint_time = joint_time;
  find_joint_groups(world, state, scratch);
  // A body with a contact within the proximity (touching or overlapping) does not fly; a static or
  // kinematic body always does (its motion is prescribed: at rest, or at its constant velocity).
  scratch.flying.assign(world.body_count(), 1);
  for (const Contact& c : contacts)
    if (c.gap <= o.proximity)
      for (const int b : {world.collider_body(c.collider_a()), world.collider_body(c.collider_b())})
        scratch.flying[b] = world.bodies[b].is_static;
  for (int b = 0; b < world.body_count(); ++b)  // a joined body moves with its group
    if (scratch.joint_group[b] >= 0) scratch.flying[b] = 0;
  LocatedImpact best = earliest_impact(world, state, contacts, T, scratch);
  // A flying pair's part to its impact leaves the pair's contacts out: none of them may have
  // crossed by then (a slower feature pair that touched first). If one has, the pair is followed
  // semi-implicitly with its rows kept, and the search runs again.
  if (best.found && best.exact && pair_crossed_by(world, state, contacts, best, scratch)) {
    for (const int b : {world.collider_body(best.contact.collider_a()),
                        world.collider_body(best.contact.collider_b())})
      scratch.flying[b] = world.bodies[b].is_static;
    best = earliest_impact(world, state, contacts, T, scratch);
  }
  return best;
}

void leave_out_located_pair(const World& world, Workspace& ws) {
  const PartToImpact& p = ws.impact.to_impact;
  std::erase_if(ws.constraints.contacts, [&](const Contact& c) {
    const int a = world.collider_body(c.collider_a()), b = world.collider_body(c.collider_b());
    return (a == p.body_a && b == p.body_b) || (a == p.body_b && b == p.body_a);
  });
}

ImpactOutcome resolve_impact(const World& world, State& state, Workspace& ws,
                             const LocatedImpact& located, ImpactScratch& s, ImpactReport& out) {
  const ImpactStepOptions& o = world.contact.impact;
  const int dim = world.dimension;
  const int nv = velocity_size(dim);
  const int nb = world.body_count();
  // The proximal contacts at this pose: detection with ε = the impact's proximity, no motion.
  // The last step's contacts stay in ws.constraints (their impulses are in ws.contact_impulses).
  std::swap(ws.constraints.contacts, s.detected);
  place_bodies(world, state, 0, ws);
  detect_contacts(world, state, 0, o.proximity, ws);
  std::swap(ws.constraints.contacts, s.detected);
  map_contacts_to_bodies(world, s.detected);
  s.proximal.clear();
  for (const Contact& c : s.detected) {
    if (c.distance > o.proximity || std::abs(c.gap) > o.proximity) continue;
    s.proximal.push_back(c);
  }
  // The impact's bodies: those linked to the located pair through proximal contacts between
  // dynamic bodies (a static or kinematic body links nothing).
  s.component.resize(nb);
  std::iota(s.component.begin(), s.component.end(), 0);
  for (const Contact& c : s.proximal)
    if (!world.bodies[c.body_a].is_static && !world.bodies[c.body_b].is_static)
      s.component[find_root(s.component, c.body_a)] = find_root(s.component, c.body_b);
  for (int b = 0; b < nb; ++b)  // joined bodies take part together (their joint groups)
    if (s.joint_group[b] >= 0)
      s.component[find_root(s.component, b)] = find_root(s.component, s.joint_group[b]);
  const int ba = world.collider_body(located.contact.collider_a());
  const int bb = world.collider_body(located.contact.collider_b());
  const int root = find_root(s.component, world.bodies[ba].is_static ? bb : ba);
  auto in_impact = [&](int b) {
    return !world.bodies[b].is_static && find_root(s.component, b) == root;
  };
  std::erase_if(s.proximal,
                [&](const Contact& c) { return !in_impact(c.body_a) && !in_impact(c.body_b); });
  if (s.proximal.empty()) return ImpactOutcome::kNone;  // the pair moved apart in the sub-step

  s.body_dof.assign(nb, -1);
  int dofs = 0;
  for (int b = 0; b < nb; ++b)
    if (in_impact(b)) {
      s.body_dof[b] = dofs;
      dofs += nv;
    }
  const int m = static_cast<int>(s.proximal.size());
  s.jacobian.setZero(3 * m, dofs);
  // The rows' velocity from the kinematic bodies, which keep theirs through the impact.
  VecX kinematic_rate = VecX::Zero(3 * m);
  ImpactProblem& p = s.problem;
  p.contacts.resize(m);
  p.bilateral_rows = 0;
  for (int k = 0; k < m; ++k) {
    const Contact& c = s.proximal[k];
    Vec3 t1, t2;
    tangents(c.normal, dim, t1, t2);
    const Vec3 xa = body_position(state, c.body_a), xb = body_position(state, c.body_b);
    const Vec3 directions[3] = {t1, t2, c.normal};
    for (int r = 0; r < 3; ++r) {
      if (dim == 2 && r == 1) continue;  // out of the plane: no row
      Vec6 ga, gb;
      direction_jacobian(directions[r], c.point_a, c.point_b(), dim, xa, xb, ga, gb);
      if (s.body_dof[c.body_a] >= 0)
        s.jacobian.block(3 * k + r, s.body_dof[c.body_a], 1, nv) += ga.head(nv).transpose();
      if (s.body_dof[c.body_b] >= 0)
        s.jacobian.block(3 * k + r, s.body_dof[c.body_b], 1, nv) += gb.head(nv).transpose();
      if (world.bodies[c.body_a].kinematic)
        kinematic_rate[3 * k + r] += ga.head(nv).dot(state.v_of(c.body_a));
      if (world.bodies[c.body_b].kinematic)
        kinematic_rate[3 * k + r] += gb.head(nv).dot(state.v_of(c.body_b));
    }
    p.contacts[k].friction = pair_friction(world, c.body_a, c.body_b);
    p.contacts[k].restitution = pair_restitution_law(world, c.body_a, c.body_b);
  }
  // The joints' rows follow the contacts' as PLUS's bilateral rows, their velocity driven to zero.
  p.bilateral_rows =
      add_joint_rows(world, state, s.body_dof, 0, 3 * m, s.jacobian, kinematic_rate, s);
  const int rows = 3 * m + p.bilateral_rows;
  // A = G W Gᵀ with W = M⁻¹ block by block; the rows' velocity G ν.
  VecX nu = VecX::Zero(dofs);
  s.w_gt.resize(dofs, rows);
  Real kinetic_before = 0;
  for (int b = 0; b < nb; ++b) {
    const int d = s.body_dof[b];
    if (d < 0) continue;
    const BodyVector v = state.v_of(b);
    nu.segment(d, nv) = v;
    kinetic_before += 0.5 * v.dot(mass_block(world.bodies[b], state, b) * v);
    s.w_gt.middleRows(d, nv) =
        inverse_mass_block(world.bodies[b], state, b) * s.jacobian.middleCols(d, nv).transpose();
  }
  p.delassus = s.jacobian * s.w_gt;
  p.delassus = 0.5 * (p.delassus + p.delassus.transpose()).eval();
  p.velocity = s.jacobian * nu + kinematic_rate;
  p.options = o.plus;
  p.options.record_log = false;
  p.options.v_observe = std::max(p.options.v_observe, kObserveShare * o.restitution.v_capture);
  solve_plus(p, s.plus, s.result);

  const ImpactResult& r = s.result;
  if (!r.converged) {  // a budget ran out: the velocities stay, the step goes on inelastically
    ++out.fallbacks;
    if (out.fallback_reason.empty()) out.fallback_reason = r.stop_reason;
    return ImpactOutcome::kFallback;
  }
  const VecX dnu = s.w_gt * r.impulse;
  Real kinetic_after = 0;
  for (int b = 0; b < nb; ++b) {
    const int d = s.body_dof[b];
    if (d < 0) continue;
    state.v_of(b) += dnu.segment(d, nv);
    const BodyVector v = state.v_of(b);
    kinetic_after += 0.5 * v.dot(mass_block(world.bodies[b], state, b) * v);
  }
  ++out.count;
  out.contacts = std::max(out.contacts, m);
  out.rounds += r.rounds;
  out.intervals += r.intervals;
  const Real change = kinetic_after - kinetic_before;
  const Real allowance = kEnergyRoundOff * kinetic_before;
  // The kinematic bodies' work −Σ π_r u_r (u_r: row r's velocity from them, constant through the
  // impact): the impacts' own work on the relative velocities, ∫ πᵀ dv, is ≤ 0 (docs/impacts.md
  // "The certificate").
  const Real kinematic_work = -r.impulse.dot(kinematic_rate);
  out.energy_change += change;
  out.energy_tolerance += allowance;
  out.kinematic_work += kinematic_work;
  Real cone = 0;
  const Real scale = r.impulse.head(3 * m).cwiseAbs().maxCoeff();
  for (int k = 0; k < m; ++k) {
    const Real pn = r.impulse[3 * k + 2];
    const Real pt = std::hypot(r.impulse[3 * k], r.impulse[3 * k + 1]);
    cone = std::max(
        cone, pt - p.contacts[k].friction * pn - kConeRoundOff * std::max(std::abs(pn), scale));
  }
  out.cone_excess = std::max(out.cone_excess, cone);
  std::string failure;
  if (change > allowance + kinematic_work)
    failure = "kinetic energy rose by " + short_number(change) + " J through the impact (" +
              std::to_string(m) + " contacts, kinematic bodies' work " +
              short_number(kinematic_work) + " J, allowance " + short_number(allowance) + " J)";
  else if (cone > 0)
    failure = "a friction impulse left its cone by " + short_number(cone) + " N·s";
  if (failure.empty()) {
    if (p.bilateral_rows > 0 && ws.joint_impulses.size() == world.joints.size())
      add_impact_joint_impulses(world, state, s.body_dof, r.impulse.tail(p.bilateral_rows), s,
                                ws.joint_impulses);
    return ImpactOutcome::kResolved;
  }
  if (out.failure.empty()) out.failure = failure;
  for (int b = 0; b < nb; ++b)  // the impulse is not applied
    if (s.body_dof[b] >= 0) state.v_of(b) = nu.segment(s.body_dof[b], nv);
  return ImpactOutcome::kFailed;
}

}  // namespace exactsim
