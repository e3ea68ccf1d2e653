// The runtime's entry-point queries, opened at run time (harness/driver/runtime_entry): with no
// libcudart the reason says so; with one, a query answers with a status (no driver here: an
// error code), never a crash, and a function only on success.
#include <catch2/catch.hpp>

#include "harness/driver/runtime_entry.hpp"

using namespace cuconform;

TEST_CASE("the runtime's driver entry-point queries answer or say why not", "[host][driver]") {
  for (const RuntimeEntry& e : {runtime_entry_by_version("cuTensorMapEncodeTiled", 12000), runtime_entry("cuTensorMapEncodeTiled")}) {
    if (runtime_library().empty()) {
      CHECK(e.why_not.rfind("no CUDA runtime: libcudart could not be loaded (", 0) == 0);
      CHECK(e.fn == nullptr);
      continue;
    }
    INFO(runtime_library() + ": " + e.why_not);
    CHECK(e.why_not.empty());
    CHECK(e.status >= 0);
    if (e.status != 0) CHECK(e.fn == nullptr);
    else CHECK((e.fn != nullptr) == (e.query_result == 0));
  }
  // A name no driver has is never handed out.
  const RuntimeEntry none = runtime_entry_by_version("cuNoSuchEntryPoint", 12000);
  CHECK(none.fn == nullptr);
}
