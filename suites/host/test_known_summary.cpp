// `cuconform run` counts its failures against the known list: known findings by class, known
// flakes, and the new ones by name (reporters/known_summary.hpp).
#include <catch2/catch.hpp>

#include "reporters/known_summary.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

CaseRow row(const std::string& name, Verdict v) {
  CaseRow c;
  c.name = name;
  c.rule = name.substr(0, name.rfind('.'));
  Outcome o;
  o.verdict = v;
  c.by_run.push_back(o);
  return c;
}

KnownList known_list(const std::string& dir) {
  write_text(dir + "/known.yaml", R"(known_failures:
  - id: x.found.case
    class: runtime
    reason: a recorded finding
  - regex: '^x\.fixed\.'
    class: tool-accepts-forbidden
    reason: listed, passes in this run
known_flakes:
  - id: x.noisy.case
    reason: a recorded dip
)");
  return load_known(dir + "/known.yaml");
}

}  // namespace

TEST_CASE("run's summary counts failures against the known list and names the new ones", "[host][reporters]") {
  const std::string dir = temp_dir("known-summary");
  const KnownList known = known_list(dir);
  Fleet f;
  f.runs.emplace_back();
  for (auto [name, v] : std::vector<std::pair<std::string, Verdict>>{{"x.ok.case", Verdict::pass},
                                                                     {"x.found.case", Verdict::fail},
                                                                     {"x.fixed.case", Verdict::pass},
                                                                     {"x.noisy.case", Verdict::fail},
                                                                     {"x.broken.case", Verdict::crash},
                                                                     {"x.slow.case", Verdict::timeout},
                                                                     {"x.gone.case", Verdict::not_supported}})
    f.cases.push_back(row(name, v));
  const std::string s = known_failures_summary(f, known);
  INFO(s);
  CHECK(s.find("of 4 failure(s): 1 known finding(s) (runtime 1), 1 known flake(s), 2 new (" + dir + "/known.yaml)") == 0);
  CHECK(s.find("NEW (not in the known list): x.broken.case, x.slow.case\n") != std::string::npos);

  // Only known findings: no NEW line; no failure at all: nothing to say.
  f.cases.erase(f.cases.begin() + 3, f.cases.end());
  CHECK(known_failures_summary(f, known).find("NEW") == std::string::npos);
  CHECK(known_failures_summary(f, known).find("0 new") != std::string::npos);
  f.cases.erase(f.cases.begin() + 1);
  CHECK(known_failures_summary(f, known).empty());
}

TEST_CASE("run --known names a known list it cannot read and runs nothing", "[host][cli]") {
  const std::string dir = temp_dir("known-bad");
  Exe missing = cuconform_cli("run --rule 'ldgsts.ptx.*' --known '" + dir + "/none.yaml' --out '" + dir + "/r'");
  INFO(missing.out);
  CHECK(missing.rc == 2);
  CHECK(missing.out.find("known list") != std::string::npos);
  CHECK(missing.out.find(dir + "/none.yaml") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/r"));

  write_text(dir + "/bad.yaml", "known_failures:\n  - class: runtime\n    reason: names no case\n");
  Exe bad = cuconform_cli("run --rule 'ldgsts.ptx.*' --known '" + dir + "/bad.yaml' --out '" + dir + "/r'");
  INFO(bad.out);
  CHECK(bad.rc == 2);
  CHECK(bad.out.find(dir + "/bad.yaml:2") != std::string::npos);
}
