#pragma once
// Watches the GPUs of a run while it goes on (NVML, harness/driver/nvml.hpp): Xid events as they
// happen, and every second whether a GPU is lost, has a failed or pending row remap, or new
// uncorrected ECC errors. An Xid an expected fault causes (13, 31, 43, 45: the Xid catalog's
// application errors) is attributed to the isolated case that was running on that GPU and shown
// as expected; any other Xid, and any of the conditions above, makes the GPU unhealthy: its stop
// flag is raised at once, so its supervisor schedules nothing more there (the cases left get the
// verdict not-run with the reason), while the other GPUs go on.
// Source of the classification: NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors,
// "Analyzing Xid Errors with the Xid Catalog"): Xids whose immediate action is RESTART_APP or
// none are an application's; the rest ask for a GPU reset, a node reboot or support.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/driver/gpu_list.hpp"
#include "harness/driver/nvml.hpp"
#include "harness/runner/stop.hpp"
#include "harness/spec/spec.hpp"

namespace cuconform {

// Whether an Xid is one a faulting kernel causes (an expected fault's), not the GPU's own.
bool xid_from_application(unsigned long long xid);

// One event seen on a GPU, with what it was put down to.
struct HealthEvent {
  std::string what;      // "Xid 13", "GPU lost", "uncorrected ECC errors: 2 new"
  std::string case_name;  // the case it is attributed to; "" when none ran
  bool expected = false;  // an expected fault's Xid
  bool critical = false;  // made the GPU unhealthy
  double at_s = 0;        // seconds since the watch started
};

class HealthWatch {
 public:
  // `stops[i]` is GPU i's stop flag (SuperviseOptions::stop). Without NVML the watch says so once
  // (note()) and watches nothing. CUCONFORM_HEALTH_INJECT=GPU:XID:AFTER (a test hook: nobody may
  // break a shared GPU on purpose) makes GPU index GPU report Xid XID once AFTER cases have
  // finished on it.
  HealthWatch(const std::vector<NodeGpu>& gpus, std::vector<std::atomic<int>>* stops);
  ~HealthWatch();
  HealthWatch(const HealthWatch&) = delete;
  HealthWatch& operator=(const HealthWatch&) = delete;

  void case_started(std::size_t gpu, const Case& c);
  void case_finished(std::size_t gpu, const Case& c);
  // A snapshot of the GPU's state (clocks, throttle, temperature, power, ECC, remaps) under `label`.
  void snapshot(std::size_t gpu, const std::string& label);

  // The pre-flight found GPU `gpu` unhealthy before the run (harness/runner/preflight.hpp): it
  // is stopped before anything runs on it, `why` its reason.
  void stop_before_run(std::size_t gpu, const std::string& why);
  // "" when GPU `gpu` stayed healthy, else why not: "Xid 79 at case X" / "GPU lost".
  std::string unhealthy(std::size_t gpu) const;
  std::vector<HealthEvent> events(std::size_t gpu) const;
  // The GPU's health section of its results file (JSON text): watch state, snapshots, events.
  std::string json(std::size_t gpu) const;
  // What the run should be told once ("health watch: NVML unavailable (...)"); "" when watching.
  std::string note() const { return note_; }
  void stop();

 private:
  struct PerGpu {
    NodeGpu gpu;
    std::map<std::string, const Case*> running;
    const Case* last_isolated = nullptr;  // the isolated case that ended last, and when
    double last_isolated_end = -1;
    long long finished = 0;
    long long ecc_uncorrected_at_start = -1;
    std::string unhealthy;
    std::vector<HealthEvent> events;
    std::vector<std::pair<std::string, GpuHealth>> snapshots;
  };
  double now() const;
  void heard(std::size_t gpu, const std::string& what, unsigned long long xid);
  void mark_unhealthy(std::size_t gpu, const std::string& why);
  void poll_loop();
  void event_loop();

  std::vector<PerGpu> g_;
  std::vector<std::atomic<int>>* stops_;
  mutable std::mutex mu_;
  std::string note_;
  std::unique_ptr<XidWatch> xids_;
  std::atomic<bool> done_{false};
  std::thread poller_, listener_;
  double t0_ = 0;
  int inject_gpu_ = -1;
  unsigned long long inject_xid_ = 0;
  long long inject_after_ = 0;
};

}  // namespace cuconform
