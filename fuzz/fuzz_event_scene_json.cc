// Fuzzes the event-driven (PLUS) scene reader (src/io/event_scene_json.cc): a scene or an
// InputError, nothing else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "exactsim/io/event_scene_json.h"
#include "io/json_cursor.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto doc = exactsim::io::parse_json_strict(text, "fuzz.json");
    exactsim::parse_event_scene(doc, "fuzz.json");
  } catch (const exactsim::InputError&) {
  }
  return 0;
}
