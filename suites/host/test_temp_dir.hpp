#pragma once
// A fresh temporary folder for a host test, named for it and for this process, so that two
// copies of the tests running at once (CTest -j, a stress run) never share one.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace cuconform::testing {

inline std::string temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("cuconform-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

}  // namespace cuconform::testing
