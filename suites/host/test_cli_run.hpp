#pragma once
// The built cuconform executable run without a shell, as the host tests of its command line run
// it: ARGS as given, stdout and stderr together, a time limit so a hang fails the test. (With a
// shell, environment assignments and a known list: cuconform_cli, test_reporters_support.hpp.)
#include <string>
#include <vector>

#include "harness/util/tools.hpp"

namespace cuconform::testing {

inline ToolRun cli(std::vector<std::string> args, double timeout_s = 300) {
  args.insert(args.begin(), CUCONFORM_EXE);
  return run_tool(args, timeout_s);
}

}  // namespace cuconform::testing
