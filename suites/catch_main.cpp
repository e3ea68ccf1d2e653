// The Catch2 executable: worker mode for process isolation, the case server (CTest's GPU tests
// share its workers and contexts: harness/runner/case_server.hpp), spec cases registered at
// start-up, and a process exit code of 77 (CTest: skipped) when every case it ran was
// not-supported or planned.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "harness/runner/case_server.hpp"
#include "harness/runner/worker.hpp"
#include "suites/spec_cases.hpp"

// Under `ctest --resource-spec-file`, CTest hands each test one GPU as
// CTEST_RESOURCE_GROUP_0_GPUS="id:N,slots:1": N becomes the worker's CUDA device.
static void device_from_ctest_resources() {
  const char* groups = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (!groups || std::getenv("CUCONFORM_DEVICE")) return;
  std::string g = groups;
  auto id = g.find("id:");
  if (id == std::string::npos) return;
  setenv("CUCONFORM_DEVICE", g.substr(id + 3, g.find(',', id) - id - 3).c_str(), 1);
}

// CTest registers each GPU test once per GPU of the node (suites/CMakeLists.txt), with the extra
// argument --cuconform-gpu=G/N: the test runs on device G, and a case that needs two GPUs takes
// G+1 (mod N) as its peer. The argument is taken out before Catch2 reads the command line.
static void device_from_argument(int& argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--cuconform-gpu=", 0) != 0) continue;
    int g = 0, n = 1;
    if (std::sscanf(a.c_str() + 16, "%d/%d", &g, &n) == 2 && g >= 0 && n > 0) {
      setenv("CUCONFORM_DEVICE", std::to_string(g).c_str(), 1);
      if (n > 1) setenv("CUCONFORM_PEER_DEVICE", std::to_string((g + 1) % n).c_str(), 1);
    }
    for (int k = i; k + 1 < argc; ++k) argv[k] = argv[k + 1];
    --argc;
    --i;
  }
}

int main(int argc, char** argv) {
  device_from_argument(argc, argv);
  device_from_ctest_resources();
  if (argc > 1 && std::string(argv[1]) == cuconform::kWorkerVerb) return cuconform::worker_main(argc, argv);
  if (argc > 1 && std::string(argv[1]) == cuconform::kCaseServerVerb) return cuconform::case_server_main(argc, argv);
  cuconform::register_spec_cases(argc, argv);
  Catch::Session session;
  int rc = session.run(argc, argv);
  const auto& t = cuconform::spec_case_tally();
  if (rc == 0 && t.ran > 0 && t.skipped == t.ran && t.others == 0) return 77;
  return rc;
}
