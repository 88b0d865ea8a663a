#include "exactsim/collision/closest_points.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace exactsim {
namespace {

template <class V>
Real segment_parameter(const V& p, const V& a, const V& b) {
  const V e = b - a;
  const Real ee = e.squaredNorm();
  if (ee <= 0) return 0;
  return std::clamp(e.dot(p - a) / ee, Real{0}, Real{1});
}

Real clamp01(Real x) { return std::clamp(x, Real{0}, Real{1}); }

}  // namespace

Real closest_segment_parameter(const Vec2& p, const Vec2& a, const Vec2& b) {
  return segment_parameter(p, a, b);
}
Real closest_segment_parameter(const Vec3& p, const Vec3& a, const Vec3& b) {
  return segment_parameter(p, a, b);
}

Real point_segment_distance(const Vec2& p, const Vec2& a, const Vec2& b) {
  return (a + segment_parameter(p, a, b) * (b - a) - p).norm();
}
Real point_segment_distance(const Vec3& p, const Vec3& a, const Vec3& b) {
  return (a + segment_parameter(p, a, b) * (b - a) - p).norm();
}

SegmentClosestPoints closest_points_segments(const Vec3& a0, const Vec3& a1, const Vec3& b0,
                                             const Vec3& b1) {
  const Vec3 d1 = a1 - a0, d2 = b1 - b0, r = a0 - b0;
  const Real a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  Real s = 0, t = 0;
  if (a <= 0 && e <= 0) {
    // both degenerate: s = t = 0
  } else if (a <= 0) {
    t = clamp01(f / e);
  } else {
    const Real c = d1.dot(r);
    if (e <= 0) {
      s = clamp01(-c / a);
    } else {
      const Real b = d1.dot(d2);
      const Real denom = a * e - b * b;  // ≥ 0; zero for parallel segments
      s = denom > 0 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  SegmentClosestPoints out;
  out.s = s;
  out.t = t;
  out.p_a = a0 + s * d1;
  out.p_b = b0 + t * d2;
  out.distance = (out.p_b - out.p_a).norm();
  return out;
}

Real point_face_distance(const Vec3& p, const std::vector<Vec3>& vertices,
                         std::span<const int> face, const Vec3& normal) {
  const int k = static_cast<int>(face.size());
  bool inside = true;
  for (int i = 0; i < k && inside; ++i) {
    const Vec3& v = vertices[face[i]];
    const Vec3& w = vertices[face[i + 1 == k ? 0 : i + 1]];
    // Left of every CCW edge (seen from outside) = projects into the face.
    if ((w - v).cross(p - v).dot(normal) < 0) inside = false;
  }
  if (inside) return std::abs(normal.dot(p - vertices[face[0]]));
  Real best = std::numeric_limits<Real>::infinity();
  for (int i = 0; i < k; ++i) {
    best = std::min(
        best, point_segment_distance(p, vertices[face[i]], vertices[face[i + 1 == k ? 0 : i + 1]]));
  }
  return best;
}

}  // namespace exactsim
