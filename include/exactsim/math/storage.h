// Resizing large dense buffers without giving their pages back (docs/solvers.md "Allocation").
#pragma once

#include "exactsim/math/types.h"

namespace exactsim {

// From this size on a block is resized by reallocation (below). glibc maps a block above its mmap
// threshold (128 KB, raised to the size of the last mapped block freed, up to 32 MB), so a buffer
// whose size creeps up from step to step is mapped anew, and faulted in anew, at every resize.
// 4 MB: on bench_scaling's 2D pile and 30-hull pour, 32 MB and 8 MB leave more page faults than
// 4 MB (docs/solvers.md "Allocation").
inline constexpr std::size_t kLargeBlockBytes = std::size_t(4) << 20;

// Whether `size` doubles make such a block.
inline bool is_large_block(Eigen::Index size) {
  return std::size_t(size) * sizeof(Real) >= kLargeBlockBytes;
}

// Resizes m to rows × cols, contents unspecified. A large block, before or after, is reallocated
// (std::realloc, which grows or trims a mapped block in place: the pages it keeps stay mapped,
// and only the pages a growth adds are faulted in when first written) instead of freed and
// allocated anew (on the 100-hull pile, the page faults had been a quarter of the run). Smaller
// blocks are resized as Eigen does, and the allocator reuses them.
inline void resize_keeping_pages(MatX& m, Eigen::Index rows, Eigen::Index cols) {
  if (m.rows() == rows && m.cols() == cols) return;
  if (m.size() != rows * cols && (is_large_block(m.size()) || is_large_block(rows * cols))) {
    m.resize(1, m.size());                 // the same size: no allocation
    m.conservativeResize(1, rows * cols);  // the rows unchanged: Eigen reallocates the storage
  }
  m.resize(rows, cols);
}

}  // namespace exactsim
