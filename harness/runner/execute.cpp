#include "harness/runner/execute.hpp"

#include <chrono>

#include "harness/driver/gpu.hpp"
#include "harness/fixture/fixture.hpp"
#include "harness/runner/tools.hpp"

namespace cuconform {

static Observation run_fixture(const Case& c, Gpu* gpu) {
  const Rule& r = *c.rule;
  const FixtureInfo* fx = find_fixture(r.fixture);
  if (!fx) return Observation::not_supported("unknown fixture " + r.fixture);  // lint prevents this
  const std::string want_fault = c.expect.str("fault");
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

CaseResult execute_case(const Case& c, Gpu* gpu, const std::string& why_no_gpu) {
  auto t0 = std::chrono::steady_clock::now();
  CaseResult res;
  res.name = c.name;
  const Rule& r = *c.rule;
  Observation& o = res.obs;
  if (r.planned) {
    o.verdict = Verdict::planned;
    o.reason = "planned: " + r.planned_reason;
  } else {
    std::string missing;
    for (Requirement q : r.requires_) {
      if (q == Requirement::gpu) {
        if (!gpu) missing = why_no_gpu;
        else {
          ComputeCapability dev{gpu->info().cc_major, gpu->info().cc_minor};
          missing = cc_gate(r.min_cc, r.arch, dev);
        }
      } else if (find_tool(to_string(q)).empty()) {
        missing = std::string("tool missing: ") + to_string(q) + " not found (toolkit bin, PATH, $CUCONFORM_CUDA_BIN)";
      }
      if (!missing.empty()) break;
    }
    if (!missing.empty()) o = Observation::not_supported(missing);
    else o = run_fixture(c, r.needs_gpu() ? gpu : nullptr);
  }
  res.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace cuconform
