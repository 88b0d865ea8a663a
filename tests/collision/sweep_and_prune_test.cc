// Broad phase: sort-and-sweep must report exactly the pairs an O(n²) scan finds, in
// lexicographic order, never static–static pairs, never pairs with an absent body.
#include "exactsim/collision/sweep_and_prune.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

template <class Box>
std::vector<BodyPair> brute_force(const std::vector<Box>& boxes,
                                  const std::vector<std::uint8_t>& is_static,
                                  const std::vector<std::uint8_t>& present) {
  std::vector<BodyPair> pairs;
  const int n = static_cast<int>(boxes.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (!present[i] || !present[j] || (is_static[i] && is_static[j])) continue;
      if (boxes[i].overlaps(boxes[j])) pairs.push_back({i, j});
    }
  }
  return pairs;
}

template <class Box, int D>
Box random_box(std::mt19937_64& rng, Real world, Real max_size) {
  std::uniform_real_distribution<Real> where(0, world), size(0, max_size);
  Box box;
  for (int k = 0; k < D; ++k) {
    box.lo[k] = where(rng);
    box.hi[k] = box.lo[k] + size(rng);
  }
  return box;
}

TEST(SweepAndPrune, MatchesBruteForce2d) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 50 + 10 * trial;
    std::vector<Aabb2> boxes;
    std::vector<std::uint8_t> is_static, present;
    std::bernoulli_distribution coin_static(0.2), coin_present(0.9);
    for (int i = 0; i < n; ++i) {
      boxes.push_back(random_box<Aabb2, 2>(rng, 10.0, 1.5));
      is_static.push_back(coin_static(rng));
      present.push_back(coin_present(rng));
    }
    // Touching boxes count as overlapping: make a few share a face exactly.
    const Vec2 size1 = boxes[1].hi - boxes[1].lo;
    boxes[1].lo = Vec2(boxes[0].hi.x(), boxes[0].lo.y());
    boxes[1].hi = boxes[1].lo + size1;
    std::vector<BodyPair> pairs;
    BroadPhaseScratch scratch;
    sweep_and_prune(boxes, is_static, present, pairs, scratch);
    auto expected = brute_force(boxes, is_static, present);
    EXPECT_EQ(pairs, expected) << "trial " << trial;
    EXPECT_FALSE(expected.empty());
    // The face-sharing pair is reported when both bodies are in play.
    present[0] = present[1] = 1;
    is_static[0] = 0;
    pairs.clear();
    sweep_and_prune(boxes, is_static, present, pairs, scratch);
    EXPECT_TRUE(std::binary_search(pairs.begin(), pairs.end(), BodyPair{0, 1}));
  }
}

TEST(SweepAndPrune, MatchesBruteForce3d) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 40 + 15 * trial;
    std::vector<Aabb3> boxes;
    std::vector<std::uint8_t> is_static, present;
    std::bernoulli_distribution coin_static(0.3), coin_present(0.8);
    for (int i = 0; i < n; ++i) {
      boxes.push_back(random_box<Aabb3, 3>(rng, 6.0, 1.5));
      is_static.push_back(coin_static(rng));
      present.push_back(coin_present(rng));
    }
    std::vector<BodyPair> pairs;
    BroadPhaseScratch scratch;
    sweep_and_prune(boxes, is_static, present, pairs, scratch);
    const auto expected = brute_force(boxes, is_static, present);
    EXPECT_EQ(pairs, expected) << "trial " << trial;
    EXPECT_FALSE(expected.empty());
  }
}

TEST(SweepAndPrune, EqualStartsAndEmptyFlagSpans) {
  // Many boxes with the same lo.x: the tie-break must not lose pairs.
  std::vector<Aabb2> boxes(6, Aabb2{Vec2(0, 0), Vec2(1, 1)});
  for (int i = 0; i < 6; ++i) boxes[i].lo.y() = boxes[i].hi.y() = Real(i);  // chain in y
  std::vector<BodyPair> pairs;
  BroadPhaseScratch scratch;
  sweep_and_prune(boxes, {}, {}, pairs, scratch);
  // Degenerate boxes (zero height) at y = i touch only themselves: none overlap.
  EXPECT_TRUE(pairs.empty());
  for (int i = 0; i < 6; ++i) boxes[i].hi.y() = boxes[i].lo.y() + 1;  // now i touches i+1
  sweep_and_prune(boxes, {}, {}, pairs, scratch);
  const std::vector<BodyPair> expected{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}};
  EXPECT_EQ(pairs, expected);
}

TEST(SweepAndPrune, AppendsAndSkipsStaticPairsAndAbsentBodies) {
  const std::vector<Aabb2> boxes(4, Aabb2{Vec2(0, 0), Vec2(1, 1)});  // all overlap
  const std::vector<std::uint8_t> is_static{1, 1, 0, 0}, present{1, 1, 1, 0};
  std::vector<BodyPair> pairs{{7, 8}};  // existing content is kept
  BroadPhaseScratch scratch;
  sweep_and_prune(boxes, is_static, present, pairs, scratch);
  const std::vector<BodyPair> expected{{7, 8}, {0, 2}, {1, 2}};
  EXPECT_EQ(pairs, expected);
}

TEST(SweepAndPrune, IndependentOfInputPermutation) {
  std::mt19937_64 rng(3);
  const int n = 120;
  std::vector<Aabb3> boxes;
  for (int i = 0; i < n; ++i) boxes.push_back(random_box<Aabb3, 3>(rng, 5.0, 1.0));
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<Aabb3> shuffled(n);
  for (int i = 0; i < n; ++i) shuffled[perm[i]] = boxes[i];
  std::vector<BodyPair> a, b;
  BroadPhaseScratch scratch;
  sweep_and_prune(boxes, {}, {}, a, scratch);
  sweep_and_prune(shuffled, {}, {}, b, scratch);
  // Map the shuffled result back to the original indices.
  std::vector<int> inverse(n);
  for (int i = 0; i < n; ++i) inverse[perm[i]] = i;
  for (BodyPair& p : b) {
    const int i = inverse[p.a], j = inverse[p.b];
    p = i < j ? BodyPair{i, j} : BodyPair{j, i};
  }
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

TEST(SweepAndPrune, RejectsBadInput) {
  std::vector<Aabb2> boxes(2, Aabb2{Vec2(0, 0), Vec2(1, 1)});
  std::vector<BodyPair> pairs;
  BroadPhaseScratch scratch;
  const std::vector<std::uint8_t> wrong_size{0};
  EXPECT_THROW(sweep_and_prune(boxes, wrong_size, {}, pairs, scratch), InputError);
  EXPECT_THROW(sweep_and_prune(boxes, {}, wrong_size, pairs, scratch), InputError);
  boxes[1].lo.x() = std::numeric_limits<Real>::quiet_NaN();
  EXPECT_THROW(sweep_and_prune(boxes, {}, {}, pairs, scratch), InputError);
  // An absent body's box is not looked at.
  const std::vector<std::uint8_t> present{1, 0};
  EXPECT_NO_THROW(sweep_and_prune(boxes, {}, present, pairs, scratch));
  boxes[1].lo.x() = 2;  // lo > hi
  EXPECT_THROW(sweep_and_prune(boxes, {}, {}, pairs, scratch), InputError);
}

TEST(SweptAabb, CoversBothConfigurationsPlusMargin) {
  const Aabb2 now{Vec2(0, 0), Vec2(1, 1)}, later{Vec2(0.5, -2), Vec2(3, 0.5)};
  const Aabb2 s = swept_aabb(now, later, 0.1);
  EXPECT_EQ(s.lo, Vec2(-0.1, -2.1));
  EXPECT_EQ(s.hi, Vec2(3.1, 1.1));
  const Aabb3 s3 =
      swept_aabb(Aabb3{Vec3(0, 0, 0), Vec3(1, 1, 1)}, Aabb3{Vec3(-1, 0.5, 2), Vec3(0, 2, 3)}, 0.0);
  EXPECT_EQ(s3.lo, Vec3(-1, 0, 0));
  EXPECT_EQ(s3.hi, Vec3(1, 2, 3));
  EXPECT_THROW(swept_aabb(now, later, -1.0), InputError);
}

}  // namespace
}  // namespace exactsim
