#pragma once
// The code path a run puts under test: how the embedded kernels become machine code.
//   sass         the SASS nvcc embedded at build time (the driver picks it from the fatbin)
//   jit          the embedded PTX of the device's arch, compiled by the driver's JIT
//   ptxas=PATH   that PTX assembled by another ptxas (`.version` lowered when it is older)
// `cuconform run --codegen` chooses it; worker processes read it from $CUCONFORM_CODEGEN.
#include <string>

namespace cuconform {

constexpr const char* kCodegenEnv = "CUCONFORM_CODEGEN";

struct Codegen {
  enum class Path { sass, jit, ptxas };
  Path path = Path::sass;
  std::string ptxas;  // Path::ptxas: the assembler's full path

  // "sass", "jit" or "ptxas=PATH"; false with a message naming what is wrong.
  static bool parse(const std::string& text, Codegen* out, std::string* error);
  std::string spec() const;  // back to the text form
  std::string name() const;  // "sass", "jit", "ptxas"
  bool compiles_at_run_time() const { return path != Path::sass; }
};

// The run's code path, from the environment (sass when unset). A bad value throws.
const Codegen& run_codegen();

// A tool of the toolchain under test ("ptxas", "cuobjdump", "nvdisasm"): with ptxas=PATH the
// ones beside PATH where they exist, else the build's toolkit (find_tool). "" when absent.
std::string toolchain_tool(const std::string& tool);

// What a ptxas is: its release ("12.8.93") and the newest PTX ISA it takes ("8.7").
struct PtxasInfo {
  std::string version;
  std::string max_ptx;
  std::string error;  // non-empty: it could not be run
};
const PtxasInfo& ptxas_info(const std::string& path);

// "9.0" from a PTX text's `.version` line ("" when there is none).
std::string ptx_version_of(const std::string& ptx);
// Numeric order of "X.Y" PTX ISA versions.
bool ptx_version_less(const std::string& a, const std::string& b);
// The PTX ISA version one minor step above "X.Y" ("9.0" -> "9.1"): the nearest version an
// assembler whose newest is "X.Y" does not know. Throws std::invalid_argument on anything else.
std::string ptx_version_next(const std::string& v);

}  // namespace cuconform
