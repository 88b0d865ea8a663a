#include "exactsim/io/scene_rules.h"

#include <cmath>
#include <cstdio>

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include "exactsim/io/scene_initial_overlap.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/collider_pair.h"
#include "json_cursor.h"

namespace exactsim::rules {
namespace {

using io::format_number;

[[noreturn]] void fail(const std::string& reason) { throw InputError(reason); }

const char* see = " (docs/input-validation.md)";

// Deep pairs named in the message when a scene starts interpenetrating.
constexpr int kMaxNamedOverlaps = 3;

template <class V>
void check_extent(std::span<const V> vertices, Real measure) {
  V lo = vertices.front(), hi = vertices.front();
  for (const V& p : vertices) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const Real size = (hi - lo).maxCoeff();
  if (!(size >= limits::kMinSize && size <= limits::kMaxSize))
    fail("the shape's size (largest side of its bounding box) is " + format_number(size) +
         " m, outside the accepted range [" + format_number(limits::kMinSize) + ", " +
         format_number(limits::kMaxSize) + "] m" + see);
  const int d = V::RowsAtCompileTime;
  const Real full = d == 2 ? size * size : size * size * size;
  if (!(measure >= limits::kMinFullness * full))
    fail(std::string("the shape's ") + (d == 2 ? "area" : "volume") + " (" +
         format_number(measure) + ") is below " + format_number(limits::kMinFullness) +
         " of its size^" + std::to_string(d) +
         ": too thin for meaningful mass properties (docs/input-validation.md)");
}

}  // namespace

std::string shown(Real x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return nlohmann::json(x).dump();
}

Real in_range(Real x, Real lo, Real hi, const char* unit) {
  if (!std::isfinite(x)) fail("must be finite, got " + shown(x));
  if (lo > 0 && !(x > 0)) fail("must be > 0, got " + shown(x));
  if (lo == 0 && !(x >= 0)) fail("must be >= 0, got " + shown(x));
  if (!(x >= lo && x <= hi))
    fail("must lie in [" + format_number(lo) + ", " + format_number(hi) + "]" +
         (*unit ? std::string(" ") + unit : std::string()) + ", got " + shown(x) + see);
  return x;
}

int whole(Real x, int lo, int hi) {
  const std::string got = std::isfinite(x) && x == std::floor(x) && std::abs(x) < 1e15
                              ? std::to_string(static_cast<long long>(x))
                              : shown(x);
  if (!std::isfinite(x)) fail("must be finite, got " + got);
  if (x != std::floor(x)) fail("expected a whole number, got " + got);
  if (x < lo || x > hi)
    fail("must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + got);
  return static_cast<int>(x);
}

Real finite(Real x) {
  if (!std::isfinite(x)) fail("must be finite, got " + shown(x));
  return x;
}

void norm_at_most(Real norm, Real max, const char* what, const char* unit) {
  if (!(norm <= max))
    fail(std::string(what) + " " + format_number(norm) + " " + unit +
         " exceeds the accepted maximum of " + format_number(max) + " " + unit + see);
}

void name(const std::string& s) {
  if (s.empty()) fail("must not be empty");
  if (s.size() > static_cast<std::size_t>(limits::kMaxNameLength))
    fail("longer than " + std::to_string(limits::kMaxNameLength) + " bytes");
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f)
      fail("character " + std::to_string(i) + " is a control character (code " + std::to_string(c) +
           "); names may not contain control characters");
    if (c == ',' || c == '"' || c == '\'' || c == '\\')
      fail(std::string("character ") + std::to_string(i) + " is '" + static_cast<char>(c) +
           "'; names may not contain , \" ' or \\ (they are written unquoted to CSV files)");
  }
  if (s.front() == ' ' || s.back() == ' ') fail("must not begin or end with a space");
}

Quat orientation(Real w, Real x, Real y, Real z) {
  const Eigen::Vector4d raw(w, x, y, z);
  if (!raw.allFinite()) fail("must be finite");
  const Real largest = raw.cwiseAbs().maxCoeff();
  if (!(largest > 0)) fail("the quaternion has zero norm");
  Quat o(w, x, y, z);
  if (!(std::abs(raw.norm() - 1) <= 8 * std::numeric_limits<Real>::epsilon())) {
    const Eigen::Vector4d scaled = raw / largest;
    o = Quat(scaled[0], scaled[1], scaled[2], scaled[3]);
    o.normalize();
  }
  return o;
}

Real density(Real rho, int dimension) {
  return in_range(rho, limits::kMinDensity, limits::kMaxDensity,
                  dimension == 2 ? "kg/m^2" : "kg/m^3");
}

Real mass(Real m) { return in_range(m, limits::kMinMass, limits::kMaxMass, "kg"); }

void mass_from_density(Real m) {
  if (!(m >= limits::kMinMass && m <= limits::kMaxMass))
    fail("gives a mass of " + format_number(m) + " kg, outside the accepted range [" +
         format_number(limits::kMinMass) + ", " + format_number(limits::kMaxMass) + "] kg" + see);
}

void inertia_ratio(Real moment, Real m, Real r, const char* reach) {
  const Real ref = m * r * r;
  const Real lo = limits::kMinInertiaRatio * ref, hi = limits::kMaxInertiaRatio * ref;
  if (!(moment >= lo && moment <= hi))
    fail("inertia " + format_number(moment) + " kg m^2 is outside [" +
         format_number(limits::kMinInertiaRatio) + ", " + format_number(limits::kMaxInertiaRatio) +
         "] x m r^2 = [" + format_number(lo) + ", " + format_number(hi) +
         "] (m = " + format_number(m) + " kg, r = " + format_number(r) + " m, " + reach +
         "; docs/input-validation.md)");
}

void planar_inertia(Real j, Real m, Real r) {
  if (!std::isfinite(j)) fail("must be finite, got " + shown(j));
  if (!(j > 0)) fail("must be > 0, got " + shown(j));
  inertia_ratio(j, m, r);
}

void inertia(const Mat3& j, Real m, Real r, const char* reach) {
  if (!j.allFinite()) fail("the inertia matrix must be finite");
  if ((j - j.transpose()).cwiseAbs().maxCoeff() > 1e-12 * j.cwiseAbs().maxCoeff())
    fail("the inertia matrix must be symmetric");
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(j);
  const Vec3 moments = eig.eigenvalues();  // ascending
  if (!(moments[0] > 0)) fail("the inertia matrix must be positive definite");
  // The largest principal moment of a rigid body is at most the sum of the other two (equal for
  // a plane figure); round-off of a computed or rounded value is let through.
  if (moments[2] > (moments[0] + moments[1]) * (1 + 1e-6))
    fail("the principal moments " + format_number(moments[0]) + ", " + format_number(moments[1]) +
         ", " + format_number(moments[2]) +
         " kg m^2 break the triangle inequality (the largest exceeds the sum of the other two): "
         "no rigid body has this inertia" +
         see);
  inertia_ratio(moments[0], m, r, reach);
  inertia_ratio(moments[2], m, r, reach);
}

Real friction(Real mu) { return in_range(mu, 0, limits::kMaxFriction, ""); }
Real restitution(Real e) { return in_range(e, 0, 1, ""); }
Real spawn_time(Real t) { return in_range(t, 0, limits::kMaxTime, "s"); }
Real coordinate(Real x) {
  return in_range(x, -limits::kMaxCoordinate, limits::kMaxCoordinate, "m");
}
Real angle(Real theta) { return in_range(theta, -limits::kMaxAngle, limits::kMaxAngle, "rad"); }
Real angular_velocity_2d(Real omega) {
  return in_range(omega, -limits::kMaxAngularSpeed, limits::kMaxAngularSpeed, "rad/s");
}
void speed(Real norm) { norm_at_most(norm, limits::kMaxSpeed, "speed", "m/s"); }
void angular_speed(Real norm) {
  norm_at_most(norm, limits::kMaxAngularSpeed, "angular speed", "rad/s");
}
void static_at_rest(bool is_static, bool moves) {
  if (is_static && moves) fail("a static body cannot move");
}

void static_or_kinematic(bool is_static, bool kinematic) {
  if (is_static && kinematic) fail("a body is static or kinematic, not both");
}

void not_kinematic(bool kinematic) {
  if (kinematic) fail("a kinematic body moves with its set velocity: forces do not act on it");
}

void point_count(std::size_t n) {
  if (n > static_cast<std::size_t>(limits::kMaxVertices))
    fail("too many points (" + std::to_string(n) + "; the limit is " +
         std::to_string(limits::kMaxVertices) + ")");
}
void extent(std::span<const Vec2> vertices, Real area) { check_extent(vertices, area); }
void extent(std::span<const Vec3> vertices, Real volume) { check_extent(vertices, volume); }
void shape(const ConvexPolygon& p) {
  point_count(p.vertices.size());
  extent(std::span<const Vec2>(p.vertices), polygon_area(p.vertices));
}
void shape(const ConvexPolyhedron& p) {
  point_count(p.vertices.size());
  extent(std::span<const Vec3>(p.vertices), polyhedron_mass_properties(p, 1.0).volume);
}

void shape(const Sphere& s) {
  try {
    in_range(s.radius, limits::kMinSize, limits::kMaxSize, "m");
  } catch (const InputError& e) {
    fail(std::string("radius: ") + e.what());
  }
  for (int k = 0; k < 3; ++k) {
    try {
      coordinate(s.centre[k]);
    } catch (const InputError& e) {
      fail("center[" + std::to_string(k) + "]: " + e.what());
    }
  }
}

void shape(const SpatialPart& p) {
  std::visit([](const auto& s) { shape(s); }, p);
}

namespace {

template <class Part, class Measure, class Common>
void disjoint_parts(std::span<const Part> parts, Measure&& measure, Common&& common) {
  if (parts.empty()) fail("a body needs at least one shape");
  if (parts.size() > static_cast<std::size_t>(limits::kMaxParts))
    fail(std::to_string(parts.size()) + " parts exceed the limit of " +
         std::to_string(limits::kMaxParts));
  if (parts.size() == 1) return shape(parts[0]);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    try {
      shape(parts[i]);
    } catch (const InputError& e) {
      fail("part " + std::to_string(i) + ": " + e.what());
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (std::size_t j = i + 1; j < parts.size(); ++j) {
      const Real smaller = std::min(measure(parts[i]), measure(parts[j]));
      const Real c = common(parts[i], parts[j]);
      if (c > limits::kMaxPartOverlapFraction * smaller)
        fail("parts " + std::to_string(i) + " and " + std::to_string(j) + " overlap (" +
             format_number(100 * c / smaller) +
             " % of the smaller); the parts of a body may only touch");
    }
}

}  // namespace

void parts(std::span<const ConvexPolygon> parts) {
  disjoint_parts(
      parts, [](const ConvexPolygon& p) { return polygon_area(p.vertices); },
      [](const ConvexPolygon& a, const ConvexPolygon& b) {
        return polygon_intersection_area(a.vertices, b.vertices);
      });
}

void parts(std::span<const SpatialPart> parts) {
  const Pose3 origin{Vec3::Zero(), Quat::Identity()};
  WorldPolyhedron placed_a, placed_b;
  IntersectionScratch scratch;
  auto collider = [&](const SpatialPart& p, WorldPolyhedron& out) {
    return std::visit([&](const auto& shape) { return place_collider(shape, origin, out); }, p);
  };
  disjoint_parts(
      parts,
      [](const SpatialPart& p) {
        const Sphere* s = std::get_if<Sphere>(&p);
        return s != nullptr ? sphere_mass_properties(s->radius, 1.0).volume
                            : polyhedron_mass_properties(std::get<ConvexPolyhedron>(p), 1.0).volume;
      },
      [&](const SpatialPart& a, const SpatialPart& b) {
        return intersection_volume(collider(a, placed_a), origin, collider(b, placed_b), origin,
                                   &scratch);
      });
}

void parts(std::span<const ConvexPolyhedron> parts) {
  const Pose3 origin{Vec3::Zero(), Quat::Identity()};
  disjoint_parts(
      parts, [](const ConvexPolyhedron& p) { return polyhedron_mass_properties(p, 1.0).volume; },
      [&](const ConvexPolyhedron& a, const ConvexPolyhedron& b) {
        return polyhedron_intersection_volume(a, origin, b, origin);
      });
}

Real step(Real h) { return in_range(h, limits::kMinStep, limits::kMaxStep, "s"); }
Real duration(Real t) { return in_range(t, 0, limits::kMaxTime, "s"); }
void step_count(Real h, Real duration) {
  if (duration / h > limits::kMaxSteps)
    fail("duration / step exceeds " + format_number(limits::kMaxSteps) + " steps");
}
void step_in_duration(Real h, Real duration) {
  if (duration > 0 && h > duration)
    fail("the step (" + format_number(h) + " s) is longer than the duration (" +
         format_number(duration) + " s)");
}
void gravity(const Vec3& g) {
  if (!g.allFinite()) fail("must be finite");
  norm_at_most(g.stableNorm(), limits::kMaxGravity, "magnitude", "m/s^2");
}
int friction_directions(Real k) {
  return whole(k, limits::kMinFrictionDirections, limits::kMaxFrictionDirections);
}
Real contact_distance(Real eps) {
  return in_range(eps, limits::kMinContactDistance, limits::kMaxContactDistance, "m");
}
Real applicability(Real theta) { return in_range(theta, -1, 1, ""); }
int threads(Real n) { return whole(n, 0, limits::kMaxThreads); }
void body_count(std::size_t n) {
  if (n == 0) fail("at least one body is required");
  if (n > static_cast<std::size_t>(limits::kMaxBodies))
    fail("too many bodies (limit " + std::to_string(limits::kMaxBodies) + ")");
}

void joint(const World& w, const Joint& j) {
  const int n = w.body_count();
  auto valid = [&](int b) { return b >= 0 && b < n; };
  if (!valid(j.body_a) || !(valid(j.body_b) || j.body_b == kWorldBody))
    fail("names a body the scene does not have");
  if (j.body_a == j.body_b) fail("joins a body to itself");
  auto fixed = [&](int b) { return b == kWorldBody || w.bodies[b].is_static; };
  if (fixed(j.body_a) && fixed(j.body_b))
    fail(
        "joins no dynamic body (static, kinematic or the world on both sides): it would hold "
        "nothing");
  if (j.type == JointType::kBall && w.dimension != 3)
    fail("a ball joint is 3D only; in 2D use \"revolute\" (a pin)");
  for (const Vec3& axis : {j.axis_a, j.axis_b})
    if (!axis.allFinite() || std::abs(axis.norm() - 1) > 1e-9)
      fail("the axis must be a unit vector");
}

void joint_axis(int dimension, JointType type, const Vec3* axis) {
  const bool hinge = dimension == 3 && type == JointType::kRevolute;
  if (hinge && axis == nullptr) fail("a 3D revolute joint needs its hinge axis");
  if (!hinge && axis != nullptr) fail("only a 3D revolute joint has an axis");
  if (axis != nullptr && !(axis->allFinite() && axis->norm() > 0)) fail("must not be zero");
}

std::optional<Blame> initial_overlap(const World& w, const State& initial) {
  const InitialOverlapCheck r =
      find_initial_overlaps(w, initial, limits::kMaxInitialOverlapFraction, kMaxNamedOverlaps);
  auto label = [&](int i) {
    return "bodies[" + std::to_string(i) + "] \"" + w.bodies[i].name + "\"";
  };
  const char* measure = w.dimension == 2 ? "area" : "volume";
  if (!r.deep.empty()) {
    const InitialOverlap& first = r.deep.front();
    std::string msg = "starts deeply inside " + label(first.a) + ": their intersection is " +
                      format_number(100 * first.fraction) + "% of the smaller body's " + measure;
    for (std::size_t k = 1; k < r.deep.size(); ++k)
      msg += "; also " + label(r.deep[k].a) + " and " + label(r.deep[k].b) + " (" +
             format_number(100 * r.deep[k].fraction) + "%)";
    if (static_cast<int>(r.deep.size()) >= kMaxNamedOverlaps) msg += "; the check stopped there";
    msg += ". Bodies present at t = 0 may overlap by at most " +
           format_number(100 * limits::kMaxInitialOverlapFraction) + "% (docs/input-validation.md)";
    return Blame{first.b, msg};
  }
  if (r.too_dense)
    return Blame{-1, "more than " + std::to_string(r.box_pairs - 1) +
                         " pairs of bodies have overlapping bounding boxes at t = 0 (at most 64 "
                         "per body plus 10000): the scene is too dense to check or to simulate "
                         "(docs/input-validation.md)"};
  return std::nullopt;
}

}  // namespace exactsim::rules
