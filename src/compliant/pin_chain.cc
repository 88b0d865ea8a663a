#include "exactsim/compliant/pin_chain.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "exactsim/compliant/hertz_hunt_crossley.h"
#include "exactsim/impact/plus.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using Mat2X = Eigen::Matrix<Real, 2, Eigen::Dynamic>;

Vec2 dir(Real phi) { return Vec2(std::sin(phi), -std::cos(phi)); }

int links(const PinChain& c) { return static_cast<int>(c.lengths.size()); }

VecX absolute_angles(const VecX& theta) {
  VecX phi(theta.size());
  Real sum = 0.0;
  for (int k = 0; k < theta.size(); ++k) phi(k) = (sum += theta(k));
  return phi;
}

// Velocity of pins 0…n given joint rates (pin k moves with links < k).
std::vector<Vec2> pin_velocities(const std::vector<Vec2>& pins, const VecX& rate) {
  std::vector<Vec2> v(pins.size(), Vec2::Zero());
  for (size_t k = 1; k < pins.size(); ++k)
    for (size_t m = 0; m < k; ++m) v[k] += rate(m) * perp(pins[k] - pins[m]);
  return v;
}

// Velocity and J̇u of point p on `link`.
void point_motion(const std::vector<Vec2>& pins, const std::vector<Vec2>& vpins, const VecX& rate,
                  int link, const Vec2& p, Vec2& v, Vec2& bias) {
  v.setZero();
  for (int k = 0; k <= link; ++k) v += rate(k) * perp(p - pins[k]);
  bias.setZero();
  for (int k = 0; k <= link; ++k) bias += rate(k) * perp(v - vpins[k]);
}

// Link-by-link rigid-body data for the maximal-coordinate form: mass, COM, inertia about COM.
struct LinkBody {
  Real mass = 0.0, inertia = 0.0;
  Vec2 com = Vec2::Zero();
};

std::vector<LinkBody> link_bodies(const PinChain& c, const VecX& theta) {
  std::vector<LinkBody> out(links(c));
  for (const ChainBody& b : c.bodies) {
    out[b.link].mass += b.mass;
    out[b.link].com += b.mass * chain_point(c, theta, b.link, b.along, b.across);
  }
  for (LinkBody& l : out) l.com /= l.mass;
  for (const ChainBody& b : c.bodies) {
    const Vec2 p = chain_point(c, theta, b.link, b.along, b.across);
    out[b.link].inertia += b.inertia + b.mass * (p - out[b.link].com).squaredNorm();
  }
  return out;
}

}  // namespace

void check_pin_chain(const PinChain& c) {
  const int n = links(c);
  if (n == 0) throw InputError("lengths: a chain needs at least one link");
  auto fail = [](const std::string& field, const std::string& why) {
    throw InputError(field + ": " + why);
  };
  for (int k = 0; k < n; ++k)
    if (!(c.lengths[k] > 0.0) || !std::isfinite(c.lengths[k]))
      fail("lengths[" + std::to_string(k) + "]", "must be > 0 m");
  std::vector<Real> mass(n, 0.0);
  for (size_t i = 0; i < c.bodies.size(); ++i) {
    const ChainBody& b = c.bodies[i];
    const std::string f = "bodies[" + std::to_string(i) + "]";
    if (b.link < 0 || b.link >= n) fail(f + ".link", "no such link");
    if (!(b.mass > 0.0) || !std::isfinite(b.mass)) fail(f + ".mass", "must be > 0 kg");
    if (!(b.inertia >= 0.0) || !std::isfinite(b.inertia)) fail(f + ".inertia", "must be >= 0");
    if (!std::isfinite(b.along) || !std::isfinite(b.across)) fail(f, "offsets must be finite");
    mass[b.link] += b.mass;
  }
  for (int k = 0; k < n; ++k)
    if (mass[k] == 0.0) fail("bodies", "link " + std::to_string(k) + " carries no mass");
  for (size_t i = 0; i < c.spheres.size(); ++i) {
    const ChainSphere& s = c.spheres[i];
    const std::string f = "spheres[" + std::to_string(i) + "]";
    if (s.link < 0 || s.link >= n) fail(f + ".link", "no such link");
    if (!(s.radius > 0.0) || !std::isfinite(s.radius)) fail(f + ".radius", "must be > 0 m");
    check_material(s.material, f + ".material");
  }
  check_material(c.ground, "ground");
  if (!std::isfinite(c.gravity)) fail("gravity", "must be finite");
  if (!(c.transition_speed > 0.0)) fail("transition_speed", "must be > 0 m/s");
}

std::vector<Vec2> pin_positions(const PinChain& c, const VecX& theta) {
  const VecX phi = absolute_angles(theta);
  std::vector<Vec2> pins(links(c) + 1);
  pins[0] = c.base;
  for (int k = 0; k < links(c); ++k) pins[k + 1] = pins[k] + c.lengths[k] * dir(phi(k));
  return pins;
}

Vec2 chain_point(const PinChain& c, const VecX& theta, int link, Real along, Real across) {
  const VecX phi = absolute_angles(theta);
  const std::vector<Vec2> pins = pin_positions(c, theta);
  const Vec2 s = dir(phi(link));
  return pins[link] + along * s + across * perp(s);
}

Mat2X chain_point_jacobian(const PinChain& c, const VecX& theta, int link, const Vec2& p) {
  const std::vector<Vec2> pins = pin_positions(c, theta);
  Mat2X J = Mat2X::Zero(2, links(c));
  for (int k = 0; k <= link; ++k) J.col(k) = perp(p - pins[k]);
  return J;
}

MatX chain_mass_matrix(const PinChain& c, const VecX& theta) {
  const int n = links(c);
  MatX M = MatX::Zero(n, n);
  for (const ChainBody& b : c.bodies) {
    const Vec2 p = chain_point(c, theta, b.link, b.along, b.across);
    const Mat2X J = chain_point_jacobian(c, theta, b.link, p);
    M += b.mass * J.transpose() * J;
    M.topLeftCorner(b.link + 1, b.link + 1).array() += b.inertia;  // φ̇ = Σ_{k≤link} θ̇_k
  }
  return M;
}

Real chain_kinetic_energy(const PinChain& c, const VecX& theta, const VecX& rate) {
  return 0.5 * rate.dot(chain_mass_matrix(c, theta) * rate);
}

Real chain_potential_energy(const PinChain& c, const VecX& theta) {
  Real v = 0.0;
  for (const ChainBody& b : c.bodies)
    v -= b.mass * c.gravity * chain_point(c, theta, b.link, b.along, b.across).y();
  return v;
}

Real chain_max_penetration(const PinChain& c, const VecX& theta) {
  Real best = -std::numeric_limits<Real>::infinity();
  for (const ChainSphere& s : c.spheres)
    best = std::max(best, s.radius - chain_point(c, theta, s.link, s.along, 0.0).y());
  return best;
}

OdeSystem pin_chain_system(const PinChain& chain, bool with_contact) {
  check_pin_chain(chain);
  const int n = links(chain);
  OdeSystem sys;
  sys.nq = n;
  sys.nu = n;
  sys.nz = 3;
  auto c = std::make_shared<PinChain>(chain);
  sys.derivative = [c, n, with_contact](Real, const VecX& y, VecX& yd) {
    const VecX theta = y.head(n), rate = y.segment(n, n);
    const VecX phi = absolute_angles(theta);
    const std::vector<Vec2> pins = pin_positions(*c, theta);
    const std::vector<Vec2> vpins = pin_velocities(pins, rate);
    MatX M = MatX::Zero(n, n);
    VecX tau = VecX::Zero(n);
    Vec2 v, bias;
    for (const ChainBody& b : c->bodies) {
      const Vec2 s = dir(phi(b.link));
      const Vec2 p = pins[b.link] + b.along * s + b.across * perp(s);
      Mat2X J = Mat2X::Zero(2, n);
      for (int k = 0; k <= b.link; ++k) J.col(k) = perp(p - pins[k]);
      point_motion(pins, vpins, rate, b.link, p, v, bias);
      M += b.mass * J.transpose() * J;
      M.topLeftCorner(b.link + 1, b.link + 1).array() += b.inertia;
      tau += J.transpose() * (b.mass * (Vec2(0.0, c->gravity) - bias));
    }
    Real p_hc = 0.0, p_fr = 0.0, work = 0.0;
    if (with_contact) {
      for (const ChainSphere& sp : c->spheres) {
        const Vec2 ctr = pins[sp.link] + sp.along * dir(phi(sp.link));
        if (ctr.y() >= sp.radius) continue;
        const HertzGeometry g = sphere_plane_geometry(Vec3::Zero(), Vec3::UnitZ(),
                                                      Vec3(ctr.x(), 0.0, ctr.y()), sp.radius);
        const CombinedMaterial m = combine_compliant_materials(c->ground, sp.material);
        const Vec3 p3 = contact_point(g, m);
        const Vec2 p(p3.x(), p3.z());
        point_motion(pins, vpins, rate, sp.link, p, v, bias);
        const Vec3 vrel(v.x(), 0.0, v.y());
        const CompliantContactForce f = hunt_crossley_force(g, m, c->transition_speed, vrel);
        if (!f.active) continue;
        Mat2X J = Mat2X::Zero(2, n);
        for (int k = 0; k <= sp.link; ++k) J.col(k) = perp(p - pins[k]);
        tau += J.transpose() * Vec2(f.force.x(), f.force.z());
        p_hc += f.hunt_crossley_power;
        p_fr += f.friction_power;
        work -= f.force.dot(vrel);
      }
    }
    yd.head(n) = rate;
    yd.segment(n, n) = M.ldlt().solve(tau);
    yd(2 * n) = p_hc;
    yd(2 * n + 1) = p_fr;
    yd(2 * n + 2) = work;
  };
  sys.kinematics = [](const VecX&, const VecX& u, VecX& qd) { qd = u; };
  return sys;
}

ChainImpactOutcome resolve_chain_impact(const PinChain& c, const VecX& theta, const VecX& rate,
                                        const ImpactOptions& options, ChainImpactForm form,
                                        Real touch) {
  check_pin_chain(c);
  const int n = links(c);
  if (theta.size() != n || rate.size() != n)
    throw InputError("resolve_chain_impact: theta and rate need one entry per link");
  const VecX phi = absolute_angles(theta);
  const std::vector<Vec2> pins = pin_positions(c, theta);
  // contact points (sphere bottoms) on the links
  std::vector<int> contact_link;
  std::vector<Vec2> contact_point2;
  ImpactProblem problem;
  problem.options = options;
  for (const ChainSphere& s : c.spheres) {
    const Vec2 ctr = pins[s.link] + s.along * dir(phi(s.link));
    if (ctr.y() - s.radius > touch) continue;
    contact_link.push_back(s.link);
    contact_point2.push_back(Vec2(ctr.x(), ctr.y() - s.radius));
    problem.contacts.push_back(s.plus_law);
  }
  if (problem.contacts.empty())
    throw InputError("resolve_chain_impact: no sphere within touch distance of the ground");
  const int nc = static_cast<int>(problem.contacts.size());
  ChainImpactOutcome out;
  if (form == ChainImpactForm::kJointCoordinates) {
    MatX G = MatX::Zero(3 * nc, n);  // rows x, y (out of plane: zero), z
    for (int k = 0; k < nc; ++k) {
      const Mat2X J = chain_point_jacobian(c, theta, contact_link[k], contact_point2[k]);
      G.row(3 * k) = J.row(0);
      G.row(3 * k + 2) = J.row(1);
    }
    const MatX M = chain_mass_matrix(c, theta);
    const MatX MinvGt = M.ldlt().solve(G.transpose());
    problem.delassus = G * MinvGt;
    problem.delassus = (0.5 * (problem.delassus + problem.delassus.transpose())).eval();
    problem.velocity = G * rate;
    out.result = solve_plus(problem);
    out.rates_after = rate + MinvGt * out.result.impulse;
    return out;
  }
  // Maximal coordinates: per link (v_x, v_z, φ̇) of its COM; 2 bilateral rows per pin.
  const std::vector<LinkBody> bodies = link_bodies(c, theta);
  const int dofs = 3 * n;
  VecX u(dofs), minv(dofs);
  for (int j = 0; j < n; ++j) {
    Vec2 v, bias;
    point_motion(pins, pin_velocities(pins, rate), rate, j, bodies[j].com, v, bias);
    u.segment<2>(3 * j) = v;
    u(3 * j + 2) = rate.head(j + 1).sum();
    minv.segment<3>(3 * j) << 1.0 / bodies[j].mass, 1.0 / bodies[j].mass, 1.0 / bodies[j].inertia;
  }
  // Rows of the velocity of point p on link j along direction d (x or z).
  auto add_point = [&](MatX& G, int row, int j, const Vec2& p, const Vec2& d, Real sign) {
    G(row, 3 * j) += sign * d.x();
    G(row, 3 * j + 1) += sign * d.y();
    G(row, 3 * j + 2) += sign * d.dot(perp(p - bodies[j].com));
  };
  problem.bilateral_rows = 2 * n;
  MatX G = MatX::Zero(3 * nc + 2 * n, dofs);
  for (int k = 0; k < nc; ++k) {
    add_point(G, 3 * k, contact_link[k], contact_point2[k], Vec2(1, 0), 1.0);
    add_point(G, 3 * k + 2, contact_link[k], contact_point2[k], Vec2(0, 1), 1.0);
  }
  for (int j = 0; j < n; ++j) {  // pin j joins link j−1 (or the ground) and link j
    for (int a = 0; a < 2; ++a) {
      const int row = 3 * nc + 2 * j + a;
      const Vec2 d = a == 0 ? Vec2(1, 0) : Vec2(0, 1);
      add_point(G, row, j, pins[j], d, 1.0);
      if (j > 0) add_point(G, row, j - 1, pins[j], d, -1.0);
    }
  }
  const MatX MinvGt = minv.asDiagonal() * G.transpose();
  problem.delassus = G * MinvGt;
  problem.delassus = (0.5 * (problem.delassus + problem.delassus.transpose())).eval();
  problem.velocity = G * u;
  out.result = solve_plus(problem);
  const VecX u_after = u + MinvGt * out.result.impulse;
  out.joint_velocity_residual = (G.bottomRows(2 * n) * u_after).lpNorm<Eigen::Infinity>();
  out.rates_after.resize(n);
  for (int j = 0; j < n; ++j)
    out.rates_after(j) = u_after(3 * j + 2) - (j > 0 ? u_after(3 * (j - 1) + 2) : 0.0);
  return out;
}

}  // namespace exactsim
