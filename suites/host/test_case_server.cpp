// The case server CTest's GPU tests go through (harness/runner/case_server.hpp), proved without a
// GPU by the self-test fixtures: a worker kept for the next case, a crash and a hang that cost only
// their own case, records served (one that poisons its context ends its worker), cases expecting
// a fault and unknown cases refused (the test runs them itself), a clean stop;
// and the GPU lock that replaced RUN_SERIAL.
#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>

#include "harness/runner/case_server.hpp"
#include "harness/runner/gpu_lock.hpp"
#include "harness/runner/worker_process.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/util/deadline.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using cuconform::testing::read_text;
using cuconform::testing::temp_dir;

namespace {

const std::string kSpecs = std::string(CUCONFORM_TESTDATA) + "/specs";

// `<this test binary> __case-server ARGS` with the self-test specs; exit code and output.
testing::Exe server_verb(const std::string& args) {
  const std::string log = temp_dir("case-server-verb") + "/out.log";
  const std::string cmd = "CUCONFORM_SPECS='" + kSpecs + "' '" + std::filesystem::read_symlink("/proc/self/exe").string() +
                          "' " + kCaseServerVerb + " " + args + " >'" + log + "' 2>&1";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(log)};
}

double pid_of(const CaseResult& r) {
  for (auto& [k, v] : r.obs.measurements)
    if (k == "pid") return v;
  return -1;
}

const Case& find(const Catalog& cat, const std::string& name) {
  const Case* c = cat.find_case(name);
  INFO("case " << name);
  REQUIRE(c);
  return *c;
}

}  // namespace

TEST_CASE("the case server keeps its workers and loses only the case a worker dies with", "[host][case-server]") {
  Catalog cat = load_catalog(kSpecs);
  REQUIRE(cat.ok());
  const std::string sock = temp_dir("case-server") + "/s.sock";
  testing::Exe up = server_verb("start '" + sock + "'");
  INFO(up.out);
  REQUIRE(up.rc == 0);
  REQUIRE(up.out.find("ready on") != std::string::npos);
  CHECK(server_verb("start '" + sock + "'").out.find("already running") != std::string::npos);

  auto run = [&](const std::string& name, std::string* why = nullptr) {
    ServedCase s;
    std::string w;
    const bool taken = run_on_case_server(sock, find(cat, name), 0, &s, &w);
    if (why) *why = w;
    INFO(name << ": " << w);
    REQUIRE(taken);
    CHECK(s.result.name == name);
    return s.result;
  };
  // The same worker takes the next case: both report its pid (a fact of the pid fixture).
  CaseResult a = run("selftest.behave.pid"), b = run("selftest.behave.pid");
  CHECK(a.obs.verdict == Verdict::pass);
  CHECK(pid_of(a) > 0);
  CHECK(pid_of(a) == pid_of(b));
  CHECK(run("selftest.behave.ok").obs.verdict == Verdict::pass);
  CaseResult segv = run("selftest.behave.segv");
  CHECK(segv.obs.verdict == Verdict::crash);
  CHECK(segv.obs.reason.find("worker process killed by signal") == 0);
  CaseResult after = run("selftest.behave.pid");  // a fresh worker
  CHECK(after.obs.verdict == Verdict::pass);
  CHECK(pid_of(after) != pid_of(a));
  CaseResult hang = run("selftest.behave.hang");  // limit 1 s + 5 s slack
  CHECK(hang.obs.verdict == Verdict::timeout);
  CHECK(run("selftest.echo.value1").obs.verdict == Verdict::pass);
  CHECK(run("selftest.echo.value2").obs.verdict == Verdict::fail);  // a failing check stays one

  // Records share its workers; one that poisons its context ends that worker after its result.
  CaseResult rec = run("selftest.undefined.ok");
  CHECK(rec.obs.verdict == Verdict::recorded);
  const double before = pid_of(run("selftest.behave.pid"));
  CaseResult poisoned = run("selftest.undefined.fault");
  CHECK(poisoned.obs.verdict == Verdict::recorded);
  CHECK(poisoned.obs.context_poisoned);
  CHECK(pid_of(run("selftest.behave.pid")) != before);  // a fresh worker

  // Cases expecting a fault keep a process of their own; a name it does not know is not run.
  for (const Case& c : cat.cases) {
    if (!c.isolated || c.records) continue;
    ServedCase s;
    std::string why;
    CHECK_FALSE(run_on_case_server(sock, c, 0, &s, &why));
    CHECK(why.find("isolated") != std::string::npos);
    break;
  }
  Case unknown = find(cat, "selftest.behave.ok");
  unknown.name = "selftest.no_such_case";
  ServedCase s;
  std::string why;
  CHECK_FALSE(run_on_case_server(sock, unknown, 0, &s, &why));
  CHECK(why.find("unknown case") != std::string::npos);

  testing::Exe down = server_verb("stop '" + sock + "'");
  INFO(down.out);
  CHECK(down.rc == 0);
  CHECK(down.out.find("stopped, served=12") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(sock));
  CHECK(server_verb("stop '" + sock + "'").out.find("none running") != std::string::npos);
  CHECK_FALSE(run_on_case_server(sock, find(cat, "selftest.behave.ok"), 0, &s, &why));
  CHECK(why.find("no case server") != std::string::npos);
}

// Rounded down, a wait with under 1 ms left gave up before its deadline, and the server read an
// expected hang as a crash (CI on 2 cores, 2026-11-26: 1 run in 24 under load).
TEST_CASE("a bounded wait has time left until its deadline has passed", "[host][case-server]") {
  CHECK(ms_left(after(0.0005)) == 1);
  CHECK(ms_left(after(2.5), 1000) == 1000);
  CHECK(ms_left(after(-1)) == 0);
  int status = 0;
  pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  CHECK_FALSE(reap_within(child, &status, 0.05));  // killed and left to a thread
  CHECK(describe_exit(status).find("did not end in time") == 0);
}

TEST_CASE("the case server verb rejects bad arguments", "[host][case-server]") {
  CHECK(server_verb("start").rc == 2);
  CHECK(server_verb("restart /tmp/x.sock").rc == 2);
  testing::Exe e = server_verb("start /tmp/" + std::string(120, 'x') + ".sock");
  CHECK(e.rc == 2);
  CHECK(e.out.find("longer than") != std::string::npos);
}

TEST_CASE("GPU tests share the GPU lock, those that need the GPU alone take it exclusively", "[host][case-server]") {
  Catalog cat = load_catalog(kSpecs);
  REQUIRE(cat.ok());
  const std::string path = temp_dir("gpu-lock") + "/gpu0.lock";
  CHECK(gpu_lock_path("/x/s.sock", 1) == "/x/s.sock.gpu1.lock");
  CHECK(gpu_lock_path("", 0).empty());
  auto exclusive_free = [&] {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    const bool free = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (fd >= 0) close(fd);
    return free;
  };
  {
    GpuLock host(path, find(cat, "selftest.behave.ok"));  // runs without the driver: no lock
    CHECK(std::string(host.mode()) == "none");
  }
  {
    GpuLock one(path, find(cat, "selftest.gpu_needed.ok")), two(path, find(cat, "selftest.gpu_needed.ok"));
    CHECK(std::string(one.mode()) == "shared");
    CHECK(std::string(two.mode()) == "shared");  // two shared holders at once
    CHECK_FALSE(exclusive_free());
  }
  CHECK(exclusive_free());
}
