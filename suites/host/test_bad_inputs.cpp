// Bad inputs and outputs of the verbs that read and write files (issue 34): deeply nested JSON
// (refused before it is parsed, and the error locator linear in size and depth), gzip-compressed
// results (read by every verb, written for a name ending in .gz; bad gzip a clear error, never a
// huge allocation), and outputs that replace only regular files (stdout and FIFOs written into,
// devices left devices, symbolic links followed).
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "harness/util/gzip.hpp"
#include "harness/util/input_file.hpp"
#include "harness/util/json_locate.hpp"
#include "harness/util/json_read.hpp"
#include "harness/util/output_file.hpp"
#include "suites/host/test_reporters_support.hpp"
#include "suites/host/test_text.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

namespace {


// A results head with `depth` arrays, one inside the other, under a key no reader looks at, and
// no "cases": the locator then searched the whole text for "cases", a path per level.
const std::string kNestedHead = "{\"schema\": \"cuconform-results/1\", \"x\": ";
std::string nested_results(std::size_t depth) { return kNestedHead + std::string(depth, '[') + std::string(depth, ']') + "}\n"; }

// Runs `fn` in a child process limited to `mb` MiB of address space: 0 when it returned true, 3
// when it ran out of memory (std::bad_alloc), 1 otherwise.
template <typename Fn>
int in_child_with_memory(std::size_t mb, Fn fn) {
  pid_t pid = fork();
  if (pid == 0) {
    rlimit lim{mb << 20, mb << 20};
    setrlimit(RLIMIT_AS, &lim);
    int rc = 1;
    try {
      rc = fn() ? 0 : 1;
    } catch (const std::bad_alloc&) {
      rc = 3;
    } catch (...) {
      rc = 1;
    }
    _exit(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("json locator: finds values by path, and keeps only the levels on the way to it", "[host][bad-input]") {
  const std::string text = "{\"case\": 1,\n \"cases\": [\n  {\"verdict\": \"pass\"},\n  {\"verdict\": [1, [2, 3]]}\n ]\n}\n";
  CHECK(position_in(text, json_offset_of(text, "cases[1].verdict")).line == 4);
  CHECK(position_in(text, json_offset_of(text, "cases[0].verdict")).line == 3);
  CHECK(position_in(text, json_offset_of(text, "case")).line == 1);  // a key that is the start of another
  CHECK(position_in(text, json_offset_of(text, "cases[1].verdict[1][1]")).line == 4);
  CHECK(json_offset_of(text, "cases[2]") == std::string::npos);
  CHECK(json_offset_of(text, "cases.verdict") == std::string::npos);
  CHECK(json_offset_of(text, "") == 0);

  // 200,000 levels (600 KB) and a path that is not there: a path per level would be ~60 GB.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  int rc = in_child_with_memory(512, [&] { return json_offset_of(deep, "cases") == std::string::npos && json_offset_of(deep, "[0][0][1]") == std::string::npos; });
  INFO("child exit " << rc << " (3: out of memory)");
  CHECK(rc == 0);
}

TEST_CASE("json nesting: a document deeper than 64 levels is refused with FILE:LINE:COLUMN", "[host][bad-input]") {
  CHECK(json_nesting_beyond("[[\"[[[[\"]]", 2) == std::string::npos);  // brackets in strings do not count
  CHECK(json_nesting_beyond("[[\"\\\"[[[\"]]", 2) == std::string::npos);  // nor after an escaped quote
  CHECK(json_nesting_beyond("[[[]]]", 2) == 2);
  CHECK_NOTHROW(JsonDoc(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']'), "ok.json"));
  try {
    JsonDoc("{\"a\":\n" + std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']') + "}", "deep.json");
    FAIL("a document of 65 levels was accepted");
  } catch (const JsonError& e) {
    CHECK(std::string(e.what()) == "deep.json:2:64: nesting deeper than 64 levels: not a cuconform file (one nests about 6)");
  }
  // A whole committed run is well within the limit.
  for (auto& e : fs::directory_iterator(source_root() / "ci/baselines"))
    if (e.path().extension() == ".gz") CHECK(json_nesting_beyond(read_input_file(e.path().string()), 8) == std::string::npos);
}

TEST_CASE("json nesting: report, merge and history add refuse 1 MB of nested arrays, exit 2", "[host][bad-input]") {
  std::string dir = temp_dir("deep-json");
  write_text(dir + "/deep.json", nested_results(500000));  // 1 MB
  // Before the limit and the linear locator this ran out of memory (400 KB: 3.4 GB, then
  // std::bad_alloc): a child limited to 2 GB of address space and 120 s fails instead of
  // taking the machine with it.
  auto limited = [&](const std::string& args) { return cuconform_cli(args, "ulimit -v 2000000; timeout 120"); };
  for (const std::string& args : {"report " + q(dir + "/deep.json"), "merge " + q(dir + "/deep.json") + " -o " + q(dir + "/m.json"),
                                  "compare " + q(dir + "/deep.json") + " " + q(dir + "/deep.json"),
                                  "history add --db " + q(dir + "/h.sqlite") + " " + q(dir + "/deep.json")}) {
    Exe e = limited(args);
    INFO(args << "\n" << e.out.substr(0, 2000));
    CHECK(e.rc == 2);
    CHECK(has(e.out, dir + "/deep.json:1:" + std::to_string(kNestedHead.size() + 64) + ": nesting deeper than 64 levels"));
  }
  fs::remove_all(dir);
}

TEST_CASE("gzip: written for a name ending in .gz, read whatever the name, bad gzip a clear error", "[host][bad-input]") {
  std::string dir = temp_dir("gzip");
  std::string text = results_json(synthetic_run()->run);
  write_file_atomically(dir + "/a.json.gz", text);
  std::string raw = read_text(dir + "/a.json.gz");
  CHECK(looks_gzip(raw));
  CHECK(raw.size() < text.size() / 3);
  CHECK(read_input_file(dir + "/a.json.gz") == text);
  write_text(dir + "/renamed.json", raw);
  CHECK(read_input_file(dir + "/renamed.json") == text);  // by content, not by name
  CHECK(gzip(text) == gzip(text));                         // the same bytes each time (no time in the header)
  CHECK(gunzip(gzip("a") + gzip("b"), "two", 10) == "ab");  // members one after the other

  struct Bad {
    std::string name, bytes, message;
  };
  std::string truncated = raw.substr(0, raw.size() / 2), corrupt = raw;
  for (std::size_t i = 20; i < 60; ++i) corrupt[i] = static_cast<char>(~corrupt[i]);
  std::vector<Bad> bad = {
      {"plain.json.gz", text, "plain.json.gz: not gzip (it does not start with the gzip magic bytes 1f 8b)"},
      {"empty.json.gz", "", "empty.json.gz: not gzip"},
      {"truncated.json.gz", truncated, "truncated.json.gz: truncated gzip (the file ends before its compressed data does)"},
      {"corrupt.json.gz", corrupt, "corrupt.json.gz: corrupt gzip: "},
      {"trailing.json.gz", raw + "garbage", "trailing.json.gz: corrupt gzip: 7 byte(s) after the end of its compressed data"},
      // 64 MiB of zeros in 64 KB: over the 1 MiB limit set below, refused at the limit.
      {"bomb.json.gz", gzip(std::string(64 << 20, '\0')), "bomb.json.gz: inflates to more than 1 MiB"},
  };
  for (auto& b : bad) {
    write_text(dir + "/" + b.name, b.bytes);
    INFO(b.name);
    try {
      read_input_file(dir + "/" + b.name, std::size_t{1} << 20);
      FAIL("read");
    } catch (const InputError& e) {
      CHECK(has(e.what(), dir + "/" + b.message));
    }
    for (const std::string& verb : {std::string("report "), "history add --db " + q(dir + "/h.sqlite") + " "}) {
      Exe e = cuconform_cli(verb + q(dir + "/" + b.name), "CUCONFORM_MAX_RESULTS_MB=1");
      INFO(verb << ": " << e.out);
      CHECK(e.rc == 2);
      CHECK(has(e.out, dir + "/" + b.message));
    }
  }
  // A plain file over the limit is refused before it is read.
  write_text(dir + "/big.json", std::string(3 << 20, ' '));
  Exe big = cuconform_cli("report " + q(dir + "/big.json"), "CUCONFORM_MAX_RESULTS_MB=2");
  CHECK(big.rc == 2);
  CHECK(has(big.out, dir + "/big.json: 3 MiB, more than 2 MiB (the most a results file may hold; $CUCONFORM_MAX_RESULTS_MB raises it)"));
  fs::remove_all(dir);
}

TEST_CASE("gzip: report, compare, merge and history add read .json.gz, merge -o X.gz writes it", "[host][bad-input]") {
  std::string dir = temp_dir("gzip-verbs");
  std::string text = results_json(synthetic_run()->run);
  write_text(dir + "/a.json", text);
  write_file_atomically(dir + "/b.json.gz", with_verdict(text, "ldgsts.zero_fill.cp16.src4.cg", "pass", "fail"));

  Exe rep = cuconform_cli("report " + q(dir + "/b.json.gz"));
  CHECK(rep.rc == 0);
  CHECK(has(rep.out, "## cuconform:"));
  Exe cmp = cuconform_cli("compare " + q(dir + "/a.json") + " " + q(dir + "/b.json.gz"));
  INFO(cmp.out);
  CHECK(cmp.rc == 1);
  CHECK(has(cmp.out, "ldgsts.zero_fill.cp16.src4.cg"));
  Exe merge = cuconform_cli("merge " + q(dir + "/a.json") + " " + q(dir + "/b.json.gz") + " -o " + q(dir + "/fleet.json.gz"));
  INFO(merge.out);
  REQUIRE(merge.rc == 0);
  CHECK(looks_gzip(read_text(dir + "/fleet.json.gz")));
  CHECK(has(read_input_file(dir + "/fleet.json.gz"), "\"schema\": \"cuconform-fleet/1\""));
  Exe fleet = cuconform_cli("report " + q(dir + "/fleet.json.gz") + " --md " + q(dir + "/fleet.md.gz"));
  CHECK(fleet.rc == 0);
  CHECK(has(read_input_file(dir + "/fleet.md.gz"), "| D2 |"));
  Exe add = cuconform_cli("history add --db " + q(dir + "/h.sqlite") + " " + q(dir + "/b.json.gz") + " " + q(dir + "/fleet.json.gz"));
  INFO(add.out);
  CHECK(add.rc == 0);
  CHECK(has(add.out, "1 run(s) added, 2 already stored"));
  fs::remove_all(dir);
}

TEST_CASE("gzip: compare picks a committed .json.gz baseline from the folder", "[host][bad-input]") {
  std::string dir = temp_dir("gzip-baseline");
  const fs::path baselines = source_root() / "ci/baselines";
  write_text(dir + "/new.json", read_input_file((baselines / "NVIDIA-H200_driver-580.159.04.json.gz").string()));
  Exe e = cuconform_cli("compare " + q(baselines.string()) + " " + q(dir + "/new.json") + " --known " + q((baselines / "known.yaml").string()));
  INFO(e.out.substr(0, 3000));
  CHECK(e.rc == 0);
  CHECK(has(e.out, "baseline: " + (baselines / "NVIDIA-H200_driver-580.159.04.json.gz").string() +
                       " (the same GPU model, code path, toolchain and driver)"));
  fs::remove_all(dir);
}

TEST_CASE("outputs: stdout and /dev/stdout are written to, devices stay devices, FIFOs are fed, links followed", "[host][bad-input]") {
  std::string dir = temp_dir("outputs");
  write_text(dir + "/a.json", results_json(synthetic_run()->run));
  const std::string a = q(dir + "/a.json");

  for (const std::string out : {"/dev/stdout", "-"}) {
    Exe e = cuconform_cli("report " + a + " --md " + out);
    INFO(out << ": " << e.out.substr(0, 400));
    CHECK(e.rc == 0);
    CHECK(e.out.rfind("## cuconform:", 0) == 0);  // the report itself, first
    CHECK_FALSE(has(e.out, "md:"));              // and no line saying where it went
  }
  // Redirected to a file, /dev/stdout is that file: written in order with what the verb prints.
  Exe both = cuconform_cli("report " + a + " --md /dev/stdout --html " + q(dir + "/r.html"));
  CHECK(both.rc == 0);
  CHECK(both.out.rfind("## cuconform:", 0) == 0);
  CHECK(has(both.out, "html: " + dir + "/r.html\n"));

  if (fs::exists("/dev/full")) {
    Exe full = cuconform_cli("report " + a + " --html /dev/full");
    INFO(full.out);
    CHECK(full.rc == 2);
    CHECK(has(full.out, "cuconform report: /dev/full: cannot write: No space left on device"));
    CHECK(fs::is_character_file("/dev/full"));
  }
  Exe null = cuconform_cli("report " + a + " --html /dev/null");
  CHECK(null.rc == 0);
  CHECK(fs::is_character_file("/dev/null"));

  // A FIFO: a reader gets the report, and the FIFO is still one.
  REQUIRE(mkfifo((dir + "/pipe").c_str(), 0600) == 0);
  CHECK_FALSE(output_replaces_file(dir + "/pipe"));
  CHECK_FALSE(output_replaces_file("/dev/null"));
  CHECK_FALSE(output_replaces_file("-"));
  CHECK(output_replaces_file(dir + "/a.json"));
  CHECK(output_replaces_file(dir + "/not-yet.json"));
  std::string cmd = "cat " + q(dir + "/pipe") + " > " + q(dir + "/from-pipe.md") + " & '" + CUCONFORM_EXE + "' report " + a + " --md " +
                    q(dir + "/pipe") + " > /dev/null; rc=$?; wait; exit $rc";
  CHECK(std::system(cmd.c_str()) == 0);
  CHECK(fs::is_fifo(dir + "/pipe"));
  CHECK(read_text(dir + "/from-pipe.md").rfind("## cuconform:", 0) == 0);

  // A symbolic link: the file it names is replaced (atomically), the link stays; a link to a
  // file not there yet makes that file.
  write_text(dir + "/target.md", "old\n");
  fs::create_symlink("target.md", dir + "/link.md");
  fs::create_directories(dir + "/sub");
  fs::create_symlink(dir + "/sub/new.md", dir + "/dangling.md");
  for (const std::string link : {"link.md", "dangling.md"}) {
    Exe e = cuconform_cli("report " + a + " --md " + q(dir + "/" + link));
    INFO(link << ": " << e.out);
    CHECK(e.rc == 0);
    CHECK(fs::is_symlink(dir + "/" + link));
  }
  CHECK(read_text(dir + "/target.md").rfind("## cuconform:", 0) == 0);
  CHECK(read_text(dir + "/sub/new.md").rfind("## cuconform:", 0) == 0);
  CHECK(fs::is_regular_file(fs::symlink_status(dir + "/target.md")));

  // A folder, or a file in a folder that cannot be made, is an error naming the path.
  Exe folder = cuconform_cli("report " + a + " --md " + q(dir + "/sub"));
  CHECK(folder.rc == 2);
  CHECK(has(folder.out, dir + "/sub: is a folder"));
  Exe under_file = cuconform_cli("report " + a + " --md " + q(dir + "/a.json/x.md"));
  CHECK(under_file.rc == 2);
  CHECK(has(under_file.out, dir + "/a.json/x.md: cannot make its folder"));
  // Nothing left behind: no temporary files beside the outputs.
  for (auto& e : fs::recursive_directory_iterator(dir)) CHECK_FALSE(has(e.path().filename().string(), ".tmp."));
  fs::remove_all(dir);
}
