#pragma once
// Toolkit programs some cases need (ptxas, cuobjdump): where they are, or why not.
#include <string>
#include <vector>

namespace cuconform {

// Full path of `tool` from $CUCONFORM_CUDA_BIN, the toolkit the suite was built with, or
// PATH; empty when absent.
std::string find_tool(const std::string& tool);

struct ToolRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
// Runs argv (argv[0] a full path) with a time limit; output is captured.
ToolRun run_tool(const std::vector<std::string>& argv, double timeout_s);

// Seconds this process has spent in run_tool so far (for the --timing breakdown).
double tool_seconds();

}  // namespace cuconform
