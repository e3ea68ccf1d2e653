#include "harness/runner/health_watch.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "harness/util/json_write.hpp"

namespace cuconform {

bool xid_from_application(unsigned long long xid) {
  // 13 graphics engine exception, 31 GPU memory page fault, 43 GPU stopped processing (the
  // channel of a faulted context), 45 preemptive cleanup (its teardown): what a kernel that
  // faults on purpose (an expected fault, a record of undefined behaviour) leaves in the log.
  return xid == 13 || xid == 31 || xid == 43 || xid == 45;
}

namespace {
double steady_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// How long after an isolated case ended an Xid is still put down to it (the driver reports a
// context's Xid 43/45 as it tears the context down, after the process has gone).
constexpr double kLateXidS = 3.0;

Json health_json(const GpuHealth& h) {
  if (!h.readable) return {{"readable", false}, {"error", h.error}};
  Json j = {{"sm_mhz", h.sm_mhz},
            {"mem_mhz", h.mem_mhz},
            {"temperature_c", h.temperature_c},
            {"power_w", json_number(h.power_w)},
            {"throttle_reasons", h.throttle_reasons},
            {"slowdown", slowdown_reasons(h.throttle_reasons)}};
  auto maybe = [&](const char* k, long long v) {
    if (v >= 0) j[k] = v;
  };
  maybe("ecc_corrected", h.ecc_corrected);
  maybe("ecc_uncorrected", h.ecc_uncorrected);
  maybe("remapped_rows_correctable", h.remapped_correctable);
  maybe("remapped_rows_uncorrectable", h.remapped_uncorrectable);
  maybe("remap_pending", h.remap_pending);
  maybe("remap_failed", h.remap_failed);
  maybe("retired_pages_pending", h.retired_pages_pending);
  return j;
}
}  // namespace

HealthWatch::HealthWatch(const std::vector<NodeGpu>& gpus, std::vector<std::atomic<int>>* stops) : stops_(stops) {
  t0_ = steady_s();
  for (const NodeGpu& g : gpus) {
    PerGpu p;
    p.gpu = g;
    g_.push_back(std::move(p));
  }
  if (const char* inject = std::getenv("CUCONFORM_HEALTH_INJECT")) {
    int gpu = -1;
    unsigned long long xid = 0;
    long long after = 0;
    if (std::sscanf(inject, "%d:%llu:%lld", &gpu, &xid, &after) == 3 && gpu >= 0 && gpu < static_cast<int>(g_.size())) {
      inject_gpu_ = gpu;
      inject_xid_ = xid;
      inject_after_ = after;
    }
  }
  if (g_.empty()) return;
  if (const std::string why = nvml_unavailable(); !why.empty()) {
    note_ = "health watch: off (" + why + "); the run goes on without it";
    return;
  }
  std::vector<std::string> uuids;
  for (auto& p : g_) {
    uuids.push_back(p.gpu.uuid);
    const GpuHealth h = nvml_health(p.gpu.uuid);
    p.ecc_uncorrected_at_start = h.ecc_uncorrected;
    p.snapshots.emplace_back("start", h);
  }
  std::string why;
  xids_ = std::make_unique<XidWatch>(uuids, &why);
  if (!xids_->active()) {
    note_ = "health watch: no Xid events (" + why + "); GPU state is still polled every second";
    xids_.reset();
  } else {
    listener_ = std::thread([this] { event_loop(); });
  }
  poller_ = std::thread([this] { poll_loop(); });
}

HealthWatch::~HealthWatch() { stop(); }

void HealthWatch::stop() {
  if (done_.exchange(true)) return;
  if (poller_.joinable()) poller_.join();
  if (listener_.joinable()) listener_.join();
}

double HealthWatch::now() const { return steady_s() - t0_; }

void HealthWatch::case_started(std::size_t gpu, const Case& c) {
  std::lock_guard<std::mutex> lock(mu_);
  if (gpu < g_.size()) g_[gpu].running[c.name] = &c;
}

void HealthWatch::case_finished(std::size_t gpu, const Case& c) {
  bool inject = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (gpu >= g_.size()) return;
    PerGpu& p = g_[gpu];
    p.running.erase(c.name);
    if (c.placement.isolated()) {
      p.last_isolated = &c;
      p.last_isolated_end = now();
    }
    ++p.finished;
    inject = static_cast<int>(gpu) == inject_gpu_ && p.finished == inject_after_;
  }
  if (inject) heard(gpu, "Xid " + std::to_string(inject_xid_) + " (injected by CUCONFORM_HEALTH_INJECT)", inject_xid_);
}

void HealthWatch::snapshot(std::size_t gpu, const std::string& label) {
  if (gpu >= g_.size() || !poller_.joinable()) return;  // no NVML: nothing to read
  const GpuHealth h = nvml_health(g_[gpu].gpu.uuid);
  std::lock_guard<std::mutex> lock(mu_);
  g_[gpu].snapshots.emplace_back(label, h);
}

void HealthWatch::mark_unhealthy(std::size_t gpu, const std::string& why) {
  // Called with mu_ held.
  PerGpu& p = g_[gpu];
  if (!p.unhealthy.empty()) return;
  p.unhealthy = why;
  if (stops_ && gpu < stops_->size()) {
    int expected = 0;
    (*stops_)[gpu].compare_exchange_strong(expected, kStoppedUnhealthy);
  }
}

void HealthWatch::stop_before_run(std::size_t gpu, const std::string& why) {
  std::lock_guard<std::mutex> lock(mu_);
  if (gpu >= g_.size()) return;
  HealthEvent e;
  e.what = why;
  e.critical = true;
  e.at_s = now();
  g_[gpu].events.push_back(e);
  mark_unhealthy(gpu, why);
}

void HealthWatch::heard(std::size_t gpu, const std::string& what, unsigned long long xid) {
  std::lock_guard<std::mutex> lock(mu_);
  if (gpu >= g_.size()) return;
  PerGpu& p = g_[gpu];
  HealthEvent e;
  e.what = what;
  e.at_s = now();
  // The case it belongs to: the isolated case running (one at a time), or the one that just
  // ended; else whatever was running (named, never excused).
  const Case* culprit = nullptr;
  for (auto& [name, c] : p.running)
    if (c->placement.isolated()) culprit = c;
  if (!culprit && p.last_isolated && e.at_s - p.last_isolated_end <= kLateXidS) culprit = p.last_isolated;
  if (culprit) e.case_name = culprit->name;
  else if (!p.running.empty()) {
    for (auto& [name, c] : p.running) e.case_name += (e.case_name.empty() ? "" : " | ") + name;
    e.case_name = "one of: " + e.case_name;
  }
  const bool app = xid != 0 && xid_from_application(xid);
  // Expected: an application Xid while a case that faults on purpose (or records undefined
  // behaviour, which may fault) ran alone on the GPU.
  const bool may_fault = culprit && culprit->placement.may_fault;
  e.expected = app && may_fault;
  e.critical = !app;
  p.events.push_back(e);
  if (e.critical)
    mark_unhealthy(gpu, what + (e.case_name.empty() ? "" : " at case " + e.case_name));
}

void HealthWatch::event_loop() {
  while (!done_.load()) {
    XidEvent ev;
    if (!xids_->next(&ev, 200)) continue;
    for (std::size_t i = 0; i < g_.size(); ++i)
      if (g_[i].gpu.uuid == ev.uuid) heard(i, ev.what, ev.xid ? ev.xid : 1000000);  // non-Xid events are critical
  }
}

void HealthWatch::poll_loop() {
  auto next = std::chrono::steady_clock::now();
  while (!done_.load()) {
    if (std::chrono::steady_clock::now() < next) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    next += std::chrono::seconds(1);
    for (std::size_t i = 0; i < g_.size(); ++i) {
      const GpuHealth h = nvml_health(g_[i].gpu.uuid);
      std::string why = needs_attention(h);
      if (why.empty() && h.ecc_uncorrected > 0 && g_[i].ecc_uncorrected_at_start >= 0 && h.ecc_uncorrected > g_[i].ecc_uncorrected_at_start)
        why = "uncorrected ECC errors: " + std::to_string(h.ecc_uncorrected - g_[i].ecc_uncorrected_at_start) + " new";
      if (why.empty()) continue;
      std::lock_guard<std::mutex> lock(mu_);
      if (!g_[i].unhealthy.empty()) continue;
      HealthEvent e;
      e.what = why;
      e.critical = true;
      e.at_s = now();
      for (auto& [name, c] : g_[i].running) e.case_name += (e.case_name.empty() ? "" : " | ") + name;
      g_[i].events.push_back(e);
      mark_unhealthy(i, why + (e.case_name.empty() ? "" : " at case " + e.case_name));
    }
  }
}

std::string HealthWatch::unhealthy(std::size_t gpu) const {
  std::lock_guard<std::mutex> lock(mu_);
  return gpu < g_.size() ? g_[gpu].unhealthy : "";
}

std::vector<HealthEvent> HealthWatch::events(std::size_t gpu) const {
  std::lock_guard<std::mutex> lock(mu_);
  return gpu < g_.size() ? g_[gpu].events : std::vector<HealthEvent>{};
}

std::string HealthWatch::json(std::size_t gpu) const {
  std::lock_guard<std::mutex> lock(mu_);
  Json j = {{"watch", note_.empty() ? std::string("nvml: Xid events and state every second") : note_}};
  if (gpu >= g_.size()) return json_text(j, false);
  const PerGpu& p = g_[gpu];
  j["verdict"] = p.unhealthy.empty() ? "healthy" : "unhealthy: " + p.unhealthy;
  Json& snaps = j["snapshots"] = Json::array();
  for (auto& [label, h] : p.snapshots) {
    Json s = health_json(h);
    s["at"] = label;
    snaps.push_back(s);
  }
  Json& events = j["events"] = Json::array();
  for (const HealthEvent& e : p.events)
    events.push_back({{"what", e.what},
                      {"case", e.case_name},
                      {"expected", e.expected},
                      {"critical", e.critical},
                      {"at_s", json_number(e.at_s)}});
  return json_text(j, false);
}

}  // namespace cuconform
