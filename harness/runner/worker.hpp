#pragma once
// The worker side of process isolation: `<exe> __worker --specs DIR` reads case names on
// stdin, runs them in order and reports on fd 3 (protocol.hpp). It exits after a case that
// poisoned its CUDA context; the supervisor starts a fresh worker for the rest.
// With --gate it opens the GPU, says READY and waits for its go on fd 4 (a socket) before its first
// case: a line with how many of its cases to skip (a spare of a shared list takes over where the
// worker before it ended). The supervisor starts the next isolated processes (and contexts)
// while one runs.
// With --stream (the case server's worker, case_server.hpp) it reads the whole spec tree, opens the
// GPU, says READY and then runs one case per line read on fd 4, until that closes.
namespace cuconform {

constexpr const char* kWorkerVerb = "__worker";
constexpr int kProtocolFd = 3;
constexpr int kGateFd = 4;

int worker_main(int argc, char** argv);

}  // namespace cuconform
