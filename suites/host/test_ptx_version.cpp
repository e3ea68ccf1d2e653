// PTX ISA version arithmetic the assembler rules rely on (ldgsts.ptx.version_above_assembler).
#include <catch2/catch.hpp>

#include <stdexcept>

#include "harness/driver/codegen.hpp"

using namespace cuconform;

TEST_CASE("ptx_version_next gives the version one minor step above, and refuses what is no version", "[host][codegen]") {
  CHECK(ptx_version_next("9.0") == "9.1");
  CHECK(ptx_version_next("8.8") == "8.9");
  CHECK(ptx_version_next("7.10") == "7.11");
  CHECK(ptx_version_less("9.0", ptx_version_next("9.0")));
  CHECK_THROWS_AS(ptx_version_next(""), std::invalid_argument);
  CHECK_THROWS_AS(ptx_version_next("9"), std::invalid_argument);
  CHECK_THROWS_AS(ptx_version_next("9.0.1"), std::invalid_argument);
  CHECK_THROWS_AS(ptx_version_next("nine.zero"), std::invalid_argument);
}
