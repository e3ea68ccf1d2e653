// `cuconform run` options that shape a run: the code path (--codegen), the smoke profile, the
// timing breakdown, and a run stopped from outside that still leaves its results.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "harness/util/run_cache.hpp"
#include "harness/util/tools.hpp"
#include "suites/host/test_cli_run.hpp"
#include "suites/host/test_temp_dir.hpp"

using cuconform::testing::temp_dir;

using namespace cuconform;
using cuconform::testing::cli;
namespace fs = std::filesystem;

TEST_CASE("run --codegen takes sass, jit or ptxas=FILE and says what is wrong otherwise", "[host][cli][codegen]") {
  ToolRun bad = cli({"run", "--codegen", "llvm", "--rule", "ldgsts.ptx.*"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("--codegen takes sass, jit or ptxas=PATH, not 'llvm'") != std::string::npos);
  ToolRun missing = cli({"run", "--codegen", "ptxas=/no/such/ptxas", "--rule", "ldgsts.ptx.*"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("'/no/such/ptxas' is not an executable file") != std::string::npos);
}

TEST_CASE("run --codegen ptxas=FILE judges the assembler rules with that ptxas and records it", "[host][cli][codegen]") {
  const std::string ptxas = find_tool("ptxas");
  if (ptxas.empty()) {
    WARN("no ptxas here: skipped");
    return;
  }
  // A wrapper is "another ptxas": the results must name it and its release.
  const std::string dir = temp_dir("codegen-test");
  const std::string wrapper = dir + "/ptxas";
  std::ofstream(wrapper) << "#!/bin/sh\necho called >> " << dir << "/calls\nexec " << ptxas << " \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  ToolRun r = cli({"run", "--codegen", "ptxas=" + wrapper, "--rule", "ldgsts.ptx.cg_is_16_only*", "--json", dir + "/r.json"});
  INFO(r.output);
  CHECK((r.exit_code == 0 || r.exit_code == 3));
  CHECK(fs::exists(dir + "/calls"));
  const std::string json = read_whole_file(dir + "/r.json");
  CHECK(json.find("\"codegen\": \"ptxas\"") != std::string::npos);
  CHECK(json.find("\"compiler\": \"ptxas 13.") != std::string::npos);
  CHECK(json.find("--codegen ptxas=" + wrapper) != std::string::npos);
}

TEST_CASE("list --profile smoke keeps one case per rule and variant", "[host][cli]") {
  ToolRun full = cli({"list", "--area", "ldgsts"});
  ToolRun smoke = cli({"list", "--area", "ldgsts", "--profile", "smoke"});
  CHECK(smoke.exit_code == 0);
  auto count = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  CHECK(count(smoke.output) < count(full.output));
  CHECK(smoke.output.find("ldgsts.alignment.size_aligned.control") != std::string::npos);  // a record's judged control stays
  CHECK(smoke.output.find("ldgsts.alignment.size_aligned.violation") == std::string::npos);  // the record is left out
  CHECK(smoke.output.find("ldgsts.ptx.cp_size_set.violation") != std::string::npos);
  ToolRun bad = cli({"list", "--profile", "quick"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("unknown profile 'quick'") != std::string::npos);
}

TEST_CASE("run --timing prints where the time went and the results keep it", "[host][cli]") {
  const std::string dir = temp_dir("timing-test");
  ToolRun r = cli({"run", "--rule", "ldgsts.ptx.*", "--timing", "--out", dir});
  INFO(r.output);
  CHECK(r.output.find("timing (s): wall") != std::string::npos);
  CHECK(r.output.find("host tools (ptxas, cuobjdump") != std::string::npos);
  CHECK(r.output.find("GPU lanes: ") != std::string::npos);
  CHECK(r.output.find("the 20 slowest rules") != std::string::npos);
  CHECK(r.output.find("case time per area: ldgsts") != std::string::npos);
  const std::string json = read_whole_file(dir + "/results.json");
  CHECK(json.find("\"timing\"") != std::string::npos);
  CHECK(json.find("\"host_tool_s\"") != std::string::npos);
  CHECK(json.find("\"alone_phase_s\"") != std::string::npos);
}

TEST_CASE("run --jobs takes a lane count; a bad one exits 2 naming the flag", "[host][cli]") {
  for (const char* bad : {"x", "-1", "65", "2.5"}) {
    ToolRun r = cli({"run", "--rule", "ldgsts.ptx.*", "--jobs", bad});
    INFO(bad << ": " << r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("--jobs takes a whole number") != std::string::npos);
  }
}

TEST_CASE("the smoke profile says what it leaves out", "[host][cli]") {
  ToolRun r = cli({"list", "--profile", "smoke"});
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("smoke: ") != std::string::npos);
  CHECK(r.output.find("rules that compile with nvcc") != std::string::npos);
  CHECK(r.output.find(".compile.") == std::string::npos);  // nvcc compile rules are not in it
}

TEST_CASE("a run stopped by SIGTERM writes the results of the cases that finished, marked as cut off", "[host][cli]") {
  const std::string dir = temp_dir("cutoff-test");
  const std::string out = dir + ".stdout";
  pid_t pid = fork();
  if (pid == 0) {
    int log = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(log, 1);
    dup2(devnull, 2);
    execl(CUCONFORM_EXE, CUCONFORM_EXE, "run", "--kind", "codegen", "--kind", "negative", "--out", dir.c_str(), nullptr);
    _exit(127);
  }
  // The run catches the signal from before its first line: on a loaded machine (a build beside
  // it) 1.5 s could end before it read its specs, and SIGTERM then killed it outright.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  for (int i = 0; i < 300 && std::filesystem::file_size(out) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 128 + SIGTERM);
  const std::string json = read_whole_file(dir + "/results.json");
  CHECK(json.find("\"cut_off\"") != std::string::npos);
  CHECK(json.find("\"by\": \"SIGTERM\"") != std::string::npos);
  CHECK(json.find("\"not_run\"") != std::string::npos);
}
