// Test helper: fresh folders in the system's temporary directory, removed when the test program
// ends. ctest runs each test in a process of its own, so folders named for the process would
// otherwise pile up, a few with every run of the suite.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace exactsim {

// An empty folder `name`-<process id> in the temporary directory (removed first if it exists).
inline std::string fresh_temp_folder(const std::string& name) {
  struct Made {
    std::vector<std::filesystem::path> folders;
    ~Made() {
      std::error_code ignored;  // (a folder a test removed itself)
      for (const std::filesystem::path& f : folders) std::filesystem::remove_all(f, ignored);
    }
  };
  static Made made;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  made.folders.push_back(dir);
  return dir.string();
}

}  // namespace exactsim
