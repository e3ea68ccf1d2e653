#include "harness/spec/placement.hpp"

#include <cstdlib>
#include <string>

#include "harness/fixture/fixture.hpp"
#include "harness/spec/spec.hpp"

namespace cuconform {

const char* to_string(WorkerKind w) {
  switch (w) {
    case WorkerKind::host: return "host";
    case WorkerKind::shared: return "shared";
    case WorkerKind::records: return "records";
    case WorkerKind::own: return "own";
  }
  return "?";
}

const char* to_string(GpuUse g) {
  switch (g) {
    case GpuUse::none: return "none";
    case GpuUse::shared: return "shared";
    case GpuUse::alone: return "alone";
    case GpuUse::isolated: return "isolated";
  }
  return "?";
}

bool codegen_env_is_jit() {
  const char* env = std::getenv("CUCONFORM_CODEGEN");
  return env && std::string(env) == "jit";
}

namespace {

bool tool_rule(const Rule& r) {
  return r.needs(Requirement::ptxas) || r.needs(Requirement::cuobjdump) || r.needs(Requirement::nvcc);
}

// Why the case needs the GPU to itself, when it is not isolated: empty when it may share it.
std::string alone_reason(const Case& c) {
  const Rule& r = *c.rule;
  if (r.kind == Kind::performance) return "a performance rule: it compares rates or latencies";
  const FixtureInfo* fx = find_fixture(r.fixture);
  return fx && fx->gpu_alone ? fx->gpu_alone(c) : "";
}

}  // namespace

Placement place_case(const Case& c, bool driver_compiles) {
  const Rule& r = *c.rule;
  Placement p;
  p.cost = r.needs(Requirement::nvcc) ? 250 : r.needs(Requirement::cuobjdump) ? 16 : 1;
  p.may_fault = !c.expect.str("fault").empty() || c.records || r.has_tag("faults");
  // With the driver's JIT as the code path, what the assembler accepts and what the SASS holds
  // are the driver's to say: those rules need the driver, so a GPU.
  const bool driver = !r.planned && (r.needs_gpu() || (driver_compiles && (r.needs(Requirement::ptxas) ||
                                                                          r.needs(Requirement::cuobjdump))));
  // A record of what a host tool does cannot fault a GPU: host lanes, isolated or not.
  if (!driver && (!c.isolated || tool_rule(r))) {
    p.worker = WorkerKind::host;
    p.gpu = GpuUse::none;
    p.gpus = 0;
    p.why = r.planned ? "planned" : c.isolated ? "records what a host tool does" : "a host tool's case";
    return p;
  }
  p.gpus = r.needs(Requirement::peer) ? 2 : 1;
  if (c.isolated) {
    p.gpu = GpuUse::isolated;
    // Records share a worker (one at a time; the first that faults, hangs or kills it ends it),
    // unless what they record depends on what earlier kernels left (`fresh-process`).
    const bool shares = c.records && c.expect.str("fault").empty() && !r.has_tag("faults") && !r.has_tag("fresh-process");
    p.worker = shares ? WorkerKind::records : WorkerKind::own;
    p.why = !c.expect.str("fault").empty() ? "expects a fault"
            : r.has_tag("faults")         ? "a finding that faults (tagged faults)"
            : r.has_tag("fresh-process")  ? "records undefined behaviour that reads what earlier kernels left (fresh-process)"
                                          : "records undefined behaviour";
    return p;
  }
  p.worker = WorkerKind::shared;
  const std::string alone = r.needs_gpu() ? alone_reason(c) : "";
  p.gpu = alone.empty() ? GpuUse::shared : GpuUse::alone;
  p.why = alone.empty() ? (r.needs_gpu() ? "may share the GPU" : "a tool case the driver's JIT compiles") : alone;
  return p;
}

}  // namespace cuconform
