// The bad-input corpus (issue 41): each input that crashed or hung a verb, run through the built
// executable in a child limited to 1 GiB of address space and killed after 60 s, checked for its
// exit code, the message naming FILE:LINE (or the option), its CPU time (the child's, so a loaded
// machine does not make it flaky) and that nothing on disk changed that should not have. The
// corpus files are in suites/testdata/bad/corpus/; the big ones are made here.
//
// CUCONFORM_CORPUS_EXE=/path/to/an/older/cuconform runs the same cases against another build (the
// one before the fixes: every case fails there, by a signal, a kill at 60 s or a wrong exit).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <map>

#include "harness/util/input_file.hpp"
#include "harness/util/json_ordered_parse.hpp"
#include "history/pg_connect_timeout.hpp"
#include "suites/host/test_silent_server.hpp"
#include "suites/host/test_reporters_support.hpp"
#include "suites/host/test_text.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

namespace {


std::string corpus(const std::string& name) { return std::string(CUCONFORM_TESTDATA) + "/bad/corpus/" + name; }

// What one bad input cost: exit status (128+N for a signal, 137 when killed at 60 s), output,
// CPU seconds of the child.
struct Bounded {
  int rc = -1;
  std::string out;
  double cpu_s = 0;
};

constexpr double kCpuBoundS = 10;  // each case needs well under 1 s here; the defects took minutes

double children_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// `cuconform ARGS` (quoted already) in folder `cwd`, with `env` assignments, no known list unless
// ARGS names one, 1 GiB of address space and 60 s.
Bounded bounded_cli(const std::string& args, const std::string& cwd, const std::string& env = "") {
  const char* other = std::getenv("CUCONFORM_CORPUS_EXE");
  const std::string exe = other && *other ? other : CUCONFORM_EXE;
  const std::string log = cwd + "/../cli.log";
  const std::string cmd = "cd " + q(cwd) + " && ulimit -v 1048576 && exec env CUCONFORM_KNOWN= " + env + " timeout -s KILL 60 " + q(exe) +
                          " " + args + " >" + q(log) + " 2>&1";
  const double before = children_cpu_s();
  int status = std::system(cmd.c_str());
  Bounded b;
  b.cpu_s = children_cpu_s() - before;
  b.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  b.out = read_text(log);
  fs::remove(log);
  return b;
}

// Every file and link under `dir` with its content (a link: its target), to see what changed.
std::map<std::string, std::string> on_disk(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_symlink()) files[e.path().string()] = "-> " + fs::read_symlink(e.path()).string();
    else if (e.is_regular_file()) files[e.path().string()] = read_text(e.path().string());
  }
  return files;
}

// A folder for one case: DIR/work (the child's current folder) and DIR/specs.
struct CaseDir {
  std::string root, work, specs;
  explicit CaseDir(const std::string& name) : root(temp_dir("corpus-" + name)), work(root + "/work"), specs(root + "/specs") {
    fs::create_directories(work);
    fs::create_directories(specs);
  }
  ~CaseDir() { fs::remove_all(root); }
};

void check_bounded(const Bounded& b) {
  INFO("exit " << b.rc << " after " << b.cpu_s << " s of CPU\n" << b.out.substr(0, 3000));
  CHECK(b.rc != 137);  // killed at 60 s
  CHECK(b.cpu_s < kCpuBoundS);
}

// lint and list of d's spec folder each exit 2 in bounds, saying every one of `said`, and change
// nothing.
void check_specs_refused(const CaseDir& d, const std::vector<std::string>& said) {
  auto before = on_disk(d.root);
  for (const std::string verb : {"lint", "list"}) {
    Bounded b = bounded_cli(verb + " --specs " + q(d.specs), d.work);
    INFO(verb);
    check_bounded(b);
    CHECK(b.rc == 2);
    for (const std::string& s : said) CHECK(has(b.out, s));
  }
  CHECK(on_disk(d.root) == before);
}

// A spec folder holding `text` as corpus.yaml, refused with `message` after "FILE:LINE:COL: ",
// FILE being corpus.yaml.
void check_spec_refused(const std::string& name, const std::string& text, int line, const std::string& message) {
  CaseDir d(name);
  write_text(d.specs + "/corpus.yaml", text);
  check_specs_refused(d, {d.specs + "/corpus.yaml:" + std::to_string(line) + ":", message});
}

std::string base_spec() { return read_text(corpus("base.yaml")); }

std::string with_where(const std::string& where) {
  std::string s = base_spec();
  return s.replace(s.find("[\"threads <= 64\"]"), 17, where);
}

}  // namespace

TEST_CASE("corpus: the base spec is valid, so each case below fails for its one fault", "[host][bad-input][corpus]") {
  CaseDir d("base");
  write_text(d.specs + "/corpus.yaml", base_spec());
  Bounded b = bounded_cli("lint --specs " + q(d.specs), d.work);
  INFO(b.out);
  CHECK(b.rc == 0);
}

TEST_CASE("corpus: a where-expression nested 100,000 deep is refused at its line (was SIGSEGV in lint and list)", "[host][bad-input][corpus]") {
  // 200 KB in one value: refused as a value that long before it is parsed.
  check_spec_refused("deep-where", with_where("[\"" + std::string(100000, '(') + "1" + std::string(100000, ')') + "\"]"), 13,
                     "a value of 200001 characters, more than 8192");
  // Within that length, the expression's own bound: 65 levels (the old parser took them, and
  // 4,000 of them, in a value of 8 KB, still fit its stack).
  check_spec_refused("deep-where-65", with_where("[\"" + std::string(65, '(') + "1" + std::string(65, ')') + "\"]"), 13,
                     "nested deeper than 64 levels");
  check_spec_refused("deep-not-65", with_where("[\"" + std::string(65, '!') + "1\"]"), 13, "nested deeper than 64 levels");
}

TEST_CASE("corpus: a 30,000-character rule id, source or parameter is refused at its line (was SIGSEGV in lint)", "[host][bad-input][corpus]") {
  std::string id = base_spec(), source = base_spec(), param = with_where("[\"threads != 0\"]");  // every value makes a case
  id.replace(id.find("id: corpus.base"), 15, "id: corpus." + std::string(30000, 'b'));
  source.replace(source.find("source: test"), 12, "source: \"see /a/" + std::string(30000, 'b') + "\"");
  param.replace(param.find("[32, 64]"), 8, "[32, 64, 3" + std::string(30000, '1') + "]");
  check_spec_refused("long-id", id, 5, "a value of 30007 characters, more than 8192");
  check_spec_refused("long-source", source, 7, "more than 8192");
  check_spec_refused("long-param", param, 12, "a value of 30001 characters, more than 8192");
}

TEST_CASE("corpus: YAML nested 100,000 deep is refused at its line, said as nesting", "[host][bad-input][corpus]") {
  check_spec_refused("deep-yaml", with_where(std::string(100000, '[') + std::string(100000, ']')), 13, "nesting deeper than 64 levels");
}

TEST_CASE("corpus: a range 0..99999999999999999999999 is refused at its line (was SIGABRT, uncaught stol)", "[host][bad-input][corpus]") {
  check_spec_refused("range", read_text(corpus("huge_range.yaml")), 11,
                     "param 'threads': bad range 0..99999999999999999999999: its bounds must lie in [-2^31, 2^31)");
}

TEST_CASE("corpus: a 1 KB YAML alias bomb in a rule's notes is refused at once (was 224 s of CPU)", "[host][bad-input][corpus]") {
  check_spec_refused("alias-bomb", read_text(corpus("alias_bomb.yaml")), 20, "aliases expand to more than 100000 nodes");
}

TEST_CASE("corpus: a symbolic link loop named *.yaml in the specs folder is an error naming it (was SIGABRT)", "[host][bad-input][corpus]") {
  CaseDir d("symlink-loop");
  write_text(d.specs + "/corpus.yaml", base_spec());
  fs::create_symlink("loop.yaml", d.specs + "/loop.yaml");
  check_specs_refused(d, {d.specs + "/loop.yaml: cannot read it: Too many levels of symbolic links"});
}

TEST_CASE("corpus: known-list regexes run in linear time: a .* against a 50,000-character name, a catastrophic pattern",
          "[host][bad-input][corpus]") {
  CaseDir d("regex");
  auto run = synthetic_run();
  run->add("corpus", "corpus.long", std::string(50000, 'a'), Verdict::fail);           // .* over it: SIGSEGV
  run->add("corpus", "corpus.slow", std::string(40, 'a'), Verdict::fail);              // no X at its end: minutes
  write_text(d.work + "/new.json", results_json(run->run));
  fs::copy(corpus("known_catastrophic.yaml"), d.work + "/known.yaml");
  auto before = on_disk(d.root);
  Bounded report = bounded_cli("report new.json --known known.yaml", d.work);
  check_bounded(report);
  CHECK(report.rc == 0);
  CHECK(has(report.out, "a long name"));  // the .* entry matched the long name
  Bounded compare = bounded_cli("compare new.json new.json --known known.yaml", d.work);
  check_bounded(compare);
  CHECK(compare.rc == 0);
  CHECK(on_disk(d.root) == before);
}

TEST_CASE("corpus: a known-list regex with a backreference is refused at its line", "[host][bad-input][corpus]") {
  CaseDir d("backreference");
  write_text(d.work + "/new.json", results_json(synthetic_run()->run));
  fs::copy(corpus("known_backreference.yaml"), d.work + "/known.yaml");
  auto before = on_disk(d.root);
  for (const std::string verb : {"report new.json", "compare new.json new.json"}) {
    Bounded b = bounded_cli(verb + " --known known.yaml", d.work);
    INFO(verb);
    check_bounded(b);
    CHECK(b.rc == 2);
    CHECK(has(b.out, "known.yaml:3: bad regex '^(tma)\\.\\1': invalid escape sequence: \\1"));
  }
  CHECK(on_disk(d.root) == before);
}

TEST_CASE("corpus: history add --db :memory: (or mode=memory) is refused, not spun on for ever", "[host][bad-input][corpus]") {
  CaseDir d("sqlite-memory");
  write_text(d.work + "/a.json", results_json(synthetic_run()->run));
  auto before = on_disk(d.root);
  for (const std::string db : {":memory:", "file:h?mode=memory", "file::memory:?cache=shared"}) {
    Bounded b = bounded_cli("history add --db " + q(db) + " a.json", d.work);
    INFO(db);
    check_bounded(b);
    CHECK(b.rc == 2);
    CHECK(has(b.out, db + ": an in-memory SQLite database"));
  }
  CHECK(on_disk(d.root) == before);  // no file named after the URI either
}

TEST_CASE("corpus: PostgreSQL's connect timeout is clamped: 0 or -5 no longer waits for ever on a silent server", "[host][bad-input][corpus]") {
  // A server that accepts the connection and never answers.
  const SilentServer server;
  const std::string url = "postgresql://nobody@" + server.host_port() + "/none?sslmode=disable";
  CaseDir d("pg-timeout");
  struct Try {
    std::string url, env;
  };
  for (const Try& t : {Try{url + "&connect_timeout=-5", ""}, Try{url, "PGCONNECT_TIMEOUT=0"}, Try{url + "&connect_timeout=0", ""}}) {
    const auto start = std::chrono::steady_clock::now();
    Bounded b = bounded_cli("history runs --db " + q(t.url), d.work, t.env);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(t.url << " " << t.env << ": " << wall << " s\n" << b.out);
    if (has(b.out, "could not be loaded")) {
      WARN("libpq is not installed: the connect timeout is not tried");
      break;
    }
    check_bounded(b);
    CHECK(b.rc == 2);
    CHECK(has(b.out, "timeout expired (cuconform gives up after 2 s"));
    CHECK(wall < 50);  // 2 s, a loaded machine's start-up aside; the kill is at 60 s
  }
  Bounded bad = bounded_cli("history runs --db " + q(url + "&connect_timeout=soon"), d.work);
  CHECK(bad.rc == 2);
  CHECK(has(bad.out, "connect_timeout=soon is not a whole number of seconds"));
}

TEST_CASE("corpus: one case with 200,000 measurements is read in linear time (was 23-32 s, quadratic)", "[host][bad-input][corpus]") {
  CaseDir d("measurements");
  auto cpu_for = [&](std::size_t n) {
    auto run = synthetic_run();
    std::vector<std::pair<std::string, double>> m;
    for (std::size_t i = 0; i < n; ++i) m.emplace_back("m" + std::to_string(i), static_cast<double>(i));
    run->add("corpus", "corpus.many", "n" + std::to_string(n), Verdict::pass, m);
    write_text(d.work + "/many.json", results_json(run->run));
    Bounded b = bounded_cli("report many.json --md many.md", d.work);
    INFO(n << " measurements");
    check_bounded(b);
    CHECK(b.rc == 0);
    CHECK(has(read_text(d.work + "/many.md"), "## cuconform:"));
    return b.cpu_s;
  };
  const double small = cpu_for(50000), big = cpu_for(200000);
  INFO("50,000: " << small << " s, 200,000: " << big << " s of CPU");
  CHECK(big < 8 * small + 1);  // 4x the members: quadratic would be 16x
}

TEST_CASE("corpus: an output naming an input or another output is exit 2 naming both options, nothing written", "[host][bad-input][corpus]") {
  CaseDir d("outputs");
  write_text(d.work + "/a.json", results_json(synthetic_run()->run));
  write_text(d.work + "/k.yaml", "known_failures:\n");
  fs::create_symlink("a.json", d.work + "/link.json");
  fs::create_hard_link(d.work + "/a.json", d.work + "/hard.json");
  struct Clash {
    std::string args, message;
  };
  const std::vector<Clash> clashes = {
      {"report a.json --html a.json", "--html a.json and the argument a.json name the same file"},
      {"report a.json --md ./a.json", "--md ./a.json and the argument a.json name the same file"},
      {"report a.json --html link.json", "--html link.json and the argument a.json name the same file"},
      {"report a.json --html hard.json", "--html hard.json and the argument a.json name the same file"},
      {"report a.json --html x.html --md ../work/x.html", "--html x.html and --md ../work/x.html name the same file"},
      {"run --json x.json --junit ./x.json", "--json x.json and --junit ./x.json name the same file"},
      {"run --known k.yaml --json k.yaml", "--json k.yaml and --known k.yaml name the same file"},
      {"merge a.json -o a.json", "-o a.json and the argument a.json name the same file"},
      {"merge a.json -o=a.json", "-o a.json and the argument a.json name the same file"},
      {"compare a.json a.json --md a.json", "--md a.json and the argument a.json name the same file"},
      {"report a.json --html ''", "--html: an empty path"},
      {"report a.json --md=", "--md needs a value"},
  };
  auto before = on_disk(d.root);
  for (const Clash& c : clashes) {
    Bounded b = bounded_cli(c.args, d.work);
    INFO(c.args);
    check_bounded(b);
    CHECK(b.rc == 2);
    CHECK(has(b.out, c.message));
    CHECK(on_disk(d.root) == before);
  }
  // Apart: fine. -o=FILE is -o FILE (it wrote "=out.json").
  Bounded merge = bounded_cli("merge a.json -o=out.json", d.work);
  INFO(merge.out);
  CHECK(merge.rc == 0);
  CHECK(fs::exists(d.work + "/out.json"));
  CHECK_FALSE(fs::exists(d.work + "/=out.json"));
  Bounded two = bounded_cli("report a.json --html r.html --md r.md", d.work);
  CHECK(two.rc == 0);
  CHECK(read_text(d.work + "/a.json") == before[d.work + "/a.json"]);
}

TEST_CASE("json: the linear parser builds what nlohmann's parser builds, every committed baseline included", "[host][bad-input][corpus]") {
  for (auto& e : fs::directory_iterator(source_root() / "ci/baselines"))
    if (e.path().extension() == ".gz") {
      const std::string text = read_input_file(e.path().string());
      INFO(e.path());
      CHECK(parse_ordered_json(text) == nlohmann::ordered_json::parse(text));
    }
  // A repeated key keeps its first place and its last value, as nlohmann's does; its path is told.
  const std::string text = "{\"a\": 1, \"b\": {\"c\": [0, {\"d\": 1, \"d\": [2]}]}, \"a\": 3}";
  std::vector<std::string> repeated;
  auto j = parse_ordered_json(text, &repeated);
  CHECK(j == nlohmann::ordered_json::parse(text));
  CHECK(j.begin().key() == "a");
  CHECK(j["a"] == 3);
  CHECK(repeated == std::vector<std::string>{"b.c[1].d", "a"});
  CHECK_THROWS_AS(parse_ordered_json("{\"a\": [1, }"), nlohmann::json::parse_error);
}

TEST_CASE("postgresql: the connect timeout: the URI's, else $PGCONNECT_TIMEOUT, else 10 s; within 2 to 300 s", "[host][bad-input][corpus]") {
  std::string why;
  CHECK(pg_connect_timeout_s("", "", &why) == 10);
  CHECK(pg_connect_timeout_s("", "30", &why) == 30);
  CHECK(pg_connect_timeout_s("5", "30", &why) == 5);
  CHECK(pg_connect_timeout_s("0", "", &why) == 2);    // libpq: wait for ever
  CHECK(pg_connect_timeout_s("-5", "", &why) == 2);   // libpq: wait for ever
  CHECK(pg_connect_timeout_s("", "0", &why) == 2);
  CHECK(pg_connect_timeout_s("86400", "", &why) == 300);
  CHECK(pg_connect_timeout_s("99999999999999999999", "", &why) == -1);
  CHECK(pg_connect_timeout_s("", "soon", &why) == -1);
  CHECK(why == "PGCONNECT_TIMEOUT=soon is not a whole number of seconds");
}
