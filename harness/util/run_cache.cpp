#include "harness/util/run_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cuconform {

namespace {
struct PrivateCache {
  std::string dir;
  ~PrivateCache() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
  }
};

std::string make_temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "cuconform-run-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary folder for the run cache");
  return tmpl;
}
}  // namespace

std::string run_cache_dir() {
  if (const char* env = std::getenv(kRunCacheEnv); env && *env) {
    fs::create_directories(env);
    return env;
  }
  static PrivateCache own;
  if (own.dir.empty()) own.dir = make_temp_dir();
  return own.dir;
}

std::string start_run_cache() {
  std::string dir = make_temp_dir();
  setenv(kRunCacheEnv, dir.c_str(), 1);
  return dir;
}

void remove_run_cache(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_whole_file(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string cached_file(const std::string& name, const std::function<void(const std::string&)>& make) {
  const fs::path dir = run_cache_dir();
  const std::string path = (dir / name).string();
  const std::string error_path = path + ".error";
  auto ready = [&]() -> bool {
    if (fs::exists(path)) return true;
    if (fs::exists(error_path)) throw std::runtime_error(read_whole_file(error_path));
    return false;
  };
  if (ready()) return path;
  const int lock = open((path + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0) throw std::runtime_error("cannot open the lock of " + path);
  flock(lock, LOCK_EX);
  struct Unlock {
    int fd;
    ~Unlock() { flock(fd, LOCK_UN), close(fd); }
  } unlock{lock};
  if (ready()) return path;
  const std::string tmp = path + ".part" + std::to_string(getpid());
  try {
    make(tmp);
  } catch (const std::exception& e) {
    std::error_code ec;
    fs::remove(tmp, ec);
    write_whole_file(error_path, e.what());
    throw;
  }
  fs::rename(tmp, path);
  return path;
}

}  // namespace cuconform
