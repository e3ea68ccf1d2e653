#pragma once
// A worker process seen from its parent (the supervisor, or the case server): how it is started,
// ended, and what is said when it dies or overruns with a case in hand.
#include <sys/types.h>

#include <string>
#include <vector>

#include "harness/runner/case_result.hpp"
#include "harness/spec/spec.hpp"

namespace cuconform {

struct Worker {
  pid_t pid = -1;
  int proto = -1;  // fd 3 of the worker
  int log = -1;    // its stdout and stderr
  int gate = -1;   // a gated or streaming worker's input (fd 4 of the worker, a socket); closing ends it
};

// A worker for `batch` (names on its stdin, only their spec files parsed); gated: it opens the
// GPU, says READY and waits for its go (worker.hpp). pid < 0 when it could not start.
Worker spawn(const std::string& specs, const std::vector<const Case*>& batch, bool gated = false);

// A streaming worker (worker.hpp, --stream) for the case server: the whole spec tree, the GPU
// `device` (CUCONFORM_DEVICE) opened at once, then one case per line on its gate.
Worker spawn_streaming(const std::string& specs, int device);

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
