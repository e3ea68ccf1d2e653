#pragma once
// The worker side of process isolation: `<exe> __worker --specs DIR` reads case names on
// stdin, runs them in order and reports on fd 3 (protocol.hpp). It exits after a case that
// poisoned its CUDA context; the supervisor starts a fresh worker for the rest.
// With --gate it opens the GPU, says READY and waits for one byte on fd 4 (a socket) before its first case:
// the supervisor starts the next isolated case's process (and context) while one runs.
namespace cuconform {

constexpr const char* kWorkerVerb = "__worker";
constexpr int kProtocolFd = 3;
constexpr int kGateFd = 4;

int worker_main(int argc, char** argv);

}  // namespace cuconform
