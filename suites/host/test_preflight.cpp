// The pre-flight's judgement (harness/runner/preflight.*) on made-up NVML answers: what stops a
// GPU before the run and with which action, what is only watched or noted, and that a missing
// answer (an older driver) never stops a GPU; the kernel log's Xid lines.
#include <catch2/catch.hpp>

#include "harness/driver/kernel_xids.hpp"
#include "harness/runner/preflight.hpp"

using namespace cuconform;

namespace {

// A healthy H200 as NVML answers: everything known, nothing wrong.
PreflightInput healthy() {
  PreflightInput in;
  GpuPreflightAnswers& a = in.nvml;
  a.uuid = "GPU-aaaaaaaa-1111-2222-3333-444444444444";
  auto k = [](NvmlAnswer<unsigned>& x, unsigned v) {
    x.known = true;
    x.value = v;
  };
  k(a.recovery_action, 0);
  k(a.remapped_correctable, 0);
  k(a.remapped_uncorrectable, 0);
  k(a.remap_pending, 0);
  k(a.remap_failed, 0);
  k(a.retired_sbe, 0);
  k(a.retired_dbe, 0);
  k(a.retired_pending, 0);
  a.ecc_volatile_uncorrected = {true, 0, ""};
  k(a.persistence, 1);
  k(a.mig, 0);
  k(a.cc_feature, 0);
  a.nvlink = {true, std::vector<int>(18, 1), ""};
  k(a.fabric_state, 3);
  k(a.fabric_status, 0);
  in.xids_read = true;
  return in;
}

void set(NvmlAnswer<unsigned>& x, unsigned v) {
  x.known = true;
  x.value = v;
}

}  // namespace

TEST_CASE("pre-flight: a healthy GPU runs with no action and no note", "[host][preflight]") {
  const Preflight p = judge_preflight(healthy());
  CHECK(p.run);
  CHECK(p.action == Action::none);
  CHECK(p.reason.empty());
  CHECK(p.notes.empty());
}

TEST_CASE("pre-flight: what the driver already marks bad is not run, with its action", "[host][preflight]") {
  struct Row {
    const char* what;
    void (*plant)(PreflightInput&);
    Action action;
    const char* says;
  };
  const Row rows[] = {
      {"recovery action GPU reset", [](PreflightInput& in) { set(in.nvml.recovery_action, 1); }, Action::reset, "GPU reset"},
      {"recovery action node reboot", [](PreflightInput& in) { set(in.nvml.recovery_action, 2); }, Action::reset, "node reboot"},
      {"recovery action drain P2P", [](PreflightInput& in) { set(in.nvml.recovery_action, 3); }, Action::drain, "drain peer-to-peer"},
      {"recovery action drain and reset", [](PreflightInput& in) { set(in.nvml.recovery_action, 4); }, Action::reset, "drain and reset"},
      {"a failed row remap", [](PreflightInput& in) { set(in.nvml.remap_failed, 1); }, Action::replace, "row remap failed"},
      {"a pending row remap", [](PreflightInput& in) { set(in.nvml.remap_pending, 1); }, Action::reset, "row remap is pending"},
      {"a pending page retirement", [](PreflightInput& in) { set(in.nvml.retired_pending, 1); }, Action::reset, "page retirement is pending"},
      {"volatile uncorrected ECC", [](PreflightInput& in) { in.nvml.ecc_volatile_uncorrected = {true, 2, ""}; }, Action::reset, "2 uncorrected ECC"},
      {"a lost GPU", [](PreflightInput& in) { in.nvml.lost = true; }, Action::reset, "lost"},
      {"CC on, GPUs not ready", [](PreflightInput& in) { set(in.nvml.cc_feature, 1); set(in.nvml.cc_ready, 0); }, Action::drain, "do not accept work"},
      {"fabric registration failed", [](PreflightInput& in) { set(in.nvml.fabric_status, 13); }, Action::drain, "fabric registration failed"},
  };
  for (const Row& r : rows) {
    INFO(r.what);
    PreflightInput in = healthy();
    r.plant(in);
    const Preflight p = judge_preflight(in);
    CHECK_FALSE(p.run);
    CHECK(p.action == r.action);
    CHECK(p.reason.find(r.says) != std::string::npos);
    CHECK(preflight_stop_reason(p).rfind("unhealthy before the run: ", 0) == 0);
    CHECK(preflight_stop_reason(p).find(std::string("(action: ") + to_string(r.action) + ")") != std::string::npos);
  }
}

TEST_CASE("pre-flight: the most severe finding decides; a failed remap beats a reset", "[host][preflight]") {
  PreflightInput in = healthy();
  set(in.nvml.recovery_action, 1);
  set(in.nvml.remap_pending, 1);
  set(in.nvml.remap_failed, 1);
  const Preflight p = judge_preflight(in);
  CHECK_FALSE(p.run);
  CHECK(p.action == Action::replace);
}

TEST_CASE("pre-flight: what is watched or noted does not stop the GPU", "[host][preflight]") {
  SECTION("an NVLink link down among active ones") {
    PreflightInput in = healthy();
    in.nvml.nvlink.value[5] = 0;
    const Preflight p = judge_preflight(in);
    CHECK(p.run);
    CHECK(p.action == Action::watch);
    CHECK(p.reason.find("link(s) 5 down, 17 of 18 up") != std::string::npos);
  }
  SECTION("no NVLink at all (a PCIe card) is nothing") {
    PreflightInput in = healthy();
    in.nvml.nvlink.value.clear();
    CHECK(judge_preflight(in).action == Action::none);
  }
  SECTION("a critical Xid in the kernel log since boot; application Xids are not") {
    PreflightInput in = healthy();
    in.xids = {{"0000:19:00", 43, "NVRM: Xid (PCI:0000:19:00): 43, ..."}, {"0000:19:00", 13, "..."}};
    CHECK(judge_preflight(in).action == Action::none);
    in.xids.push_back({"0000:19:00", 79, "NVRM: Xid (PCI:0000:19:00): 79, GPU has fallen off the bus."});
    in.xids.push_back({"0000:19:00", 79, "..."});
    const Preflight p = judge_preflight(in);
    CHECK(p.run);
    CHECK(p.action == Action::watch);
    CHECK(p.reason.find("Xid 79 x2") != std::string::npos);
  }
  SECTION("persistence off, MIG on, CC on and ready: notes only") {
    PreflightInput in = healthy();
    set(in.nvml.persistence, 0);
    set(in.nvml.mig, 1);
    set(in.nvml.cc_feature, 1);
    set(in.nvml.cc_ready, 1);
    const Preflight p = judge_preflight(in);
    CHECK(p.run);
    CHECK(p.action == Action::none);
    CHECK(p.notes.size() == 3);
  }
  SECTION("rows remapped for uncorrectable errors, a fabric still registering: watch") {
    PreflightInput in = healthy();
    set(in.nvml.remapped_uncorrectable, 3);
    set(in.nvml.fabric_state, 2);
    const Preflight p = judge_preflight(in);
    CHECK(p.run);
    CHECK(p.action == Action::watch);
    CHECK(p.notes.size() == 1);  // the first watched finding is the reason, the rest notes
  }
}

TEST_CASE("pre-flight: missing answers never stop a GPU, and say why they are missing", "[host][preflight]") {
  SECTION("an older driver: every call missing") {
    PreflightInput in;
    in.nvml.uuid = "GPU-x";
    for (auto* a : {&in.nvml.recovery_action, &in.nvml.remap_failed, &in.nvml.remap_pending, &in.nvml.retired_pending})
      a->missing = "missing from this NVML (an older driver)";
    in.nvml.ecc_volatile_uncorrected.missing = "not supported";
    in.xids_why_not = "/dev/kmsg: Permission denied";
    const Preflight p = judge_preflight(in);
    CHECK(p.run);
    CHECK(p.action == Action::none);
    const Json j = preflight_json(in, p);
    CHECK(j["recovery_action"]["missing"] == "missing from this NVML (an older driver)");
    CHECK(j["xids_since_boot"]["missing"] == "/dev/kmsg: Permission denied");
    CHECK(j["run"] == true);
  }
  SECTION("no NVML: the GPU runs unchecked, and the note says so") {
    PreflightInput in;
    in.nvml.unavailable = "NVML unavailable: libnvidia-ml.so.1 could not be loaded";
    const Preflight p = judge_preflight(in);
    CHECK(p.run);
    CHECK(p.action == Action::none);
    REQUIRE(p.notes.size() == 1);
    CHECK(p.notes[0].find("runs unchecked") != std::string::npos);
    CHECK(preflight_json(in, p)["nvml"] == in.nvml.unavailable);
  }
}

TEST_CASE("pre-flight: the JSON holds every answer and the judgement", "[host][preflight]") {
  PreflightInput in = healthy();
  set(in.nvml.recovery_action, 2);
  Preflight p = judge_preflight(in);
  const Json j = preflight_json(in, p);
  CHECK(j["run"] == false);
  CHECK(j["action"] == "reset");
  CHECK(j["recovery_action"]["name"] == "node reboot");
  for (const char* k : {"remapped_rows", "retired_pages", "ecc_volatile_uncorrected", "persistence_mode", "mig_mode",
                        "confidential_computing", "nvlink_active", "fabric", "xids_since_boot", "seconds", "lost"})
    CHECK(j.contains(k));
  NodeGpu g;
  g.uuid = in.nvml.uuid;
  const std::string text = preflight_text(g, in, p);
  CHECK(text.find("NOT RUN: unhealthy before the run") != std::string::npos);
  CHECK(text.find("recovery action node reboot") != std::string::npos);
}

TEST_CASE("kernel log: Xid lines are read with their GPU; other lines are not", "[host][preflight]") {
  KernelXid x;
  REQUIRE(parse_xid_line("NVRM: Xid (PCI:0000:19:00): 79, pid=1234, name=cuconform, GPU has fallen off the bus.", &x));
  CHECK(x.pci == "0000:19:00");
  CHECK(x.xid == 79);
  REQUIRE(parse_xid_line("[  12.3] NVRM: Xid (PCI:0000:9B:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (Reset)", &x));
  CHECK(x.xid == 154);
  CHECK(same_gpu(x.pci, "00000000:9b:00.0"));
  CHECK_FALSE(same_gpu(x.pci, "0000:19:00.0"));
  CHECK_FALSE(parse_xid_line("NVRM: loading NVIDIA UNIX x86_64 Kernel Module  580.159.04", &x));
}
