#include "harness/driver/codegen.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <stdexcept>

#include "harness/util/run_cache.hpp"
#include "harness/util/tools.hpp"

namespace fs = std::filesystem;

namespace cuconform {

bool Codegen::parse(const std::string& text, Codegen* out, std::string* error) {
  Codegen c;
  if (text == "sass") c.path = Path::sass;
  else if (text == "jit") c.path = Path::jit;
  else if (text.rfind("ptxas=", 0) == 0) {
    c.path = Path::ptxas;
    std::error_code ec;
    fs::path p = fs::absolute(text.substr(6), ec);
    if (text.size() == 6 || ec || access(p.c_str(), X_OK) != 0) {
      *error = "--codegen ptxas=PATH: '" + text.substr(6) + "' is not an executable file";
      return false;
    }
    c.ptxas = p.string();
  } else {
    *error = "--codegen takes sass, jit or ptxas=PATH, not '" + text + "'";
    return false;
  }
  *out = c;
  return true;
}

std::string Codegen::spec() const { return path == Path::ptxas ? "ptxas=" + ptxas : name(); }

std::string Codegen::name() const {
  switch (path) {
    case Path::sass: return "sass";
    case Path::jit: return "jit";
    case Path::ptxas: return "ptxas";
  }
  return "?";
}

const Codegen& run_codegen() {
  static const Codegen c = [] {
    Codegen out;
    const char* env = std::getenv(kCodegenEnv);
    std::string error;
    if (env && *env && !Codegen::parse(env, &out, &error)) throw std::runtime_error(std::string("$") + kCodegenEnv + ": " + error);
    return out;
  }();
  return c;
}

std::string toolchain_tool(const std::string& tool) {
  const Codegen& c = run_codegen();
  if (c.path == Codegen::Path::ptxas) {
    if (tool == "ptxas") return c.ptxas;
    fs::path beside = fs::path(c.ptxas).parent_path() / tool;
    if (access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return find_tool(tool);
}

std::string ptx_version_of(const std::string& ptx) {
  static const std::regex re(R"(^\s*\.version\s+([0-9]+\.[0-9]+))", std::regex::multiline);
  std::smatch m;
  return std::regex_search(ptx, m, re) ? m[1].str() : "";
}

bool ptx_version_less(const std::string& a, const std::string& b) {
  auto parts = [](const std::string& v) {
    const auto dot = v.find('.');
    return std::make_pair(std::atoi(v.substr(0, dot).c_str()), dot == std::string::npos ? 0 : std::atoi(v.substr(dot + 1).c_str()));
  };
  return parts(a) < parts(b);
}

std::string ptx_version_next(const std::string& v) {
  static const std::regex form(R"(([0-9]{1,3})\.([0-9]{1,3}))");
  std::smatch m;
  if (!std::regex_match(v, m, form)) throw std::invalid_argument("'" + v + "' is not a PTX ISA version (X.Y)");
  return m[1].str() + "." + std::to_string(std::stoi(m[2].str()) + 1);
}

const PtxasInfo& ptxas_info(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, PtxasInfo> known;
  std::lock_guard<std::mutex> lock(mu);
  auto it = known.find(path);
  if (it != known.end()) return it->second;
  PtxasInfo info;
  ToolRun v = run_tool({path, "--version"}, 30);
  std::smatch m;
  static const std::regex release(R"(V([0-9]+\.[0-9]+\.[0-9]+))");
  if (v.exit_code != 0 || !std::regex_search(v.output, m, release)) {
    info.error = "'" + path + " --version' did not say its release: " + v.output.substr(0, 200);
  } else {
    info.version = m[1].str();
    // Ask it for an impossible PTX ISA: its refusal names the newest it takes.
    std::string probe = (fs::path(run_cache_dir()) / ("ptx-version-probe-" + std::to_string(getpid()) + ".ptx")).string();
    write_whole_file(probe, ".version 99.9\n.target sm_80\n.address_size 64\n");
    ToolRun r = run_tool({path, "-arch=sm_80", probe, "-o", "/dev/null"}, 30);
    std::remove(probe.c_str());
    static const std::regex current(R"(current version is '([0-9]+\.[0-9]+)')");
    if (std::regex_search(r.output, m, current)) info.max_ptx = m[1].str();
  }
  return known.emplace(path, info).first->second;
}

}  // namespace cuconform
