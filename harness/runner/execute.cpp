#include "harness/runner/execute.hpp"

#include <chrono>

#include "harness/driver/codegen.hpp"
#include "harness/driver/gpu.hpp"
#include "harness/driver/nvml.hpp"
#include "harness/fixture/fixture.hpp"
#include "harness/fixture/param_decl.hpp"
#include "harness/util/physical_bounds.hpp"
#include "harness/util/tools.hpp"

namespace cuconform {

static Observation run_fixture(const Case& c, Gpu* gpu) {
  const Rule& r = *c.rule;
  const FixtureInfo* fx = find_fixture(r.fixture);
  if (!fx) return Observation::not_supported("unknown fixture " + r.fixture);  // lint prevents this
  const std::string want_fault = c.expect.str("fault");
  // Typed parameters: the fixture receives only values its declarations allow (lint refuses the
  // others in the specs; this holds for cases made any other way).
  for (const ParamDecl& d : declared_params(r.fixture))
    if (c.has_param(d.name))
      if (std::string why = d.refuse(c.param(d.name)); !why.empty()) {
        Observation bad;
        bad.verdict = Verdict::crash;
        bad.reason = "param '" + d.name + "' refused before the fixture ran: " + why;
        return bad;
      }
  FixtureContext ctx{c, gpu};
  Observation o;
  try {
    o = fx->run(ctx);
    if (!want_fault.empty() && o.verdict == Verdict::pass) {
      o.verdict = Verdict::fail;
      o.reason = "the violation did not fault";
      o.expected = "device fault " + want_fault;
      o.observed = "no fault" + (o.observed.empty() ? "" : "; " + o.observed);
    }
  } catch (const DriverError& e) {
    o = Observation();
    o.context_poisoned = e.poisons_context();
    o.observed = "device error " + e.name() + " (" + e.what() + ")";
    if (!want_fault.empty()) {
      o.expected = "device fault " + want_fault;
      o.verdict = e.name() == want_fault ? Verdict::pass : Verdict::fail;
      o.reason = o.verdict == Verdict::pass ? "faulted as documented" : "faulted with another error";
    } else {
      o.verdict = Verdict::fail;
      o.reason = "unexpected device error";
      o.expected = "no device error";
    }
    o.fact("error", e.name());
  } catch (const CodegenUnavailable& e) {
    o = Observation::not_supported("code path " + run_codegen().spec() + ": " + e.what());
  } catch (const DeviceTimeout& e) {
    o = Observation();
    o.verdict = Verdict::timeout;
    o.reason = e.what();
    o.context_poisoned = true;  // the kernel may still be running
  } catch (const std::exception& e) {
    o = Observation();
    o.verdict = Verdict::crash;
    o.reason = std::string("fixture raised: ") + e.what();
  }
  return o;
}

// With --codegen jit the driver's JIT is the toolchain: rules about what the assembler
// accepts or what the compiled code holds need the driver (and so a GPU) too.
static bool needs_driver(const Rule& r) {
  if (r.needs_gpu()) return true;
  if (run_codegen().path != Codegen::Path::jit) return false;
  return r.needs(Requirement::ptxas) || r.needs(Requirement::cuobjdump);
}

// An undefined-behaviour case: whatever ran to the end, faulted or timed out is what the GPU
// did. Fixtures name the outcome (Observation::record); a judged result keeps its observed text
// as the outcome. A fixture's own exception (not-supported, crash) stays what it is.
// The outcome fact is the category two runs of the same configuration agree on (compare reports
// a change of it). A rule tagged `fault-code-varies` faults with a code that differs from run to
// run on the same GPU and driver (probed: its note says how often): its category is the fault,
// the code stays in the `error` fact.
static void as_recorded(const Case& c, Observation& o) {
  switch (o.verdict) {
    case Verdict::pass:
    case Verdict::fail: {
      std::string outcome = o.fact_value("outcome");
      if (outcome.empty()) {
        std::string err = o.fact_value("error");
        outcome = err.empty()                            ? o.observed
                  : c.rule->has_tag("fault-code-varies") ? "fault (its code varies from run to run: see error)"
                                                         : "fault " + err;
      }
      o.record(outcome, o.observed);
      break;
    }
    case Verdict::timeout:
      o.record("timeout", o.reason);
      break;
    default:
      break;
  }
}

bool case_needs_driver(const Case& c) { return !c.rule->planned && needs_driver(*c.rule); }

CaseResult execute_case(const Case& c, Gpu* gpu, const std::string& why_no_gpu) {
  auto t0 = std::chrono::steady_clock::now();
  CaseResult res;
  res.name = c.name;
  const Rule& r = *c.rule;
  Observation& o = res.obs;
  const double tools_before = tool_seconds();
  if (r.planned) {
    o.verdict = Verdict::planned;
    o.reason = "planned: " + r.planned_reason;
  } else {
    std::string missing;
    if (needs_driver(r) && !r.needs_gpu() && !gpu)
      missing = "code path jit: the driver's JIT compiler is the toolchain under test, and " + why_no_gpu;
    for (Requirement q : r.requires_) {
      if (!missing.empty()) break;
      if (q == Requirement::gpu) {
        if (!gpu) missing = why_no_gpu;
        else {
          ComputeCapability dev{gpu->info().cc_major, gpu->info().cc_minor};
          missing = cc_gate(r.min_cc, r.arch, dev);
        }
      } else if (q == Requirement::peer) {
        std::string why_no_peer;
        if (gpu && !Gpu::open_peer(&why_no_peer)) missing = why_no_peer;
      } else if (toolchain_tool(to_string(q)).empty()) {
        missing = std::string("tool missing: ") + to_string(q) + " not found (toolkit bin, PATH, $CUCONFORM_CUDA_BIN)";
      }
    }
    // A rate is only a rate of the GPU as it ran: the clocks and slowdowns around a performance
    // case are read (NVML) and kept; a rate rule that missed while the GPU slowed itself down
    // (power or thermal cap) says nothing of the rule: inconclusive, with the reason.
    const bool timed = missing.empty() && gpu && r.kind == Kind::performance;
    const GpuHealth before = timed ? nvml_health(gpu->info().uuid) : GpuHealth{};
    if (!missing.empty()) o = Observation::not_supported(missing);
    else o = run_fixture(c, needs_driver(r) ? gpu : nullptr);
    if (timed && before.readable) {
      const GpuHealth after = nvml_health(gpu->info().uuid);
      o.fact("clocks", "SM " + std::to_string(before.sm_mhz) + " -> " + std::to_string(after.sm_mhz) + " MHz, memory " +
                           std::to_string(before.mem_mhz) + " -> " + std::to_string(after.mem_mhz) + " MHz, " +
                           std::to_string(before.temperature_c) + " -> " + std::to_string(after.temperature_c) + " C");
      std::string slow = slowdown_reasons(before.throttle_reasons | after.throttle_reasons);
      if (!slow.empty()) {
        o.fact("slowdown", slow);
        if (o.verdict == Verdict::fail) {
          o.verdict = Verdict::inconclusive;
          o.reason = "inconclusive (throttled: " + slow + "): " + o.reason;
        }
      }
    }
    if (c.records) as_recorded(c, o);
    // A limit or clock beyond what the GPU can do is the harness measuring wrong: a failure of the
    // case, whatever its verdict (a pass above the datasheet is no pass).
    if (gpu && missing.empty()) {
      std::vector<std::pair<std::string, double>> m = o.measurements;
      if (timed && before.readable) {
        m.emplace_back("sm_mhz_before", before.sm_mhz);
        m.emplace_back("mem_mhz_before", before.mem_mhz);
      }
      const std::string breach = physical_bound_breach(
          m, PeakClocks{gpu->info().clock_khz / 1000.0, gpu->info().mem_clock_khz / 1000.0});
      if (!breach.empty()) {
        o.fact("self_check", "harness: " + breach);
        o.verdict = Verdict::fail;
        o.reason = "harness self-check failed (a measurement beyond the hardware's bound): " + breach;
      }
    }
  }
  if (gpu) {
    // Which code ran: on a run-time code path each module says how its code was made.
    std::string code;
    for (const auto& [module, how] : gpu->take_modules_used()) code += (code.empty() ? "" : "; ") + module + ": " + how;
    if (!code.empty() && run_codegen().compiles_at_run_time()) o.fact("code", code);
    res.module_load_s = gpu->take_module_load_s();
  }
  res.tool_s = tool_seconds() - tools_before;
  res.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace cuconform
