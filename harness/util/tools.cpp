#include "harness/util/tools.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "harness/util/deadline.hpp"

namespace fs = std::filesystem;

namespace cuconform {

std::string find_tool(const std::string& tool) {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("CUCONFORM_CUDA_BIN")) dirs.push_back(env);
  dirs.push_back(CUCONFORM_CUDA_BIN_DIR);
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string d;
    while (std::getline(ss, d, ':')) dirs.push_back(d);
  }
  for (auto& d : dirs) {
    fs::path p = fs::path(d) / tool;
    if (!d.empty() && access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

static double g_tool_seconds = 0;
double tool_seconds() { return g_tool_seconds; }

ToolRun run_tool(const std::vector<std::string>& argv, double timeout_s) {
  const auto started = std::chrono::steady_clock::now();
  struct Account {
    std::chrono::steady_clock::time_point t0;
    ~Account() { g_tool_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
  } account{started};
  ToolRun r;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return r;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  const auto deadline = after(timeout_s);
  char buf[4096];
  bool killed = false;
  for (;;) {
    const int left = ms_left(deadline);
    if (left == 0) {
      kill(pid, SIGKILL);
      killed = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, left) <= 0) continue;
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    r.output.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = killed ? -2 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (killed) r.output += "\n[killed after " + std::to_string(timeout_s) + " s]";
  return r;
}

}  // namespace cuconform
