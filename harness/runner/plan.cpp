#include "harness/runner/plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <thread>

#include "harness/runner/node_run.hpp"
#include "harness/runner/schedule.hpp"

namespace cuconform {

namespace {

int host_cores(const PlanOptions& o) {
  return o.cores > 0 ? o.cores : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::string source_of(const PlanOptions& o, const std::string& name) {
  for (auto& [k, v] : o.sources)
    if (k == name) return v;
  return "default";
}

}  // namespace

std::vector<std::string> worker_env_for(const std::vector<NodeGpu>& gpus, int gpu, int peer) {
  if (gpus.empty()) return {};
  std::string visible = gpus[static_cast<std::size_t>(gpu)].uuid;
  std::vector<std::string> env = {"CUCONFORM_DEVICE=0"};
  if (peer >= 0) {
    visible += "," + gpus[static_cast<std::size_t>(peer)].uuid;
    env.push_back("CUCONFORM_PEER_DEVICE=1");
  } else {
    env.push_back("CUCONFORM_PEER_DEVICE=");
  }
  env.push_back("CUDA_VISIBLE_DEVICES=" + visible);
  return env;
}

namespace {

double cost_of(const std::vector<const Case*>& cases) {
  double k = 0;
  for (const Case* c : cases) k += c->placement.cost;
  return k;
}

// The isolated cases' workers: a process each, the records in one (a spare takes over after one
// that ends it).
std::vector<std::vector<const Case*>> isolated_workers(const std::vector<const Case*>& cases, const PlanOptions& o) {
  std::vector<std::vector<const Case*>> out;
  std::vector<const Case*> records;
  for (const Case* c : cases) {
    if (joins_records_worker(*c, o.records_share, o.faults_share)) records.push_back(c);
    else out.push_back({c});
  }
  if (!records.empty()) out.push_back(records);
  return out;
}

}  // namespace

bool joins_records_worker(const Case& c, bool records_share, bool faults_share) {
  if (!records_share || !c.placement.isolated()) return false;
  if (c.placement.worker == WorkerKind::records) return true;
  // A finding that faults on some GPU, judged, expecting no fault: the worker checks the context
  // after it as after a record (worker.cpp), so a fault it caused is its own outcome.
  return faults_share && c.rule->has_tag("faults") && c.expect.str("fault").empty() && !c.rule->has_tag("fresh-process");
}

int gpu_lanes_for(int sms, std::size_t mem_bytes, int cores, int gpus, std::string* why) {
  const int share = std::max(1, cores / std::max(1, gpus));
  if (sms == 0) {
    if (why) *why = "1 (no GPU to size the lanes by)";
    return 1;
  }
  const int by_sms = std::max(1, sms / 16), by_cores = std::max(1, share / 2);
  const int by_mem = std::max(1, static_cast<int>(mem_bytes >> 32));
  const int lanes = std::clamp(std::min({by_sms, by_cores, by_mem}), 1, 8);
  if (why)
    *why = std::to_string(lanes) + " (automatic: " + std::to_string(sms) + " SMs / 16, " + std::to_string(share) +
           " CPU cores" + (gpus > 1 ? " (1/" + std::to_string(gpus) + " of the host's)" : std::string()) + " / 2, " +
           std::to_string(mem_bytes >> 30) + " GiB / 4, at most 8)";
  return lanes;
}

std::vector<std::vector<const Case*>> make_chunks(const std::vector<const Case*>& cases, int lanes, int per_lane,
                                                  double min_cost) {
  double total = cost_of(cases);
  const double share = std::max(min_cost, total / (std::max(lanes, 1) * per_lane));
  std::vector<std::pair<double, std::vector<const Case*>>> items;
  std::vector<const Case*> cur;
  double cur_cost = 0;
  for (const Case* c : cases) {
    const double k = c->placement.cost;
    if (k >= share) {
      items.push_back({k, {c}});
      continue;
    }
    cur.push_back(c);
    cur_cost += k;
    if (cur_cost >= share) {
      items.push_back({cur_cost, cur});
      cur = {};
      cur_cost = 0;
    }
  }
  if (!cur.empty()) items.push_back({cur_cost, cur});
  std::stable_sort(items.begin(), items.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<std::vector<const Case*>> out;
  for (auto& i : items) out.push_back(std::move(i.second));
  return out;
}

std::vector<const PlanStep*> Plan::steps_of(int gpu) const {
  std::vector<const PlanStep*> out;
  for (const PlanStep& s : steps)
    if (s.gpu == gpu && s.peer < 0) out.push_back(&s);
  return out;
}

const PlanStep* Plan::first(Phase phase) const {
  for (const PlanStep& s : steps)
    if (s.phase == phase) return &s;
  return nullptr;
}

int Plan::processes() const {
  int n = 0;
  for (const PlanStep& s : steps) n += static_cast<int>(s.workers.size());
  return n;
}

Plan make_plan(const std::vector<const Case*>& cases, const std::vector<NodeGpu>& gpus, const PlanOptions& o) {
  Plan plan;
  const int n = std::max<int>(1, static_cast<int>(gpus.size()));
  plan.gpus = n;
  const int cores = host_cores(o);
  std::vector<const Case*> host, shared, alone, isolated, pair_shared, pair_rest;
  for (const Case* c : cases) {
    const Placement& p = c->placement;
    if (p.gpu == GpuUse::none) host.push_back(c);
    else if (n > 1 && p.gpus == 2) (p.exclusive() ? pair_rest : pair_shared).push_back(c);
    else if (p.gpu == GpuUse::shared) shared.push_back(c);
    else if (p.gpu == GpuUse::alone) alone.push_back(c);
    else isolated.push_back(c);
  }
  if (!o.shuffle_seed.empty()) {
    // One generator for the whole run, drawn in a fixed order: the same seed gives the same order
    // (each GPU's executor makes the same lists from the same cases).
    std::mt19937_64 rng(std::stoull(o.shuffle_seed));
    for (auto* list : {&shared, &alone, &isolated, &host, &pair_shared, &pair_rest}) std::shuffle(list->begin(), list->end(), rng);
  }

  auto add = [&](PlanStep s) {
    s.cost = cost_of(s.cases);
    if (!s.cases.empty()) plan.steps.push_back(std::move(s));
  };
  // A step of GPU g (and `peer`, -1: none) under `lock` with its cases and the workers' environment.
  auto gpu_step = [&](Phase phase, int g, int peer, const char* lock, const std::vector<const Case*>& on) {
    PlanStep s;
    s.phase = phase;
    s.gpu = g;
    s.peer = peer;
    s.lock = lock;
    s.cases = on;
    s.env = worker_env_for(gpus, g, peer);
    return s;
  };
  // The parallel step's lanes on GPU g: set, or what the GPU, the cores and the step's size allow.
  auto parallel_lanes = [&](int g, std::string* why) {
    if (shared.size() <= 1) return 1;
    if (o.gpu_lanes > 0) {
      *why = std::to_string(o.gpu_lanes) + " (" + source_of(o, "jobs") + ")";
      return o.gpu_lanes;
    }
    const NodeGpu* gpu = gpus.empty() ? nullptr : &gpus[static_cast<std::size_t>(g)];
    return parallel_lanes_for(gpu_lanes_for(gpu ? gpu->sm_count : 0, gpu ? gpu->total_mem : 0, cores, n, why), shared.size(), why);
  };
  {
    PlanStep s;
    s.phase = Phase::host;
    s.worker = WorkerKind::host;
    s.cases = host;
    // Beside one GPU the host lanes take the cores its parallel lanes leave.
    std::string unused;
    const bool beside_one = n == 1 && !shared.empty() && o.host_lanes == 0;
    const int automatic = beside_one ? host_lanes_beside(cores, parallel_lanes(0, &unused)) : default_host_lanes(cores);
    s.lanes = std::min<int>(o.host_lanes > 0 ? o.host_lanes : automatic, std::max<int>(1, host.size()));
    s.lanes_why = o.host_lanes > 0 ? "set" : beside_one ? "the cores the GPU's parallel lanes leave, at most 12, at least the cores less two (at most 8)" : "the CPU cores less two, 1 to 8";
    // More once the GPU's alone step is over (a run with GPU steps; a node's host step runs beside
    // every GPU and keeps its lanes).
    const int late = o.host_lanes_late > 0 ? o.host_lanes_late : late_host_lanes(cores);
    if (n == 1 && (host.size() < cases.size() || o.host_beside_gpu) && late > s.lanes && static_cast<std::size_t>(s.lanes) < host.size()) {
      s.lanes_late = std::min<int>(late, static_cast<int>(host.size()));
      s.lanes_why += ", then " + std::to_string(s.lanes_late) + " once the GPU's alone step is over (" +
                     (o.host_lanes_late > 0 ? "$CUCONFORM_HOST_LANES_LATE" : "the cores, at most 16") + ")";
    }
    s.workers = make_chunks(host, s.lanes, 4, 8);
    s.why = "host tools and planned cases, once for the node, beside every phase";
    add(std::move(s));
  }
  for (int g = 0; g < n; ++g) {
    PlanStep s = gpu_step(Phase::parallel, g, -1, "shared", shared);
    s.lanes = parallel_lanes(g, &s.lanes_why);
    // Two chunks a lane (lane_chunks): each chunk is a worker and a context, and two leave room to
    // even out the lanes' ends. Cut by cost: with --codegen jit the compile and SASS facts run here
    // (the driver is their toolchain), and cut by count one chunk held
    // mbarrier.compile.sm90_only_wrappers' eight nvcc compiles (36 s of a 46 s parallel phase, H100
    // 2026-11-25). A kernel case costs 1.
    s.workers = make_chunks(shared, s.lanes, o.lane_chunks, 8);
    s.why = "cases that may share the GPU, in parallel lanes";
    add(std::move(s));
  }
  if (!pair_shared.empty())
    for (int g = 0; g < n; ++g) {
      PlanStep s = gpu_step(Phase::pairs_shared, g, (g + 1) % n, "shared", pair_shared);
      s.lanes = 3;
      s.lanes_why = "3 a pair";
      s.workers = make_chunks(pair_shared, 3, 2, 8);
      s.why = "two-GPU cases that may share the GPUs, during the parallel phase, every pair at once";
      add(std::move(s));
    }
  for (int g = 0; g < n; ++g) {
    PlanStep s = gpu_step(Phase::alone, g, -1, "exclusive", alone);
    s.workers = {alone};
    s.why = "the GPU to themselves (rates, latencies, weak-outcome frequencies), one worker";
    add(std::move(s));
  }
  for (int g = 0; g < n; ++g) {
    PlanStep s = gpu_step(Phase::isolated, g, -1, "exclusive", isolated);
    s.worker = WorkerKind::own;
    s.workers = isolated_workers(isolated, o);
    s.prestart = o.prestart ? std::max(1, o.prestart_depth) : 0;
    s.why = o.isolated_alone ? "expected faults and undefined behaviour: one process at a time, nothing else on the GPU, last"
                             : "expected faults and undefined behaviour: one process at a time, BESIDE the parallel lanes (unsafe)";
    add(std::move(s));
  }
  if (!pair_rest.empty()) {
    const auto rounds = peer_rounds(n);
    for (std::size_t r = 0; r < rounds.size(); ++r)
      for (auto [a, b] : rounds[r]) {
        PlanStep s = gpu_step(Phase::pairs, a, b, "exclusive", pair_rest);
        s.round = static_cast<int>(r);
        std::vector<const Case*> al, iso;
        for (const Case* c : pair_rest) (c->placement.isolated() ? iso : al).push_back(c);
        if (!al.empty()) s.workers.push_back(al);
        for (auto& w : isolated_workers(iso, o)) s.workers.push_back(w);
        s.why = "two-GPU cases that need both GPUs to themselves, after the isolated phase; no GPU in two pairs of a round";
        add(std::move(s));
      }
  }
  if (o.reruns > 0)
    for (int g = 0; g < n; ++g) {
      PlanStep s = gpu_step(Phase::rerun, g, -1, "exclusive", {});
      s.why = "each failure of this GPU again, up to " + std::to_string(o.reruns) +
              " times, a fresh worker each; a later pass is a flake (two-GPU cases are not re-run)";
      s.cost = 0;
      plan.steps.push_back(std::move(s));
    }

  auto opt = [&](const std::string& name, const std::string& value, const std::string& key) {
    plan.options.emplace_back(name, value + " (" + source_of(o, key) + ")");
  };
  opt("gpu lanes", o.gpu_lanes > 0 ? std::to_string(o.gpu_lanes) : "automatic", "jobs");
  opt("host lanes", o.host_lanes > 0 ? std::to_string(o.host_lanes) : "automatic", "CUCONFORM_HOST_LANES");
  opt("host lanes after the GPU's alone step", o.host_lanes_late > 0 ? std::to_string(o.host_lanes_late) : "automatic",
      "CUCONFORM_HOST_LANES_LATE");
  opt("worker processes a parallel lane", std::to_string(o.lane_chunks), "CUCONFORM_LANE_CHUNKS");
  opt("isolated lane", o.isolated_alone ? "alone, last" : "beside the parallel lanes (unsafe)",
      o.isolated_alone ? "CUCONFORM_ISOLATED_ALONE" : "isolated_beside");
  opt("prestart isolated workers", o.prestart ? std::to_string(o.prestart_depth) + " ahead" : "off", "CUCONFORM_PRESTART");
  opt("records share a worker", o.records_share ? "yes" : "no (a process a record)", "CUCONFORM_BATCH_RECORDS");
  opt("findings tagged faults join the records' worker", o.faults_share ? "yes" : "no (a process each)", "CUCONFORM_FAULTS_SHARE");
  opt("node phases", n > 1 ? "in step (every GPU's parallel, alone, isolated phases at once)" : "one GPU", "node");
  opt("order", o.shuffle_seed.empty() ? "as the specs" : "shuffled, seed " + o.shuffle_seed, "shuffle");
  opt("re-runs of failures", std::to_string(o.reruns), "rerun");
  opt("code path", o.codegen, "codegen");
  return plan;
}

}  // namespace cuconform
