// Looking up last step's rows by name (docs/stepping.md "Warm start").
#include "exactsim/stepping/warm_start.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace exactsim {
namespace {

// The first row named `name` by a plain binary search (the oracle).
const WarmStart::Row* by_binary_search(const std::vector<WarmStart::Row>& rows,
                                       std::uint64_t name) {
  const auto it = std::lower_bound(rows.begin(), rows.end(), WarmStart::Row{name, false, 0});
  return it != rows.end() && it->name == name ? &*it : nullptr;
}

TEST(WarmStart, FindRowAgreesWithABinarySearch) {
  // Sets of uniform names (as the hashes are), names crowded at one end (the search starts at
  // a name's fraction of 2⁶⁴ and must widen far), repeated names (the first one), the extremes
  // 0 and 2⁶⁴ − 1, and names absent between, below and above the rows.
  std::mt19937_64 random(7);
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (int trial = 0; trial < 200; ++trial) {
    const int n = trial % 50 == 0 ? 0 : 1 + static_cast<int>(random() % 3000);
    std::vector<WarmStart::Row> rows;
    for (int i = 0; i < n; ++i) {
      std::uint64_t name = random();
      if (trial % 4 == 1) name >>= 40;                 // all near 0
      if (trial % 4 == 2) name = kMax - (name >> 40);  // all near 2⁶⁴
      rows.push_back({name, i % 2 == 0, static_cast<Real>(i)});
      if (trial % 3 == 0 && i % 7 == 0) rows.push_back({name, false, -1.0});  // a repeat
    }
    if (trial % 5 == 0) rows.push_back({0, true, 0});
    if (trial % 5 == 1) rows.push_back({kMax, true, 0});
    std::stable_sort(rows.begin(), rows.end());
    std::vector<std::uint64_t> probes = {0, 1, kMax, kMax - 1};
    for (const WarmStart::Row& r : rows) {
      probes.push_back(r.name);
      probes.push_back(r.name + 1);
      probes.push_back(r.name - 1);
    }
    for (int i = 0; i < 200; ++i) probes.push_back(random());
    for (const std::uint64_t name : probes)
      ASSERT_EQ(find_row(rows, name), by_binary_search(rows, name))
          << "trial " << trial << ", " << rows.size() << " rows, name " << name;
  }
}

}  // namespace
}  // namespace exactsim
