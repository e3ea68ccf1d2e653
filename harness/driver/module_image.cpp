#include "harness/driver/module_image.hpp"

#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "harness/driver/codegen.hpp"
#include "harness/driver/cuda_api.hpp"
#include "harness/driver/gpu.hpp"
#include "harness/util/run_cache.hpp"
#include "harness/util/tools.hpp"

namespace cuconform {
namespace {

// "sm_90a" -> (90, true)
std::pair<int, bool> arch_number(const std::string& arch) {
  const auto us = arch.find('_');
  std::string digits = us == std::string::npos ? arch : arch.substr(us + 1);
  const bool specific = !digits.empty() && (digits.back() == 'a' || digits.back() == 'f');
  if (specific) digits.pop_back();
  return {std::atoi(digits.c_str()), specific};
}

// ptxas takes the device's arch; portable PTX goes to the plain arch (sm_90, not sm_90a).
std::string assembler_target(const std::string& ptx_arch, const std::string& sm_arch) {
  if (arch_number(ptx_arch).second) return sm_arch;
  return "sm_" + std::to_string(arch_number(sm_arch).first);
}

void assemble_with_ptxas(const std::string& ptxas, std::string ptx, const std::string& target,
                         const std::string& out, std::string* note) {
  const PtxasInfo& info = ptxas_info(ptxas);
  if (!info.error.empty()) throw std::runtime_error(info.error);
  const std::string version = ptx_version_of(ptx);
  if (!info.max_ptx.empty() && !version.empty() && ptx_version_less(info.max_ptx, version)) {
    // An older ptxas: say the PTX is its newest ISA. Anything the kernel uses that is newer
    // than that makes ptxas refuse, and the module is then not supported on this toolchain.
    static const std::regex line(R"(^(\s*\.version\s+)[0-9]+\.[0-9]+)", std::regex::multiline);
    ptx = std::regex_replace(ptx, line, "$01" + info.max_ptx, std::regex_constants::format_first_only);
    *note = " (.version " + version + " lowered to " + info.max_ptx + ")";
  }
  const std::string src = out + ".ptx";
  write_whole_file(src, ptx);
  ToolRun r = run_tool({ptxas, "-arch=" + target, src, "-o", out}, 300);
  std::remove(src.c_str());
  if (r.exit_code != 0)
    throw std::runtime_error("ptxas " + info.version + " -arch=" + target + " refused the PTX" + *note + ": " +
                             r.output.substr(0, 600));
}

}  // namespace

std::string device_sm_arch(int cc_major, int cc_minor) {
  std::string a = "sm_" + std::to_string(cc_major * 10 + cc_minor);
  return cc_major == 9 && cc_minor == 0 ? a + "a" : a;
}

std::string ptx_arch_for(const EmbeddedModule& m, const std::string& sm_arch) {
  const auto [want, specific] = arch_number(sm_arch);
  if (specific && !m.ptx_for("compute_" + std::to_string(want) + "a").empty()) return "compute_" + std::to_string(want) + "a";
  std::string best;
  int best_n = -1;
  for (const auto& [arch, text] : m.ptx) {
    const auto [n, arch_specific] = arch_number(arch);
    if (!arch_specific && n <= want && n > best_n && n / 10 <= want / 10) {
      best = arch;
      best_n = n;
    }
  }
  return best;
}

JitResult driver_jit(const std::string& ptx, const std::string& sm_arch) {
  JitResult out;
  const auto [n, specific] = arch_number(sm_arch);
  char log[16384] = {};
  CUjit_option opts[] = {CU_JIT_TARGET, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {reinterpret_cast<void*>(static_cast<std::uintptr_t>(n + (specific ? CU_COMPUTE_ACCELERATED_TARGET_BASE : 0))),
                  log, reinterpret_cast<void*>(sizeof log)};
  CUlinkState state = nullptr;
  out.status = CU_API.cuLinkCreate(3, opts, vals, &state);
  if (out.status == CUDA_SUCCESS) {
    out.status = CU_API.cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()), ptx.size() + 1,
                                      "cuconform.ptx", 0, nullptr, nullptr);
    void* cubin = nullptr;
    std::size_t size = 0;
    if (out.status == CUDA_SUCCESS) out.status = CU_API.cuLinkComplete(state, &cubin, &size);
    if (out.status == CUDA_SUCCESS) out.cubin.assign(static_cast<const char*>(cubin), size);
    CU_API.cuLinkDestroy(state);
  }
  out.log = log;
  return out;
}

ModuleImage module_image(const EmbeddedModule& m, const std::string& sm_arch) {
  const Codegen& cg = run_codegen();
  ModuleImage img;
  if (cg.path == Codegen::Path::sass) {
    img.how = std::string("nvcc ") + CUCONFORM_TOOLKIT + " SASS " + sm_arch;
    img.path = cached_file(m.name + ".fatbin", [&](const std::string& p) {
      write_whole_file(p, std::string(reinterpret_cast<const char*>(m.data), m.size));
    });
    return img;
  }
  const std::string ptx_arch = ptx_arch_for(m, sm_arch);
  if (ptx_arch.empty())
    throw std::runtime_error("this build embeds no PTX of " + m.name + " that can serve " + sm_arch);
  return ptx_image(m.name, std::string(m.ptx_for(ptx_arch)), ptx_arch, sm_arch);
}

ModuleImage ptx_image(const std::string& name, const std::string& ptx, const std::string& ptx_arch, const std::string& sm_arch) {
  const Codegen& cg = run_codegen();
  ModuleImage img;
  const std::string entry = name + "." + sm_arch + "." + cg.name() + ".cubin";
  if (cg.path == Codegen::Path::jit) {
    img.how = "driver JIT " + sm_arch + " from " + ptx_arch + " PTX";
    img.path = cached_file(entry, [&](const std::string& p) {
      JitResult j = driver_jit(ptx, sm_arch);
      if (j.status != CUDA_SUCCESS)
        throw std::runtime_error("the driver's JIT refused " + name + " for " + sm_arch + ": " + cu_error_name(j.status) +
                                 (j.log.empty() ? "" : ": " + j.log.substr(0, 600)));
      write_whole_file(p, j.cubin);
    });
    return img;
  }
  // sass: the toolkit's own ptxas, the assembler nvcc ran for the embedded SASS.
  const std::string ptxas = cg.path == Codegen::Path::ptxas ? cg.ptxas : toolchain_tool("ptxas");
  if (ptxas.empty()) throw std::runtime_error("no ptxas to assemble " + name + " on this code path");
  const std::string target = assembler_target(ptx_arch, sm_arch);
  std::string note;
  img.path = cached_file(entry, [&](const std::string& p) { assemble_with_ptxas(ptxas, ptx, target, p, &note); });
  // The note (a lowered .version) is known only to the process that assembled; say it again.
  const std::string version = ptx_version_of(ptx), max = ptxas_info(ptxas).max_ptx;
  if (note.empty() && !max.empty() && !version.empty() && ptx_version_less(max, version))
    note = " (.version " + version + " lowered to " + max + ")";
  img.how = "ptxas " + ptxas_info(ptxas).version + " -arch=" + target + " from " + ptx_arch + " PTX" + note;
  return img;
}

}  // namespace cuconform
