// `cmake --preset default` on a stock Debian 12 with CUDA 13.0 (issue 46): Debian's CMake 3.25.1
// FindCUDAToolkit.cmake stops on a toolkit without nvToolsExt ("set_property could not find TARGET
// CUDA::nvToolsExt"), so the project finds nvcc's headers and tools itself
// (cmake/CudaToolkitPaths.cmake). ci/cmake-stock-module-test.sh configures the project with that
// module, unmodified, after a control that shows the module failing on this toolkit; it skips,
// saying why, where the machine cannot show it.
#include <catch2/catch.hpp>

#include <string>

#include "harness/util/tools.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

TEST_CASE("the project configures with Debian 12's unmodified FindCUDAToolkit.cmake and CUDA 13.0", "[host][cmake]") {
  const std::string root = source_root().string();
  const std::string dir = temp_dir("cmake-stock-module");
  const ToolRun r =
      run_tool({"/bin/bash", root + "/ci/cmake-stock-module-test.sh", std::string(CUCONFORM_CUDA_BIN_DIR) + "/nvcc", dir}, 600);
  INFO(r.output);
  if (r.exit_code == 77) {
    WARN(r.output);
    return;
  }
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("control: find_package(CUDAToolkit) fails with Debian's module") != std::string::npos);
  std::filesystem::remove_all(dir);
}
