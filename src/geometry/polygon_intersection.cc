// Exact intersection of two convex polygons: the overlap metric of
// docs/peg2d-experiment.md "Metric" (docs/geometry2d.md).
// Sutherland–Hodgman clipping with exact orientation predicates, preceded by an exact
// separating-edge test so that disjoint and merely touching shapes give exactly 0
// (docs/geometry2d.md, "Intersection").
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "exactsim/geometry/polygon.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

// ---- Exact orientation (error-free transformations; Shewchuk 1997, re-derived) ---------------

// s + e = a + b exactly (Knuth's TwoSum).
inline void two_sum(Real a, Real b, Real& s, Real& e) {
  s = a + b;
  const Real bv = s - a, av = s - bv;
  e = (a - av) + (b - bv);
}

// Exact sign of ax·by − ay·bx + bx·cy − by·cx + cx·ay − cy·ax: each product split exactly
// into two doubles with fma, the twelve terms summed into a non-overlapping expansion
// (Grow-Expansion with zero elimination); its sign is the sign of its largest component.
[[gnu::noinline]] int exact_orientation_sign(const Vec2& a, const Vec2& b, const Vec2& c) {
  const Real f[6][2] = {{a.x(), b.y()},  {-a.y(), b.x()}, {b.x(), c.y()},
                        {-b.y(), c.x()}, {c.x(), a.y()},  {-c.y(), a.x()}};
  std::array<Real, 13> e{};
  int len = 0;
  auto grow = [&](Real x) {
    Real q = x;
    int k = 0;
    for (int i = 0; i < len; ++i) {
      Real s, h;
      two_sum(q, e[i], s, h);
      q = s;
      if (h != 0) e[k++] = h;
    }
    if (q != 0) e[k++] = q;
    len = k;
  };
  for (const auto& [x, y] : f) {
    const Real p = x * y;
    grow(std::fma(x, y, -p));  // the product's rounding error, exactly
    grow(p);
  }
  return len == 0 ? 0 : (e[len - 1] > 0 ? 1 : -1);
}

// Fast path: the floating-point determinant when its error bound proves the sign; inlined
// into the clipping loops, where it runs for every vertex.
inline int orient(const Vec2& a, const Vec2& b, const Vec2& c) {
  // Shewchuk's orient2d filter: the error bound is (3 + 16ε)ε·(|l| + |r|), ε = 2⁻⁵³.
  const Real left = (a.x() - c.x()) * (b.y() - c.y());
  const Real right = (a.y() - c.y()) * (b.x() - c.x());
  const Real det = left - right;
  Real sum;
  if (left > 0) {
    if (right <= 0) return det > 0 ? 1 : (det < 0 ? -1 : 0);
    sum = left + right;
  } else if (left < 0) {
    if (right >= 0) return det > 0 ? 1 : (det < 0 ? -1 : 0);
    sum = -left - right;
  } else {
    return det > 0 ? 1 : (det < 0 ? -1 : 0);
  }
  constexpr Real kEps = 0x1.0p-53;
  constexpr Real kBound = (3.0 + 16.0 * kEps) * kEps;
  if (det > kBound * sum) return 1;
  if (-det > kBound * sum) return -1;
  return exact_orientation_sign(a, b, c);
}

// ---- Clipping buffers -------------------------------------------------------------------------

// A vertex loop on the stack for the usual small polygons, on the heap beyond that.
class LoopBuffer {
 public:
  LoopBuffer() = default;
  LoopBuffer(const LoopBuffer&) = delete;
  LoopBuffer& operator=(const LoopBuffer&) = delete;

  void reserve(int n) {
    if (n <= capacity_) return;
    heap_.resize(n);
    data_ = heap_.data();
    capacity_ = n;
  }
  Vec2* data() { return data_; }
  const Vec2* data() const { return data_; }
  int size = 0;

 private:
  std::array<Vec2, 64> fixed_;
  std::vector<Vec2> heap_;
  Vec2* data_ = fixed_.data();
  int capacity_ = 64;
};

// The point where segment p → q crosses line(a, b); p and q lie strictly on opposite sides.
Vec2 crossing(const Vec2& p, const Vec2& q, const Vec2& a, const Vec2& b) {
  // If the segment passes exactly through a clipper vertex, that vertex is the crossing: keep
  // it exact so that vertex-on-edge contacts stay exact in later tests.
  if (orient(p, q, a) == 0) return a;
  if (orient(p, q, b) == 0) return b;
  const Vec2 d = b - a;
  const Real dp = std::abs(cross2(d, p - a)), dq = std::abs(cross2(d, q - a));
  const Real sum = dp + dq;
  if (!(sum > 0)) return 0.5 * (p + q);  // both round to 0: the midpoint is as good as any
  // Interpolate from the endpoint nearer the line (smaller step, smaller round-off).
  return dp <= dq ? Vec2(p + (dp / sum) * (q - p)) : Vec2(q + (dq / sum) * (p - q));
}

// One Sutherland–Hodgman step: the part of loop `in` in the closed half-plane left of a → b.
// Vertices exactly on the line are kept; crossings only where the exact signs are opposite.
// Returns whether some vertex lies strictly inside (otherwise the result has no area).
bool clip_half_plane(const LoopBuffer& in, const Vec2& a, const Vec2& b, LoopBuffer& out) {
  // Each run of outside vertices becomes at most two crossings, and there are at most n/2 runs.
  out.reserve(in.size + in.size / 2 + 1);
  out.size = 0;
  bool any_inside = false;
  const Vec2* v = in.data();
  Vec2 p = v[in.size - 1];
  int sp = orient(a, b, p);
  for (int i = 0; i < in.size; ++i) {
    const Vec2& q = v[i];
    const int sq = orient(a, b, q);
    if (sp * sq < 0) out.data()[out.size++] = crossing(p, q, a, b);
    if (sq >= 0) {
      out.data()[out.size++] = q;
      any_inside |= sq > 0;
    }
    p = q;
    sp = sq;
  }
  return any_inside;
}

// Area ≥ 0 of subject ∩ clipper with the clipped loop left in *result (empty when 0).
Real clip(std::span<const Vec2> subject, std::span<const Vec2> clipper, LoopBuffer& buf0,
          LoopBuffer& buf1, LoopBuffer** result) {
  LoopBuffer* cur = &buf0;
  LoopBuffer* nxt = &buf1;
  cur->reserve(static_cast<int>(subject.size()));
  std::copy(subject.begin(), subject.end(), cur->data());
  cur->size = static_cast<int>(subject.size());
  *result = cur;
  const std::size_t m = clipper.size();
  for (std::size_t j = 0; j < m; ++j) {
    const bool any_inside = clip_half_plane(*cur, clipper[j], clipper[(j + 1) % m], *nxt);
    std::swap(cur, nxt);
    *result = cur;
    if (!any_inside || cur->size < 3) {
      cur->size = 0;
      return 0;
    }
  }
  // Round-off can make the shoelace sum of a tiny but real overlap come out negative.
  const Real area = polygon_area(std::span<const Vec2>(cur->data(), cur->size));
  if (!(area > 0)) cur->size = 0;
  return std::max<Real>(area, 0);
}

// True if some edge line of p has every vertex of q in its closed outer half-plane: then the
// interiors are disjoint (and for convex polygons only then: an edge of the Minkowski
// difference p − q, whose normals are those of p and −q, separates the origin).
bool separated_by_edge_of(std::span<const Vec2> p, std::span<const Vec2> q) {
  const std::size_t n = p.size(), m = q.size();
  std::size_t hint = 0;  // the last vertex found inside: likely inside the next edge too
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& a = p[i];
    const Vec2& b = p[(i + 1) % n];
    bool separates = true;
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t j = (hint + k) % m;
      if (orient(a, b, q[j]) > 0) {
        separates = false;
        hint = j;
        break;
      }
    }
    if (separates) return true;
  }
  return false;
}

// Canonical order of the pair, so that area(A, B) and area(B, A) run the same arithmetic.
bool canonical_first(std::span<const Vec2> a, std::span<const Vec2> b) {
  if (a.size() != b.size()) return a.size() < b.size();
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].x() != b[i].x()) return a[i].x() < b[i].x();
    if (a[i].y() != b[i].y()) return a[i].y() < b[i].y();
  }
  return true;
}

void require_finite(std::span<const Vec2> loop, const char* name) {
  for (std::size_t i = 0; i < loop.size(); ++i) {
    if (!loop[i].allFinite()) {
      throw InputError(std::string("polygon_intersection_area: vertex ") + std::to_string(i) +
                       " of polygon " + name + " has a non-finite coordinate");
    }
  }
}

void write_output(const LoopBuffer& loop, std::vector<Vec2>* out) {
  if (out == nullptr) return;
  out->clear();
  const int n = loop.size;
  const Vec2* v = loop.data();
  // Drop repeated vertices (a clipper vertex reached by two crossings) and exactly collinear
  // ones (zero-area triangles, so the area is unchanged).
  for (int i = 0; i < n; ++i) {
    if (!out->empty() && v[i] == out->back()) continue;
    out->push_back(v[i]);
  }
  while (out->size() > 1 && out->front() == out->back()) out->pop_back();
  for (bool changed = true; changed && out->size() >= 3;) {
    changed = false;
    for (std::size_t i = 0; i < out->size() && out->size() >= 3; ++i) {
      const std::size_t k = out->size();
      if (orient((*out)[(i + k - 1) % k], (*out)[i], (*out)[(i + 1) % k]) == 0) {
        out->erase(out->begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
        --i;
      }
    }
  }
  if (out->size() < 3) out->clear();
}

// Area of a ∩ b with the clipped loop in *result when positive (see polygon.h).
Real intersect(std::span<const Vec2> a, std::span<const Vec2> b, LoopBuffer& buf0, LoopBuffer& buf1,
               LoopBuffer** result) {
  if (a.size() < 3 || b.size() < 3) return 0;
  if (!canonical_first(a, b)) std::swap(a, b);
  // Boxes that are disjoint or only touch: the intersection lies in a line at most.
  const Aabb2 ba = bounding_box(a), bb = bounding_box(b);
  if (ba.hi.x() <= bb.lo.x() || bb.hi.x() <= ba.lo.x() || ba.hi.y() <= bb.lo.y() ||
      bb.hi.y() <= ba.lo.y()) {
    return 0;
  }
  if (separated_by_edge_of(a, b) || separated_by_edge_of(b, a)) return 0;
  return clip(a, b, buf0, buf1, result);
}

}  // namespace

int orientation_sign(const Vec2& a, const Vec2& b, const Vec2& c) { return orient(a, b, c); }

Real polygon_intersection_area(std::span<const Vec2> a, std::span<const Vec2> b,
                               std::vector<Vec2>* out) {
  require_finite(a, "a");
  require_finite(b, "b");
  LoopBuffer buf0, buf1;
  LoopBuffer* result = nullptr;
  const Real area = intersect(a, b, buf0, buf1, &result);
  // `out` is written last, so it may even alias an input's storage.
  if (area > 0) {
    write_output(*result, out);
  } else if (out != nullptr) {
    out->clear();
  }
  return area;
}

Real clip_convex_polygon(std::span<const Vec2> subject, std::span<const Vec2> clipper,
                         std::vector<Vec2>* out) {
  LoopBuffer buf0, buf1;
  LoopBuffer* result = nullptr;
  Real area = 0;
  if (subject.size() >= 3 && clipper.size() >= 3) {
    area = clip(subject, clipper, buf0, buf1, &result);
  }
  if (out != nullptr) {
    if (result == nullptr) {
      out->clear();
    } else {
      out->assign(result->data(), result->data() + result->size);
    }
  }
  return area;
}

}  // namespace exactsim
