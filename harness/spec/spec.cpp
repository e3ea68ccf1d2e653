#include "harness/spec/spec.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace cuconform {

std::string SourceLoc::str() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const char* to_string(Kind k) {
  switch (k) {
    case Kind::positive: return "positive";
    case Kind::negative: return "negative";
    case Kind::performance: return "performance";
    case Kind::codegen: return "codegen";
    case Kind::undefined: return "undefined";
  }
  return "?";
}

bool parse_kind(const std::string& s, Kind* out) {
  for (Kind k : {Kind::positive, Kind::negative, Kind::performance, Kind::codegen, Kind::undefined})
    if (s == to_string(k)) {
      *out = k;
      return true;
    }
  return false;
}

const char* to_string(Basis b) {
  switch (b) {
    case Basis::documented: return "documented";
    case Basis::undefined: return "undefined";
    case Basis::toolchain: return "toolchain";
    case Basis::self_check: return "self-check";
    case Basis::relied_upon: return "relied-upon";
    case Basis::ambiguous: return "ambiguous";
  }
  return "?";
}

const std::vector<Basis>& all_bases() {
  static const std::vector<Basis> all = {Basis::documented, Basis::undefined, Basis::toolchain, Basis::self_check,
                                             Basis::relied_upon, Basis::ambiguous};
  return all;
}

bool parse_basis(const std::string& s, Basis* out) {
  for (Basis b : all_bases())
    if (s == to_string(b)) {
      *out = b;
      return true;
    }
  return false;
}

std::string basis_conflict(Basis basis, Kind kind) {
  const std::string b = to_string(basis), k = to_string(kind);
  if (basis == Basis::relied_upon)
    return kind == Kind::codegen ? "basis 'relied-upon' (what a named consumer's code depends on) is judged on the GPU: kind positive, "
                                   "negative, performance or undefined, not 'codegen'"
                                 : "";
  if ((basis == Basis::undefined) != (kind == Kind::undefined))
    return kind == Kind::undefined ? "kind undefined records what the documents leave undefined or open: its basis is 'undefined' (or 'relied-upon'), not '" + b + "'"
                                   : "basis 'undefined' is recorded, never judged: it needs kind 'undefined', not '" + k + "'";
  if (basis == Basis::toolchain && kind != Kind::codegen)
    return "basis 'toolchain' (what a compiler emits today) needs kind 'codegen', not '" + k + "'";
  if (basis == Basis::ambiguous && kind != Kind::positive && kind != Kind::negative && kind != Kind::performance)
    return "basis 'ambiguous' (one reading of text that reads two ways, judged) needs kind positive, negative or performance, not '" + k + "'";
  if (basis == Basis::self_check && kind != Kind::positive && kind != Kind::codegen)
    return "basis 'self-check' (a check of the suite's own kernels) needs kind positive or codegen, not '" + k + "'";
  return "";
}

const char* to_string(Requirement r) {
  switch (r) {
    case Requirement::gpu: return "gpu";
    case Requirement::ptxas: return "ptxas";
    case Requirement::cuobjdump: return "cuobjdump";
    case Requirement::nvcc: return "nvcc";
    case Requirement::peer: return "peer";
  }
  return "?";
}

bool parse_requirement(const std::string& s, Requirement* out) {
  for (Requirement r : {Requirement::gpu, Requirement::ptxas, Requirement::cuobjdump, Requirement::nvcc, Requirement::peer})
    if (s == to_string(r)) {
      *out = r;
      return true;
    }
  return false;
}

std::string Expectations::str(const std::string& key, const std::string& fallback) const {
  auto it = values.find(key);
  if (it == values.end() || it->second.empty()) return fallback;
  return it->second.front();
}

double Expectations::num(const std::string& key, double fallback) const {
  auto it = values.find(key);
  if (it == values.end() || it->second.empty()) return fallback;
  return std::strtod(it->second.front().c_str(), nullptr);
}

const std::vector<std::string>& Expectations::list(const std::string& key) const {
  static const std::vector<std::string> none;
  auto it = values.find(key);
  return it == values.end() ? none : it->second;
}

bool Rule::has_tag(const std::string& t) const { return std::find(tags.begin(), tags.end(), t) != tags.end(); }

bool Rule::needs(Requirement q) const {
  for (Requirement r : requires_)
    if (r == q) return true;
  return false;
}

bool Rule::needs_gpu() const { return needs(Requirement::gpu); }

bool Case::has_param(const std::string& key) const {
  for (auto& [k, _] : params)
    if (k == key) return true;
  return false;
}

std::string Case::param(const std::string& key) const {
  for (auto& [k, v] : params)
    if (k == key) return v;
  throw std::out_of_range("case " + name + " has no parameter '" + key + "'");
}

long long Case::param_int(const std::string& key) const {
  std::string v = param(key);
  char* end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 0);
  if (v.empty() || *end) throw std::invalid_argument("case " + name + ": parameter '" + key + "' is not an integer: " + v);
  return n;
}

}  // namespace cuconform
