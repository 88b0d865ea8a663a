// LCP files (lcp_io.h): exact text round trip with hexadecimal floats, sparse M.
#include "exactsim/solvers/lcp_io.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  std::ostringstream msg;
  msg << path << ":" << line << ": " << what;
  throw InputError(msg.str());
}

std::string hex(Real v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

}  // namespace

void write_lcp(const std::string& path, const Lcp& lcp, const LcpFileInfo& info) {
  std::ofstream out(path);
  if (!out) throw InputError("write_lcp: cannot open " + path + " for writing");
  const Eigen::Index n = lcp.q.size();
  out << "exactsim-lcp 1\nn " << n << "\n";
  if (info.impulse_scale > 0) out << "impulse_scale " << hex(info.impulse_scale) << "\n";
  std::istringstream notes(info.note);
  for (std::string line; std::getline(notes, line);) out << "note " << line << "\n";
  out << "q\n";
  for (Eigen::Index i = 0; i < n; ++i) out << hex(lcp.q(i)) << "\n";
  long nnz = 0;
  for (Eigen::Index k = 0; k < lcp.M.size(); ++k) nnz += lcp.M.data()[k] != 0.0;
  out << "M " << nnz << "\n";
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      if (lcp.M(i, j) != 0.0) out << i << " " << j << " " << hex(lcp.M(i, j)) << "\n";
  if (!out) throw InputError("write_lcp: error writing " + path);
}

Lcp read_lcp(const std::string& path, LcpFileInfo* info) {
  std::ifstream in(path);
  if (!in) throw InputError("read_lcp: cannot open " + path);
  int line_no = 0;
  std::string line;
  const auto next = [&]() -> bool {
    while (std::getline(in, line)) {
      ++line_no;
      if (!line.empty() && line[0] != '#') return true;
    }
    return false;
  };
  const auto number = [&](const std::string& s) -> Real {
    char* end = nullptr;
    const Real v = std::strtod(s.c_str(), &end);
    if (end == s.c_str()) fail(path, line_no, "expected a number, got '" + s + "'");
    return v;
  };
  if (!next() || line.rfind("exactsim-lcp 1", 0) != 0)
    fail(path, line_no, "not an exactsim-lcp version 1 file");
  if (!next() || line.rfind("n ", 0) != 0) fail(path, line_no, "expected 'n <size>'");
  const long n = std::strtol(line.c_str() + 2, nullptr, 10);
  if (n < 0 || n > 100000) fail(path, line_no, "bad size");
  LcpFileInfo local;
  LcpFileInfo& meta = info ? *info : local;
  meta = LcpFileInfo{};
  Lcp lcp{MatX::Zero(n, n), VecX::Zero(n)};
  while (next() && line != "q") {
    if (line.rfind("impulse_scale ", 0) == 0) {
      meta.impulse_scale = number(line.substr(14));
    } else if (line.rfind("note", 0) == 0) {
      if (!meta.note.empty()) meta.note += "\n";
      meta.note += line.size() > 5 ? line.substr(5) : "";
    } else {
      fail(path, line_no, "unexpected line '" + line + "'");
    }
  }
  if (line != "q") fail(path, line_no, "missing 'q'");
  for (long i = 0; i < n; ++i) {
    if (!next()) fail(path, line_no, "q ends early");
    lcp.q(i) = number(line);
  }
  if (!next() || line.rfind("M ", 0) != 0) fail(path, line_no, "expected 'M <nnz>'");
  const long nnz = std::strtol(line.c_str() + 2, nullptr, 10);
  for (long k = 0; k < nnz; ++k) {
    if (!next()) fail(path, line_no, "M ends early");
    std::istringstream row(line);
    long i = -1, j = -1;
    std::string v;
    row >> i >> j >> v;
    if (i < 0 || j < 0 || i >= n || j >= n || v.empty()) fail(path, line_no, "bad entry");
    lcp.M(i, j) = number(v);
  }
  validate_lcp(lcp, ("read_lcp " + path).c_str());
  return lcp;
}

const std::string& lcp_dump_dir() {
  static const std::string dir = [] {
    const char* v = std::getenv("EXACTSIM_DUMP_LCP");
    return std::string(v ? v : "");
  }();
  return dir;
}

bool lcp_dump_all() {
  static const bool all = [] {
    const char* v = std::getenv("EXACTSIM_DUMP_LCP_ALL");
    return v != nullptr && std::string(v) == "1";
  }();
  return all;
}

std::string dump_lcp(const Lcp& lcp, const LcpFileInfo& info, const char* tag) {
  const std::string& dir = lcp_dump_dir();
  if (dir.empty()) return "";
  static std::atomic<long> counter{0};
  char name[128];
  std::snprintf(name, sizeof name, "/lcp-%ld-%06ld-%s.lcp", static_cast<long>(::getpid()),
                counter++, tag);
  const std::string path = dir + name;
  try {
    write_lcp(path, lcp, info);
  } catch (...) {
    return "";
  }
  return path;
}

}  // namespace exactsim
