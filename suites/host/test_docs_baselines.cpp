// The numbers docs/ci.md gives for the committed baselines (cases, verdict counts, commit, date,
// wall time) are the files' own: each row of its baselines table is checked against its file, and
// every file in ci/baselines has a row. Before 2026-11-28 the docs quoted 4,866 cases and 21.9 s
// for an H100 baseline that held 5,072 cases and 32.2 s.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "harness/util/input_file.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream ss(row);
  std::string c;
  std::getline(ss, c, '|');  // before the first bar
  while (std::getline(ss, c, '|')) {
    const auto b = c.find_first_not_of(' '), e = c.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : c.substr(b, e - b + 1));
  }
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

std::string no_commas(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  return s;
}

}  // namespace

TEST_CASE("docs/ci.md's table of the baselines says what each file in ci/baselines holds", "[host][docs]") {
  namespace fs = std::filesystem;
  const fs::path root = source_root();
  const std::string doc = read_text((root / "docs/ci.md").string());
  const auto begin = doc.find("<!-- baselines:"), end = doc.find("<!-- end of baselines -->");
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  std::stringstream table(doc.substr(begin, end - begin));
  std::set<std::string> rows;
  for (std::string line; std::getline(table, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::vector<std::string> c = cells(line);
    REQUIRE(c.size() == 12);
    const std::string file = c[0].substr(1, c[0].size() - 2);
    INFO("docs/ci.md row of " << file);
    rows.insert(file);
    REQUIRE(fs::exists(root / "ci/baselines" / file));
    const auto j = nlohmann::json::parse(read_input_file((root / "ci/baselines" / file).string()));
    const auto& s = j["summary"];
    const std::string codegen = j["run"]["toolchain"]["codegen"];
    CHECK(c[1] == j["device"]["name"].get<std::string>());
    CHECK(c[2] == (codegen == "ptxas" ? j["run"]["toolchain"]["compiler"].get<std::string>() : codegen));
    CHECK(c[3] == j["suite"]["commit"].get<std::string>());
    CHECK(c[4] == j["run"]["started"].get<std::string>().substr(0, 10));
    CHECK(no_commas(c[5]) == std::to_string(j["cases"].size()));
    CHECK(no_commas(c[5]) == std::to_string(s["total"].get<int>()));
    CHECK(no_commas(c[6]) == std::to_string(s["pass"].get<int>()));
    CHECK(c[7] == std::to_string(s["fail"].get<int>()));
    CHECK(c[8] == std::to_string(s["recorded"].get<int>()));
    CHECK(c[9] == std::to_string(s["not-supported"].get<int>()));
    CHECK(c[10] == std::to_string(s["planned"].get<int>()));
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.1f", j["run"]["wall_s"].get<double>());
    CHECK(c[11] == wall);
  }
  // Every results file of the folder (and its nodes/) has its row.
  for (const auto& e : fs::recursive_directory_iterator(root / "ci/baselines")) {
    const std::string rel = fs::relative(e.path(), root / "ci/baselines").string();
    if (e.is_regular_file() && rel.size() > 8 && rel.compare(rel.size() - 8, 8, ".json.gz") == 0 && rel.find(".node.") == std::string::npos) {
      INFO(rel << " has no row in docs/ci.md's baselines table");
      CHECK(rows.count(rel) == 1);
    }
  }
  CHECK(rows.size() >= 6);
}

TEST_CASE("the docs quote no count or time of a baseline outside that table", "[host][docs]") {
  const std::filesystem::path root = source_root();
  // The stale figures of 2026-11-23 and -26 (the H100's SASS baseline of then): gone for good.
  for (const char* doc : {"docs/ci.md", "docs/code-paths.md", "reporters/README.md"}) {
    const std::string text = read_text((root / doc).string());
    INFO(doc);
    CHECK(text.find("1,789 pass") == std::string::npos);
    CHECK(text.find("4,866 cases (") == std::string::npos);
    CHECK(text.find(", 21.9 s,") == std::string::npos);
  }
}
