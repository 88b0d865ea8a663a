// resize_keeping_pages (exactsim/math/storage.h): the shape and the storage a resize leaves.
#include <gtest/gtest.h>

#include "exactsim/math/storage.h"
#include "sanitizers.h"

namespace exactsim {
namespace {

TEST(ResizeKeepingPages, GivesTheAskedShapeFromAnyStart) {
  MatX m;
  for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{
           {3, 4}, {4, 3}, {12, 12}, {1, 1}, {0, 5}, {7, 0}, {0, 0}, {300, 200}, {5, 5},
           // large blocks (4 MB or more), reallocated: growing, reshaped, trimmed, back to small
           {1500, 1000}, {1000, 1500}, {900, 900}, {3, 2}}) {
    resize_keeping_pages(m, rows, cols);
    ASSERT_EQ(m.rows(), rows);
    ASSERT_EQ(m.cols(), cols);
    m.setConstant(1.5);  // every entry writable (ASan checks the bounds)
    EXPECT_EQ(m.sum(), 1.5 * rows * cols);
  }
}

#if !EXACTSIM_ASAN
TEST(ResizeKeepingPages, TrimsALargeBlockInPlace) {
  // 2000² doubles (32 MB) are a memory mapping of their own; shrinking it reallocates in place
  // (glibc's realloc trims the mapping), where a plain resize would free it and map another.
  // Under AddressSanitizer realloc always moves, so the test is left to the plain build.
  MatX m(2000, 2000);
  m.setZero();
  const Real* storage = m.data();
  resize_keeping_pages(m, 1990, 1990);
  EXPECT_EQ(m.data(), storage);
  resize_keeping_pages(m, 1990 * 1990, 1);
  EXPECT_EQ(m.data(), storage);
}
#endif

}  // namespace
}  // namespace exactsim
