#include "sweep_format.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "exactsim/math/error.h"

namespace exactsim::cli {

ContactModel parse_model(const std::string& name) {
  if (name == "standard") return ContactModel::kStandard;
  if (name == "peg") return ContactModel::kPeg;
  if (name == "corrective") return ContactModel::kCorrective;
  throw InputError("--models: unknown model '" + name + "' (expected peg, standard or corrective)");
}

namespace {
std::string with_digits(Real x, const char* format) {
  char b[32];
  std::snprintf(b, sizeof b, format, x);
  return b;
}
}  // namespace

std::string fmt(Real x) { return with_digits(x, "%.3g"); }
std::string g(Real x) { return with_digits(x, "%.6g"); }
Real compact(Real x) { return std::strtod(g(x).c_str(), nullptr); }

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) throw InputError(path.string() + ": cannot write");
  out << text;
}

}  // namespace exactsim::cli
