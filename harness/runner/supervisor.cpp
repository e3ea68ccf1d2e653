#include "harness/runner/supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>

#include "harness/runner/protocol.hpp"
#include "harness/runner/worker.hpp"

namespace cuconform {
namespace {

using Clock = std::chrono::steady_clock;

struct Worker {
  pid_t pid = -1;
  int proto = -1;  // fd 3 of the worker
  int log = -1;    // its stdout and stderr
};

Worker spawn(const std::string& specs, const std::vector<const Case*>& batch) {
  // The case names go through an unlinked temporary file, not a pipe: a batch of thousands
  // of names outgrows a pipe's buffer, and writing it while the worker fills its own result
  // pipe would deadlock both (seen on the H200 with 1,600 cases).
  FILE* names = std::tmpfile();
  if (!names) return {};
  for (const Case* c : batch) std::fprintf(names, "%s\n", c->name.c_str());
  std::fflush(names);
  std::rewind(names);
  int proto[2], log[2];
  if (pipe2(proto, O_CLOEXEC) || pipe2(log, O_CLOEXEC)) {
    std::fclose(names);
    return {};
  }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fileno(names), 0);
    dup2(log[1], 1);
    dup2(log[1], 2);
    dup2(proto[1], kProtocolFd);
    const char* argv[] = {"/proc/self/exe", kWorkerVerb, "--specs", specs.c_str(), nullptr};
    execv("/proc/self/exe", const_cast<char**>(argv));
    _exit(127);
  }
  std::fclose(names);
  close(proto[1]);
  close(log[1]);
  return {pid, proto[0], log[0]};
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

std::string tail(const std::string& s, std::size_t n = 1500) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

// Runs one batch in one worker; returns how many cases of the batch got a result.
std::size_t run_batch(const std::vector<const Case*>& batch, const SuperviseOptions& opt,
                      std::map<std::string, CaseResult>& done, SuperviseOutcome& out) {
  Worker w = spawn(opt.specs_dir, batch);
  ++out.workers_started;
  std::map<std::string, const Case*> by_name;
  for (const Case* c : batch) by_name[c->name] = c;
  std::string proto_buf, log_buf;
  const Case* current = nullptr;
  auto current_start = Clock::now();
  auto deadline = Clock::now() + std::chrono::duration<double>(opt.startup_s);
  std::size_t finished = 0;
  bool timed_out = false, proto_open = true;

  auto finish = [&](const CaseResult& r) {
    done[r.name] = r;
    ++finished;
    if (opt.on_result && by_name.count(r.name)) opt.on_result(*by_name[r.name], r);
  };
  auto handle_line = [&](const std::string& line) {
    if (line.rfind("START ", 0) == 0) {
      auto it = by_name.find(line.substr(6));
      current = it == by_name.end() ? nullptr : it->second;
      current_start = Clock::now();
      double limit = (current ? current->rule->timeout_s : 10) + opt.slack_s;
      deadline = current_start + std::chrono::duration<double>(limit);
    } else if (line.rfind("RESULT ", 0) == 0) {
      try {
        finish(decode_result(line.substr(7)));
      } catch (const std::exception& e) {
        log_buf += std::string("\n[supervisor] bad result line: ") + e.what();
      }
      current = nullptr;
      deadline = Clock::now() + std::chrono::duration<double>(opt.startup_s);
    } else if (line.rfind("DEVICE ", 0) == 0) {
      if (out.device.json.empty()) {
        try {
          out.device = decode_device(line.substr(7));
        } catch (const std::exception&) {
        }
      }
    }
  };

  char buf[8192];
  while (proto_open) {
    int left_ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    if (left_ms <= 0) {
      kill(w.pid, SIGKILL);
      timed_out = true;
      break;
    }
    pollfd fds[2] = {{w.proto, POLLIN, 0}, {w.log, POLLIN, 0}};
    int n = poll(fds, w.log >= 0 ? 2 : 1, left_ms);
    if (n <= 0) continue;
    if (w.log >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) {
      ssize_t k = read(w.log, buf, sizeof buf);
      if (k > 0) log_buf = tail(log_buf + std::string(buf, static_cast<std::size_t>(k)), 8000);
      else {
        close(w.log);
        w.log = -1;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      ssize_t k = read(w.proto, buf, sizeof buf);
      if (k <= 0) {
        proto_open = false;
        break;
      }
      proto_buf.append(buf, static_cast<std::size_t>(k));
      std::size_t pos;
      while ((pos = proto_buf.find('\n')) != std::string::npos) {
        handle_line(proto_buf.substr(0, pos));
        proto_buf.erase(0, pos + 1);
      }
    }
  }
  int status = 0;
  waitpid(w.pid, &status, 0);
  if (w.log >= 0) {
    ssize_t k;
    while ((k = read(w.log, buf, sizeof buf)) > 0) log_buf = tail(log_buf + std::string(buf, static_cast<std::size_t>(k)), 8000);
    close(w.log);
  }
  close(w.proto);
  if (current) {
    CaseResult r;
    r.name = current->name;
    r.duration_s = std::chrono::duration<double>(Clock::now() - current_start).count();
    if (timed_out) {
      r.obs.verdict = Verdict::timeout;
      r.obs.reason = "no result within the case's time limit of " + std::to_string(current->rule->timeout_s) +
                     " s (+" + std::to_string(opt.slack_s) + " s slack); worker killed";
    } else {
      r.obs.verdict = Verdict::crash;
      r.obs.reason = "worker process " + describe_exit(status) + " while running this case";
    }
    r.obs.observed = tail(log_buf);
    finish(r);
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

}  // namespace

SuperviseOutcome supervise(const std::vector<const Case*>& cases, const SuperviseOptions& opt) {
  SuperviseOutcome out;
  std::map<std::string, CaseResult> done;
  std::vector<const Case*> pending;
  auto flush = [&](std::vector<const Case*> batch) {
    while (!batch.empty()) {
      run_batch(batch, opt, done, out);
      std::vector<const Case*> rest;
      for (const Case* c : batch)
        if (!done.count(c->name)) rest.push_back(c);
      batch = rest;
    }
  };
  for (const Case* c : cases) {
    if (c->isolated) {
      flush(pending);
      pending.clear();
      flush({c});
    } else {
      pending.push_back(c);
    }
  }
  flush(pending);
  for (const Case* c : cases) out.results.push_back(done[c->name]);
  return out;
}

}  // namespace cuconform
