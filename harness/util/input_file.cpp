#include "harness/util/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "harness/util/gzip.hpp"

namespace cuconform {

std::size_t max_results_bytes() {
  const char* env = std::getenv("CUCONFORM_MAX_RESULTS_MB");
  if (env && *env) {
    char* end = nullptr;
    unsigned long long mb = std::strtoull(env, &end, 10);
    if (end && *end == '\0' && mb > 0 && mb < (1ULL << 30)) return static_cast<std::size_t>(mb) << 20;
  }
  return std::size_t{256} << 20;
}

std::string read_input_file(const std::string& path, std::size_t max_bytes) {
  const std::string limit = std::to_string(max_bytes >> 20) + " MiB (the most a results file may hold; $CUCONFORM_MAX_RESULTS_MB raises it)";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw InputError(path + ": is a folder, not a results file");
  }
  if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > max_bytes) {
    ::close(fd);
    throw InputError(path + ": " + std::to_string(st.st_size >> 20) + " MiB, more than " + limit);
  }
  // A pipe or FIFO has no size: read until its end, within the same limit.
  std::string data;
  if (S_ISREG(st.st_mode)) data.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      throw InputError(path + ": cannot read: " + std::strerror(e));
    }
    if (n == 0) break;
    if (data.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      throw InputError(path + ": more than " + limit);
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  // A clone without git-lfs leaves a pointer where a committed baseline should be.
  if (data.rfind("version https://git-lfs.github.com/spec/", 0) == 0)
    throw InputError(path + ":1: a git-lfs pointer, not the file it stands for (git lfs pull fetches it)");
  // By content, not by name: a .json.gz renamed .json still reads, and a .gz that is not gzip
  // says so rather than "syntax error" at byte 1.
  bool named_gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  if (looks_gzip(data) || named_gz) {
    try {
      return gunzip(data, path, max_bytes);
    } catch (const GzipError& e) {
      throw InputError(e.what());
    }
  }
  return data;
}

}  // namespace cuconform
