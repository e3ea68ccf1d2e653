#include "harness/runner/worker_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "harness/runner/execute.hpp"
#include "harness/runner/worker.hpp"
#include "harness/util/deadline.hpp"

namespace cuconform {
namespace {

// Forks and execs `/proc/self/exe argv...`: stdin from `names` (or /dev/null), stdout and stderr
// to the log pipe, the protocol on kProtocolFd, a gate socket on kGateFd when `gated`.
// Lanes are threads: the child only dup2s and execs.
Worker start(const std::vector<std::string>& args, FILE* names, bool gated, const std::vector<std::string>& env) {
  int proto[2], log[2], gate[2] = {-1, -1};
  // The gate is a socket, not a pipe: what is sent goes with MSG_NOSIGNAL, so a worker that
  // died while waiting costs its case (its exit status says why), not the parent (SIGPIPE).
  if (pipe2(proto, O_CLOEXEC)) return {};
  if (pipe2(log, O_CLOEXEC)) {
    close(proto[0]);
    close(proto[1]);
    return {};
  }
  if (gated && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, gate)) {
    for (int fd : {proto[0], proto[1], log[0], log[1]}) close(fd);
    return {};
  }
  std::vector<const char*> argv = {"/proc/self/exe", kWorkerVerb};
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  // The environment is built here, not with setenv in the child: the parent has threads, and
  // between fork and exec the child may only make async-signal-safe calls.
  // `env` ("KEY=VALUE") replaces the parent's value of each KEY.
  std::vector<const char*> envp;
  for (char** e = environ; *e; ++e) {
    const char* eq = std::strchr(*e, '=');
    const std::size_t klen = eq ? static_cast<std::size_t>(eq - *e) + 1 : std::strlen(*e);
    bool replaced = false;
    for (const std::string& kv : env) replaced = replaced || kv.compare(0, klen, *e, klen) == 0;
    if (!replaced) envp.push_back(*e);
  }
  for (const std::string& kv : env) envp.push_back(kv.c_str());
  envp.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    if (names) dup2(fileno(names), 0);
    else {
      int null = open("/dev/null", O_RDONLY);
      if (null >= 0) dup2(null, 0);
    }
    dup2(log[1], 1);
    dup2(log[1], 2);
    dup2(proto[1], kProtocolFd);
    if (gated) dup2(gate[0], kGateFd);
    execve("/proc/self/exe", const_cast<char**>(argv.data()), const_cast<char**>(envp.data()));
    _exit(127);
  }
  close(proto[1]);
  close(log[1]);
  if (gated) close(gate[0]);
  if (pid < 0) {
    for (int fd : {proto[0], log[0], gate[1]})
      if (fd >= 0) close(fd);
    return {};
  }
  return {pid, proto[0], log[0], gated ? gate[1] : -1};
}

}  // namespace

Worker spawn(const std::string& specs, const std::vector<const Case*>& batch, bool gated,
             const std::vector<std::string>& env) {
  // The worker parses only the spec files its cases come from (a whole catalog costs about
  // 0.15 s a process on the GPU machine, one file a tenth of that).
  std::vector<std::string> args = {"--specs", specs};
  if (gated) args.push_back("--gate");
  if (std::any_of(batch.begin(), batch.end(), [](const Case* c) { return case_needs_driver(*c); })) args.push_back("--open-gpu");
  std::vector<std::string> files;
  for (const Case* c : batch)
    if (std::find(files.begin(), files.end(), c->rule->loc.file) == files.end()) files.push_back(c->rule->loc.file);
  for (const std::string& f : files) {
    args.push_back("--spec-file");
    args.push_back(f);
  }
  // The case names go through an unlinked temporary file, not a pipe: a batch of thousands
  // of names outgrows a pipe's buffer, and writing it while the worker fills its own result
  // pipe would deadlock both (seen on the H200 with 1,600 cases).
  FILE* names = std::tmpfile();
  if (!names) return {};
  for (const Case* c : batch) std::fprintf(names, "%s\n", c->name.c_str());
  std::fflush(names);
  std::rewind(names);
  Worker w = start(args, names, gated, env);
  std::fclose(names);
  return w;
}

Worker spawn_streaming(const std::string& specs, int device) {
  return start({"--specs", specs, "--stream"}, nullptr, true, {"CUCONFORM_DEVICE=" + std::to_string(device)});
}

bool take_line(std::string& buf, std::string* line) {
  const auto nl = buf.find('\n');
  if (nl == std::string::npos) return false;
  *line = buf.substr(0, nl);
  buf.erase(0, nl + 1);
  return true;
}

namespace {
constexpr std::size_t kLogTail = 8000;

// Appends one read of `fd` to `log`'s tail; false at its end (or on an error).
bool read_log_once(int fd, std::string* log) {
  char buf[8192];
  ssize_t k = read(fd, buf, sizeof buf);
  if (k < 0 && errno == EINTR) return true;
  if (k <= 0) return false;
  *log = tail(*log + std::string(buf, static_cast<std::size_t>(k)), kLogTail);
  return true;
}
}  // namespace

Heard next_line(Worker& w, std::string* line, SteadyClock::time_point until, std::string* log, int wake_ms) {
  const auto wake = after(wake_ms / 1000.0);
  for (;;) {
    if (take_line(w.heard, line)) return Heard::line;
    const int left = wake_ms < 0 ? ms_left(until) : ms_left(until, ms_left(wake));
    if (left == 0) return ms_left(until) == 0 ? Heard::late : Heard::quiet;
    pollfd fds[2] = {{w.proto, POLLIN, 0}, {w.log, POLLIN, 0}};
    const int n = poll(fds, w.log >= 0 ? 2 : 1, left);
    if (n <= 0) continue;
    if (w.log >= 0 && (fds[1].revents & (POLLIN | POLLHUP)) && !read_log_once(w.log, log)) {
      close(w.log);
      w.log = -1;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[8192];
      const ssize_t k = read(w.proto, buf, sizeof buf);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return Heard::ended;
      w.heard.append(buf, static_cast<std::size_t>(k));
    }
  }
}

void drain_log(Worker& w, std::string* log) {
  if (w.log < 0) return;
  fcntl(w.log, F_SETFL, fcntl(w.log, F_GETFL) | O_NONBLOCK);
  while (read_log_once(w.log, log)) {
  }
  close(w.log);
  w.log = -1;
}

void close_fds(Worker& w) {
  for (int* fd : {&w.proto, &w.log, &w.gate}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
}

void cancel(Worker& w) {
  if (w.pid < 0) return;
  kill(w.pid, SIGKILL);
  int status = 0;
  reap_within(w.pid, &status, 5);
  close_fds(w);
  w = {};
}

namespace {
constexpr int kNotReaped = -1;  // neither exited nor signalled: a status waitpid never gives
}

bool reap_within(pid_t pid, int* status, double seconds) {
  if (pid <= 0) return false;
  const auto until = after(seconds);
  for (;;) {
    const pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return false;  // not ours, or reaped already
    if (ms_left(until) == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  std::thread([pid] { waitpid(pid, nullptr, 0); }).detach();
  *status = kNotReaped;
  return false;
}

std::string describe_exit(int status) {
  if (status == kNotReaped) return "did not end in time (killed, left to the system)";
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

std::string tail(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

CaseResult lost_case(const Case& c, bool timed_out, int status, double slack_s, double duration_s,
                     const std::string& log) {
  CaseResult r;
  r.name = c.name;
  r.duration_s = duration_s;
  if (timed_out) {
    r.obs.verdict = Verdict::timeout;
    r.obs.reason = "no result within the case's time limit of " + std::to_string(c.rule->timeout_s) + " s (+" +
                   std::to_string(slack_s) + " s slack); worker killed";
  } else {
    r.obs.verdict = Verdict::crash;
    r.obs.reason = "worker process " + describe_exit(status) + " while running this case";
  }
  r.obs.observed = tail(log);
  // Undefined behaviour that hangs or kills its own process is what the GPU did.
  if (c.records)
    r.obs.record(timed_out ? "timeout (worker killed)" : "worker " + describe_exit(status), r.obs.reason + "; " + r.obs.observed);
  return r;
}

}  // namespace cuconform
