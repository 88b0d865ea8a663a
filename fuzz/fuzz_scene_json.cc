// Fuzzes the scene reader (src/io/scene_json.cc) from JSON text: every input is either a scene
// or an InputError; anything else (a crash, a sanitizer report, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "exactsim/io/scene_json.h"
#include "io/json_cursor.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto doc = exactsim::io::parse_json_strict(text, "fuzz.json");
    exactsim::parse_scene(doc, "fuzz.json");
  } catch (const exactsim::InputError&) {
  }
  return 0;
}
