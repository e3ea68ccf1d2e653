// The verbs that read results back, through the built executable: report, compare (exit
// 0/1/2, known failures and flakes, tolerances) and merge; and `run --json` with no GPU.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "suites/host/test_reporters_support.hpp"
#include "suites/host/test_text.hpp"

using namespace cuconform;
using namespace cuconform::testing;

static const std::string kL1Case = "ldgsts.l1.access_for_4_and_8.ptx_ca.size4";


static int occurrences_of_svg(const std::string& html) {
  int n = 0;
  for (auto at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1)) ++n;
  return n;
}

// a.json: the synthetic run; the caller edits copies of its text.
static std::string write_base(const std::string& dir) {
  std::string text = results_json(synthetic_run()->run);
  write_text(dir + "/a.json", text);
  return text;
}

TEST_CASE("run --json writes a results file with no GPU: GPU cases not-supported, with reasons", "[host][reporters]") {
  std::string dir = temp_dir("nogpu");
  // Device 4096 never exists: the same outcome with or without a GPU in the machine.
  Exe e = cuconform_cli("run --kind positive --json '" + dir + "/a.json'", "CUCONFORM_DEVICE=4096");
  CHECK(e.rc == 3);
  CHECK(e.out.find("NO GPU") != std::string::npos);
  auto j = nlohmann::json::parse(read_text(dir + "/a.json"));
  CHECK(j["schema"] == "cuconform-results/1");
  CHECK(j["device"]["available"] == false);
  CHECK_FALSE(j["device"]["error"].get<std::string>().empty());
  int gpu_cases = 0;
  for (auto& c : j["cases"]) {
    bool gpu = false;
    for (auto& t : c["tags"]) gpu |= t == "gpu";
    if (!gpu) continue;
    ++gpu_cases;
    INFO(c["name"].get<std::string>());
    std::string v = c["verdict"];
    CHECK((v == "not-supported" || v == "planned"));
    CHECK_FALSE(c["reason"].get<std::string>().empty());
  }
  CHECK(gpu_cases > 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: the same run twice exits 0 -- a planted regression exits 1", "[host][reporters]") {
  std::string dir = temp_dir("compare");
  std::string a = write_base(dir);
  write_text(dir + "/b.json", with_verdict(a, kL1Case, "pass", "fail"));
  Exe same = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/a.json'");
  INFO(same.out);
  CHECK(same.rc == 0);
  CHECK(has(same.out, "no regression"));
  Exe worse = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json' --md '" + dir + "/cmp.md'");
  INFO(worse.out);
  CHECK(worse.rc == 1);
  CHECK(has(worse.out, "new failure: " + kL1Case));
  CHECK(has(read_text(dir + "/cmp.md"), "REGRESSION"));
  Exe better = cuconform_cli("compare '" + dir + "/b.json' '" + dir + "/a.json'");
  CHECK(better.rc == 0);
  CHECK(has(better.out, "fixed: " + kL1Case));
  // A case that stops running (pass -> not-supported) is lost coverage: a regression too.
  write_text(dir + "/c.json", with_verdict(a, kL1Case, "pass", "not-supported"));
  Exe lost = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/c.json'");
  CHECK(lost.rc == 1);
  CHECK(has(lost.out, "coverage lost: " + kL1Case));
  // A case that passed only on a re-run (run --rerun N) is flaky: reported, not gating.
  write_text(dir + "/d.json", with_verdict(a, kL1Case, "pass", "flake"));
  Exe flaky = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/d.json'");
  CHECK(flaky.rc == 0);
  CHECK(has(flaky.out, "flaky: " + kL1Case));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: undefined behaviour whose recorded outcome changes is reported, never gating", "[host][reporters]") {
  std::string dir = temp_dir("compare-recorded");
  auto with_outcome = [&](const std::string& file, const std::string& outcome) {
    auto s = synthetic_run();
    s->add("mbarrier", "mbarrier.undefined.misaligned_object", "violation", Verdict::recorded);
    s->run.entries.back().r.obs.record(outcome, outcome);
    write_text(dir + "/" + file, results_json(s->run));
  };
  with_outcome("a.json", "completed=1");
  with_outcome("b.json", "fault CUDA_ERROR_MISALIGNED_ADDRESS");
  Exe same = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/a.json'");
  CHECK(same.rc == 0);
  CHECK_FALSE(has(same.out, "behaviour changed"));
  Exe changed = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json'");
  INFO(changed.out);
  CHECK(changed.rc == 0);
  CHECK(lacks(changed.out, {"UNDEFINED BEHAVIOUR CHANGED", "behaviour changed: mbarrier.undefined.misaligned_object.violation",
                            "fault CUDA_ERROR_MISALIGNED_ADDRESS"})
            .empty());
  Exe report = cuconform_cli("report '" + dir + "/b.json' --md '" + dir + "/b.md'");
  CHECK(report.rc == 0);
  CHECK(has(read_text(dir + "/b.md"), "Recorded behaviour (1)"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: known failures and flakes do not gate -- a known failure that passes is reported", "[host][reporters]") {
  std::string dir = temp_dir("known");
  std::string a = write_base(dir);
  write_text(dir + "/b.json", with_verdict(a, kL1Case, "pass", "fail"));
  write_text(dir + "/known.yaml",
             "known_failures:\n"
             "  - id: " + kL1Case + "\n"
             "    reason: driver bug 4242, fixed in 590\n"
             "    class: runtime\n"
             "    driver: '^580\\.'\n");
  Exe k = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json' --known '" + dir + "/known.yaml'");
  INFO(k.out);
  CHECK(k.rc == 0);
  CHECK(has(k.out, "known failure: " + kL1Case));
  CHECK(has(k.out, "driver bug 4242"));
  Exe fixed = cuconform_cli("compare '" + dir + "/b.json' '" + dir + "/a.json' --known '" + dir + "/known.yaml'");
  INFO(fixed.out);
  CHECK(fixed.rc == 0);
  CHECK(has(fixed.out, "unexpected pass: " + kL1Case));
  // An entry scoped to another driver does not apply: the failure gates again.
  write_text(dir + "/other.yaml", "known_failures:\n  - id: " + kL1Case + "\n    reason: r\n    class: performance\n    driver: '^590\\.'\n");
  CHECK(cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json' --known '" + dir + "/other.yaml'").rc == 1);
  // ... and so does one scoped to another code path (a finding of one ptxas, say).
  write_text(dir + "/ptxas.yaml", "known_failures:\n  - id: " + kL1Case + "\n    reason: r\n    class: runtime\n    toolchain: '^ptxas 12\\.'\n");
  CHECK(cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json' --known '" + dir + "/ptxas.yaml'").rc == 1);
  write_text(dir + "/sass.yaml", "known_failures:\n  - id: " + kL1Case + "\n    reason: r\n    class: runtime\n    toolchain: '^sass'\n");
  CHECK(cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json' --known '" + dir + "/sass.yaml'").rc == 0);
  write_text(dir + "/flakes.yaml", "known_flakes:\n  - regex: '^ldgsts\\.l1\\.access'\n    reason: L1 timing is noisy under MPS\n");
  Exe fl = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json' --known '" + dir + "/flakes.yaml'");
  INFO(fl.out);
  CHECK(fl.rc == 0);
  CHECK(has(fl.out, "known flake: " + kL1Case));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: a measurement beyond its tolerance is a regression -- overrides relax it", "[host][reporters]") {
  std::string dir = temp_dir("tolerance");
  std::string a = write_base(dir);
  std::string b = a;
  b.replace(b.find("\"l1_hit_cycles\": 57"), 19, "\"l1_hit_cycles\": 90");
  write_text(dir + "/b.json", b);
  std::string ab = "compare '" + dir + "/a.json' '" + dir + "/b.json'";
  Exe moved = cuconform_cli(ab);
  INFO(moved.out);
  CHECK(moved.rc == 1);
  CHECK(has(moved.out, "measurement moved: " + kL1Case + "  l1_hit_cycles 57 -> 90"));
  CHECK(cuconform_cli(ab + " --tolerance 0.6").rc == 0);
  CHECK(cuconform_cli(ab + " --tolerance '0.25,l1_hit_cycles=off'").rc == 0);
  CHECK(cuconform_cli(ab + " --tolerance '0.25,ldgsts.l1.*:l1_*=1'").rc == 0);
  write_text(dir + "/tol.yaml", "tolerances:\n  '*_cycles': 0.7\n");
  CHECK(cuconform_cli(ab + " --known '" + dir + "/tol.yaml'").rc == 0);
  // Litmus outcome counts are a random histogram: never compared by value unless asked.
  std::string c = a;
  c.replace(c.find("\"outcome_r0=0_r1=0\": 40012"), 26, "\"outcome_r0=0_r1=0\": 10012");
  write_text(dir + "/c.json", c);
  CHECK(cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/c.json'").rc == 0);
  CHECK(cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/c.json' --tolerance '0.25,outcome_*=0.5'").rc == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("report, compare and merge: bad input exits 2 and names the file and line", "[host][reporters]") {
  std::string dir = temp_dir("badinput");
  std::string a = write_base(dir);
  Exe missing = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/nope.json'");
  CHECK(missing.rc == 2);
  CHECK(has(missing.out, dir + "/nope.json: cannot open"));
  write_text(dir + "/broken.json", "{\n  \"schema\": \"cuconform-results/1\",\n  \"cases\": [\n    {\"name\": \"x\",, }\n");
  Exe broken = cuconform_cli("report '" + dir + "/broken.json'");
  INFO(broken.out);
  CHECK(broken.rc == 2);
  CHECK(std::regex_search(broken.out, std::regex(std::regex_replace(dir, std::regex("[.]"), "\\.") + "/broken\\.json:[0-9]+:")));
  write_text(dir + "/verdict.json", with_verdict(a, kL1Case, "pass", "passed"));
  Exe verdict = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/verdict.json'");
  INFO(verdict.out);
  CHECK(verdict.rc == 2);
  CHECK(std::regex_search(verdict.out, std::regex("verdict\\.json:[0-9]+: cases\\[0\\]\\.verdict: unknown verdict 'passed'")));
  write_text(dir + "/schema.json", "{\"schema\": \"something/2\", \"cases\": []}");
  CHECK(cuconform_cli("merge '" + dir + "/schema.json' -o '" + dir + "/f.json'").rc == 2);
  write_text(dir + "/known.yaml", "known_failures:\n  - id: x\n");
  Exe known = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/a.json' --known '" + dir + "/known.yaml'");
  CHECK(known.rc == 2);
  CHECK(has(known.out, dir + "/known.yaml:2: 'x' needs a 'reason'"));
  CHECK(cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/a.json' --tolerance lots").rc == 2);
  CHECK(cuconform_cli("merge '" + dir + "/a.json'").rc == 2);  // no -o
  std::filesystem::remove_all(dir);
}

// The line of the first `needle` in `text`, counted from 1.
static std::string line_of(const std::string& text, const std::string& needle) {
  auto at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

TEST_CASE("a malformed results file exits 2 with a message naming the file, the line and the field", "[host][reporters]") {
  std::string dir = temp_dir("malformed");
  std::string a = write_base(dir);
  // A syntax error on line 3.
  write_text(dir + "/syntax.json", "{\n  \"schema\": \"cuconform-results/1\",\n  \"cases\": [}\n");
  Exe syntax = cuconform_cli("report '" + dir + "/syntax.json'");
  INFO(syntax.out);
  CHECK(syntax.rc == 2);
  CHECK(has(syntax.out, dir + "/syntax.json:3:13: syntax error"));
  // A verdict that is a number, a measurement that is a string: the line and the field's path.
  std::string verdict = a, quoted = a;
  std::string kL1Verdict = "\"verdict\": \"pass\"";
  verdict.replace(verdict.find(kL1Verdict), kL1Verdict.size(), "\"verdict\": 7");
  quoted.replace(quoted.find("\"l1_hit_cycles\": 57"), 19, "\"l1_hit_cycles\": \"57\"");
  write_text(dir + "/verdict.json", verdict);
  write_text(dir + "/quoted.json", quoted);
  Exe v = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/verdict.json'");
  INFO(v.out);
  CHECK(v.rc == 2);
  CHECK(has(v.out, dir + "/verdict.json:" + line_of(verdict, "\"verdict\": 7") +
                       ": cases[0].verdict: expected a string, got a number"));
  Exe q = cuconform_cli("merge '" + dir + "/quoted.json' -o '" + dir + "/f.json'");
  INFO(q.out);
  CHECK(q.rc == 2);
  CHECK(has(q.out, dir + "/quoted.json:" + line_of(quoted, "\"l1_hit_cycles\": \"57\"") +
                       ": cases[0].measurements.l1_hit_cycles: expected a number, got a string"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("report writes a self-contained HTML page and a Markdown summary", "[host][reporters]") {
  std::string dir = temp_dir("report");
  write_base(dir);
  Exe e = cuconform_cli("report '" + dir + "/a.json' --html '" + dir + "/out.html' --md '" + dir + "/out.md'");
  INFO(e.out);
  REQUIRE(e.rc == 0);
  std::string html = read_text(dir + "/out.html"), md = read_text(dir + "/out.md");
  CHECK(has(html, "Conformance matrix"));
  CHECK(has(html, "ldgsts.l1.bypass_for_16.ptx_cg.size16"));  // a failing case ...
  CHECK(has(html, "reload/L1 hit = 1.05 (61 vs 58 cycles)"));  // ... with expected vs observed
  CHECK(has(html, "GPU-00000000-1111-2222-3333-444444444444"));
  CHECK(occurrences_of_svg(html) >= 4);  // verdict bar, cycles, ratios, litmus histogram
  CHECK(has(html, "litmus scopes.litmus.mp.release_acquire"));
  // Self-contained: nothing to fetch, no other file; its script is inline and asks no network.
  for (const char* bad : {"src=", "href=\"http", "url(", "@import", "<link", "<iframe", "fetch(", "XMLHttpRequest", "WebSocket",
                          "sendBeacon", "import(", "EventSource"}) {
    INFO(bad);
    CHECK_FALSE(has(html, bad));
  }
  for (std::size_t at = html.find("<script"); at != std::string::npos; at = html.find("<script", at + 1)) {
    std::string tag = html.substr(at, html.find('>', at) - at + 1);
    INFO(tag);
    CHECK((tag == "<script>" || tag == "<script type=\"application/json\" id=\"case-data\">"));
  }
  CHECK(has(md, "| area |"));
  CHECK(has(md, "`ldgsts.l1.bypass_for_16.ptx_cg.size16`"));
  // No output named: the Markdown summary goes to stdout (for $GITHUB_STEP_SUMMARY).
  Exe out = cuconform_cli("report '" + dir + "/a.json'");
  CHECK(out.rc == 0);
  CHECK(has(out.out, "## cuconform:"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("merge makes one fleet matrix that report renders case x device", "[host][reporters]") {
  std::string dir = temp_dir("merge");
  write_text(dir + "/a.json", results_json(synthetic_run("NVIDIA H200")->run));
  write_text(dir + "/b.json", with_verdict(results_json(synthetic_run("NVIDIA H100 80GB HBM3")->run), kL1Case, "pass", "fail"));
  Exe m = cuconform_cli("merge '" + dir + "/a.json' '" + dir + "/b.json' -o '" + dir + "/fleet.json'");
  INFO(m.out);
  REQUIRE(m.rc == 0);
  auto f = nlohmann::json::parse(read_text(dir + "/fleet.json"));
  CHECK(f["schema"] == "cuconform-fleet/1");
  REQUIRE(f["runs"].size() == 2);
  CHECK(f["runs"][0]["device"]["name"] == "NVIDIA H200");
  CHECK(f["runs"][1]["device"]["name"] == "NVIDIA H100 80GB HBM3");
  CHECK(f["runs"][1]["summary"]["fail"].get<int>() == f["runs"][0]["summary"]["fail"].get<int>() + 1);
  CHECK(f["cases"].size() == synthetic_run()->run.entries.size());
  for (auto& c : f["cases"]) CHECK(c["results"].size() == 2);
  Exe r = cuconform_cli("report '" + dir + "/fleet.json' --html '" + dir + "/fleet.html' --md '" + dir + "/fleet.md'");
  REQUIRE(r.rc == 0);
  std::string html = read_text(dir + "/fleet.html");
  CHECK(has(html, "Cases that differ between devices or fail"));
  CHECK(has(html, "NVIDIA H100 80GB HBM3"));
  CHECK(has(read_text(dir + "/fleet.md"), "`" + kL1Case + "` | P | F |"));
  // A fleet merges again (fleets of fleets), and is not a results file for compare.
  CHECK(cuconform_cli("merge '" + dir + "/fleet.json' '" + dir + "/a.json' -o '" + dir + "/fleet3.json'").rc == 0);
  CHECK(nlohmann::json::parse(read_text(dir + "/fleet3.json"))["runs"].size() == 3);
  CHECK(cuconform_cli("compare '" + dir + "/fleet.json' '" + dir + "/a.json'").rc == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: a whole-run wall time more than 25% above BASE is reported, and gates only with --gate-time", "[host][reporters]") {
  std::string dir = temp_dir("compare-wall");
  std::string a = write_base(dir);  // wall_s 42
  nlohmann::json j = nlohmann::json::parse(a);
  j["run"]["wall_s"] = 50;  // +19%: within
  write_text(dir + "/b.json", j.dump(1));
  j["run"]["wall_s"] = 60;  // +43%: slower
  write_text(dir + "/c.json", j.dump(1));
  Exe within = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/b.json'");
  INFO(within.out);
  CHECK(within.rc == 0);
  CHECK(lacks(within.out, {"wall time: 42 s -> 50 s", "within 25%"}).empty());
  Exe slower = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/c.json'");
  INFO(slower.out);
  CHECK(slower.rc == 0);
  CHECK(has(slower.out, "SLOWER by more than 25%"));
  Exe gated = cuconform_cli("compare '" + dir + "/a.json' '" + dir + "/c.json' --gate-time");
  INFO(gated.out);
  CHECK(gated.rc == 1);
  CHECK(has(gated.out, "a regression (--gate-time)"));
  std::filesystem::remove_all(dir);
}
