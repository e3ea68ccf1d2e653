// Fixtures that exercise the harness itself without a GPU: a pass, a failure, a process
// crash, a hang and a "fault" that poisons the worker, so the supervisor's recovery is
// tested on every machine. Only the test executable has them (suites/testdata/specs).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <unistd.h>

#include "harness/driver/gpu.hpp"
#include "harness/fixture/fixture.hpp"

namespace cuconform {
namespace {

Observation echo(FixtureContext& ctx) {
  Observation o;
  long long v = ctx.param_int("value");
  long long want = static_cast<long long>(ctx.expect().num("value", 0));
  o.measure("value", static_cast<double>(v));
  return o.judge(v == want, std::to_string(want), std::to_string(v));
}

Observation behave(FixtureContext& ctx) {
  if (ctx.c.is_violation) throw DriverError(CUDA_ERROR_MISALIGNED_ADDRESS, "selftest violation");
  std::string how = ctx.param("how");
  if (how == "abort") std::abort();
  if (how == "segv") std::raise(SIGSEGV);
  if (how == "hang") std::this_thread::sleep_for(std::chrono::hours(1));
  if (how == "throw") throw std::runtime_error("fixture bug");
  if (how == "fault") throw DriverError(CUDA_ERROR_MISALIGNED_ADDRESS, "selftest launch");
  if (how == "fail_once") {  // fails while $CUCONFORM_SELFTEST_MARK does not exist, making it
    const char* mark = std::getenv("CUCONFORM_SELFTEST_MARK");
    if (!mark) return Observation().judge(false, "a mark file ($CUCONFORM_SELFTEST_MARK)", "none set");
    if (access(mark, F_OK) == 0) return Observation().judge(true, "the mark", "the mark was there");
    if (FILE* f = std::fopen(mark, "w")) std::fclose(f);
    return Observation().judge(false, "the mark", "no mark yet: made it");
  }
  if (how == "pid") {  // reports its process id, so tests see which worker ran it
    Observation o;
    o.measure("pid", static_cast<double>(getpid()));
    return o.judge(true, "any", std::to_string(getpid()));
  }
  return Observation().judge(true, "ok", "ok");
}

// Reports when it began and ended (microseconds of the system clock, comparable between
// processes) around a short sleep, so tests see whether two cases ran at the same time, and
// its process id (which worker ran it).
Observation window(FixtureContext&) {
  auto now_us = [] {
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  };
  Observation o;
  o.measure("begin_us", now_us());
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  o.measure("end_us", now_us());
  o.measure("pid", static_cast<double>(getpid()));
  return o.judge(true, "any", "slept 40 ms");
}

CUCONFORM_FIXTURE({.name = "selftest.window",
                   .summary = "records when it ran (begin_us, end_us) around a 40 ms sleep",
                   .params = {"n"},
                   .run = window});
CUCONFORM_FIXTURE({.name = "selftest.echo",
                   .summary = "passes when param value equals expect.value",
                   .params = {"value"},
                   .expect_keys = {"value"},
                   .run = echo});
CUCONFORM_FIXTURE({.name = "selftest.behave",
                   .summary = "abort | segv | hang | throw | fault | pid | fail_once | ok",
                   .params = {"how"},
                   .run = behave});

}  // namespace
}  // namespace cuconform
