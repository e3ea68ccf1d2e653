#include "harness/spec/machine_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace cuconform {

std::string find_absolute_path(const std::string& text, std::size_t* pos) {
  // After the start or a delimiter (space, quote, bracket, '=' or ':'), '/' then at least one
  // "name/" and a name: "/work/shared/x.md", "/usr/local/cuda/bin". "https://a/b" is not one
  // (its '/' follows ':' but the next character is '/').
  static const std::regex path_re("(^|[\\s\"'`(\\[<=:,;])(/[A-Za-z0-9_.+~-]+(/[A-Za-z0-9_.+~-]+)+/?)");
  std::smatch m;
  if (!std::regex_search(text, m, path_re)) return "";
  if (pos) *pos = static_cast<std::size_t>(m.position(2));
  return m[2].str();
}

std::vector<SpecError> absolute_paths_in_findings(const std::string& findings_dir) {
  namespace fs = std::filesystem;
  std::vector<SpecError> out;
  std::error_code ec;
  if (!fs::is_directory(findings_dir, ec)) return out;
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(findings_dir, ec))
    if (fs::is_regular_file(e.path() / "README.md", ec)) files.push_back(e.path() / "README.md");
  if (fs::is_regular_file(fs::path(findings_dir) / "README.md", ec)) files.push_back(fs::path(findings_dir) / "README.md");
  std::sort(files.begin(), files.end());
  for (auto& f : files) {
    std::ifstream in(f);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      std::size_t at = 0;
      const std::string p = find_absolute_path(line, &at);
      if (!p.empty())
        out.push_back({{f.string(), n, static_cast<int>(at) + 1},
                       "absolute path '" + p + "': cite by a path relative to the project (../shared/...) or name the tool ($CUDA_HOME/bin/...)"});
    }
  }
  return out;
}

}  // namespace cuconform
