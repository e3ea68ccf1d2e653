// What a nightly shows and how it gates when the GPU could not be judged (issue 41):
//   - the Markdown summary and the HTML headline of a run whose GPU went unhealthy, with cases
//     not-run, cut off: red, with the health verdict, never a green mark; the not-run and
//     inconclusive chips have a style;
//   - ci/nightly-gate.sh, the one rule of both workflows and the README's recipe: red on every
//     exit of `run` that means the GPU could not be judged (2, 3, 4, 128+N) and on compare 1, 2;
//   - a run without a GPU says why once, at the start, and counts the cases it left, not ~3,000
//     identical lines.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <regex>

#include "harness/util/input_file.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

const std::string kBase = std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H200_driver-580.159.04.json.gz";

int count_of(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("report: a run with an unhealthy GPU, not-run cases and a cut-off is red in its headline, never green", "[host][gate]") {
  const std::string dir = temp_dir("gate-report");
  const std::string known = "CUCONFORM_KNOWN='" + std::string(CUCONFORM_KNOWN_FILE) + "'";
  // The control: the baseline itself, a healthy run that finished.
  Exe ok = cuconform_cli("report '" + kBase + "' --md '" + dir + "/ok.md' --html '" + dir + "/ok.html'", known);
  INFO(ok.out);
  REQUIRE(ok.rc == 0);
  const std::string ok_md = read_text(dir + "/ok.md"), ok_html = read_text(dir + "/ok.html");
  CHECK_FALSE(has(ok_md, "❌ not judged"));
  CHECK_FALSE(has(ok_html, "Not judged"));

  auto j = nlohmann::ordered_json::parse(read_input_file(kBase));
  j["health"]["verdict"] = "unhealthy: Xid 79 (fell off the bus) at case x";
  j["health"]["events"].push_back({{"what", "Xid 79"}, {"case", "x"}, {"expected", false}, {"critical", true}, {"at_s", 12.5}});
  int n = 0;
  for (auto& c : j["cases"])
    if (c["verdict"] == "pass" && n++ % 2 == 0) c["verdict"] = "not-run", c["reason"] = "not run: GPU unhealthy, Xid 79";
  write_text(dir + "/sick.json", j.dump(1));
  Exe sick = cuconform_cli("report '" + dir + "/sick.json' --md '" + dir + "/sick.md' --html '" + dir + "/sick.html'", known);
  INFO(sick.out);
  REQUIRE(sick.rc == 0);
  const std::string md = read_text(dir + "/sick.md"), html = read_text(dir + "/sick.html");
  const std::string headline = md.substr(0, md.find('\n'));
  INFO(headline);
  CHECK(has(headline, "❌ not judged"));
  CHECK_FALSE(has(headline, "✅"));
  CHECK(has(md, "GPU unhealthy: Xid 79"));
  CHECK(has(md, "1 Xid or health event(s) no case expected, the first: Xid 79 at case x"));
  CHECK(has(md, std::to_string(n / 2 + n % 2) + " case(s) not-run"));
  CHECK(has(html, "<div class=\"headline bad\">"));
  CHECK(has(html, "Not judged: GPU unhealthy: Xid 79"));

  j["run"]["cut_off"] = {{"by", "SIGTERM"}, {"finished", 926}, {"of", 4923}, {"not_run", nlohmann::json::array()}};
  write_text(dir + "/cut.json", j.dump(1));
  Exe cut = cuconform_cli("report '" + dir + "/cut.json'", known);
  INFO(cut.out);
  CHECK(has(cut.out, "run cut off by SIGTERM, 926 of 4923 cases finished"));

  // The matrix header's chips of every verdict have a colour: not-run and inconclusive had none.
  for (const char* v : {"not-run", "inconclusive", "pass", "fail"}) CHECK(has(html, std::string(".v-") + v + "{"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("ci/nightly-gate.sh: red on run 2, 3, 4 and 128+N and on compare 1, 2; both workflows and the README use it", "[host][gate][ci]") {
  const std::string root = source_root().string();
  auto gate = [&](const std::string& run_rc, const std::string& cmp_rc) {
    return std::system(("bash '" + root + "/ci/nightly-gate.sh' '" + run_rc + "' '" + cmp_rc + "' >/dev/null 2>&1").c_str());
  };
  // Green: the GPU was judged and nothing regressed (known failures make run exit 1).
  CHECK(gate("0", "0") == 0);
  CHECK(gate("1", "0") == 0);
  CHECK(gate("0", "none") == 0);
  // Red: the GPU could not be judged, whatever compare said.
  for (const char* run_rc : {"2", "3", "4", "130", "137", "143", "", "5"}) {
    INFO("run exit " << run_rc);
    CHECK(gate(run_rc, "0") != 0);
    CHECK(gate(run_rc, "none") != 0);
  }
  for (const char* cmp_rc : {"1", "2", ""}) {
    INFO("compare exit " << cmp_rc);
    CHECK(gate("0", cmp_rc) != 0);
    CHECK(gate("1", cmp_rc) != 0);
  }
  CHECK(gate("1", "none") != 0);  // failures and no baseline to tell known ones

  const std::string github = read_text(root + "/.github/workflows/gpu-nightly.yml");
  const std::string gitlab = read_text(root + "/ci/gitlab-ci.yml");
  const std::string readme = read_text(root + "/README.md");
  CHECK(has(github, "bash ci/nightly-gate.sh \"$RUN_RC\" \"$CMP_RC\""));
  CHECK(has(gitlab, "bash ci/nightly-gate.sh \"$run_rc\" \"$cmp_rc\""));
  CHECK(has(readme, "ci/nightly-gate.sh \"$run_rc\" \"$cmp_rc\""));
  // No gate of its own beside the script: the old ones tested run's exit for 2|3 only.
  for (const std::string* f : {&github, &gitlab})
    CHECK_FALSE(std::regex_search(*f, std::regex("case \"\\$(RUN_RC|run_rc)\" in")));
}

TEST_CASE("run without a GPU says why once, at the start, and counts the cases it left", "[host][gate]") {
  const std::string dir = temp_dir("gate-nogpu");
  Exe e = cuconform_cli("run --area async_group --out '" + dir + "'");
  if (e.rc != 3) {
    WARN("this machine has a GPU (run exited " << e.rc << "): nothing to check");
    return;
  }
  INFO(e.out.substr(0, 4000));
  CHECK(e.out.rfind("no GPU: ", 0) == 0);  // the first line
  const std::regex counted("not-supported for want of a GPU: ([0-9]+) case\\(s\\)");
  std::smatch m;
  REQUIRE(std::regex_search(e.out, m, counted));
  CHECK(std::stoi(m[1]) > 20);
  CHECK(count_of(e.out, "no CUDA driver") <= 4);  // the first line, the count, the summary's two; one a case before 2026-11-28
  const auto results = nlohmann::json::parse(read_text(dir + "/results.json"));
  int not_supported = 0;
  for (auto& c : results["cases"]) not_supported += c["verdict"] == "not-supported";
  CHECK(not_supported >= std::stoi(m[1]));  // counted, not lost: every case is in the results
  std::filesystem::remove_all(dir);
}
