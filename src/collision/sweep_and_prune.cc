#include "exactsim/collision/sweep_and_prune.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

template <class Box>
void check_inputs(std::span<const Box> boxes, std::span<const std::uint8_t> is_static,
                  std::span<const std::uint8_t> present) {
  const auto n = boxes.size();
  if (!is_static.empty() && is_static.size() != n) {
    throw InputError("sweep_and_prune: is_static has " + std::to_string(is_static.size()) +
                     " entries for " + std::to_string(n) + " boxes");
  }
  if (!present.empty() && present.size() != n) {
    throw InputError("sweep_and_prune: present has " + std::to_string(present.size()) +
                     " entries for " + std::to_string(n) + " boxes");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!present.empty() && !present[i]) continue;
    const Box& box = boxes[i];
    if (!box.lo.allFinite() || !box.hi.allFinite()) {
      throw InputError("sweep_and_prune: box " + std::to_string(i) + " has a NaN or inf bound");
    }
    if ((box.lo.array() > box.hi.array()).any()) {
      throw InputError("sweep_and_prune: box " + std::to_string(i) + " has lo > hi");
    }
  }
}

template <class Box>
void sweep(std::span<const Box> boxes, std::span<const std::uint8_t> is_static,
           std::span<const std::uint8_t> present, std::vector<BodyPair>& out,
           BroadPhaseScratch& scratch) {
  check_inputs(boxes, is_static, present);
  const int n = static_cast<int>(boxes.size());
  auto& order = scratch.order;
  order.clear();
  for (int i = 0; i < n; ++i) {
    if (present.empty() || present[i]) order.push_back(i);
  }
  // Total order (lo.x, index): the same permutation on every platform.
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    const Real xi = boxes[i].lo.x(), xj = boxes[j].lo.x();
    return xi < xj || (xi == xj && i < j);
  });
  const auto first_new = static_cast<std::ptrdiff_t>(out.size());
  const int m = static_cast<int>(order.size());
  for (int k = 0; k < m; ++k) {
    const int i = order[k];
    const Real hi_x = boxes[i].hi.x();
    const bool static_i = !is_static.empty() && is_static[i];
    // Boxes later in the order start at or after i's start; once one starts past i's end, so
    // do all the rest.
    for (int l = k + 1; l < m && boxes[order[l]].lo.x() <= hi_x; ++l) {
      const int j = order[l];
      if (static_i && is_static[j]) continue;
      if (!boxes[i].overlaps(boxes[j])) continue;
      out.push_back(i < j ? BodyPair{i, j} : BodyPair{j, i});
    }
  }
  std::sort(out.begin() + first_new, out.end());
}

void check_margin(Real margin) {
  if (!std::isfinite(margin) || margin < 0) {
    throw InputError("swept_aabb: margin must be finite and >= 0, got " + std::to_string(margin));
  }
}

}  // namespace

void sweep_and_prune(std::span<const Aabb2> boxes, std::span<const std::uint8_t> is_static,
                     std::span<const std::uint8_t> present, std::vector<BodyPair>& out,
                     BroadPhaseScratch& scratch) {
  sweep(boxes, is_static, present, out, scratch);
}

void sweep_and_prune(std::span<const Aabb3> boxes, std::span<const std::uint8_t> is_static,
                     std::span<const std::uint8_t> present, std::vector<BodyPair>& out,
                     BroadPhaseScratch& scratch) {
  sweep(boxes, is_static, present, out, scratch);
}

Aabb2 swept_aabb(const Aabb2& current, const Aabb2& predicted, Real margin) {
  check_margin(margin);
  return Aabb2{current.lo.cwiseMin(predicted.lo), current.hi.cwiseMax(predicted.hi)}.inflated(
      margin);
}

Aabb3 swept_aabb(const Aabb3& current, const Aabb3& predicted, Real margin) {
  check_margin(margin);
  return Aabb3{current.lo.cwiseMin(predicted.lo), current.hi.cwiseMax(predicted.hi)}.inflated(
      margin);
}

}  // namespace exactsim
