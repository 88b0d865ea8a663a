// Fuzzes the stand-alone impact-problem reader (src/impact/impact_problem_json.cc) through
// read_impact_problem, so its own strict parsing is covered: the input goes to a scratch file
// (in /dev/shm when it exists). A problem or an InputError, nothing else.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "exactsim/impact/impact_problem_json.h"
#include "exactsim/math/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = (std::filesystem::is_directory("/dev/shm")
                                       ? std::string("/dev/shm")
                                       : std::filesystem::temp_directory_path().string()) +
                                  "/exactsim-fuzz-impact-" + std::to_string(getpid()) + ".json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    exactsim::read_impact_problem(path);
  } catch (const exactsim::InputError&) {
  }
  return 0;
}
