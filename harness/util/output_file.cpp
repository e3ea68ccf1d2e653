#include "harness/util/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "harness/util/gzip.hpp"

namespace cuconform {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw OutputError(path + ": " + what + (err ? std::string(": ") + std::strerror(err) : std::string()));
}

// Every byte of `data` into `fd`; false (errno set) when the file takes no more.
bool write_all(int fd, const std::string& data) {
  std::size_t at = 0;
  while (at < data.size()) {
    ssize_t n = ::write(fd, data.data() + at, data.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

bool same_file(const struct stat& a, int fd) {
  struct stat b {};
  return ::fstat(fd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// The path a chain of symbolic links ends at (the path itself when it is none).
std::string link_target(const std::string& path) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return p.string();
    fs::path to = fs::read_symlink(p, ec);
    if (ec) fail(path, "cannot read the link", ec.value());
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  fail(path, "too many levels of symbolic links", ELOOP);
}

void to_stdout(const std::string& path, const std::string& data) {
  std::cout.flush();  // what the verb printed before stays before
  if (!write_all(STDOUT_FILENO, data)) fail(path, "cannot write to stdout", errno);
}

// Into a FIFO, a device, a socket: opened as it is, never created, truncated or replaced.
void into(const std::string& path, const std::string& data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) fail(path, "cannot open for writing", errno);
  bool ok = write_all(fd, data);
  int err = errno;
  if (::close(fd) != 0 && ok) ok = false, err = errno;
  if (!ok) fail(path, "cannot write", err);
}

// A temporary file beside `target`, renamed over it.
void replace(const std::string& shown, const std::string& target, const std::string& data) {
  fs::path p(target);
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) fail(shown, "cannot make its folder " + p.parent_path().string(), ec.value());
  std::string tmp = target + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(shown, "cannot write (a temporary file beside it: " + tmp + ")", errno);
  bool ok = write_all(fd, data);
  int err = errno;
  if (::close(fd) != 0 && ok) ok = false, err = errno;
  if (!ok) {
    ::unlink(tmp.c_str());
    fail(shown, "cannot write", err);
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    fail(shown, "cannot replace it", err);
  }
}

}  // namespace

bool writes_to_stdout(const std::string& path) {
  if (path == "-") return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && same_file(st, STDOUT_FILENO);
}

bool output_replaces_file(const std::string& path) {
  if (writes_to_stdout(path)) return false;
  struct stat st {};
  return ::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  if (path.empty()) fail("(empty name)", "not a file name", 0);
  bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  const std::string data = gz ? gzip(content) : content;
  if (writes_to_stdout(path)) return to_stdout(path, data);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {  // follows links: what the path ends at
    if (S_ISDIR(st.st_mode)) fail(path, "is a folder", 0);
    if (!S_ISREG(st.st_mode)) return into(path, data);
  }
  replace(path, link_target(path), data);
}

}  // namespace cuconform
