// The replay page template (replay_page.cc): HTML, CSS and a hand-written Canvas renderer, with
// the data document inlined. Internal to the viewer layer.
#pragma once

#include <string>

namespace exactsim {

// The complete page around `data_json` (a JSON document; "</" in it is escaped here).
std::string replay_page(const std::string& data_json);

}  // namespace exactsim
