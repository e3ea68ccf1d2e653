#include "harness/spec/yaml_files.hpp"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace cuconform {

std::vector<std::string> yaml_files_in(const std::string& dir, std::vector<SpecError>* errors, const std::string& skip) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec) {
    errors->push_back({SourceLoc{dir, 0, 0}, "cannot list the folder: " + ec.message()});
    return files;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      errors->push_back({SourceLoc{dir, 0, 0}, "cannot list the folder: " + ec.message()});
      break;
    }
    const fs::path& p = it->path();
    if (p.extension() != ".yaml" || p.filename() == skip) continue;
    std::error_code sec;
    fs::file_status st = fs::status(p, sec);
    if (sec) errors->push_back({SourceLoc{p.string(), 0, 0}, "cannot read it: " + sec.message()});
    else if (fs::is_regular_file(st)) files.push_back(p.string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace cuconform
