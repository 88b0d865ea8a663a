// The independent parts of a body-space MLCP (docs/solvers.md "The working set's parts"): the
// connected components of the graph whose nodes are the rows and the bodies, a row joined to the
// bodies its columns of G and H touch and to the rows D couples it with.
#include <algorithm>
#include <numeric>

#include "exactsim/solvers/sparse_mlcp.h"
#include "solvers/union_find.h"

namespace exactsim {

void split_parts(const SparseMlcp& p, MlcpParts& out) {
  const int m = p.size(), blocks = static_cast<int>(p.M.blocks.size());
  // Nodes: rows 0 … m−1, bodies m … m + blocks − 1.
  auto& parent = out.parent;
  parent.resize(m + blocks);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<char> touches(m, 0);
  for (int j = 0; j < m; ++j) {
    for (const BlockColumns* a : {&p.g, &p.h})
      for (int e = a->begin[j]; e < a->begin[j + 1]; ++e) {
        union_join(parent, j, m + a->block[e]);
        touches[j] = 1;
      }
    for (SparseRowMatX::InnerIterator e(p.D, j); e; ++e)
      if (e.col() != j) {
        union_join(parent, j, static_cast<int>(e.col()));
        touches[j] = 1;
      }
    if (p.bilateral > 0 || (!touches[j] && j > 0)) union_join(parent, j, 0);
  }
  // Parts numbered by their first row; each part's rows and bodies ascending.
  auto& part_of_root = out.root_part;
  part_of_root.assign(m + blocks, -1);
  out.part_of_row.resize(m);
  out.local_row.resize(m);
  std::vector<int> rows_in, blocks_in;
  for (int j = 0; j < m; ++j) {
    int& k = part_of_root[union_root(parent, j)];
    if (k < 0) {
      k = static_cast<int>(rows_in.size());
      rows_in.push_back(0);
      blocks_in.push_back(0);
    }
    out.part_of_row[j] = k;
    out.local_row[j] = rows_in[k]++;
  }
  const int parts = static_cast<int>(rows_in.size());
  for (int b = 0; b < blocks; ++b)
    if (const int k = part_of_root[union_root(parent, m + b)]; k >= 0) ++blocks_in[k];
  out.row_begin.assign(parts + 1, 0);
  out.block_begin.assign(parts + 1, 0);
  for (int k = 0; k < parts; ++k) {
    out.row_begin[k + 1] = out.row_begin[k] + rows_in[k];
    out.block_begin[k + 1] = out.block_begin[k] + blocks_in[k];
  }
  out.rows.resize(m);
  for (int j = 0; j < m; ++j) out.rows[out.row_begin[out.part_of_row[j]] + out.local_row[j]] = j;
  out.blocks.resize(out.block_begin[parts]);
  std::vector<int> fill(out.block_begin.begin(), out.block_begin.end() - 1);
  for (int b = 0; b < blocks; ++b)
    if (const int k = part_of_root[union_root(parent, m + b)]; k >= 0) out.blocks[fill[k]++] = b;
}

void part_problem(const SparseMlcp& p, const MlcpParts& parts, int k, SparseMlcp& out) {
  const int first_block = parts.block_begin[k], nb = parts.block_begin[k + 1] - first_block;
  const int first_row = parts.row_begin[k], n = parts.row_begin[k + 1] - first_row;
  // Bodies: the part's blocks of M and entries of c, renumbered 0 … nb − 1 in their (ascending)
  // order, found by bisection.
  const int* part_blocks = parts.blocks.data() + first_block;
  const auto local_block = [&](int b) {
    return static_cast<int>(std::lower_bound(part_blocks, part_blocks + nb, b) - part_blocks);
  };
  out.M.offsets.clear();
  out.M.blocks.clear();
  int nv = 0;
  for (int q = 0; q < nb; ++q) {
    const int b = part_blocks[q];
    out.M.add_block(p.M.blocks[b]);
    nv += static_cast<int>(p.M.blocks[b].rows());
  }
  out.c.resize(nv);
  for (int q = 0; q < nb; ++q) {
    const int b = part_blocks[q];
    const int size = static_cast<int>(p.M.blocks[b].rows());
    out.c.segment(out.M.offsets[q], size) = p.c.segment(p.M.offsets[b], size);
  }
  // Rows: G, H, D and r at the part's rows, in their order.
  for (auto [from, to] : {std::pair{&p.g, &out.g}, std::pair{&p.h, &out.h}}) {
    to->pending.clear();
    for (int q = 0; q < n; ++q) {
      const int j = parts.rows[first_row + q];
      for (int e = from->begin[j]; e < from->begin[j + 1]; ++e)
        to->add(q, local_block(from->block[e]), from->values[e]);
    }
    to->compress(n, nb);
  }
  out.r.resize(n);
  out.D.resize(n, n);
  std::vector<Eigen::Triplet<Real>> t;
  for (int q = 0; q < n; ++q) {
    const int j = parts.rows[first_row + q];
    out.r[q] = p.r[j];
    for (SparseRowMatX::InnerIterator e(p.D, j); e; ++e)
      t.emplace_back(q, parts.local_row[e.col()], e.value());
  }
  out.D.setFromTriplets(t.begin(), t.end());
  out.bilateral = p.bilateral;
}

}  // namespace exactsim
