// compare under the contract (docs/contract.md): across suite versions only cases of the same
// definition are judged (added, removed and redefined listed apart), an expired waiver gates
// again, a rule in shadow fails without gating, `--gate-tier` leaves other tiers out of the gate;
// `lint` warns before a waiver expires, reports list the waivers by expiry.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "harness/util/gzip.hpp"
#include "harness/util/input_file.hpp"
#include "harness/util/json_write.hpp"
#include "reporters/contract_compare.hpp"
#include "reporters/manifest.hpp"
#include "reporters/waivers.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

// A small run of suite `version` whose cases carry tier, shadow and definition: every case passes
// unless named in `failing`.
struct Made {
  std::string name, tier = "core", definition = "00000000000000aa";
  bool shadow = false, fails = false;
};
std::string made_run(const std::string& dir, const std::string& file, const std::string& version, const std::vector<Made>& cases) {
  auto s = synthetic_run();
  Json j = Json::parse(results_json(s->run));
  j["suite"]["version"] = version;
  Json out = Json::array();
  const Json templ = j["cases"][0];
  for (const Made& m : cases) {
    Json c = templ;
    c["name"] = m.name;
    c["rule"] = m.name.substr(0, m.name.rfind('.'));
    c["area"] = "contract";
    c["tier"] = m.tier;
    c["definition"] = m.definition;
    if (m.shadow) c["shadow"] = true;
    c["verdict"] = m.fails ? "fail" : "pass";
    c["reason"] = m.fails ? "observed differs from expected" : "";
    out.push_back(c);
  }
  j["cases"] = out;
  const std::string path = dir + "/" + file;
  write_text(path, json_text(j, true));
  return path;
}

std::string known_file(const std::string& dir, const std::string& body) {
  write_text(dir + "/known.yaml", body);
  return dir + "/known.yaml";
}

}  // namespace

TEST_CASE("compare of a run of 1.0.0 against the H200 baseline of 0.1.0: added, removed and redefined apart, exit 0", "[host][contract]") {
  // The baseline was written before definitions existed: its manifest (releases/0.1.0/, made from
  // the specs of its commit) gives them. NEW is derived from it as a run of this version would
  // differ: 150 cases added (10 failing), 1 removed, 3 redefined that now fail, one failing case of
  // a rule in shadow.
  const std::string dir = temp_dir("contract-h200");
  const std::string base_path = std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H200_driver-580.159.04.json.gz";
  Json j = Json::parse(read_input_file(base_path));
  REQUIRE(j["suite"]["commit"] == "4281244");
  const std::string releases = releases_dir_beside(CUCONFORM_SOURCE_SPECS_DIR);
  const std::string mpath = find_manifest(releases, "0.1.0", "4281244");
  REQUIRE_FALSE(mpath.empty());
  Manifest m = load_manifest(mpath);
  j["suite"]["version"] = CUCONFORM_VERSION;
  j["suite"]["commit"] = "0000000";
  Json cases = Json::array();
  int redefined = 0, shadowed = 0, index = 0;
  for (Json c : j["cases"]) {
    const ManifestCase* mc = m.find(c["name"].get<std::string>());
    REQUIRE(mc);
    c["definition"] = mc->definition;
    c["tier"] = mc->tier;
    if (index++ == 17) continue;  // removed
    if (c["verdict"] == "pass" && redefined < 3) {
      c["definition"] = "ffffffffffffff0" + std::to_string(redefined++);
      c["verdict"] = "fail";
    } else if (c["verdict"] == "pass" && c["kind"] == "positive" && shadowed < 1) {
      ++shadowed;
      c["shadow"] = true;
      c["verdict"] = "fail";
    }
    cases.push_back(c);
  }
  const Json first = cases[0];
  for (int i = 0; i < 150; ++i) {
    Json c = first;
    c["name"] = first["name"].get<std::string>() + ".added" + std::to_string(i);
    c["definition"] = "1234567812345678";
    c["verdict"] = i < 10 ? "fail" : "pass";
    cases.push_back(c);
  }
  j["cases"] = cases;
  const std::string now_path = dir + "/now.json";
  write_text(now_path, json_text(j, true));

  Exe e = cuconform_cli("compare '" + base_path + "' '" + now_path + "'", "env -u CUCONFORM_KNOWN");
  INFO(e.out.substr(e.out.size() > 6000 ? e.out.size() - 6000 : 0));
  CHECK(e.rc == 0);
  CHECK(has(e.out, "contract: BASE suite 0.1.0 (4281244), NEW suite " CUCONFORM_VERSION "; BASE's case definitions from " + mpath));
  CHECK(has(e.out, "150 added, 1 removed, 3 redefined, 11 in shadow"));  // the shadow rule's case and the 10 added that fail
  CHECK(has(e.out, "REDEFINED: the rule's definition changed between the suite versions (not judged) (3)"));
  CHECK(has(e.out, "SHADOW: would gate, but the rule is in shadow or the case is new since BASE's version (report-only until promoted; not gating) (11)"));
  CHECK(has(e.out, "new failure, but the case is new since BASE's suite version (report-only until promoted)"));
  CHECK(has(e.out, "RESULT: no regression (exit 0)"));

  // Without BASE's definitions the same two files are judged by name: the redefined cases (and
  // the added ones that fail) are new failures, and the removed case is missing from NEW, which
  // the gate fails closed on (not judged).
  Fleet base = load_results(base_path), now = load_results(now_path);
  KnownList known = load_known(CUCONFORM_KNOWN_FILE);
  CompareResult by_name = compare_runs(base, now, &known, Tolerances{});
  apply_contract(base, now, &known, ContractOptions{{}, ""}, &by_name);
  CHECK(by_name.regressions() == 3 + 10 + 1);
  CHECK(has(by_name.contract, "judged by name alone"));
}

TEST_CASE("an expired waiver gates again; lint warns before it expires", "[host][contract]") {
  const std::string dir = temp_dir("contract-waiver");
  const std::vector<Made> runs = {{"contract.w.one.a", "core", "00000000000000aa", false, true}, {"contract.w.one.b"}};
  const std::string base = made_run(dir, "base.json", CUCONFORM_VERSION, runs), now = made_run(dir, "now.json", CUCONFORM_VERSION, runs);
  const std::string known = known_file(dir, R"(known_failures:
  - id: contract.w.one.a
    class: runtime
    reason: a finding the test waives
    owner: someone@example.org
    expires: 2026-12-31
    link: findings/contract.w.one
)");
  const std::string args = "compare '" + base + "' '" + now + "' --known '" + known + "'";
  Exe in_force = cuconform_cli(args, "CUCONFORM_TODAY=2026-12-31");
  INFO(in_force.out);
  CHECK(in_force.rc == 0);
  CHECK(has(in_force.out, "WAIVERS IN FORCE (by expiry, judged on 2026-12-31)"));
  CHECK(has(in_force.out, "2026-12-31  contract.w.one.a  1 case(s), owner someone@example.org, findings/contract.w.one"));
  Exe expired = cuconform_cli(args, "CUCONFORM_TODAY=2027-01-01");
  INFO(expired.out);
  CHECK(expired.rc == 1);
  CHECK(has(expired.out, "waiver expired: contract.w.one.a"));
  CHECK(has(expired.out, "until 2026-12-31, owner someone@example.org: expired (judged on 2027-01-01)"));
  CHECK(has(expired.out, "RESULT: REGRESSION (exit 1)"));
  CHECK(cuconform_cli(args, "CUCONFORM_TODAY=2027-13-01").rc == 2);  // not a date: bad input

  Exe lint = cuconform_cli("lint", "CUCONFORM_KNOWN='" + known + "' CUCONFORM_TODAY=2026-12-10");
  INFO(lint.out);
  CHECK(lint.rc == 0);
  CHECK(has(lint.out, "known entry contract.w.one.a expires on 2026-12-31 (in 21 days, owner someone@example.org)"));
  Exe lint_late = cuconform_cli("lint", "CUCONFORM_KNOWN='" + known + "' CUCONFORM_TODAY=2027-01-02");
  CHECK(has(lint_late.out, "known entry contract.w.one.a expired on 2026-12-31"));
  Exe lint_early = cuconform_cli("lint", "CUCONFORM_KNOWN='" + known + "' CUCONFORM_TODAY=2026-10-01");
  CHECK_FALSE(has(lint_early.out, "contract.w.one.a expire"));
}

TEST_CASE("the project's known list: every entry is a waiver with an owner, an expiry and a link", "[host][contract]") {
  KnownList known = load_known(CUCONFORM_KNOWN_FILE);
  for (auto* list : {&known.failures, &known.flakes})
    for (const KnownEntry& e : *list) {
      INFO(e.where << " " << e.what());
      CHECK_FALSE(e.owner.empty());
      CHECK(is_iso_date(e.expires));
      CHECK_FALSE(e.link.empty());
      // A link into the tree names something that is there.
      const std::string file = e.link.substr(0, e.link.find('#'));
      CHECK(std::filesystem::exists(std::filesystem::path(CUCONFORM_SOURCE_SPECS_DIR).parent_path() / file));
    }
}

TEST_CASE("a rule in shadow fails without gating; a tier outside --gate-tier does not gate", "[host][contract]") {
  const std::string dir = temp_dir("contract-shadow");
  const std::string base = made_run(dir, "base.json", CUCONFORM_VERSION, {{"contract.s.one.a"}, {"contract.s.two.a", "extended"}});
  const std::string shadow = made_run(dir, "shadow.json", CUCONFORM_VERSION,
                                      {{"contract.s.one.a", "core", "00000000000000aa", true, true}, {"contract.s.two.a", "extended"}});
  const std::string gating = made_run(dir, "gating.json", CUCONFORM_VERSION,
                                      {{"contract.s.one.a", "core", "00000000000000aa", false, true}, {"contract.s.two.a", "extended"}});
  Exe s = cuconform_cli("compare '" + base + "' '" + shadow + "'");
  INFO(s.out);
  CHECK(s.rc == 0);
  CHECK(has(s.out, "shadow: contract.s.one.a"));
  CHECK(has(s.out, "new failure, but rule contract.s.one is in shadow (report-only until promoted)"));
  CHECK(cuconform_cli("compare '" + base + "' '" + gating + "'").rc == 1);  // promoted: the same failure gates

  const std::string extended = made_run(dir, "extended.json", CUCONFORM_VERSION,
                                        {{"contract.s.one.a"}, {"contract.s.two.a", "extended", "00000000000000aa", false, true}});
  CHECK(cuconform_cli("compare '" + base + "' '" + extended + "'").rc == 1);  // every tier gates by default
  Exe core = cuconform_cli("compare '" + base + "' '" + extended + "' --gate-tier core");
  INFO(core.out);
  CHECK(core.rc == 0);
  CHECK(has(core.out, "new failure, but tier extended is not gated (--gate-tier core)"));
  CHECK(cuconform_cli("compare '" + base + "' '" + extended + "' --gate-tier core,extended").rc == 1);
  Exe bad = cuconform_cli("compare '" + base + "' '" + extended + "' --gate-tier gate");
  CHECK(bad.rc == 2);
  CHECK(has(bad.out, "--gate-tier takes core, extended or informational"));
}

TEST_CASE("a report lists the waivers the run used, soonest expiry first", "[host][contract]") {
  const std::string dir = temp_dir("contract-report");
  const std::string run = made_run(dir, "run.json", CUCONFORM_VERSION,
                                   {{"contract.r.late.a", "core", "00000000000000aa", false, true},
                                    {"contract.r.soon.a", "core", "00000000000000aa", false, true}});
  const std::string known = known_file(dir, R"(known_failures:
  - id: contract.r.late
    class: runtime
    reason: later
    owner: a@example.org
    expires: 2027-06-30
    link: findings/x
  - id: contract.r.soon
    class: performance
    reason: sooner
    owner: b@example.org
    expires: 2027-01-31
    link: findings/y
)");
  Exe e = cuconform_cli("report '" + run + "' --known '" + known + "'", "CUCONFORM_TODAY=2026-12-01");
  INFO(e.out);
  REQUIRE(e.rc == 0);
  const std::size_t soon = e.out.find("| 2027-01-31 | `contract.r.soon` | performance | b@example.org | 1 | findings/y |");
  const std::size_t late = e.out.find("| 2027-06-30 | `contract.r.late` | runtime | a@example.org | 1 | findings/x |");
  CHECK(has(e.out, "## Waivers in force (by expiry, judged on 2026-12-01)"));
  CHECK(soon != std::string::npos);
  CHECK(late != std::string::npos);
  CHECK(soon < late);
}
