// The Catch2 executable: worker mode for process isolation, spec cases registered at
// start-up, and a process exit code of 77 (CTest: skipped) when every case it ran was
// not-supported or planned.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "harness/runner/worker.hpp"
#include "suites/spec_cases.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == cuconform::kWorkerVerb) return cuconform::worker_main(argc, argv);
  cuconform::register_spec_cases();
  Catch::Session session;
  int rc = session.run(argc, argv);
  const auto& t = cuconform::spec_case_tally();
  if (rc == 0 && t.ran > 0 && t.skipped == t.ran && t.others == 0) return 77;
  return rc;
}
