#include "harness/runner/supervisor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "harness/runner/execute.hpp"
#include "harness/runner/plan.hpp"
#include "harness/runner/protocol.hpp"
#include "harness/runner/schedule.hpp"
#include "harness/runner/worker.hpp"
#include "harness/runner/worker_process.hpp"
#include "harness/util/deadline.hpp"

namespace cuconform {
namespace {

using Clock = SteadyClock;

// What every lane shares; `mu` guards all of it.
struct Shared {
  const SuperviseOptions& opt;
  SuperviseOutcome& out;
  std::map<std::string, CaseResult> done;
  std::vector<pid_t> exiting;  // workers that delivered every result and are still exiting
  int workers = 0;             // numbered as they start (CaseResult::worker)
  std::mutex mu;
  bool stopping() const { return opt.stop && opt.stop->load() != 0; }
};

// Workers that sent every result are not waited for in their lane: tearing down a context
// (a hung kernel's above all) can take a while, and nothing of theirs is needed any more.
// They are reaped at the end of the run; one still alive after `grace_s` is killed.
void reap_exiting(std::vector<pid_t>& pids, double grace_s) {
  const auto until = after(grace_s);
  for (pid_t pid : pids) {
    int status = 0;
    reap_within(pid, &status, -seconds_since(until));
  }
  pids.clear();
}

// Runs one batch in one worker; returns how many cases of the batch got a result.
// `reap_later`: once every result is in, leave the worker's exit to reap_exiting() instead of
// waiting for it (never for isolated cases: their context's teardown, after a fault above all,
// must be over before the next one starts).
// `ready`: a gated worker spawned ahead of time; it is given its go here, told to skip the first
// `skip` cases of its list (a spare of a batch: `batch` is what is left of the list).
std::size_t run_batch(const std::vector<const Case*>& batch, Shared& sh, bool gpu_lane, bool reap_later,
                      Worker* ready = nullptr, std::size_t skip = 0) {
  const SuperviseOptions& opt = sh.opt;
  const auto spawned = Clock::now();
  Worker w = ready ? *ready : spawn(opt.specs_dir, batch, false, opt.worker_env);
  if (ready) {
    *ready = {};
    // A worker gone already fails the send; its exit status says why (below).
    const std::string go = std::to_string(skip) + "\n";
    if (w.gate >= 0) {
      send(w.gate, go.data(), go.size(), MSG_NOSIGNAL);
      close(w.gate);
    }
  }
  auto first_start = Clock::now(), last_result = Clock::now();
  int serial = 0;
  {
    std::lock_guard<std::mutex> lock(sh.mu);
    ++sh.out.workers_started;
    serial = ++sh.workers;
  }
  std::map<std::string, const Case*> by_name;
  for (const Case* c : batch) by_name[c->name] = c;
  std::string log_buf;
  const Case* current = nullptr;
  auto current_start = Clock::now();
  auto deadline = after(opt.startup_s);
  std::size_t finished = 0;
  bool timed_out = false, started_any = false;

  auto finish = [&](CaseResult r) {
    std::lock_guard<std::mutex> lock(sh.mu);
    r.worker = serial;
    r.order = static_cast<int>(finished);
    sh.done[r.name] = r;
    ++finished;
    SuperviseTiming& t = sh.out.timing;
    t.host_tool_s += r.tool_s;
    if (gpu_lane) {
      t.module_load_s += r.module_load_s;
      if (reap_later) t.gpu_cases_s += std::max(0.0, r.duration_s - r.module_load_s);
    } else {
      t.host_cases_s += r.duration_s;
    }
    if (opt.on_result && by_name.count(r.name)) opt.on_result(*by_name[r.name], r);
  };
  auto handle_line = [&](const std::string& line) {
    if (line.rfind("START ", 0) == 0) {
      if (!started_any && gpu_lane) {
        std::lock_guard<std::mutex> lock(sh.mu);
        sh.out.timing.worker_start_s += seconds_since(spawned);
        if (!reap_later) sh.out.timing.isolated_start_s += seconds_since(spawned);
      }
      if (!started_any) first_start = Clock::now();
      started_any = true;
      auto it = by_name.find(line.substr(6));
      current = it == by_name.end() ? nullptr : it->second;
      current_start = Clock::now();
      if (current && opt.on_start) opt.on_start(*current);
      deadline = after((current ? current->rule->timeout_s : 10) + opt.slack_s);
    } else if (line.rfind("RESULT ", 0) == 0) {
      last_result = Clock::now();
      try {
        finish(decode_result(line.substr(7)));
      } catch (const std::exception& e) {
        log_buf += std::string("\n[supervisor] bad result line: ") + e.what();
      }
      current = nullptr;
      deadline = after(opt.startup_s);
    } else if (line.rfind("DEVICE ", 0) == 0) {
      std::lock_guard<std::mutex> lock(sh.mu);
      if (sh.out.device.json.empty()) {
        try {
          sh.out.device = decode_device(line.substr(7));
        } catch (const std::exception&) {
        }
      }
    } else if (line.rfind("TIMING ", 0) == 0 && gpu_lane) {
      // "TIMING catalog_s 0.12" or "TIMING gpu_open_s 0.35"
      char key[32] = {};
      double v = 0;
      if (std::sscanf(line.c_str() + 7, "%31s %lf", key, &v) == 2) {
        std::lock_guard<std::mutex> lock(sh.mu);
        if (!std::strcmp(key, "catalog_s")) sh.out.timing.catalog_s += v;
        if (!std::strcmp(key, "gpu_open_s")) sh.out.timing.gpu_open_s += v;
        // A gated worker's stamps: still getting ready after its go, and the go's way to it.
        const double go_sent = std::chrono::duration<double>(spawned.time_since_epoch()).count();
        if (!std::strcmp(key, "ready_at") && ready) sh.out.timing.isolated_not_ready_s += std::max(0.0, v - go_sent);
        if (!std::strcmp(key, "go_at") && ready) sh.out.timing.isolated_go_s += std::max(0.0, v - go_sent);
      }
    }
  };

  std::string line;
  while (finished < batch.size()) {
    if (sh.stopping()) {
      kill(w.pid, SIGKILL);
      break;
    }
    const Heard heard = next_line(w, &line, deadline, &log_buf, 200);  // wakes to look at `stop`
    if (heard == Heard::quiet) continue;
    if (heard == Heard::late) {
      kill(w.pid, SIGKILL);
      timed_out = true;
    }
    if (heard != Heard::line) break;
    handle_line(line);
  }
  int status = 0;
  if (reap_later && finished == batch.size() && !timed_out && !sh.stopping()) {
    // Every result is in: leave the exit to the reaper (see reap_exiting).
    if (w.log >= 0) close(w.log);
    close(w.proto);
    std::lock_guard<std::mutex> lock(sh.mu);
    sh.exiting.push_back(w.pid);
    return finished;
  }
  // A worker that ended or was killed; the bound is for one whose context will not come down.
  reap_within(w.pid, &status, timed_out ? 5 : 60);
  if (gpu_lane && !reap_later && finished > 0 && !timed_out) {
    // An isolated case's time: its run (module load, kernel, checks) and its process's exit
    // (the context's teardown, a faulted one's above all).
    std::lock_guard<std::mutex> lock(sh.mu);
    sh.out.timing.isolated_run_s += std::chrono::duration<double>(last_result - first_start).count();
    sh.out.timing.isolated_exit_s += seconds_since(last_result);
  }
  drain_log(w, &log_buf);
  close(w.proto);
  // A run being stopped kills workers (a terminal's Ctrl-C reaches them too): what they
  // were doing is unfinished, not a crash.
  if (sh.stopping()) return finished;
  if (current) {
    finish(lost_case(*current, timed_out, status, opt.slack_s, seconds_since(current_start), log_buf));
  } else if (finished == 0) {
    // Died before starting anything: report it on the first case so the run cannot loop.
    CaseResult r;
    r.name = batch.front()->name;
    r.obs.verdict = timed_out ? Verdict::timeout : Verdict::crash;
    r.obs.reason = "worker process " + (timed_out ? std::string("did not start in time") : describe_exit(status)) +
                   " before the first case";
    r.obs.observed = tail(log_buf);
    finish(r);
  }
  return finished;
}

// Runs `batch` to the end: a worker that dies leaves the rest to a fresh one.
void run_all(std::vector<const Case*> batch, Shared& sh, bool gpu_lane, bool reap_later) {
  while (!batch.empty() && !sh.stopping()) {
    run_batch(batch, sh, gpu_lane, reap_later);
    std::vector<const Case*> rest;
    {
      std::lock_guard<std::mutex> lock(sh.mu);
      for (const Case* c : batch)
        if (!sh.done.count(c->name)) rest.push_back(c);
    }
    batch = rest;
  }
}

// One unit of work for a lane: a chunk of cases in one worker (plan.hpp cuts them).
using Item = std::vector<const Case*>;

// A queue that lanes (threads) take items from, largest first as queued.
class ItemQueue {
 public:
  explicit ItemQueue(std::vector<Item> items) : items_(std::move(items)) {}
  bool take(Item* out) {
    std::lock_guard<std::mutex> lock(mu_);
    if (next_ >= items_.size()) return false;
    *out = items_[next_++];
    return true;
  }

 private:
  std::vector<Item> items_;
  std::size_t next_ = 0;
  std::mutex mu_;
};

// `n` threads take items from `q` until it is empty.
void run_lanes(ItemQueue& q, int n, Shared& sh, bool gpu_lane) {
  std::vector<std::thread> lanes;
  for (int i = 0; i < n; ++i)
    lanes.emplace_back([&] {
      Item item;
      while (!sh.stopping() && q.take(&item)) run_all(item, sh, gpu_lane, true);
    });
  for (auto& t : lanes) t.join();
}

// The outcome in the order of `cases`: each result, or unfinished.
SuperviseOutcome collect(const std::vector<const Case*>& cases, Shared& sh, SuperviseOutcome& out) {
  out.timing.workers_started = out.workers_started;
  const int flag = sh.opt.stop ? sh.opt.stop->load() : 0;
  out.stopped_by = flag > 0 ? flag : 0;
  out.stop = stop_kind_of(flag);
  for (const Case* c : cases) {
    auto it = sh.done.find(c->name);
    out.finished.push_back(it != sh.done.end());
    out.results.push_back(it != sh.done.end() ? it->second : CaseResult{c->name, {}, 0, 0, 0});
  }
  return std::move(out);
}

// A step's record: opened when it starts, closed when it ends (the executor's clock, `t0`).
class StepClock {
 public:
  StepClock(Shared& sh, const PlanStep* step, Clock::time_point t0, int lanes)
      : sh_(sh), t0_(t0), begun_(Clock::now()) {
    std::lock_guard<std::mutex> lock(sh.mu);
    rec_.phase = step ? to_string(step->phase) : "";
    rec_.cases = step ? static_cast<int>(step->cases.size()) : 0;
    rec_.lanes = lanes;
    rec_.start_s = std::chrono::duration<double>(begun_ - t0_).count();
    for (const Case* c : step ? step->cases : std::vector<const Case*>{}) names_.push_back(&c->name);
  }
  void close() {
    std::lock_guard<std::mutex> lock(sh_.mu);
    rec_.wall_s = seconds_since(begun_);
    // Its workers: those that gave its cases their results (steps run side by side, so the run's
    // worker count says nothing of one step's).
    std::set<int> workers;
    for (const std::string* n : names_)
      if (auto it = sh_.done.find(*n); it != sh_.done.end()) {
        ++rec_.finished;
        workers.insert(it->second.worker);
      }
    rec_.workers = static_cast<int>(workers.size());
    rec_.stopped = rec_.finished < rec_.cases && sh_.opt.stop ? stop_kind_of(sh_.opt.stop->load()) : StopKind::none;
    if (!rec_.phase.empty()) sh_.out.timing.steps.push_back(rec_);
  }

 private:
  Shared& sh_;
  Clock::time_point t0_, begun_;
  StepTiming rec_;
  std::vector<const std::string*> names_;
};

}  // namespace

// The executor of one GPU's plan: the supervisor plans its cases (make_plan: the same decisions
// `run --plan` prints) and runs the steps under their resources, each step's time recorded.
SuperviseOutcome supervise(const std::vector<const Case*>& cases, const SuperviseOptions& opt) {
  SuperviseOutcome out;
  Shared sh{opt, out, {}, {}, {}};
  if (opt.one_worker) {
    // bisect: the cases in the order given, one worker, nothing beside it.
    run_all(cases, sh, true, false);
    return collect(cases, sh, out);
  }
  SuperviseTiming& t = out.timing;
  PlanOptions po = plan_options_of(opt);
  std::size_t shared_cases = 0;
  for (const Case* c : cases) shared_cases += c->placement.gpu == GpuUse::shared ? 1 : 0;
  if (shared_cases > 1 && po.gpu_lanes <= 0) {
    // Sized from this process's GPU (cuInit and attributes only), as the plan sizes a node's GPUs.
    // A small parallel step leaves its cores to the host lanes, as make_plan sizes it.
    po.gpu_lanes = parallel_lanes_for(default_gpu_lanes(&t.gpu_lanes_why, opt.gpus_on_host), shared_cases, &t.gpu_lanes_why);
  } else if (shared_cases > 1) {
    t.gpu_lanes_why = std::to_string(po.gpu_lanes) + " (--jobs)";
  }
  const Plan plan = make_plan(cases, {}, po);
  const PlanStep* host_step = plan.first(Phase::host);
  const PlanStep* parallel = plan.first(Phase::parallel);
  const PlanStep* alone = plan.first(Phase::alone);
  const PlanStep* isolated = plan.first(Phase::isolated);
  t.gpu_lane_count = parallel ? parallel->lanes : 1;

  // Host lanes take items from one queue, so a slow item does not hold the others back.
  const int lanes = host_step ? host_step->lanes : 0;
  ItemQueue host_queue(host_step ? host_step->workers : std::vector<Item>{});
  const auto t0 = Clock::now();
  // The host step's lanes, and its late lanes once the GPU's alone step is over (the plan says
  // how many): the last group to finish closes the step's record.
  const int late = host_step && host_step->lanes_late > lanes ? host_step->lanes_late - lanes : 0;
  std::optional<StepClock> host_clock;
  if (lanes > 0) host_clock.emplace(sh, host_step, t0, host_step->lanes_late > lanes ? host_step->lanes_late : lanes);
  std::atomic<int> host_groups{late > 0 ? 2 : 1};
  std::atomic<bool> own_go{false}, host_main_done{false};
  const std::atomic<bool>* go = opt.host_late_go ? opt.host_late_go : &own_go;
  auto host_group = [&](int n, bool is_late) {
    if (is_late) {  // wait for the go, unless the host step is over first
      while (!go->load() && !host_main_done.load() && !sh.stopping()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    run_lanes(host_queue, n, sh, false);
    if (!is_late) host_main_done = true;
    if (--host_groups == 0) {
      host_clock->close();
      std::lock_guard<std::mutex> lock(sh.mu);
      t.host_lanes_s = seconds_since(t0);
    }
  };
  std::thread host_timer, host_late;
  if (lanes > 0) host_timer = std::thread(host_group, lanes, false);
  if (late > 0) host_late = std::thread(host_group, late, true);
  // The isolated step (expected faults, undefined behaviour, findings that fault): one process at a
  // time, each worker gone before the next one's go, and by default with nothing else running on
  // the GPU. A case expecting a fault has a process of its own. The undefined-behaviour records
  // share one, deqp-runner style: most of them end normally (107 of 146 on an H100), and one
  // that faults, hangs or kills its worker ends it, after its own result, and a spare worker
  // takes over at the next record (records_share_workers = false, CUCONFORM_BATCH_RECORDS=0:
  // one process a record). The worker checks the context after each record (a fault none of its
  // calls saw is that record's outcome). That a record does not depend on the records before it
  // is checked, not assumed: compare with a run of one process a record
  // (docs/runs/2026-11-25-294a66c.md).
  // What may overlap: the next processes' starts (exec, spec files, context; up to three ahead,
  // a spare of the records' worker among them), which run no kernel until their go (--gate);
  // CUCONFORM_PRESTART=0 turns that off.
  // Why nothing else runs: twice on an H100 (driver 580.159.04) an expected fault beside running
  // work left the GSP without an answer to an RM control (Xid 119, 3 x 45 s) and the GPU needing
  // a reset (Xid 154): on 2026-11-25 three isolated cases faulting within 0.2 s of each other in
  // side-by-side lanes, and later the same day one cache-hint ILLEGAL_INSTRUCTION fault in the
  // isolated lane beside the eight parallel lanes (it hung instead of faulting; the run had gone
  // through seven times). On a shared host that costs everyone the GPU. With the lane run alone,
  // faults beside idle, gated contexts: about 300 in the runs of 2026-11-25, no incident.
  // --isolated-beside (CUCONFORM_ISOLATED_ALONE=0) runs the lane beside the parallel lanes:
  // 26-28 s instead of 31-34 s for the whole suite, and not safe.
  const std::vector<Item> no_items;
  const std::vector<Item>& iso_items = isolated ? isolated->workers : no_items;  // each a worker's list
  const int prestart_depth = isolated ? isolated->prestart : 0;  // 0: none started ahead
  auto run_isolated = [&] {
    const auto ts = Clock::now();
    StepClock clock(sh, isolated, t0, 1);
    struct Ahead {
      std::size_t item;
      Worker w;
    };
    std::deque<Ahead> ahead;  // gated workers, in the order they will run
    std::size_t next_item = 0;  // the next item without a worker ahead
    for (std::size_t i = 0; i < iso_items.size() && !sh.stopping(); ++i) {
      const auto& list = iso_items[i];
      std::size_t skip = 0;
      while (skip < list.size() && !sh.stopping()) {
        // Keep `prestart_depth` ahead: spares for this list while it has cases after the running
        // one (isolated_workers_ahead), then the next lists.
        if (prestart_depth > 0) {
          if (next_item <= i) next_item = i + 1;
          // The first of this list's workers ahead is the one about to run; spares come after it.
          std::size_t for_this = 0;
          for (auto& a : ahead) for_this += a.item == i;
          const std::size_t want_this =
              isolated_workers_ahead(list.size() - skip, prestart_depth, next_item < iso_items.size());
          while (for_this < want_this) {
            // Spares go right after this list's workers, before the next lists'.
            auto pos = ahead.begin();
            while (pos != ahead.end() && pos->item == i) ++pos;
            ahead.insert(pos, Ahead{i, spawn(opt.specs_dir, list, true, opt.worker_env)});
            ++for_this;
          }
          while (ahead.size() < static_cast<std::size_t>(prestart_depth) && next_item < iso_items.size()) {
            ahead.push_back(Ahead{next_item, spawn(opt.specs_dir, iso_items[next_item], true, opt.worker_env)});
            ++next_item;
          }
        }
        Worker cur;
        if (!ahead.empty() && ahead.front().item == i) {
          cur = ahead.front().w;
          ahead.pop_front();
        }
        std::vector<const Case*> rest(list.begin() + static_cast<std::ptrdiff_t>(skip), list.end());
        const auto ti = Clock::now();
        if (cur.pid >= 0) run_batch(rest, sh, true, false, &cur, skip);
        else run_batch(rest, sh, true, false);  // not started ahead: a worker of just the rest
        std::lock_guard<std::mutex> lock(sh.mu);
        std::size_t now_done = skip;
        while (now_done < list.size() && sh.done.count(list[now_done]->name)) ++now_done;
        sh.out.timing.isolated_s += seconds_since(ti);
        sh.out.timing.isolated_cases += static_cast<int>(now_done - skip);
        ++sh.out.timing.isolated_workers;
        if (now_done == skip) break;  // stopped
        skip = now_done;
      }
      // Spares of a list that needed none of them.
      while (!ahead.empty() && ahead.front().item == i) {
        cancel(ahead.front().w);
        ahead.pop_front();
      }
    }
    for (Ahead& a : ahead) cancel(a.w);
    clock.close();
    std::lock_guard<std::mutex> lock(sh.mu);
    t.isolated_phase_s = seconds_since(ts);
  };
  // 1. The parallel step (shared cases, in the plan's chunks: a worker and a context each), and
  // with --isolated-beside the isolated step beside it.
  const auto tp = Clock::now();
  std::thread isolated_lane;
  if (!opt.isolated_alone) isolated_lane = std::thread(run_isolated);
  {
    StepClock clock(sh, parallel, t0, t.gpu_lane_count);
    ItemQueue gpu_queue(parallel ? parallel->workers : std::vector<Item>{});
    run_lanes(gpu_queue, t.gpu_lane_count, sh, true);
    clock.close();
  }
  {
    std::lock_guard<std::mutex> lock(sh.mu);
    t.parallel_phase_s = seconds_since(tp);
  }
  if (isolated_lane.joinable()) isolated_lane.join();
  if (opt.phase_done) opt.phase_done("parallel");
  // 2. The GPU to themselves: the shared ones in one worker.
  const auto t1 = Clock::now();
  if (alone) {
    StepClock clock(sh, alone, t0, 1);
    run_all(alone->cases, sh, true, true);
    clock.close();
  }
  {
    std::lock_guard<std::mutex> lock(sh.mu);
    t.alone_phase_s = seconds_since(t1);
    t.alone_cases = alone ? static_cast<int>(alone->cases.size()) : 0;
  }
  if (opt.phase_done) opt.phase_done("alone");
  own_go = true;  // the late host lanes' go
  // 3. The isolated step last, nothing else on the GPU (unless --isolated-beside).
  if (opt.isolated_alone) run_isolated();
  if (opt.phase_done) opt.phase_done("isolated");
  t.isolated_alone = opt.isolated_alone;
  t.gpu_lane_s = seconds_since(t0);
  if (host_timer.joinable()) host_timer.join();
  if (host_late.joinable()) host_late.join();
  reap_exiting(sh.exiting, 10);
  t.host_lane_count = lanes;
  return collect(cases, sh, out);
}

}  // namespace cuconform
