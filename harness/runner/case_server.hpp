#pragma once
// The case server: CTest runs one test per case, each in a process of its own. Without the server
// each of those processes started a worker and made a CUDA context for a case of about 10 ms
// (0.33-0.53 s a GPU test; the driver makes contexts one at a time, so about 150 s of a whole
// CTest run on an H100, 2026-11-25). The server, started and stopped by a CTest fixture, keeps
// streaming workers (worker.hpp, --stream) with their contexts open and runs the test processes'
// cases in them, one case at a time a worker, under the supervisor's limits: a worker that dies
// makes its case CRASH, one that overruns the case's limit is killed and the case is TIMEOUT, and
// a fresh worker takes the next case. Records of undefined behaviour share its workers as they
// share the records' worker of `cuconform run`: a record that poisons its worker's context ends
// that worker after its result (worker.cpp) and the next case gets a fresh one; their tests hold
// the GPU lock exclusively, so nothing else runs on the GPU meanwhile. It refuses the other
// isolated cases (expected faults): they keep a process of their own, as in `cuconform run`. How
// many cases share the GPU at once is CTest's to say (the `gpus` resource), not the server's.
//
//   <tests-exe> __case-server start SOCKET   start it in the background; ready when this returns
//   <tests-exe> __case-server stop SOCKET    stop it and its workers; says what it served
// Both exit 0 whatever happens (a server that did not start only means each test runs its case
// itself), except for bad arguments (2). The server's output goes to SOCKET.log; it also stops
// by itself after 15 minutes without a request.
// On the socket, one request a connection: "RUN <device> <case>" is answered "DEVICE {json}" and
// "RESULT {json}" (protocol.hpp) or "REFUSED <why>"; "PING": "PONG"; "QUIT": "BYE <counts>".
#include <string>

#include "harness/runner/case_result.hpp"
#include "harness/spec/spec.hpp"

namespace cuconform {

constexpr const char* kCaseServerVerb = "__case-server";

int case_server_main(int argc, char** argv);

struct ServedCase {
  CaseResult result;
  DeviceReport device;
};

// Runs `c` on CUDA device `device` through the server at `socket`. false (with `why`) when the
// server did not take it (none running, refused, gone before answering): the caller runs the case
// itself. A server that takes the case and gives no answer within the case's limit plus a margin
// yields a CRASH result, not false: the case may have hung the GPU.
bool run_on_case_server(const std::string& socket, const Case& c, int device, ServedCase* out, std::string* why);

// Whether the server runs `c`: a case of at most one GPU that may share a worker (expects no fault), or a
// record of undefined behaviour. Before 2026-11-29 records kept a process each: about 280 of the
// 5,598 tests of one H200's CTest run, each a worker start and a context made one at a time.
bool serves(const Case& c);

}  // namespace cuconform
