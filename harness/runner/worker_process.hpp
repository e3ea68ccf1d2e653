#pragma once
// A worker process seen from its parent (the supervisor, or the case server): how it is started,
// ended, and what is said when it dies or overruns with a case in hand.
#include <sys/types.h>

#include <string>
#include <vector>

#include "harness/runner/case_result.hpp"
#include "harness/spec/spec.hpp"
#include "harness/util/deadline.hpp"

namespace cuconform {

struct Worker {
  pid_t pid = -1;
  int proto = -1;  // fd 3 of the worker
  int log = -1;    // its stdout and stderr
  int gate = -1;   // a gated or streaming worker's input (fd 4 of the worker, a socket); closing ends it
  std::string heard;  // protocol bytes read past its last whole line
};

// A worker for `batch` (names on its stdin, only their spec files parsed); gated: it opens the
// GPU, says READY and waits for its go (worker.hpp). `env`: "KEY=VALUE" entries that replace the
// parent's (which GPU it sees: CUDA_VISIBLE_DEVICES, CUCONFORM_DEVICE, CUCONFORM_PEER_DEVICE).
// pid < 0 when it could not start.
Worker spawn(const std::string& specs, const std::vector<const Case*>& batch, bool gated = false,
             const std::vector<std::string>& env = {});

// A streaming worker (worker.hpp, --stream) for the case server: the whole spec tree, the GPU
// `device` (CUCONFORM_DEVICE) opened at once, then one case per line on its gate.
Worker spawn_streaming(const std::string& specs, int device);

// What next_line() heard from a worker.
enum class Heard {
  line,   // a protocol line
  quiet,  // nothing within `wake_ms` (the caller may look at a stop flag, then ask again)
  ended,  // its protocol pipe closed: it exited or died
  late,   // `until` passed first
};

// The worker's next protocol line into `line`, its output meanwhile drained into `log` (the last
// 8,000 bytes: a full pipe would stall it). The supervisor's lanes and the case server read with it.
// `wake_ms` < 0: never `quiet`, the wait ends with a line, the worker's end or `until`.
Heard next_line(Worker& w, std::string* line, SteadyClock::time_point until, std::string* log, int wake_ms = -1);

// Reads what is left of the worker's output into `log` without waiting for a writer that has not
// closed it, and closes it.
void drain_log(Worker& w, std::string* log);

// Moves the first whole line of `buf` (without its newline) to `line`; false when there is none.
bool take_line(std::string& buf, std::string* line);

// Closes what is left of the worker's fds (its process is the caller's to end or reap).
void close_fds(Worker& w);

// Kills the worker and closes what is left of its fds (a gated worker that never got its go, a
// streaming one that hung or is no longer needed).
void cancel(Worker& w);

// Waits at most `seconds` for `pid` to end, its status in `*status`; true when it did. One that
// takes longer (a killed worker whose context is torn down on a busy GPU: once over 96 s on an
// H200) is killed, left to a thread of its own, and `*status` says so to describe_exit.
bool reap_within(pid_t pid, int* status, double seconds);

std::string describe_exit(int status);
std::string tail(const std::string& s, std::size_t n = 1500);

// The result of a case whose worker never sent one: TIMEOUT when it overran its limit
// (timeout_s + slack_s) and was killed, else CRASH with how the worker ended; a record of
// undefined behaviour records that as what happened. `log` is the worker's output.
CaseResult lost_case(const Case& c, bool timed_out, int status, double slack_s, double duration_s,
                     const std::string& log);

}  // namespace cuconform
