// Small helpers shared by the reproduce commands (plus, peg2d, peg3d, plus-vs-compliant): model
// names, number formatting for tables, and writing a result file.
#pragma once

#include <filesystem>
#include <string>

#include "exactsim/stepping/world.h"

namespace exactsim::cli {

// "peg", "standard" or "corrective"; InputError naming --models otherwise.
ContactModel parse_model(const std::string& name);
// Three significant digits, for Markdown tables.
std::string fmt(Real x);
// Six significant digits, for CSV cells.
std::string g(Real x);
// x rounded to six significant digits: plenty for a metric plotted on a log axis, and it keeps
// the per-run files small (≈ 10 bytes per value instead of 20).
Real compact(Real x);
// Writes `text` to `path`; InputError if the file cannot be written.
void write_text_file(const std::filesystem::path& path, const std::string& text);

}  // namespace exactsim::cli
