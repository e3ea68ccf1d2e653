#pragma once
// Shared by the test_reporters*.cpp host tests: a synthetic run (no GPU here, so the
// pass/fail cases and measurements the reporters must render are made up), temporary
// folders, and running the built cuconform executable.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "reporters/results_json.hpp"
#include "reporters/run_report.hpp"
#include "suites/host/test_temp_dir.hpp"
#include "suites/host/test_text.hpp"

namespace cuconform::testing {

// A run of made-up cases in three areas: every verdict, cycles and ratios, a litmus histogram.
// Rules and cases live in deques so the RunReport's pointers stay valid.
struct SyntheticRun {
  std::deque<Rule> rules;
  std::deque<Case> cases;
  RunReport run;

  void add(const std::string& area, const std::string& rule_id, const std::string& suffix, Verdict v,
           std::vector<std::pair<std::string, double>> measurements = {}, const std::string& reason = "",
           const std::string& expected = "", const std::string& observed = "") {
    if (rules.empty() || rules.back().id != rule_id) {
      Rule r;
      r.id = rule_id;
      r.area = area;
      r.source = "synthetic";
      r.min_cc = {8, 0};
      rules.push_back(r);
    }
    Case c;
    c.rule = &rules.back();
    c.name = rule_id + "." + suffix;
    c.tags = {area, "gpu"};
    cases.push_back(c);
    CaseResult res;
    res.name = c.name;
    res.obs.verdict = v;
    res.obs.reason = reason;
    res.obs.expected = expected;
    res.obs.observed = observed;
    res.obs.measurements = std::move(measurements);
    res.duration_s = 0.25;
    run.entries.push_back({&cases.back(), res});
  }
};

inline std::unique_ptr<SyntheticRun> synthetic_run(const std::string& gpu = "NVIDIA H200") {
  auto s = std::make_unique<SyntheticRun>();
  RunReport& r = s->run;
  r.started_utc = "2026-11-21T10:00:00Z";
  r.finished_utc = "2026-11-21T10:00:42Z";
  r.host = "gpu-node-1";
  r.wall_s = 42;
  r.suite_version = "0.1.0";
  r.suite_commit = "abc1234";
  r.toolkit = "13.0";
  r.archs = "80,90a";
  r.specs_dir = "/src/specs";
  r.workers_started = 2;
  r.device.available = true;
  r.device.name = gpu;
  r.device.cc = "9.0";
  r.device.driver = "580.159.04";
  r.device.json = "{\"available\":true,\"ordinal\":0,\"name\":\"" + gpu +
                  "\",\"uuid\":\"GPU-00000000-1111-2222-3333-444444444444\",\"cc\":\"9.0\",\"sm_count\":132,"
                  "\"clock_khz\":1980000,\"mem_clock_khz\":3201000,\"mem_bus_bits\":6144,\"l2_bytes\":62914560,"
                  "\"smem_per_block_optin\":232448,\"total_mem_bytes\":150109880320,\"driver_cuda_version\":\"13.0\","
                  "\"code_path\":\"sass sm_90a\",\"driver_version\":\"580.159.04\"}";
  for (const char* v : {"ptx_ca.size4", "ptx_ca.size8", "pipeline.size4", "pipeline.size8"})
    s->add("ldgsts", "ldgsts.l1.access_for_4_and_8", v, Verdict::pass,
           {{"reload_cycles", 58}, {"l1_hit_cycles", 57}, {"l2_hit_cycles", 296}, {"reload_over_l1_hit", 1.02}, {"l2_over_l1_hit", 5.19}});
  s->add("ldgsts", "ldgsts.l1.bypass_for_16", "ptx_cg.size16", Verdict::fail,
         {{"reload_cycles", 61}, {"l1_hit_cycles", 58}, {"l2_hit_cycles", 300}, {"reload_over_l1_hit", 1.05}},
         "observed differs from expected", "reload at L2 latency (reload/L1 hit >= 2)", "reload/L1 hit = 1.05 (61 vs 58 cycles)");
  s->add("ldgsts", "ldgsts.zero_fill", "cp16.src4.cg", Verdict::pass, {{"src_size", 4}, {"zero_filled_bytes", 12}});
  s->add("ldgsts", "ldgsts.sass.ca4_l1_form", "sm_90a", Verdict::not_supported, {}, "tool missing: cuobjdump not found");
  s->add("ldgsts", "ldgsts.src_size_over_cp_size", "case", Verdict::planned, {}, "planned: undefined behaviour: not testable");
  s->add("scopes", "scopes.litmus.mp", "relaxed", Verdict::pass,
         {{"outcome_r0=0_r1=0", 40012}, {"outcome_r0=0_r1=1", 2}, {"outcome_r0=1_r1=1", 59986}});
  s->add("scopes", "scopes.litmus.mp", "release_acquire", Verdict::fail,
         {{"outcome_r0=0_r1=0", 39000}, {"outcome_r0=1_r1=0", 7}, {"outcome_r0=1_r1=1", 60993}},
         "forbidden outcome observed", "never r0=1 r1=0", "r0=1 r1=0 seen 7 times in 100000 runs");
  s->add("scopes", "scopes.fence.sc", "cluster", Verdict::timeout, {}, "worker exceeded 10 s");
  s->add("tma", "tma.perf.align_128", "size16", Verdict::pass, {{"aligned_gbps", 2900}, {"offset_gbps", 2710}, {"ratio", 0.93}});
  s->add("tma", "tma.tensor.oob_fill", "box64", Verdict::crash, {}, "worker died: SIGSEGV");
  s->add("tma", "tma.bulk.complete_tx", "bytes4096", Verdict::flake, {{"wait_cycles", 812}},
         "failed, then passed on re-run 1 of 2; first attempt: timeout: worker exceeded 10 s");
  return s;
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Exe {
  int rc = -1;
  std::string out;  // stdout and stderr
};

// Runs `cuconform ARGS` through the shell (ARGS already quoted), with `env` assignments prefixed.
// Without a known list unless `env` mentions CUCONFORM_KNOWN (`env -u CUCONFORM_KNOWN`: the
// default) or ARGS gives --known: compare and report read the project's
// (ci/baselines/known.yaml, beside the specs) by default, whose findings and measurement
// tolerances are the real suite's, not those of the made-up runs these tests write.
inline Exe cuconform_cli(const std::string& args, const std::string& env = "") {
  std::string log = std::filesystem::temp_directory_path() / ("cuconform-cli-" + std::to_string(::getpid()) + ".log");
  const std::string known = env.find("CUCONFORM_KNOWN") == std::string::npos ? "CUCONFORM_KNOWN= " : "";
  std::string cmd = known + env + (env.empty() ? "" : " ") + "'" + CUCONFORM_EXE + "' " + args + " >'" + log + "' 2>&1";
  int status = std::system(cmd.c_str());
  Exe e;
  e.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  e.out = read_text(log);
  std::filesystem::remove(log);
  return e;
}

inline bool have_tool(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

// The headless browser the rendering tests use (Debian's chromium), or "" when none is installed.
inline std::string chromium_browser() {
  for (const char* c : {"chromium", "chromium-browser", "google-chrome"})
    if (have_tool(c)) return c;
  return "";
}

// The command line that starts it: headless, every network feature off, a fresh profile folder
// ($p, made and removed by the caller's shell), `args` and the page last.
inline std::string chromium_command(const std::string& browser, const std::string& args, const std::string& url) {
  return browser +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
         " --disable-component-update --disable-sync --user-data-dir=\"$p\" " +
         args + " '" + url + "'";
}

// Renders the page `html` to `png` in a window `width` x `height` and checks a PNG of that size
// came out. The profile folder is fresh each time and every network feature is off: the page
// must need none.
inline void check_screenshot(const std::string& browser, const std::string& html, const std::string& png, unsigned width,
                             unsigned height) {
  std::string cmd = "p=$(mktemp -d); timeout 120 " +
                    chromium_command(browser, "--screenshot='" + png + "' --window-size=" + std::to_string(width) + "," + std::to_string(height),
                                     "file://" + html) +
                    " >'" + png + ".log' 2>&1; rc=$?; rm -rf \"$p\"; exit $rc";
  int status = std::system(cmd.c_str());
  INFO("chromium exit status " << status << ", log: " << read_text(png + ".log"));
  REQUIRE(std::filesystem::exists(png));
  std::filesystem::remove(png + ".log");
  std::string data = read_text(png);
  REQUIRE(data.size() > 2000);
  CHECK(data.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(data[at])) << 24) | (static_cast<unsigned char>(data[at + 1]) << 16) |
           (static_cast<unsigned char>(data[at + 2]) << 8) | static_cast<unsigned char>(data[at + 3]);
  };
  CHECK(be32(16) == width);  // IHDR
  CHECK(be32(20) == height);
}

// Changes the verdict of case `name` in results JSON text (the file as results_json writes it).
inline std::string with_verdict(std::string json, const std::string& name, const std::string& from, const std::string& to) {
  auto at = json.find("\"name\": \"" + name + "\"");
  if (at == std::string::npos) return json;
  auto v = json.find("\"verdict\": \"" + from + "\"", at);
  if (v != std::string::npos) json.replace(v, 13 + from.size(), "\"verdict\": \"" + to + "\"");
  return json;
}

// The repository root (the specs folder's parent), for the CI files the lint test reads.
inline std::filesystem::path source_root() { return std::filesystem::path(CUCONFORM_SOURCE_SPECS_DIR).parent_path(); }

}  // namespace cuconform::testing
