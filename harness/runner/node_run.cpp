#include "harness/runner/node_run.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "harness/runner/execute.hpp"
#include "harness/runner/plan.hpp"
#include "harness/runner/rerun.hpp"

namespace cuconform {
namespace {

// The GPUs' supervisors meet here at the end of each phase (C++17 has no std::barrier).
class PhaseBarrier {
 public:
  explicit PhaseBarrier(int n) : n_(n) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mu_);
    const long gen = generation_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != gen; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_, arrived_ = 0;
  long generation_ = 0;
};

// A case that never ran because its GPU was stopped as unhealthy.
CaseResult not_run(const Case& c, const std::string& why) {
  CaseResult r;
  r.name = c.name;
  r.obs.verdict = Verdict::not_run;
  // The pre-flight's reason says itself that it came before the run.
  r.obs.reason = why.rfind("unhealthy before the run", 0) == 0 ? "not run: " + why : "not run: GPU unhealthy, " + why;
  return r;
}

}  // namespace

std::vector<std::vector<std::pair<int, int>>> peer_rounds(int gpus) {
  std::vector<std::vector<std::pair<int, int>>> rounds;
  if (gpus < 2) return rounds;
  for (int i = 0; i < gpus; ++i) {
    const std::pair<int, int> pair{i, (i + 1) % gpus};
    bool placed = false;
    for (auto& round : rounds) {
      bool free = true;
      for (auto& [a, b] : round) free = free && a != pair.first && b != pair.first && a != pair.second && b != pair.second;
      if (free) {
        round.push_back(pair);
        placed = true;
        break;
      }
    }
    if (!placed) rounds.push_back({pair});
  }
  return rounds;
}

NodeOutcome run_node(const std::vector<const Case*>& cases, const NodeRunOptions& opt) {
  NodeOutcome out;
  const int n = std::max<int>(1, static_cast<int>(opt.gpus.size()));
  // Where each case runs is the node plan's (make_plan): host cases once for the node; two-GPU
  // cases that may share the GPUs (no rate, no frequency, no fault) during the parallel phase,
  // every pair at once, the others after the isolated phase, in rounds; each GPU's own cases in
  // its executor, which plans its parallel, alone and isolated steps the same way. The lists
  // keep the selection's order (a shuffled plan's executors shuffle their own).
  const Plan node_plan = make_plan(cases, opt.gpus, plan_options_of(opt.base));
  std::map<const Case*, Phase> step_of;
  for (const PlanStep& s : node_plan.steps)
    for (const Case* c : s.cases) step_of.emplace(c, s.phase);
  std::vector<const Case*> pair_cases, pair_shared, pair_rest;
  for (const Case* c : cases) {
    const auto it = step_of.find(c);
    const Phase phase = it == step_of.end() ? Phase::parallel : it->second;
    if (phase == Phase::host) out.host_cases.push_back(c);
    else if (phase == Phase::pairs_shared || phase == Phase::pairs) pair_cases.push_back(c);
    else out.gpu_cases.push_back(c);
    if (phase == Phase::pairs_shared) pair_shared.push_back(c);
    if (phase == Phase::pairs) pair_rest.push_back(c);
  }
  std::vector<std::atomic<int>> stops(static_cast<std::size_t>(n));
  for (auto& s : stops) s.store(0);
  HealthWatch watch(opt.gpus, &stops);
  out.health_note = watch.note();
  for (std::size_t i = 0; i < opt.unhealthy_before.size() && i < stops.size(); ++i)
    if (!opt.unhealthy_before[i].empty()) watch.stop_before_run(i, opt.unhealthy_before[i]);
  std::mutex report_mu;
  auto report = [&](int gpu, const Case& c, const CaseResult& r) {
    if (gpu >= 0) watch.case_finished(static_cast<std::size_t>(gpu), c);
    if (!opt.on_result) return;
    std::lock_guard<std::mutex> lock(report_mu);
    opt.on_result(gpu, c, r);
  };

  // A signal stops every GPU; the watch stops one.
  std::atomic<bool> over{false};
  std::thread relay([&] {
    while (!over.load()) {
      if (const int sig = opt.base.stop ? opt.base.stop->load() : 0)
        for (auto& s : stops) {
          int none = 0;
          s.compare_exchange_strong(none, sig);
        }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });

  // Host-only cases once, beside the GPUs. On one GPU its late host lanes start once that GPU's
  // alone step is over (plan.hpp: host_beside_gpu).
  std::atomic<bool> host_late_go{false};
  std::thread host([&] {
    SuperviseOptions so = opt.base;
    if (n == 1) so.host_late_go = &host_late_go;
    // The host step's lanes are the node plan's (make_plan sees the whole selection and the GPUs;
    // this executor sees only the host cases): beside one GPU the cores its parallel lanes leave.
    if (const PlanStep* step = node_plan.first(Phase::host)) {
      so.host_lanes = step->lanes;
      so.host_lanes_late = step->lanes_late > 0 ? step->lanes_late : step->lanes;  // none later: as many as now
    }
    so.on_start = nullptr;
    so.phase_done = nullptr;
    so.on_result = [&](const Case& c, const CaseResult& r) { report(-1, c, r); };
    out.host = supervise(out.host_cases, so);
  });

  // One pair's supervisor: GPU a's cases with GPU b as its peer.
  auto run_pair = [&](int a, int b, const std::vector<const Case*>& list, int lanes_each) {
    const auto ga = static_cast<std::size_t>(a), gb = static_cast<std::size_t>(b);
    if (stops[ga].load() || stops[gb].load()) return SuperviseOutcome{};  // a GPU of the pair is stopped
    SuperviseOptions so = opt.base;
    so.stop = &stops[ga];
    so.worker_env = worker_env_for(opt.gpus, a, b);
    if (lanes_each > 0) so.gpu_lanes = lanes_each;
    so.on_start = [&, ga, gb](const Case& c) {
      watch.case_started(ga, c);
      watch.case_started(gb, c);
    };
    so.on_result = [&, a, gb](const Case& c, const CaseResult& r) {
      watch.case_finished(gb, c);
      report(a, c, r);
    };
    so.phase_done = nullptr;
    return supervise(list, so);
  };
  std::vector<SuperviseOutcome> shared_out(static_cast<std::size_t>(n)), rest_out(static_cast<std::size_t>(n));
  std::vector<std::thread> shared_pairs;
  std::mutex pairs_mu;
  std::condition_variable pairs_cv;
  int pairs_left = pair_shared.empty() ? 0 : n;
  if (!pair_shared.empty())
    for (int i = 0; i < n; ++i)
      shared_pairs.emplace_back([&, i] {
        shared_out[static_cast<std::size_t>(i)] = run_pair(i, (i + 1) % n, pair_shared, 3);
        std::lock_guard<std::mutex> lock(pairs_mu);
        --pairs_left;
        pairs_cv.notify_all();
      });

  PhaseBarrier barrier(n);
  out.gpu.resize(static_cast<std::size_t>(n));
  std::vector<std::thread> lanes;
  for (int i = 0; i < n; ++i)
    lanes.emplace_back([&, i] {
      const auto gi = static_cast<std::size_t>(i);
      SuperviseOptions so = opt.base;
      so.stop = &stops[gi];
      so.worker_env = worker_env_for(opt.gpus, i, -1);
      so.on_start = [&, gi](const Case& c) { watch.case_started(gi, c); };
      so.on_result = [&, i](const Case& c, const CaseResult& r) { report(i, c, r); };
      so.phase_done = [&, gi](const char* phase) {
        if (std::string(phase) == "parallel") {  // the two-GPU cases that share the GPUs end with it
          std::unique_lock<std::mutex> lock(pairs_mu);
          pairs_cv.wait(lock, [&] { return pairs_left == 0; });
        }
        if (std::string(phase) == "alone") host_late_go = true;
        watch.snapshot(gi, std::string("after ") + phase);
        if (n > 1) barrier.arrive_and_wait();
      };
      out.gpu[gi] = supervise(out.gpu_cases, so);
    });
  for (auto& t : lanes) t.join();

  for (auto& t : shared_pairs) t.join();
  // The rest of the two-GPU cases (rates, frequencies, records): no GPU in two pairs at once.
  if (!pair_rest.empty())
    for (auto& round : peer_rounds(n)) {
      std::vector<std::thread> ts;
      for (auto [a, b] : round)
        ts.emplace_back([&, a = a, b = b] { rest_out[static_cast<std::size_t>(a)] = run_pair(a, b, pair_rest, 0); });
      for (auto& t : ts) t.join();
    }
  // Each GPU's outcome: its own cases, then its two-GPU cases in the order of the selection.
  for (int i = 0; i < n && !pair_cases.empty(); ++i) {
    const auto gi = static_cast<std::size_t>(i);
    SuperviseOutcome& g = out.gpu[gi];
    auto take = [&](const std::vector<const Case*>& list, SuperviseOutcome& from, const Case* c) {
      for (std::size_t k = 0; k < list.size(); ++k)
        if (list[k] == c && k < from.finished.size()) {
          g.results.push_back(from.finished[k] ? from.results[k] : CaseResult{c->name, {}, 0, 0, 0});
          g.finished.push_back(from.finished[k]);
          return true;
        }
      return false;
    };
    for (const Case* c : pair_cases)
      if (!take(pair_shared, shared_out[gi], c) && !take(pair_rest, rest_out[gi], c)) {
        g.results.push_back(CaseResult{c->name, {}, 0, 0, 0});
        g.finished.push_back(false);
      }
    g.workers_started += shared_out[gi].workers_started + rest_out[gi].workers_started;
    for (SuperviseOutcome* o : {&shared_out[gi], &rest_out[gi]})  // a selection of two-GPU cases only
      if (g.device.json.empty()) g.device = o->device;
  }
  for (const Case* c : pair_cases) out.gpu_cases.push_back(c);
  over.store(true);
  relay.join();
  host.join();
  watch.stop();

  // A GPU the watch stopped: what never ran there is not-run, with why; so are the two-GPU cases
  // of a GPU whose peer was stopped.
  for (int i = 0; i < n; ++i) {
    const auto gi = static_cast<std::size_t>(i);
    out.unhealthy.push_back(watch.unhealthy(gi));
    out.health_json.push_back(watch.json(gi));
  }
  const std::size_t first_pair = out.gpu_cases.size() - pair_cases.size();
  for (int i = 0; i < n; ++i) {
    const auto gi = static_cast<std::size_t>(i), peer = static_cast<std::size_t>((i + 1) % n);
    SuperviseOutcome& g = out.gpu[gi];
    const bool own = stops[gi].load() == kStoppedUnhealthy;
    const bool peers = !pair_cases.empty() && stops[peer].load() == kStoppedUnhealthy;
    for (std::size_t k = 0; k < out.gpu_cases.size() && k < g.results.size(); ++k) {
      if (g.finished[k]) continue;
      if (own) g.results[k] = not_run(*out.gpu_cases[k], out.unhealthy[gi]);
      else if (peers && k >= first_pair)
        g.results[k] = not_run(*out.gpu_cases[k], "its peer GPU " + std::to_string(peer) + ": " + out.unhealthy[peer]);
      else continue;
      g.finished[k] = true;
    }
    if (own) g.stopped_by = 0;  // the rest of the run went on
  }
  // The plan's re-run step (rerun.hpp): each GPU's failures again on that GPU, the GPUs at once,
  // never on one the watch stopped; the host cases' failures once for the node, beside them.
  if (opt.reruns > 0) {
    std::vector<std::thread> again;
    for (int i = 0; i < n; ++i) {
      const auto gi = static_cast<std::size_t>(i);
      if (!out.unhealthy[gi].empty()) continue;
      again.emplace_back([&, i, gi] {
        SuperviseOptions so = opt.base;
        so.worker_env = worker_env_for(opt.gpus, i, -1);
        SuperviseOutcome& g = out.gpu[gi];
        g.workers_started += rerun_failures(out.gpu_cases, g.results, g.finished, opt.reruns, so);
      });
    }
    out.host.workers_started += rerun_failures(out.host_cases, out.host.results, out.host.finished, opt.reruns, opt.base);
    for (auto& t : again) t.join();
  }
  // Each Xid put down to a case is a fact of that case's result.
  for (int i = 0; i < n; ++i) {
    const auto gi = static_cast<std::size_t>(i);
    for (const HealthEvent& e : watch.events(gi)) {
      for (std::size_t k = 0; k < out.gpu_cases.size() && k < out.gpu[gi].results.size(); ++k)
        if (out.gpu_cases[k]->name == e.case_name)
          out.gpu[gi].results[k].obs.fact("xid", e.what + (e.expected ? " (expected: this case's fault)" : e.critical ? " (critical)" : " (not expected)"));
    }
  }
  return out;
}

}  // namespace cuconform
