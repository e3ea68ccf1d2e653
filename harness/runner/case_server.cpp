#include "harness/runner/case_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "harness/runner/protocol.hpp"
#include "harness/runner/supervisor.hpp"
#include "harness/runner/worker_process.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/util/deadline.hpp"

namespace cuconform {
namespace {

using Clock = SteadyClock;

// The supervisor's limits: a worker's allowance to start and open the GPU, and the slack added to
// a case's timeout_s before its worker is killed.
const double kStartupS = SuperviseOptions().startup_s;
const double kSlackS = SuperviseOptions().slack_s;
constexpr double kIdleExitS = 900;  // no request for this long: the CTest run that started it is gone
constexpr int kMaxWorkersPerDevice = 16;

// ---- sockets -------------------------------------------------------------------------------------

bool socket_address(const std::string& path, sockaddr_un* a) {
  std::memset(a, 0, sizeof *a);
  a->sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof a->sun_path) return false;
  std::memcpy(a->sun_path, path.c_str(), path.size());
  return true;
}

int connect_to(const std::string& path) {
  sockaddr_un a;
  if (!socket_address(path, &a)) return -1;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads one line from `fd` into `line` (without the newline), keeping what follows it in `buf`;
// false at end of file, on an error, or when `until` passes.
bool read_line(int fd, std::string& buf, std::string* line, Clock::time_point until) {
  for (;;) {
    if (take_line(buf, line)) return true;
    const int left = ms_left(until, 1000);
    if (left == 0) return false;
    pollfd p{fd, POLLIN, 0};
    int n = poll(&p, 1, left);
    if (n < 0 && errno != EINTR) return false;
    if (n <= 0) continue;
    char chunk[65536];
    ssize_t k = read(fd, chunk, sizeof chunk);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    buf.append(chunk, static_cast<std::size_t>(k));
  }
}

// ---- the server ------------------------------------------------------------------------------------

// A streaming worker and what it said so far.
struct Lane {
  Worker w;
  int device = 0;
  bool ready = false;
  std::string device_json;  // its DEVICE line
};

class Server {
 public:
  explicit Server(Catalog cat) : cat_(std::move(cat)) {}

  // "RUN <device> <case>": the answer lines.
  std::string run(const std::string& args) {
    const auto sp = args.find(' ');
    const int device = std::atoi(args.substr(0, sp).c_str());
    const std::string name = sp == std::string::npos ? "" : args.substr(sp + 1);
    const Case* c = cat_.find_case(name);
    if (!c) return "REFUSED unknown case '" + name + "'\n";
    if (!serves(*c)) return "REFUSED isolated case (a process of its own)\n";
    std::unique_ptr<Lane> lane = take(device);
    bool keep = false;
    CaseResult r = run_in(*lane, *c, &keep);
    const std::string answer = "DEVICE " + (lane->device_json.empty() ? std::string("{}") : lane->device_json) +
                               "\nRESULT " + encode_result(r) + "\n";
    give_back(std::move(lane), keep);
    return answer;
  }

  std::string counts() {
    std::lock_guard<std::mutex> lock(mu_);
    return "served=" + std::to_string(served_) + " workers=" + std::to_string(started_) +
           " lost=" + std::to_string(lost_);
  }

  // Kills every worker, idle or busy (their cases' clients see the connection end).
  void kill_all() {
    std::lock_guard<std::mutex> lock(mu_);
    for (pid_t p : pids_) kill(p, SIGKILL);
  }

 private:
  std::unique_ptr<Lane> take(int device) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !idle_[device].empty() || count_[device] < kMaxWorkersPerDevice; });
    if (!idle_[device].empty()) {
      auto lane = std::move(idle_[device].back());
      idle_[device].pop_back();
      return lane;
    }
    ++count_[device];
    ++started_;
    auto lane = std::make_unique<Lane>();
    lane->device = device;
    lane->w = spawn_streaming(cat_.dir, device);
    if (lane->w.pid > 0) pids_.insert(lane->w.pid);
    return lane;
  }

  void give_back(std::unique_ptr<Lane> lane, bool keep) {
    std::lock_guard<std::mutex> lock(mu_);
    ++served_;
    if (keep) {
      idle_[lane->device].push_back(std::move(lane));
    } else {
      ++lost_;
      --count_[lane->device];
      pids_.erase(lane->w.pid);
    }
    cv_.notify_one();
  }

  // Runs `c` in the lane's worker (starting it first when new). `keep`: the worker can take
  // another case. The worker's log is drained as it goes (a full pipe would stall it).
  CaseResult run_in(Lane& lane, const Case& c, bool* keep) {
    Worker& w = lane.w;
    std::string log;
    const auto t0 = Clock::now();
    auto lost = [&](bool timed_out, const char* when) {
      int status = 0;
      if (timed_out) kill(w.pid, SIGKILL);
      reap_within(w.pid, &status, 5);
      drain_log(w, &log);
      CaseResult r = lost_case(c, timed_out, status, kSlackS, seconds_since(t0), log);
      if (*when) r.obs.reason += std::string(" (") + when + ")";
      close_fds(w);
      return r;
    };
    if (w.pid <= 0) return lost_case(c, false, 0, kSlackS, 0, "the case server could not start a worker");
    std::string line;
    Heard heard;
    if (!lane.ready) {
      const auto until = after(kStartupS);
      while (!lane.ready) {
        heard = next_line(w, &line, until, &log);
        if (heard != Heard::line) return lost(heard == Heard::late, "the case server's worker, before the case");
        if (line.rfind("DEVICE ", 0) == 0) lane.device_json = line.substr(7);
        if (line == "READY") lane.ready = true;
      }
    }
    if (!send_all(w.gate, c.name + "\n")) return lost(false, "the case server's worker, before the case");
    const auto until = after(c.rule->timeout_s + kSlackS);
    for (;;) {
      heard = next_line(w, &line, until, &log);
      if (heard != Heard::line) return lost(heard == Heard::late, "");
      if (line.rfind("RESULT ", 0) != 0) continue;
      CaseResult r;
      try {
        r = decode_result(line.substr(7));
      } catch (const std::exception& e) {
        CaseResult bad = lost(true, "");
        bad.obs.reason = std::string("bad result line from the case server's worker: ") + e.what();
        return bad;
      }
      if (r.obs.context_poisoned) {  // the worker ends itself; the next case gets a fresh one
        int status = 0;
        reap_within(w.pid, &status, 5);
        close_fds(w);
        return r;
      }
      *keep = true;
      return r;
    }
  }

  Catalog cat_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<int, std::vector<std::unique_ptr<Lane>>> idle_;
  std::map<int, int> count_;
  std::set<pid_t> pids_;
  long served_ = 0, started_ = 0, lost_ = 0;
};

// Serves until QUIT or kIdleExitS without a request. `ready_fd` gets a byte once it listens.
int serve(const std::string& path, int ready_fd) {
  signal(SIGPIPE, SIG_IGN);
  Catalog cat = load_catalog(default_specs_dir());
  if (!cat.ok()) {
    for (auto& e : cat.errors) std::cerr << e.str() << "\n";
    return 2;
  }
  sockaddr_un a;
  int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (lfd < 0 || !socket_address(path, &a)) return 2;
  unlink(path.c_str());
  if (bind(lfd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(lfd, 128) != 0) {
    std::cerr << "case server: cannot listen on " << path << ": " << std::strerror(errno) << "\n";
    return 2;
  }
  Server server(std::move(cat));
  std::atomic<bool> quit{false};
  std::atomic<int> active{0};
  std::atomic<long long> last_ms{0};
  auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count();
  };
  last_ms = now_ms();
  std::cerr << "case server: listening on " << path << " (pid " << getpid() << ")\n";
  if (write(ready_fd, "R", 1) != 1) return 2;
  close(ready_fd);
  int quit_fd = -1;  // the QUIT connection, answered once the workers are gone
  while (!quit) {
    pollfd p{lfd, POLLIN, 0};
    int n = poll(&p, 1, 1000);
    if (n <= 0) {
      if (active == 0 && (now_ms() - last_ms) / 1000.0 > kIdleExitS) {
        std::cerr << "case server: no request for " << kIdleExitS << " s, stopping\n";
        break;
      }
      continue;
    }
    int fd = accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    last_ms = now_ms();
    std::string buf, line;
    // The request line comes at once from a client that connected; a silent one is dropped.
    if (!read_line(fd, buf, &line, Clock::now() + std::chrono::seconds(10))) {
      close(fd);
      continue;
    }
    if (line == "PING") {
      send_all(fd, "PONG\n");
      close(fd);
    } else if (line == "QUIT") {
      quit = true;
      quit_fd = fd;
    } else if (line.rfind("RUN ", 0) == 0) {
      ++active;
      std::thread([&server, &active, &last_ms, now_ms, fd, args = line.substr(4)] {
        send_all(fd, server.run(args));
        close(fd);
        last_ms = now_ms();
        --active;
      }).detach();
    } else {
      send_all(fd, "REFUSED unknown request\n");
      close(fd);
    }
  }
  close(lfd);
  unlink(path.c_str());
  server.kill_all();
  const std::string counts = server.counts();
  std::cerr << "case server: stopped, " << counts << "\n";
  if (quit_fd >= 0) {
    send_all(quit_fd, "BYE " + counts + "\n");
    close(quit_fd);
  }
  std::fflush(nullptr);
  _exit(0);  // detached request threads may still hold the server: no destructors
}

bool ping(const std::string& path) {
  int fd = connect_to(path);
  if (fd < 0) return false;
  std::string buf, line;
  bool ok = send_all(fd, "PING\n") && read_line(fd, buf, &line, Clock::now() + std::chrono::seconds(5)) && line == "PONG";
  close(fd);
  return ok;
}

int start(const std::string& path) {
  if (ping(path)) {
    std::cout << "case server: already running on " << path << "\n";
    return 0;
  }
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) {
    std::cout << "case server: not started (pipe: " << std::strerror(errno) << "); each test runs its own case\n";
    return 0;
  }
  const std::string log = path + ".log";
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    // Its own session, and none of CTest's pipes: CTest waits for a test's output to end.
    setsid();
    int null = open("/dev/null", O_RDONLY);
    int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (null >= 0) dup2(null, 0);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    close(ready[0]);
    _exit(serve(path, ready[1]));
  }
  close(ready[1]);
  pollfd p{ready[0], POLLIN, 0};
  char byte = 0;
  const bool ok = pid > 0 && poll(&p, 1, 60000) == 1 && read(ready[0], &byte, 1) == 1 && byte == 'R';
  close(ready[0]);
  if (ok) std::cout << "case server: ready on " << path << " (pid " << pid << ", log " << log << ")\n";
  else std::cout << "case server: did not start (see " << log << "); each test runs its own case\n";
  return 0;
}

int stop(const std::string& path) {
  int fd = connect_to(path);
  if (fd < 0) {
    std::cout << "case server: none running on " << path << "\n";
    return 0;
  }
  std::string buf, line;
  const bool ok = send_all(fd, "QUIT\n") && read_line(fd, buf, &line, Clock::now() + std::chrono::seconds(30));
  close(fd);
  std::cout << "case server: " << (ok ? "stopped, " + line.substr(line.find(' ') + 1) : std::string("no answer to QUIT"))
            << "\n";
  return 0;
}

}  // namespace

int case_server_main(int argc, char** argv) {
  const std::string verb = argc > 2 ? argv[2] : "";
  if (argc != 4 || (verb != "start" && verb != "stop")) {
    std::cerr << "usage: " << argv[0] << " " << kCaseServerVerb << " start|stop SOCKET\n";
    return 2;
  }
  sockaddr_un a;
  if (!socket_address(argv[3], &a)) {
    std::cerr << kCaseServerVerb << ": socket path '" << argv[3] << "' is empty or longer than " << sizeof a.sun_path - 1
              << " bytes\n";
    return 2;
  }
  return verb == "start" ? start(argv[3]) : stop(argv[3]);
}

bool serves(const Case& c) {
  const Placement& p = c.placement;
  if (p.gpus > 1) return false;  // the server's workers see one GPU
  if (p.worker == WorkerKind::records) return true;
  return p.worker != WorkerKind::own && !p.may_fault;
}

bool run_on_case_server(const std::string& socket, const Case& c, int device, ServedCase* out, std::string* why) {
  int fd = connect_to(socket);
  if (fd < 0) {
    *why = "no case server on " + socket;
    return false;
  }
  std::string buf, line;
  if (!send_all(fd, "RUN " + std::to_string(device) + " " + c.name + "\n")) {
    close(fd);
    *why = "the case server closed the connection";
    return false;
  }
  // The server bounds the case itself (start, limit, slack); this margin is for the server.
  const double bound = kStartupS + c.rule->timeout_s + kSlackS + 30;
  const auto until = after(bound);
  std::string device_line;
  bool got_any = false;
  for (;;) {
    if (!read_line(fd, buf, &line, until)) break;
    got_any = true;
    if (line.rfind("REFUSED ", 0) == 0) {
      close(fd);
      *why = "the case server refused it: " + line.substr(8);
      return false;
    }
    if (line.rfind("DEVICE ", 0) == 0) device_line = line.substr(7);
    if (line.rfind("RESULT ", 0) == 0) {
      close(fd);
      try {
        out->result = decode_result(line.substr(7));
        out->device = decode_device(device_line);
      } catch (const std::exception& e) {
        *why = std::string("bad answer from the case server: ") + e.what();
        return false;
      }
      return true;
    }
  }
  close(fd);
  if (Clock::now() < until && !got_any) {
    *why = "the case server closed the connection before answering";
    return false;
  }
  out->result = CaseResult{};
  out->result.name = c.name;
  out->result.obs.verdict = Verdict::crash;
  out->result.obs.reason = "no answer from the case server (" + socket + ") within " + std::to_string(bound) +
                           " s; see " + socket + ".log";
  return true;
}

}  // namespace cuconform
