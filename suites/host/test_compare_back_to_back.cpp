// compare, with no flag, of two back-to-back runs of one configuration (same commit, identical
// verdicts) exits 0, with and without --history; a real move still gates. report, with no flag,
// counts the same findings as known.
//
// BASE: the committed whole runs ci/baselines/NVIDIA-H100-80GB-HBM3_driver-580.159.04.json.gz and
// ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz (nvcc SASS; their cases: docs/ci.md). NEW: BASE as a second
// run of the same build would leave it: every verdict and recorded outcome the same, a hang
// recorded the other way ("timeout (worker killed)" for "timeout"), the wall time 21.9 -> 22.0 s
// (docs/runs/2026-11-26-b554d32.md: 21.9, 21.7, 22.0 s back to back), and every measurement of
// every case moved by run-to-run noise, alternately up and down:
//   - the gating noise classes (ci/baselines/known.yaml `tolerances:`) by the widest same-GPU
//     spread their evidence records (reporters/README.md, "Measurement noise"; H100 or H200,
//     whichever is wider): load latency 5.2%, copy throughput 11.3% (ratio 10.3%), global atomic
//     throughput 15.4% (ratio 26.6%), shared atomic throughput 2.7x;
//   - everything else (race and litmus counts, %globaltimer readings, spreads, SASS counts: the
//     class `informational`) by 2x. Derived from the baselines themselves: the H100's sass and
//     jit runs (same GPU and kernels, minutes apart) differ by more than 25% in 362 of their
//     9,979 shared measurements, and by 100% or more in 1% of them. Those moves are what made
//     such a compare say "310 regression(s) ... 310 measurement(s) moved" before compare read
//     the known list by default.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <regex>

#include "reporters/known_list.hpp"
#include "harness/util/input_file.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

// The widest same-GPU spread of a noise class, as a relative move.
double spread_of(const std::string& cls, const std::string& measurement) {
  if (cls == "load-latency") return 0.052;
  if (cls == "copy-throughput") return measurement == "ratio" ? 0.103 : 0.113;
  if (cls == "atomic-throughput-global") return measurement == "ratio" ? 0.266 : 0.154;
  if (cls == "atomic-throughput-shared") return 1.7;  // 2.7x
  return 1.0;                                         // informational: 2x
}

// How many cases of a results file failed.
int failures_in(const std::string& file) {
  const nlohmann::json run = nlohmann::json::parse(read_input_file(file));  // kept: the loop walks into it
  int n = 0;
  for (auto& c : run["cases"]) n += c["verdict"] == "fail";
  return n;
}

// BASE as the `nth` back-to-back run after it (n >= 1: each starts a minute later, its noise
// pattern shifted by n so the runs differ from each other too).

std::string back_to_back(const std::string& base_file, int nth) {
  nlohmann::json j = nlohmann::json::parse(read_input_file(base_file));
  Tolerances tol;
  tol.overrides = load_known(CUCONFORM_KNOWN_FILE).tolerances;
  long moved = 0;
  for (auto& c : j["cases"]) {
    if (c.contains("measurements"))
      for (auto& [m, v] : c["measurements"].items()) {
        if (!v.is_number()) continue;
        const ToleranceRule* rule = tol.rule_for(c["name"].get<std::string>(), m);
        const double s = spread_of(rule ? rule->cls : "", m);
        const bool up = (moved++ + nth) % 2 == 0;
        v = v.get<double>() * (up ? 1 + s : 1 / (1 + s));
      }
    if (c.contains("facts") && c["facts"].value("outcome", "") == "timeout") c["facts"]["outcome"] = "timeout (worker killed)";
  }
  j["run"]["started"] = "2026-11-26T02:" + std::to_string(20 + nth) + ":00Z";
  j["run"]["finished"] = "2026-11-26T02:" + std::to_string(20 + nth) + ":22Z";
  j["run"]["wall_s"] = 22.0;
  return j.dump(1);
}

// The run with one L1 hit (81 cycles) turned into a miss (456): beyond load latency's 50%, and
// far off any history of hits.
std::string with_l1_miss(const std::string& results) {
  nlohmann::json j = nlohmann::json::parse(results);
  for (auto& c : j["cases"])
    if (c["name"] == "ldgsts.l1.partial_line_reuse.ca16.offset16") c["measurements"]["l1_hit_control_cycles"] = 456;
  return j.dump(1);
}

// A compare with the known list found as a user's would be: beside the specs, no flag, no $CUCONFORM_KNOWN.
Exe compare_default(const std::string& args) { return cuconform_cli("compare " + args, "env -u CUCONFORM_KNOWN"); }

int number_before(const std::string& text, const std::string& what) {
  std::smatch m;
  return std::regex_search(text, m, std::regex("([0-9]+) " + what)) ? std::stoi(m[1].str()) : -1;
}

}  // namespace

TEST_CASE("compare of two back-to-back runs of one configuration exits 0 with no flag, and a real move still gates",
          "[host][reporters]") {
  const std::string dir = temp_dir("back-to-back");
  for (const std::string gpu : {"NVIDIA-H100-80GB-HBM3", "NVIDIA-H200"}) {
    const std::string base = std::string(CUCONFORM_BASELINES_DIR) + "/" + gpu + "_driver-580.159.04.json.gz";
    const std::string next = dir + "/" + gpu + ".json";
    write_text(next, back_to_back(base, 1));
    const Exe same = compare_default("'" + base + "' '" + next + "'");
    INFO(gpu << ": " << same.out);
    CHECK(same.rc == 0);
    CHECK(has(same.out, "known list: "));
    CHECK(has(same.out, "/ci/baselines/known.yaml (beside the specs)"));
    CHECK(has(same.out, "0 regression(s): 0 new failure(s), 0 coverage lost, 0 not judged, 0 measurement(s) moved"));
    // Every failure of a committed baseline is a known finding (the baselines and the list go together).
    const int fails = failures_in(base);
    CHECK(fails > 0);
    CHECK(has(same.out, std::to_string(fails) + " known failure(s)"));
    CHECK(has(same.out, "0 undefined behaviour(s) changed"));
    CHECK(has(same.out, "RESULT: no regression (exit 0)"));

    // The same pair judged with no known list at all: every measurement at a flat 25%, the
    // noise of the counts and timings reads as hundreds of regressions. This is what the
    // default used to be; it shows the noise above is enough to fail a compare.
    const Exe bare = cuconform_cli("compare '" + base + "' '" + next + "'", "CUCONFORM_KNOWN=");
    INFO(bare.out);
    CHECK(bare.rc == 1);
    CHECK(has(bare.out, "known list: none ($CUCONFORM_KNOWN is empty)"));
    CHECK(number_before(bare.out, "measurement\\(s\\) moved") > 100);
  }

  // report, with no flag, reads the same list: every finding of the baseline is known, by class.
  const std::string h100 = std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H100-80GB-HBM3_driver-580.159.04.json.gz";
  const Exe report = cuconform_cli("report '" + h100 + "' --md '" + dir + "/report.md'", "env -u CUCONFORM_KNOWN");
  INFO(report.out);
  CHECK(report.rc == 0);
  CHECK(has(report.out, "/ci/baselines/known.yaml (beside the specs)"));
  const std::string md = read_text(dir + "/report.md");
  const std::string n = std::to_string(failures_in(h100));
  CHECK(has(md, n + " failed (" + n + " known)"));
  CHECK(has(md, "known, runtime: wrong data or a fault at run time ("));
  CHECK_FALSE(has(md, "not in the known list"));

  // A real move: an L1 hit (81 cycles) that became a miss (456), beyond load latency's 50%.
  const std::string base = std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H100-80GB-HBM3_driver-580.159.04.json.gz";
  write_text(dir + "/slower.json", with_l1_miss(back_to_back(base, 1)));
  const Exe moved = compare_default("'" + base + "' '" + dir + "/slower.json'");
  INFO(moved.out);
  CHECK(moved.rc == 1);
  CHECK(has(moved.out, "measurement moved: ldgsts.l1.partial_line_reuse.ca16.offset16  l1_hit_control_cycles 81 -> 456"));
  CHECK(has(moved.out, "class load-latency"));
  CHECK(has(moved.out, "1 regression(s)"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare --history of two back-to-back runs exits 0 with no other flag, and a real move still gates",
          "[host][reporters][history]") {
  const std::string dir = temp_dir("back-to-back-history");
  const std::string base = std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H100-80GB-HBM3_driver-580.159.04.json.gz";
  const std::string db = dir + "/history.sqlite";
  // Too little history (BASE alone): the fixed tolerances of the known list decide.
  REQUIRE(cuconform_cli("history add '" + base + "' --db '" + db + "'").rc == 0);
  write_text(dir + "/next.json", back_to_back(base, 7));
  Exe e = compare_default("'" + base + "' '" + dir + "/next.json' --history '" + db + "'");
  INFO(e.out);
  CHECK(e.rc == 0);
  CHECK(has(e.out, "RESULT: no regression (exit 0)"));
  CHECK(has(e.out, "0 measurement(s) judged so"));
  // Five more nights of the same configuration: the history's spread decides.
  std::string nights;
  for (int n = 1; n <= 5; ++n) {
    write_text(dir + "/night" + std::to_string(n) + ".json", back_to_back(base, n));
    nights += " '" + dir + "/night" + std::to_string(n) + ".json'";
  }
  REQUIRE(cuconform_cli("history add" + nights + " --db '" + db + "'").rc == 0);
  e = compare_default("'" + base + "' '" + dir + "/next.json' --history '" + db + "'");
  INFO(e.out);
  CHECK(e.rc == 0);
  CHECK(has(e.out, "RESULT: no regression (exit 0)"));
  CHECK(number_before(e.out, "measurement\\(s\\) judged so") > 50);
  // The L1 hit turned miss is off the history's spread too.
  write_text(dir + "/slower.json", with_l1_miss(read_text(dir + "/next.json")));
  e = compare_default("'" + base + "' '" + dir + "/slower.json' --history '" + db + "'");
  INFO(e.out);
  CHECK(e.rc == 1);
  CHECK(has(e.out, "measurement moved: ldgsts.l1.partial_line_reuse.ca16.offset16  l1_hit_control_cycles"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: a known entry that matches no case is stale in a whole run, not in a filtered one; no tolerances is said",
          "[host][reporters]") {
  const std::string dir = temp_dir("stale-entries");
  const std::string base = std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H100-80GB-HBM3_driver-580.159.04.json.gz";
  std::string list = read_text(CUCONFORM_KNOWN_FILE);
  const auto flakes = list.find("\nknown_flakes:\n");
  REQUIRE(flakes != std::string::npos);
  list.insert(flakes + 15, "  - id: no.such.case\n    reason: renamed since\n");
  write_text(dir + "/known.yaml", list);
  const std::string known = " --known '" + dir + "/known.yaml'";
  Exe whole = cuconform_cli("compare '" + base + "' '" + base + "'" + known);
  INFO(whole.out);
  CHECK(whole.rc == 0);
  CHECK(has(whole.out, "known entry no.such.case (" + dir + "/known.yaml:"));
  CHECK(has(whole.out, ") matches no case of NEW: stale?"));
  // The same run filtered to one area: the other areas' entries match nothing there, rightly.
  nlohmann::json j = nlohmann::json::parse(read_input_file(base));
  nlohmann::json cases = nlohmann::json::array();
  for (auto& c : j["cases"])
    if (c["area"] == "ldgsts") cases.push_back(c);
  j["cases"] = cases;
  j["run"]["selection"] = {"--area ldgsts"};
  write_text(dir + "/ldgsts.json", j.dump(1));
  Exe filtered = cuconform_cli("compare '" + dir + "/ldgsts.json' '" + dir + "/ldgsts.json'" + known);
  INFO(filtered.out);
  CHECK(filtered.rc == 0);
  CHECK_FALSE(has(filtered.out, "stale?"));
  CHECK(has(filtered.out, "match no case of NEW, a filtered run (--area ldgsts): not judged stale"));
  // A known list without `tolerances:` judges every measurement at the flat default: said.
  write_text(dir + "/failures-only.yaml", "known_flakes:\n  - id: no.such.case\n    reason: r\n");
  Exe flat = cuconform_cli("compare '" + base + "' '" + base + "' --known '" + dir + "/failures-only.yaml'");
  INFO(flat.out);
  CHECK(has(flat.out, "no measurement tolerances declared (" + dir + "/failures-only.yaml has no `tolerances:`): every measurement is judged at 25%"));
  CHECK_FALSE(has(whole.out, "no measurement tolerances declared"));
  std::filesystem::remove_all(dir);
}
